// The SM clock the device runs at, measured by a probe the caller records into its own command
// buffer (docs/library.md, "The clock"): one invocation reads VK_KHR_shader_clock's subgroup
// clock (the SM's cycles) against its device clock. The device clock's unit is the
// implementation's: calibrate it once against timestamp queries (the probe between two
// vkCmdWriteTimestamp, device_ticks_per_us), then read the clock in MHz from each probe.
#pragma once

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <cstdint>
#include <memory>

#include "xreduce/state_ptr.hpp"
#include "xreduce/vulkan/context.hpp"
#include "xreduce/vulkan/operand.hpp"

namespace xr::vulkan {

class SmClock {
 public:
  // What one probe writes to its result operand: two uint64, the subgroup clock's cycles and the
  // device clock's ticks over the probe's window.
  static constexpr VkDeviceSize kResultBytes = 16;
  struct Reading {
    std::uint64_t subgroup_cycles = 0;
    std::uint64_t device_ticks = 0;
  };

  // Throws xr::Error(unsupported) unless the device was created with VK_KHR_shader_clock's
  // shaderSubgroupClock and shaderDeviceClock (Context::clock_supported()).
  explicit SmClock(const Context& context);

  // Records one probe into `cmd` writing its Reading to `result` (an address or a buffer range
  // of kResultBytes, aligned to Context::operand_alignment()). Its window lasts `window` ticks of
  // the device clock, or with `window_in_cycles` that many subgroup-clock cycles (for the
  // calibration, when the device clock's unit is not known yet). No barrier before or after: the
  // caller orders the result's read-back (a compute-shader write).
  void record(VkCommandBuffer cmd, const Operand& result, std::uint64_t window,
              bool window_in_cycles = false) const;

  // The Reading in a result's bytes (read back by the caller).
  static Reading read(const void* result);
  // The device clock's ticks per microsecond from a probe recorded between two timestamps
  // `timestamp_ticks` apart (timestampPeriod nanoseconds each): run it with a window of a
  // millisecond or more, so that the dispatch around it is a small part.
  static double device_ticks_per_us(const Reading& reading, std::uint64_t timestamp_ticks,
                                    float timestamp_period);
  // The SM clock in MHz over the probe's window.
  static double mhz(const Reading& reading, double device_ticks_per_us);

  struct State;

 private:
  StatePtr<State> state_;
};

// How long to keep a device busy to find the clock it works at (peak_mhz). Vulkan has no query
// for the SM's maximum clock, and NVIDIA's driver, in a process without a CUDA context, raises
// an idle GPU's clock in steps sized by how busy the GPU was over its last period, flat for a
// whole period in between (the steps are in docs/results/H200/clock). So "two readings agree"
// settles at idle clock; the rule is busy for at least min_busy_ms, then until no new peak (a
// rise above the highest so far) for quiet_ms, two of the driver's periods, and never longer
// than max_busy_ms.
struct PeakRule {
  double min_busy_ms = 200;
  double quiet_ms = 400;
  double max_busy_ms = 2000;
  double rise = 0.01;
};

// Keeps the device busy in steps of `step_ms` through `busy(step_ms)`, which runs a probe (or any
// work) of about that long and returns the clock it read, in MHz, until `rule` is met; returns
// the highest clock read. Host-side only: the caller's probe does the work.
template <class Busy>
double peak_mhz(Busy&& busy, double step_ms, const PeakRule& rule = {}) {
  step_ms = std::max(step_ms, 1e-3);
  double peak = 0, busy_ms = 0, since_peak_ms = 0;
  while (busy_ms < rule.max_busy_ms) {
    const double mhz = busy(step_ms);
    busy_ms += step_ms;
    since_peak_ms += step_ms;
    if (mhz > peak * (1 + rule.rise)) since_peak_ms = 0;
    peak = std::max(peak, mhz);
    if (busy_ms >= rule.min_busy_ms && since_peak_ms >= rule.quiet_ms) break;
  }
  return peak;
}

}  // namespace xr::vulkan
