// Users' kernels as Vulkan variants (`--kernel FILE.comp|.glsl|.hlsl|.spv`): a Reducer that runs
// the kernel's one pass again over its partials until one value is left (the classic recursive
// reduction), and a Scanner that runs its passes in order over (input, output, zeroed scratch);
// both record programs (vk_program.hpp) like the built-in variants, timed the same way.
#pragma once

#include <memory>

#include "vk_array.hpp"
#include "vk_device.hpp"
#include "vk_user_module.hpp"
#include "xreduce/backend.hpp"
#include "xreduce/cpu_fault_guard.hpp"
#include "xreduce/user_kernel.hpp"

namespace xr::vulkan {

// The kernel and its modules outlive the variants made from them (the backend keeps both).
std::unique_ptr<Reducer> make_user_reducer(std::shared_ptr<Device> device, const UserKernel& kernel,
                                           UserModules& modules);
std::unique_ptr<Scanner> make_user_scanner(std::shared_ptr<Device> device, const UserKernel& kernel,
                                           UserModules& modules);

// The limits of `device` a user's kernel is checked against (vk_user_module.hpp).
UserKernelLimits user_kernel_limits(const Device& device);

// Compiles and checks the first combination the kernel claims, so a bad kernel fails when its
// variant is made, before any measurement.
void compile_first_claim(const UserKernel& kernel, UserModules& modules, const Device& device);

// Writes the identity of `op` into [n, n rounded up to whole tiles) of `array`'s slack (core's
// kKernelSlackBytes): what a kernel reading its whole last tile finds past n. Blocking, outside
// any timed interval.
void pad_with_identity(Device& device, const VulkanArray& array, Op op, std::uint64_t tile,
                       std::string_view id);

// What a call of a user's kernel runs under: on a CPU device (lavapipe), which runs shaders in
// this process, a fault ends the process in one line naming the kernel (core's CpuFaultGuard).
CpuFaultGuard user_call_guard(const Device& device, const UserKernel& kernel);

// Error(unsupported) when `groups` workgroups do not fit one dimension of a dispatch (a user's
// kernel reads gl_WorkGroupID.x / SV_GroupID.x alone) or `bytes` one storage-buffer binding.
void check_user_grid(const Device& device, std::uint64_t groups, std::uint64_t bytes,
                     std::string_view id);

}  // namespace xr::vulkan
