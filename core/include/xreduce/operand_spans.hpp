// The bytes a library call reaches through each of the caller's operands, and the two checks
// every library makes of them before it records or enqueues anything: each operand holds what
// the call reaches, and no two share a byte (the calls read an input while they write the
// outputs and the scratch, so an overlap is a wrong answer, never an error of the device).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace xr {

// One operand as a range of bytes in an address space: the device's unified addresses (CUDA,
// Vulkan's device addresses), or one buffer object (a VkBuffer bound with an offset, an OpenCL
// buffer or the parent of its sub-buffer). Spans in different spaces are taken as distinct
// memory: two buffers that alias one allocation are not detected.
struct OperandSpan {
  std::uint64_t space = 0;
  std::uint64_t begin = 0;
  std::uint64_t bytes = 0;  // 0: the call reaches none of it
  std::string_view name;    // as the call's parameter is named: "keys_in"
};

// "<library>: <call>" ("xreduce::vulkan: Sort::record"), held in the object: every record and
// enqueue checks its operands, and checks that pass allocate nothing.
class CallName {
 public:
  CallName(std::string_view library, std::string_view call);
  operator std::string_view() const { return {text_, size_}; }

 private:
  char text_[96];
  std::size_t size_ = 0;
};

// The spans of one call's operands, on the stack: at most kMaxOperands (a sort's six).
inline constexpr std::size_t kMaxOperands = 8;
class OperandSpans {
 public:
  // Error(usage) past kMaxOperands, naming `call`.
  void add(std::string_view call, const OperandSpan& span);
  operator std::span<const OperandSpan>() const { return {spans_.data(), count_}; }

 private:
  std::array<OperandSpan, kMaxOperands> spans_{};
  std::size_t count_ = 0;
};

// Whether two spans share a byte.
bool overlap(const OperandSpan& a, const OperandSpan& b);

// Throws Error(usage) "<call>: `a` and `b` overlap" for the first two spans that share a byte.
void require_disjoint(std::string_view call, std::span<const OperandSpan> spans);

// Throws Error(usage) "<call>: `name` holds H bytes<where>; the call needs N<why>" when `needs`
// passes `holds`: an operand too small for the call, refused before the device reaches past it.
// `where` says where the bytes are counted (" from its offset"), `why` what needs them
// (" (scratch_size())"); either may be empty.
void require_holds(std::string_view call, std::string_view name, std::uint64_t holds,
                   std::uint64_t needs, std::string_view where = {}, std::string_view why = {});

// The operands (their pointers or handles) of the last call whose checks passed. The checks ask
// the driver (cuMemGetAddressRange, clGetMemObjectInfo): made once per set of operands, they
// stay out of a timed loop's and a renderer's frame's calls, which pass the same ones each time.
// Thread-safe.
class CheckedOperands {
 public:
  // Runs `check` unless `handles` are those it last passed for; remembers them once it passes.
  void check(std::span<const std::uint64_t> handles, const std::function<void()>& check);

 private:
  std::mutex mutex_;
  std::vector<std::uint64_t> passed_;
};

}  // namespace xr
