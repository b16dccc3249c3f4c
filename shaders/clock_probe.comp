#version 450
// The SM clock probe (Backend::clock_probe on Vulkan, xreduce/vulkan/clock.hpp): one invocation
// reads VK_KHR_shader_clock's subgroup clock (the SM's cycles) against its device clock over a
// window, as nvbench's gpu_frequency reads clock64 against %globaltimer. The window starts on an
// edge of the device clock, which may tick coarsely (microseconds on some GPUs), and ends on the
// first reading past it. Operands (params.glsl): the result, two uint64 at pc.dst: the subgroup
// clock's cycles, the device clock's ticks. pc.n: the window, in device ticks, or (pc.flags 1:
// for calibrating the device clock against timestamps) in subgroup cycles.
#extension GL_ARB_shader_clock : require
#extension GL_EXT_shader_realtime_clock : require
#include "params.glsl"

layout(local_size_x = 1) in;

layout(buffer_reference, std430, buffer_reference_align = 8) writeonly buffer Result {
  uint64_t subgroup_cycles;
  uint64_t device_ticks;
};

void main() {
  const uint64_t first = clockRealtimeEXT();
  uint64_t d0 = clockRealtimeEXT();
  while (d0 == first) d0 = clockRealtimeEXT();
  const uint64_t s0 = clockARB();
  uint64_t d1 = d0, s1 = s0;
  if (pc.flags == 1u) {
    do {
      s1 = clockARB();
    } while (s1 - s0 < pc.n);
    d1 = clockRealtimeEXT();
  } else {
    do {
      d1 = clockRealtimeEXT();
    } while (d1 - d0 < pc.n);
    s1 = clockARB();
  }
  Result result = Result(pc.dst);
  result.subgroup_cycles = s1 - s0;
  result.device_ticks = d1 - d0;
}
