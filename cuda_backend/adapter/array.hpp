// Device memory of the CUDA backend as the core sees it.
#pragma once

#include <memory>

#include "context.hpp"
#include "xreduce/sized_array.hpp"

namespace xr::cuda {

// n elements of one dtype on the context's device. Keeps its context alive (the stream and
// staging buffers its write/read use).
class CudaArray final : public SizedArray {
 public:
  CudaArray(std::shared_ptr<Context> ctx, HostView src);
  // Uninitialised: a scan's output.
  CudaArray(std::shared_ptr<Context> ctx, DType t, std::size_t n);

  void* data() const { return buffer_.get(); }
  const Context& context() const { return *ctx_; }

 private:
  void copy_in(const void* src) override;
  void copy_out(void* dst) const override;

  std::shared_ptr<Context> ctx_;
  DeviceBuffer buffer_;
};

// `array` as a CUDA array on the device of `ctx`, or Error(usage) naming what it is instead.
CudaArray& device_array(DeviceArray& array, const Context& ctx);

}  // namespace xr::cuda
