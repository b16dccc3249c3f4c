// The allocations of one sort call in CUDA (cuMemAlloc), the input uploaded, everything else
// zeroed, and the output read back.
#pragma once

#include <array>

#include "cu_owners.hpp"
#include "recording.hpp"
#include "sort_case.hpp"

namespace xr::onebin {

class CudaSlots {
 public:
  // Allocates and zeroes every slot of `sizes`; with `input`, uploads its keys and values.
  CudaSlots(const SlotSizes& sizes, const SortCase* input);

  SlotBases bases() const;
  CUdeviceptr at(Slot s) const { return memory_[static_cast<unsigned>(s)].get(); }
  // keys_out and values_out, after the stream's work is done (synchronous copies).
  CallOutput read(const SortCase& c) const;

 private:
  std::array<DeviceMemory, kSlots> memory_;
};

}  // namespace xr::onebin
