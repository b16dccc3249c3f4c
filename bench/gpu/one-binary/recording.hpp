// One sort call as the GPU runs it, in no API's terms: its steps in order (kernel launches and
// fills), each kernel's parameter block as CUDA captured it with every address in it named by
// the allocation of the call it points into. An API replays the call by giving each allocation
// a base of its own (bind_params).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace xr::onebin {

// The allocations of one sort call: its four operands and the library's temporary storage.
enum class Slot : unsigned { keys_in, keys_out, values_in, values_out, temp };
inline constexpr std::size_t kSlots = 5;
std::string_view to_string(Slot s);
// Where the library needs an allocation to start: its operands at 16 bytes, its temporary
// storage at 256.
constexpr std::uint64_t alignment_of(Slot s) {
  return s == Slot::temp ? 256 : 16;
}

using SlotSizes = std::array<std::uint64_t, kSlots>;  // bytes; 0 where the call has none
using SlotBases = std::array<std::uint64_t, kSlots>;  // device addresses; 0 where none

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  bool operator==(const Dim3&) const = default;
};

// A kernel parameter's place in the parameter block (cuFuncGetParamInfo).
struct ParamSpan {
  std::size_t offset = 0, size = 0;
  bool operator==(const ParamSpan&) const = default;
};

// An 8-byte word of the parameter block (at byte `at`) that holds slot's base + offset.
struct Pointer {
  std::size_t at = 0;
  Slot slot = Slot::temp;
  std::uint64_t offset = 0;
};

struct KernelStep {
  std::string name;   // mangled, as cuFuncGetName gives it
  std::string entry;  // its entry in the replays' PTX (replay_ptx: renamed)
  Dim3 grid, block;
  unsigned shared_bytes = 0;  // dynamic
  std::vector<ParamSpan> params;
  std::vector<std::byte> param_bytes;  // as captured; the pointer words are rebased on replay
  std::vector<Pointer> pointers;
};

// A memset: `bytes` from slot's base + offset, `value` repeated in elements of element_size.
struct FillStep {
  Slot slot = Slot::temp;
  std::uint64_t offset = 0, bytes = 0;
  unsigned element_size = 1;
  std::uint32_t value = 0;
};

using Step = std::variant<KernelStep, FillStep>;

struct Recording {
  std::vector<Step> steps;
  SlotSizes slots{};
  std::vector<std::string> notes;  // what the recording passes on as captured, and why
};

// The parameter block of `k` with each pointer word set to bases[slot] + offset.
// Error(check_failed) for a pointer word outside the block.
std::vector<std::byte> bind_params(const KernelStep& k, const SlotBases& bases);
// A fill's value as the 32-bit pattern that repeats it (vkCmdFillBuffer's form).
std::uint32_t fill_word(const FillStep& f);
// The kernel's name demangled, without namespaces or template arguments ("onesweep_pass").
std::string short_name(const KernelStep& k);
// "onesweep_pass 1311x512, 98432 B shared" or "fill 4 KiB of temp".
std::string describe_step(const Step& s);

}  // namespace xr::onebin
