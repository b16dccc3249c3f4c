// A device Sorter's count of Onesweep's look-back fallbacks (Vulkan's and OpenCL's), from the
// running count the sort keeps in its scratch: what diagnostics() reports per workspace.
#pragma once

#include <cstdint>
#include <string>

namespace xr {

class SortFallbacks {
 public:
  // After `calls` calls of `tiles_per_call` tiles: the scratch's running count read back.
  void add(std::uint64_t running_total, std::uint64_t tiles_per_call, int calls) {
    calls_ += static_cast<std::uint64_t>(calls);
    fallbacks_ += running_total - seen_;
    seen_ = running_total;
    tiles_ += tiles_per_call * static_cast<std::uint64_t>(calls);
  }
  // Whether a call has been counted since the last reset.
  bool counted() const { return calls_ > 0; }
  // A new workspace: its scratch counts from zero.
  void reset() { *this = SortFallbacks(); }
  std::string describe() const {
    return "look-back fallbacks: " + std::to_string(fallbacks_) + " of " + std::to_string(tiles_) +
           " tiles over " + std::to_string(calls_) +
           " calls counted a predecessor's digits themselves";
  }

 private:
  std::uint64_t calls_ = 0, tiles_ = 0, fallbacks_ = 0, seen_ = 0;
};

}  // namespace xr
