// The OpenCL reduce variants as data: the kernel and requirements of each id, the same ids and
// algorithms as CUDA's and Vulkan's; each id's schedule is core's (xreduce/reduce_plan.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "cl_device_facts.hpp"
#include "xreduce/backend.hpp"
#include "xreduce/reduce_plan.hpp"

namespace xr::opencl {

// A reduce id in OpenCL: core's schedule (xreduce/reduce_plan.hpp), the kernel that runs it and
// what it needs of the device.
struct ReduceSpec {
  ReduceSchedule schedule;
  std::string_view kernel;  // kernels/<kernel>.cl
  std::uint32_t needs = 0;  // Need bits (cl_requirements.hpp)
  std::string_view id() const { return schedule.id; }
};

std::span<const ReduceSpec> reduce_table();
const ReduceSpec* find_reduce(std::string_view id);
VariantInfo reduce_info(const ReduceSpec& spec);
// Local memory of the variant with 4-byte accumulators.
std::uint32_t reduce_local_bytes(const ReduceSpec& spec);
// Why the device cannot run `spec`, in words; empty when it can.
std::string reduce_unsupported_reason(const ReduceSpec& spec, const DeviceFacts& facts);

}  // namespace xr::opencl
