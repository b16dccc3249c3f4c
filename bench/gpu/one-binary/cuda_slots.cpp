#include "cuda_slots.hpp"

namespace xr::onebin {

CudaSlots::CudaSlots(const SlotSizes& sizes, const SortCase* input) {
  for (unsigned s = 0; s < kSlots; ++s) {
    memory_[s] = DeviceMemory(sizes[s]);
    if (sizes[s]) XR_CU_CHECK(cuMemsetD8(memory_[s].get(), 0, sizes[s]));
  }
  if (!input) return;
  XR_CU_CHECK(cuMemcpyHtoD(at(Slot::keys_in), input->keys.data(), input->keys.bytes()));
  if (input->desc.pairs())
    XR_CU_CHECK(cuMemcpyHtoD(at(Slot::values_in), input->values.data(), input->values.bytes()));
}

SlotBases CudaSlots::bases() const {
  SlotBases b{};
  for (unsigned s = 0; s < kSlots; ++s) b[s] = memory_[s].get();
  return b;
}

CallOutput CudaSlots::read(const SortCase& c) const {
  CallOutput out = empty_output(c);
  XR_CU_CHECK(cuCtxSynchronize());
  XR_CU_CHECK(cuMemcpyDtoH(out.keys.data(), at(Slot::keys_out), out.keys.bytes()));
  if (c.desc.pairs())
    XR_CU_CHECK(cuMemcpyDtoH(out.values.data(), at(Slot::values_out), out.values.bytes()));
  return out;
}

}  // namespace xr::onebin
