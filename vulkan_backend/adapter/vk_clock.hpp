// Backend::clock_probe on Vulkan: the library's SmClock (xreduce/vulkan/clock.hpp) in a command
// buffer recorded once and resubmitted for every reading, its device clock calibrated against
// the queue's timestamps on first use.
#pragma once

#include <memory>
#include <optional>

#include "vk_buffer.hpp"
#include "vk_commands.hpp"
#include "vk_device.hpp"
#include "xreduce/clock.hpp"
#include "xreduce/vulkan/clock.hpp"

namespace xr::vulkan {

class VulkanClock final : public ClockProbe {
 public:
  // Error(unsupported) where the device has no VK_KHR_shader_clock device clock
  // (Context::clock_supported) or no timestamps to calibrate it with.
  explicit VulkanClock(std::shared_ptr<Device> device);
  double read_mhz() override;
  // The highest clock read while the device is kept busy by the library's rule (peak_mhz), on
  // first use: Vulkan has no query for the SM's maximum clock.
  double reference_mhz() override;
  void warm(double ms) override;
  std::string method() const override;

 private:
  // The reading of one resubmission of `commands` (its probe writes `result_`).
  SmClock::Reading run(TimedCommands& commands, Timing* timing = nullptr);
  void calibrate();
  // A command buffer of one probe of `window_us` and the barrier to its read-back.
  TimedCommands recorded_probe(double window_us);

  std::shared_ptr<Device> device_;
  SmClock clock_;
  Buffer result_;
  double ticks_per_us_ = 0;
  std::optional<TimedCommands> probe_;  // one window of kWindowUs
  std::optional<TimedCommands> spin_;   // warm(): a window of kSpinUs, resubmitted
  std::optional<double> reference_;
};

// Why Backend::clock_probe is null on `device`, in words; empty when a VulkanClock can be made.
std::string clock_unmeasured_reason(const Device& device);

}  // namespace xr::vulkan
