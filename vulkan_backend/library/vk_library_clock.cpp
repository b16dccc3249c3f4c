// xreduce/vulkan/clock.hpp: the clock probe (shaders/clock_probe.comp) as a one-pass Recording
// over the caller's result operand.
#include <optional>

#include "vk_context.hpp"
#include "vk_recording.hpp"
#include "xreduce/error.hpp"
#include "xreduce/vulkan/clock.hpp"

namespace xr::vulkan {

struct SmClock::State {
  const ContextState* context = nullptr;
  vk::Pipeline pipeline;
};

SmClock::SmClock(const Context& context) : state_(make_state<State>()) {
  ContextState& c = state_of(context);
  if (!c.facts.device_clock)
    throw Error(ErrorCategory::unsupported,
                "xreduce::vulkan: the SM clock probe needs VK_KHR_shader_clock's "
                "shaderSubgroupClock and shaderDeviceClock, which " +
                    c.facts.info.name + " was not created with");
  state_->context = &c;
  state_->pipeline = c.pipelines->get({.module = "clock_probe.addr", .workgroup = 1});
}

void SmClock::record(VkCommandBuffer cmd, const Operand& result, std::uint64_t window,
                     bool window_in_cycles) const {
  // One pass by address, its three operands the one result: only the output's bytes are
  // reached (and checked), so the three are not taken for an overlap.
  Recording recording(*state_->context, "SmClock::record", OperandKind::addresses, 1,
                      {0, kResultBytes, 0});
  PushConstants push;
  push.n = window;
  push.groups = 1;
  push.flags = window_in_cycles ? 1 : 0;
  recording.add({.pipeline = state_->pipeline,
                 .module = "clock_probe.addr",
                 .workgroup = 1,
                 .roles = {Role::output, Role::output, Role::output},
                 .push = push,
                 .grid = Grid{1, 1}});
  recording.record(cmd, {result, result, result}, 0);
}

SmClock::Reading SmClock::read(const void* result) {
  Reading r;
  const auto* words = static_cast<const std::uint64_t*>(result);
  r.subgroup_cycles = words[0];
  r.device_ticks = words[1];
  return r;
}

double SmClock::device_ticks_per_us(const Reading& reading, std::uint64_t timestamp_ticks,
                                    float timestamp_period) {
  const double us = static_cast<double>(timestamp_ticks) * timestamp_period / 1e3;
  return us > 0 ? static_cast<double>(reading.device_ticks) / us : 0;
}

double SmClock::mhz(const Reading& reading, double device_ticks_per_us) {
  if (reading.device_ticks == 0 || device_ticks_per_us <= 0) return 0;
  const double us = static_cast<double>(reading.device_ticks) / device_ticks_per_us;
  return static_cast<double>(reading.subgroup_cycles) / us;
}

}  // namespace xr::vulkan
