// Device memory of the CUDA backend as the core sees it.
#pragma once

#include <memory>

#include "context.hpp"
#include "xreduce/backend.hpp"

namespace xr::cuda {

// n elements of one dtype on the context's device. Keeps its context alive (the stream and
// staging buffers its write/read use).
class CudaArray final : public DeviceArray {
 public:
  CudaArray(std::shared_ptr<Context> ctx, HostView src);
  // Uninitialised: a scan's output.
  CudaArray(std::shared_ptr<Context> ctx, DType t, std::size_t n);
  DType dtype() const override { return dtype_; }
  std::size_t size() const override { return size_; }
  void write(HostView src) override;
  void read_into(HostArray& out) const override;

  void* data() const { return buffer_.get(); }
  const Context& context() const { return *ctx_; }

 private:
  std::shared_ptr<Context> ctx_;
  DType dtype_;
  std::size_t size_;
  DeviceBuffer buffer_;
};

// `array` as a CUDA array on the device of `ctx`, or Error(usage) naming what it is instead.
CudaArray& device_array(DeviceArray& array, const Context& ctx);

}  // namespace xr::cuda
