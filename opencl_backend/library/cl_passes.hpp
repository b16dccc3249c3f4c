// The passes of one call over the caller's three buffers (input, output, scratch), enqueued in
// order on the caller's queue: the counterpart of Vulkan's recording and CUDA's launches.
#pragma once

#include <CL/cl.h>

#include <array>
#include <span>
#include <string>
#include <vector>

#include "cl_params.hpp"
#include "cl_programs.hpp"
#include "xreduce/compiled.hpp"

namespace xr::opencl {

enum class Role : std::uint8_t { input, output, scratch };

struct Pass {
  KernelKey key;
  std::array<Role, 3> roles{Role::input, Role::output, Role::scratch};  // src, dst, aux
  Params params;
  std::uint64_t groups = 1;  // work-groups launched (global size = groups x key.workgroup)
};

// Where the first and last pass's events go, and what the first one waits for.
struct EnqueueEvents {
  std::span<const cl_event> wait;
  cl_event* first = nullptr;  // the first pass's event (retained: the caller releases it)
  cl_event* last = nullptr;   // the last pass's
};

// Enqueues `passes` over {input, output, scratch}, in order (an in-order queue runs them one
// after another: each pass sees the writes of the ones before).
void enqueue_passes(Programs& programs, cl_command_queue queue, std::span<const Pass> passes,
                    std::array<cl_mem, 3> buffers, const EnqueueEvents& events);

// What each pass compiled into (`inspect`): work-group, groups, the driver's facts.
std::vector<CompiledPass> compiled_passes(Programs& programs, const DeviceFacts& facts,
                                          std::span<const Pass> passes);

// Whether a pass over arrays of n elements indexes in 64 bits.
inline bool needs_idx64(std::uint64_t n) {
  return n >= (std::uint64_t{1} << 31) - (std::uint64_t{1} << 20);
}

}  // namespace xr::opencl
