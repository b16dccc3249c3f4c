#include "vk_user_ptx.hpp"

#include "vk_commands.hpp"
#include "xreduce/error.hpp"
#include "xreduce/user_ptx.hpp"

namespace xr::vulkan {
namespace {

void record_full_barrier(const vk::raii::CommandBuffer& cmd) {
  using A = vk::AccessFlagBits;
  const vk::MemoryBarrier all(A::eMemoryWrite, A::eMemoryRead | A::eMemoryWrite);
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eAllCommands,
                      vk::PipelineStageFlagBits::eAllCommands, {}, all, {}, {});
}

vk::raii::CuModuleNVX load_module(const Device& device, const UserKernel& k,
                                  const std::string& ptx) {
  // The PTX as text with its NUL, as cuModuleLoadData takes it.
  const vk::CuModuleCreateInfoNVX info(ptx.size() + 1, ptx.c_str());
  try {
    return vk::raii::CuModuleNVX(device.handle(), info);
  } catch (const vk::SystemError& e) {
    throw Error(ErrorCategory::usage, k.path.string() + ": " + device.facts().info.name +
                                          "'s Vulkan driver does not load the PTX "
                                          "(vkCreateCuModuleNVX: " +
                                          e.what() + ")");
  }
}

}  // namespace

std::string ptx_unlaunchable_reason(const DeviceFacts& facts) {
  if (facts.binary_import) return {};
  return "PTX runs on Vulkan through VK_NVX_binary_import, which " + facts.info.name +
         "'s driver (" + facts.info.driver_version + ") does not offer";
}

UserCudaModule::UserCudaModule(const Device& device, const UserKernel& k)
    : kernel_(&k),
      driver_(device.facts().info.driver_version),
      compute_barriers_(device.knobs().ptx_compute_barriers),
      module_(load_module(device, k, checked_user_ptx(k).text())) {
  for (const KernelPass& pass : k.passes) {
    try {
      functions_.emplace_back(device.handle(),
                              vk::CuFunctionCreateInfoNVX(*module_, pass.entry.c_str()));
    } catch (const vk::SystemError& e) {
      throw Error(ErrorCategory::usage, k.path.string() + ": entry '" + pass.entry +
                                            "' does not load (vkCreateCuFunctionNVX: " + e.what() +
                                            ")");
    }
  }
}

void UserCudaModule::record(const vk::raii::CommandBuffer& cmd,
                            std::span<const CudaLaunch> launches) const {
  const auto barrier = [&] {
    if (compute_barriers_)
      record_pass_barrier(cmd);
    else
      record_full_barrier(cmd);
  };
  for (const CudaLaunch& l : launches) {
    barrier();
    // vkCmdCuLaunchKernelNVX takes a pointer to each parameter's value, read as it records.
    std::vector<const void*> params;
    for (const vk::DeviceAddress& p : l.pointers) params.push_back(&p);
    params.push_back(&l.n);
    cmd.cuLaunchKernelNVX(vk::CuLaunchInfoNVX(*functions_.at(l.pass), l.groups, 1, 1,
                                              kernel_->block, 1, 1, 0, params.size(), params.data(),
                                              0, nullptr));
  }
  record_full_barrier(cmd);
}

std::vector<CompiledPass> UserCudaModule::describe(std::span<const CudaLaunch> launches) const {
  std::vector<CompiledPass> out;
  for (const CudaLaunch& l : launches) {
    CompiledPass c;
    c.kernel = kernel_->path.filename().string() + ": " + kernel_->passes.at(l.pass).entry;
    c.block = kernel_->block;
    c.grid = l.groups;
    c.subgroup_size = 32;
    c.binary = "PTX through VK_NVX_binary_import, NVIDIA " + driver_;
    c.not_reported =
        "registers and memory not reported: VK_NVX_binary_import gives none (CUDA's row of the "
        "same PTX has them)";
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace xr::vulkan
