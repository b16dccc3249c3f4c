// A user's PTX (`--kernel FILE.ptx`, CUDA's ABI) on Vulkan through VK_NVX_binary_import: the
// driver loads the PTX as CUDA's driver does (vkCreateCuModuleNVX), and each pass's entry is a
// function launched in the program's own command buffer (vkCmdCuLaunchKernelNVX) with Vulkan
// buffers' device addresses for the ABI's pointers, timed by Vulkan's timestamps.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "vk_device.hpp"
#include "xreduce/compiled.hpp"
#include "xreduce/user_kernel.hpp"

namespace xr::vulkan {

// Why the driver of `facts` cannot launch PTX, in words; empty where it can (it offers
// VK_NVX_binary_import, which the tool's device then enables).
std::string ptx_unlaunchable_reason(const DeviceFacts& facts);

// One launch of a pass: its entry's index in the kernel's passes, its blocks, the ABI's pointers
// (device addresses, in the ABI's order) and its n.
struct CudaLaunch {
  std::size_t pass = 0;
  std::uint32_t groups = 1;
  std::vector<vk::DeviceAddress> pointers;
  std::uint32_t n = 0;
};

// The kernel's PTX loaded on one device, a function a pass. Move-only: it owns the module and
// its functions.
class UserCudaModule {
 public:
  // Error(usage) naming the file where the driver refuses the PTX or an entry of it.
  UserCudaModule(const Device& device, const UserKernel& kernel);

  // Records `launches` in order, each after a barrier on every earlier command and one after the
  // last: the launches belong to no pipeline stage a narrower barrier could name
  // (XR_VK_PTX_BARRIER=compute: a compute barrier instead, to measure what that costs).
  void record(const vk::raii::CommandBuffer& cmd, std::span<const CudaLaunch> launches) const;
  // What each launch runs (`inspect`): its entry, block and grid; the extension reports no
  // registers or memory.
  std::vector<CompiledPass> describe(std::span<const CudaLaunch> launches) const;

 private:
  const UserKernel* kernel_;
  std::string driver_;
  bool compute_barriers_;
  vk::raii::CuModuleNVX module_{nullptr};
  std::vector<vk::raii::CuFunctionNVX> functions_;  // a pass each, in the kernel's order
};

}  // namespace xr::vulkan
