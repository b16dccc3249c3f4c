#include "library_call.hpp"

namespace xr::onebin {
namespace {

void* pointer(CUdeviceptr p) {
  return reinterpret_cast<void*>(static_cast<std::uintptr_t>(p));
}

}  // namespace

LibraryCall::LibraryCall(const SortCase& c, CudaGate& gate, std::uint64_t flush_bytes)
    : case_(c),
      sort_(c.desc),
      sizes_(slot_sizes(c, sort_.temp_storage_bytes())),
      slots_(sizes_, &c),
      stream_(make_stream()),
      intervals_(gate, flush_bytes) {}

void LibraryCall::enqueue(CUstream s, const CudaSlots& slots) {
  sort_.enqueue(reinterpret_cast<cudaStream_t>(s), pointer(slots.at(Slot::keys_in)),
                pointer(slots.at(Slot::keys_out)), pointer(slots.at(Slot::values_in)),
                pointer(slots.at(Slot::values_out)), pointer(slots.at(Slot::temp)));
}

Sample LibraryCall::run(Marks) {
  const GateRelease release(intervals_.gate());
  intervals_.begin(stream_.get());
  enqueue(stream_.get(), slots_);
  intervals_.mark(stream_.get());
  return sample_of(intervals_.finish(stream_.get()), Marks::call);
}

}  // namespace xr::onebin
