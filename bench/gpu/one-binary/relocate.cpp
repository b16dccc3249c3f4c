#include "relocate.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

#include "xreduce/error.hpp"

namespace xr::onebin {
namespace {

struct Place {
  Slot slot;
  std::uint64_t offset;
  bool operator==(const Place&) const = default;
};

std::optional<Place> place_of(std::uint64_t address, const SlotBases& bases,
                              const SlotSizes& sizes) {
  for (unsigned s = 0; s < kSlots; ++s)
    if (sizes[s] && address >= bases[s] && address - bases[s] < sizes[s])
      return Place{static_cast<Slot>(s), address - bases[s]};
  return std::nullopt;
}

[[noreturn]] void disagree(std::size_t step, const std::string& what) {
  throw Error(ErrorCategory::check_failed, "the two captures of the call disagree at step " +
                                               std::to_string(step) + ": " + what);
}

struct Pair {
  const SlotBases& a;
  const SlotBases& b;
  const SlotSizes& sizes;
  const std::map<std::string, std::vector<bool>>& loaded_whole;
};

// Whether `address` lies in device memory the driver knows (a cuMemAlloc of the library's own,
// say), which a replay in another API could not reach.
bool device_memory(std::uint64_t address) {
  CUdeviceptr base = 0;
  std::size_t bytes = 0;
  return address && cuMemGetAddressRange(&base, &bytes, address) == CUDA_SUCCESS;
}

// The 8-byte word at `at` of both blocks, as a pointer where it is one; nullopt where it holds
// no address of the call in either.
std::optional<Pointer> word_at(std::size_t step, std::size_t at, const CapturedKernel& ka,
                               const CapturedKernel& kb, const Pair& p) {
  std::uint64_t wa = 0, wb = 0;
  std::memcpy(&wa, ka.param_bytes.data() + at, 8);
  std::memcpy(&wb, kb.param_bytes.data() + at, 8);
  const auto pa = place_of(wa, p.a, p.sizes), pb = place_of(wb, p.b, p.sizes);
  if (pa && pb && *pa == *pb) return Pointer{at, pa->slot, pa->offset};
  if (pa || pb)
    disagree(step, ka.name + " parameter byte " + std::to_string(at) +
                       ": an address of the call in one capture, not the same place in the other");
  if (wa == wb && device_memory(wa))
    disagree(step, ka.name + " parameter byte " + std::to_string(at) +
                       " holds an address of device memory outside the call: no replay reaches it");
  return std::nullopt;
}

KernelStep relocate_kernel(std::size_t step, const CapturedKernel& ka, const CapturedKernel& kb,
                           const Pair& p, std::vector<std::string>& notes) {
  if (ka.name != kb.name || ka.grid != kb.grid || ka.block != kb.block ||
      ka.shared_bytes != kb.shared_bytes || ka.params != kb.params ||
      ka.param_bytes.size() != kb.param_bytes.size())
    disagree(step, "kernel " + ka.name + " and " + kb.name + " differ in launch or parameters");
  KernelStep k{ka.name, ka.name, ka.grid, ka.block, ka.shared_bytes, ka.params, ka.param_bytes, {}};
  std::vector<bool> rebased(ka.param_bytes.size(), false);
  const auto found = p.loaded_whole.find(ka.name);
  if (found == p.loaded_whole.end())
    disagree(step, "no analysis of which words " + ka.name + " loads whole");
  const std::vector<bool>& whole = found->second;
  if (whole.size() < (ka.param_bytes.size() + 7) / 8)
    disagree(step, "the analysis of " + ka.name + " covers " + std::to_string(whole.size()) +
                       " words of its " + std::to_string(ka.param_bytes.size()) + "-byte block");
  for (const ParamSpan& s : ka.params)
    if (s.offset > ka.param_bytes.size() || s.size > ka.param_bytes.size() - s.offset)
      disagree(step, "a parameter of " + ka.name + " lies past its captured block");
  for (const ParamSpan& s : ka.params)
    for (std::size_t at = (s.offset + 7) / 8 * 8; at + 8 <= s.offset + s.size; at += 8)
      if (!whole[at / 8]) {
        continue;  // never loaded as 64 bits: no pointer the kernel uses
      } else if (const auto ptr = word_at(step, at, ka, kb, p)) {
        k.pointers.push_back(*ptr);
        std::fill(rebased.begin() + at, rebased.begin() + at + 8, true);
      }
  std::size_t differ = 0;
  for (std::size_t i = 0; i < ka.param_bytes.size(); ++i)
    differ += !rebased[i] && ka.param_bytes[i] != kb.param_bytes[i];
  if (differ)
    notes.push_back("step " + std::to_string(step) + " (" + short_name(k) +
                    "): " + std::to_string(differ) +
                    " parameter bytes differ between the captures and hold no address of the "
                    "call (padding the host left unset, or a value of the call itself); every "
                    "replay passes the first capture's, and its output is checked");
  return k;
}

FillStep relocate_fill(std::size_t step, const CapturedFill& fa, const CapturedFill& fb,
                       const Pair& p) {
  const auto pa = place_of(fa.dst, p.a, p.sizes), pb = place_of(fb.dst, p.b, p.sizes);
  if (!pa || !pb || !(*pa == *pb))
    disagree(step, "a memset's target is not the same place of one allocation of the call");
  if (fa.bytes != fb.bytes || fa.element_size != fb.element_size || fa.value != fb.value)
    disagree(step, "the memsets differ in size or value");
  if (pa->offset + fa.bytes > p.sizes[static_cast<unsigned>(pa->slot)])
    disagree(step, "a memset runs past its allocation");
  return {pa->slot, pa->offset, fa.bytes, fa.element_size, fa.value};
}

}  // namespace

Recording relocate(const std::vector<CapturedStep>& a, const SlotBases& bases_a,
                   const std::vector<CapturedStep>& b, const SlotBases& bases_b,
                   const SlotSizes& sizes,
                   const std::map<std::string, std::vector<bool>>& loaded_whole) {
  if (a.size() != b.size())
    throw Error(ErrorCategory::check_failed, "the two captures of the call have " +
                                                 std::to_string(a.size()) + " and " +
                                                 std::to_string(b.size()) + " steps");
  const Pair p{bases_a, bases_b, sizes, loaded_whole};
  Recording r;
  r.slots = sizes;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].index() != b[i].index()) disagree(i, "a kernel in one, a memset in the other");
    if (const auto* ka = std::get_if<CapturedKernel>(&a[i]))
      r.steps.emplace_back(relocate_kernel(i, *ka, std::get<CapturedKernel>(b[i]), p, r.notes));
    else
      r.steps.emplace_back(
          relocate_fill(i, std::get<CapturedFill>(a[i]), std::get<CapturedFill>(b[i]), p));
  }
  return r;
}

}  // namespace xr::onebin
