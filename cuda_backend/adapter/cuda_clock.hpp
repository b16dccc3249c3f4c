// Backend::clock_probe on CUDA: the library's SmClock (xreduce/cuda/clock.hpp) on the context's
// stream, the reference the device's maximum SM clock.
#pragma once

#include <memory>

#include "context.hpp"
#include "xreduce/clock.hpp"
#include "xreduce/cuda/clock.hpp"

namespace xr::cuda {

class CudaClock final : public ClockProbe {
 public:
  explicit CudaClock(std::shared_ptr<Context> ctx);
  double read_mhz() override;
  double reference_mhz() override { return clock_.max_mhz(); }
  void warm(double ms) override;
  std::string method() const override { return "clock64 against %globaltimer"; }

 private:
  std::shared_ptr<Context> ctx_;
  SmClock clock_;
};

}  // namespace xr::cuda
