// A recording replayed through Vulkan on buffers of its own, on a VkDevice of its own (a replay
// that loses its device loses no other): each kernel's PTX loaded as a CUDA module of
// VK_NVX_binary_import, each kernel step a vkCmdCuLaunchKernelNVX with its parameter block
// rebased onto the buffers' device addresses, each fill a vkCmdFillBuffer, a full memory barrier
// between steps (a CUDA stream's order), timestamps at the marks. Two command buffers, one per
// kind of marks, recorded once and submitted for every sample.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "timed.hpp"
#include "vk_buffer.hpp"
#include "xreduce/ptx_module.hpp"

namespace xr::onebin {

// How a kernel gets its dynamic shared memory: as CUDA launches it (the launch's size), or
// declared static in its PTX at that size (PtxModule::with_static_shared), the same SASS. And
// how it gets its parameters: a pointer to each (pParams, cuLaunchKernel's kernelParams), or the
// whole block at once (pExtras: CU_LAUNCH_PARAM_BUFFER_POINTER and _SIZE, as cuLaunchKernel's
// `extra`).
enum class SharedForm { dynamic, made_static };
enum class ParamForm { pointers, buffer };

// The most shared memory VK_NVX_binary_import launches a kernel with on an H200, driver
// 580.159.04: 49152 B of dynamic shared memory ran, 65536 B lost the device, and so did 131072 B
// declared static; the extension has no way to raise a function's limit, as
// cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) does in CUDA.
inline constexpr unsigned kNvxSharedLimit = 48 * 1024;
// Error(unsupported) naming the first kernel step of `r` past kNvxSharedLimit: a replay of it
// would only lose its device.
void refuse_past_nvx_limit(const Recording& r);

class VulkanReplay : public Timed {
 public:
  VulkanReplay(const DeviceUuid& uuid, const PtxModule& ptx, const Recording& r, const SortCase& c,
               std::uint64_t flush_bytes, SharedForm shared, ParamForm params);

  Sample run(Marks marks) override;
  // Each step in a submission of its own, waited for: a lost device names the step that lost it.
  void first_run() override;
  CallOutput read() override;
  bool marks_steps() const override { return true; }

 private:
  void record_call(const vk::raii::CommandBuffer& cmd, Marks marks) const;
  void record_step(const vk::raii::CommandBuffer& cmd, std::size_t step) const;
  void submit_and_wait(const vk::raii::CommandBuffer& cmd, const char* what) const;
  // The call's buffers, checked for the library's alignment; their device addresses.
  SlotBases make_slots();
  // Each step's function (a module of its own per kernel) and rebased parameters.
  void load_kernels(const PtxModule& ptx, const SlotBases& bases);
  std::size_t function_of(const PtxModule& ptx, const KernelStep& k);
  // Every buffer zeroed, the keys (and values) copied in.
  void upload_input();
  void download(Slot slot, HostArray& to) const;
  // Error(check_failed) for a slot the call has no buffer of.
  vk::Buffer buffer(Slot s) const;

  std::unique_ptr<const VulkanDevice> owned_;
  const VulkanDevice& device_;
  const Recording& recording_;
  const SortCase& case_;
  SharedForm form_;
  ParamForm param_form_;
  std::vector<vk::raii::CuModuleNVX> modules_;  // one per kernel
  std::vector<vk::raii::CuFunctionNVX> functions_;
  std::vector<std::string> function_entries_;  // per function, its entry
  std::vector<unsigned> function_shared_;      // per function, the shared bytes it was made for
  std::vector<std::size_t> function_of_step_;
  std::array<std::optional<VulkanBuffer>, kSlots> slots_;
  VulkanBuffer flush_;
  std::vector<std::vector<std::byte>> params_;
  std::vector<std::vector<const void*>> param_ptrs_;
  std::vector<std::size_t> param_sizes_;            // per step, for ParamForm::buffer
  std::vector<std::array<void*, 5>> param_extras_;  // per step, for ParamForm::buffer
  vk::raii::CommandPool pool_;
  vk::raii::CommandBuffers commands_;  // [0] transfers, [1] Marks::call, [2] Marks::steps
  vk::raii::QueryPool timestamps_;
  vk::raii::Fence fence_;
};

}  // namespace xr::onebin
