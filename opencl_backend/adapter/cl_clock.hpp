// Backend::clock_probe on OpenCL: NVIDIA's SM clock read by inline PTX (kernels/probe_clock.cl,
// %clock64 against %globaltimer, as cuda_backend/library/sm_clock.cu). OpenCL has no clock
// query of its own, so every other device goes unmeasured, with the reason kept.
#pragma once

#include <array>
#include <memory>
#include <string>

#include "cl_device.hpp"
#include "xreduce/clock.hpp"

namespace xr::opencl {

class OpenClClock final : public ClockProbe {
 public:
  // Builds the probe and takes one reading: Error(usage) where it does not build (the driver's
  // log in the message), Error(unsupported) where the reading holds no time.
  explicit OpenClClock(std::shared_ptr<Device> device);
  double read_mhz() override;
  // CL_DEVICE_MAX_CLOCK_FREQUENCY: NVIDIA's driver reports the SM's maximum clock there, the
  // value CUDA's probe takes from cudaDevAttrClockRate.
  double reference_mhz() override;
  // Windows of the probe back to back, one work-item spinning, as CUDA's spin kernel.
  void warm(double ms) override;
  std::string method() const override;

 private:
  // Enqueues one probe of `window_ns`; its event to `event` when given.
  void enqueue_window(std::uint32_t window_ns, cl_event* event);

  std::shared_ptr<Device> device_;
  MemOwner result_;                 // [0] cycles, [1] nanoseconds
  std::array<cl_ulong, 2> host_{};  // the result read back
};

// The clock of `device`: an OpenClClock where one could be made, else a stand-in holding why not
// (kept, so a failed build is not retried on every call).
std::unique_ptr<ClockProbe> make_clock(std::shared_ptr<Device> device);
// Whether `clock` (from make_clock) measures; why not, in one line, where it does not.
bool measured(const ClockProbe& clock);
std::string unmeasured_reason(const ClockProbe& clock);

}  // namespace xr::opencl
