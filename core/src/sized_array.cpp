#include "xreduce/sized_array.hpp"

#include <atomic>

#include "xreduce/error.hpp"

namespace xr {

SizedArray::SizedArray(DType t, std::size_t n) : dtype_(t), size_(n) {
  static std::atomic<std::uint64_t> last_serial{0};
  serial_ = ++last_serial;
}

void SizedArray::write(HostView src) {
  if (src.dtype != dtype_ || src.size != size_)
    throw Error(ErrorCategory::usage, "DeviceArray::write: dtype or size differs from the array");
  if (size_ != 0) copy_in(src.data);
}

void SizedArray::read_into(HostArray& dst) const {
  if (dst.dtype() != dtype_ || dst.size() != size_)
    throw Error(ErrorCategory::usage,
                "DeviceArray::read_into: dtype or size differs from the array");
  if (size_ != 0) copy_out(dst.data());
}

}  // namespace xr
