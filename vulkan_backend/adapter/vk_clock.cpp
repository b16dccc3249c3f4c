#include "vk_clock.hpp"

#include <algorithm>
#include <cmath>

#include "vk_internal.hpp"
#include "xreduce/error.hpp"
#include "xreduce/units.hpp"

namespace xr::vulkan {
namespace {

// A reading averages the SM clock over this window: long enough that a device clock ticking
// every microsecond is read to 1 %, short enough to take around every sample.
constexpr double kWindowUs = 100;
// The calibration's window, in subgroup cycles: 2 ms at 1 GHz, so the dispatch around it is a
// small part of the timestamps' interval.
constexpr std::uint64_t kCalibrationCycles = 2'000'000;
// warm() keeps the device busy with probes of this window back to back: one submission per
// millisecond, so the device idles only for a host round trip.
constexpr double kSpinUs = 1000;

}  // namespace

std::string clock_unmeasured_reason(const Device& device) {
  const DeviceFacts& f = device.facts();
  if (!device.context().clock_supported())
    return "not measured: " + f.info.name +
           " has no VK_KHR_shader_clock subgroup and device clocks";
  if (f.timestamp_valid_bits == 0)
    return "not measured: " + f.info.name + "'s queue has no timestamps to calibrate its clock";
  return {};
}

VulkanClock::VulkanClock(std::shared_ptr<Device> device)
    : device_(std::move(device)),
      clock_(device_->context()),
      result_(*device_, SmClock::kResultBytes, kStorageUsage, MemoryKind::readback) {
  if (const std::string why = clock_unmeasured_reason(*device_); !why.empty())
    throw Error(ErrorCategory::unsupported, "vulkan: the SM clock is " + why);
}

SmClock::Reading VulkanClock::run(TimedCommands& commands, Timing* timing) {
  const Timing t = commands.run();
  if (timing) *timing = t;
  device_->raise_validation();
  return SmClock::read(result_.mapped());
}

namespace {

// The probe and then the barrier that makes its result visible to the host.
void record_probe(const vk::raii::CommandBuffer& cmd, const SmClock& clock, const Buffer& result,
                  std::uint64_t window, bool in_cycles) {
  clock.record(*cmd, Operand::of(result.handle()), window, in_cycles);
}

void record_host_barrier(const vk::raii::CommandBuffer& cmd) {
  cmd.pipelineBarrier(
      vk::PipelineStageFlagBits::eComputeShader, vk::PipelineStageFlagBits::eHost, {},
      vk::MemoryBarrier(vk::AccessFlagBits::eShaderWrite, vk::AccessFlagBits::eHostRead), {}, {});
}

}  // namespace

void VulkanClock::calibrate() {
  TimedCommands commands(*device_);
  const vk::raii::CommandBuffer& cmd = commands.begin();
  record_probe(cmd, clock_, result_, kCalibrationCycles, true);
  commands.end_timing();
  record_host_barrier(cmd);
  commands.end();
  // The first run warms the pipeline; the device clock's rate is the fastest of a few (the
  // dispatch's own time only adds to the timestamps' interval).
  double best = 0;
  for (int i = 0; i < 4; ++i) {
    Timing t;
    const SmClock::Reading r = run(commands, &t);
    if (i == 0 || t.device_ms <= 0) continue;
    best = std::max(best, static_cast<double>(r.device_ticks) / (t.device_ms * 1e3));
  }
  if (!(best > 0))
    throw Error(ErrorCategory::unsupported,
                "vulkan: the device clock did not advance against the timestamps");
  ticks_per_us_ = best;
  probe_ = recorded_probe(kWindowUs);
  spin_ = recorded_probe(kSpinUs);
}

TimedCommands VulkanClock::recorded_probe(double window_us) {
  TimedCommands commands(*device_);
  const vk::raii::CommandBuffer& cmd = commands.begin();
  record_probe(cmd, clock_, result_,
               static_cast<std::uint64_t>(std::ceil(window_us * ticks_per_us_)), false);
  commands.end_timing();
  record_host_barrier(cmd);
  commands.end();
  return commands;
}

double VulkanClock::read_mhz() {
  if (!probe_) calibrate();
  return SmClock::mhz(run(*probe_), ticks_per_us_);
}

void VulkanClock::warm(double ms) {
  if (!spin_) calibrate();
  for (double done = 0; done < ms; done += kSpinUs / 1e3) run(*spin_);
}

double VulkanClock::reference_mhz() {
  if (reference_) return *reference_;
  if (!spin_) calibrate();
  // Spin probes back to back, each reading the clock over its own millisecond: the library's
  // rule (PeakRule's defaults: at least 200 ms, then 400 ms without a new peak, at most 2 s).
  reference_ =
      peak_mhz([&](double) { return SmClock::mhz(run(*spin_), ticks_per_us_); }, kSpinUs / 1e3);
  return *reference_;
}

std::string VulkanClock::method() const {
  return "VK_KHR_shader_clock: subgroup clock against the device clock";
}

}  // namespace xr::vulkan
