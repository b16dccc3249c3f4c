// The SM clock a measurement ran at (docs/cli.md, "The SM clock"). A GPU idles its SMs at a
// fraction of the clock it works at: a time means nothing without the clock it was taken at. Each
// GPU backend has a probe of its own API (CUDA: clock64 against %globaltimer, as nvbench's
// gpu_frequency; Vulkan: VK_KHR_shader_clock's subgroup clock against its device clock; OpenCL, on
// NVIDIA's driver: CUDA's, by inline PTX), run outside the timed interval; the harness reads it
// around every sample, retakes the samples under a threshold of the reference clock after a
// warm-up, and flags a point it could not measure at clock within its budget. No clock is ever
// locked or set.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace xr {

class ClockProbe {
 public:
  ClockProbe() = default;
  ClockProbe(const ClockProbe&) = delete;
  ClockProbe& operator=(const ClockProbe&) = delete;
  virtual ~ClockProbe() = default;

  // The SM clock now, in MHz, averaged over the probe's short window (about 0.1 ms): a tiny
  // kernel of the backend's API, submitted and waited for. Never inside a timed interval.
  virtual double read_mhz() = 0;
  // The clock a sample should run at, in MHz: CUDA's is the device's maximum SM clock
  // (cudaDevAttrClockRate); Vulkan, which has no such query, takes the highest clock the probe
  // reads once the device has been kept busy (measured on first use).
  virtual double reference_mhz() = 0;
  // Keeps the device busy for about `ms` milliseconds, outside any timed interval: what an idle
  // or throttled device is given before a sample is retaken, as a user's own pipeline keeps it.
  virtual void warm(double ms) = 0;
  // How it measures, in words for the report: "clock64 against %globaltimer".
  virtual std::string method() const = 0;
};

// Why a backend measures no clock, in words; its probe is then absent.
inline constexpr const char* kClockNotMeasuredCpu = "not measured: the CPU backend";

// XR_CLOCK_SCRIPT=R:M1,M2,...: a synthetic clock source for tests (docs/cli.md): the reference
// is R MHz and the probe reads M1, M2, ... in turn, the last one from then on; warm() does
// nothing. It replaces the backend's probe in every measurement of the process. Parsed once.
struct ClockScript {
  double reference_mhz = 0;
  std::vector<double> readings;
  std::string given;  // as set, empty when unset
  std::string error;  // one line when set but malformed
};
ClockScript read_clock_script();

// A ClockProbe that plays a ClockScript (tests: throttled samples on any device).
class ScriptedClock final : public ClockProbe {
 public:
  explicit ScriptedClock(ClockScript script) : script_(std::move(script)) {}
  double read_mhz() override;
  double reference_mhz() override { return script_.reference_mhz; }
  void warm(double) override {}
  std::string method() const override { return "XR_CLOCK_SCRIPT=" + script_.given; }

 private:
  ClockScript script_;
  std::size_t next_ = 0;
};

// A sample is throttled when its clock is under this fraction of the reference: nvbench's
// default (its --throttle-threshold, 75 %).
inline constexpr double kThrottleThreshold = 0.75;

}  // namespace xr
