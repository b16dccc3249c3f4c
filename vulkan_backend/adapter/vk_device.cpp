#include "vk_device.hpp"

#include "vk_internal.hpp"
#include "vk_transfer.hpp"
#include "xreduce/error.hpp"
#include "xreduce/units.hpp"

namespace xr::vulkan {
namespace {

// The features every plan uses, and the element types the device has (vk_requirements.cpp
// refuses the others): operands by device address with 64-bit indices (both required by
// query_facts), arrays past one allocation bound sparsely, fast/decoupled-lookback's 64-bit
// status words, full subgroups for the subgroup shaders; the subgroup clock (the look-back's
// clocked back-off), push descriptors (the library's operands by binding), pipeline executable
// statistics (`xreduce inspect`) and the NV subgroup partition (subgroup/aggregated's histogram)
// where present.
// Kept whole for the device's life: the library's Context reads what was enabled from it.
struct DeviceRecipe {
  explicit DeviceRecipe(const DeviceFacts& f) {
    queue_info = vk::DeviceQueueCreateInfo({}, f.queue_family, 1, &priority);
    chain.get<vk::DeviceCreateInfo>().setQueueCreateInfos(queue_info);
    auto& f10 = chain.get<vk::PhysicalDeviceFeatures2>().features;
    f10.shaderInt64 = true;
    f10.sparseBinding = f.sparse_binding;
    f10.shaderFloat64 = f.float64;
    chain.get<vk::PhysicalDeviceVulkan11Features>().storageBuffer16BitAccess = f.storage16;
    auto& f12 = chain.get<vk::PhysicalDeviceVulkan12Features>();
    f12.shaderSubgroupExtendedTypes = f.subgroup_extended_types;
    f12.bufferDeviceAddress = true;
    f12.shaderBufferInt64Atomics = f.int64_atomics;
    f12.timelineSemaphore = f.timeline_semaphore;
    if (f.api_version >= VK_API_VERSION_1_3) {
      auto& f13 = chain.get<vk::PhysicalDeviceVulkan13Features>();
      f13.subgroupSizeControl = f13.computeFullSubgroups = f.full_subgroups;
    } else {
      chain.unlink<vk::PhysicalDeviceVulkan13Features>();
    }
    if (f.shader_clock) {
      clock.shaderSubgroupClock = true;
      clock.shaderDeviceClock = f.device_clock;
      clock.pNext = chain.get<vk::PhysicalDeviceFeatures2>().pNext;
      chain.get<vk::PhysicalDeviceFeatures2>().pNext = &clock;
      extensions.push_back(VK_KHR_SHADER_CLOCK_EXTENSION_NAME);
    }
    if (f.push_descriptors) extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
    // Users' PTX kernels launch through it (vk_user_ptx.hpp); nothing else uses it.
    if (f.binary_import) extensions.push_back(VK_NVX_BINARY_IMPORT_EXTENSION_NAME);
    if (f.subgroup_partitioned)
      extensions.push_back(VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME);
    if (f.executable_statistics) {
      executable.pipelineExecutableInfo = true;
      executable.pNext = chain.get<vk::PhysicalDeviceFeatures2>().pNext;
      chain.get<vk::PhysicalDeviceFeatures2>().pNext = &executable;
      extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    }
    chain.get<vk::DeviceCreateInfo>().setPEnabledExtensionNames(extensions);
  }
  DeviceRecipe(const DeviceRecipe&) = delete;  // the chain points into itself
  DeviceRecipe& operator=(const DeviceRecipe&) = delete;

  const vk::DeviceCreateInfo& info() const { return chain.get<vk::DeviceCreateInfo>(); }

  float priority = 1.0f;
  vk::DeviceQueueCreateInfo queue_info;
  vk::StructureChain<vk::DeviceCreateInfo, vk::PhysicalDeviceFeatures2,
                     vk::PhysicalDeviceVulkan11Features, vk::PhysicalDeviceVulkan12Features,
                     vk::PhysicalDeviceVulkan13Features>
      chain;
  vk::PhysicalDeviceShaderClockFeaturesKHR clock;
  vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable;
  std::vector<const char*> extensions;
};

}  // namespace

Device::Device(std::shared_ptr<Instance> instance, std::size_t index)
    : instance_(std::move(instance)), index_(index) {
  const DeviceFacts& f = facts();
  const DeviceRecipe recipe(f);
  device_ = XR_VK_CHECK(f.physical.createDevice(recipe.info()));
  queue_ = XR_VK_CHECK(device_.getQueue(f.queue_family, 0));
  command_pool_ = XR_VK_CHECK(device_.createCommandPool(vk::CommandPoolCreateInfo(
      vk::CommandPoolCreateFlagBits::eResetCommandBuffer, f.queue_family)));
  fence_ = XR_VK_CHECK(device_.createFence(vk::FenceCreateInfo()));
  // The library's Context over this device, with the tool's knobs: every reduce and scan of the
  // tool records through it (xreduce/vulkan).
  const VkDeviceCreateInfo& info = recipe.info();
  context_.emplace(make_context(
      std::make_unique<ContextState>(ContextInfo{.instance = *instance_->handle(),
                                                 .physical_device = *f.physical,
                                                 .device = *device_,
                                                 .device_info = &info,
                                                 .api_version = instance_->api_version()},
                                     knobs())));
  instance_->sink().raise();
}

Device::~Device() {
  // After a timed-out fence the queue may still hold work that uses the objects destroyed below.
  drain();
}

void Device::drain() const noexcept {
  if (*device_) device_.getDispatcher()->vkDeviceWaitIdle(*device_);  // no-throw twin of waitIdle
}

vk::raii::CommandBuffer Device::allocate_command_buffer() {
  vk::raii::CommandBuffers buffers = XR_VK_CHECK(vk::raii::CommandBuffers(
      device_, vk::CommandBufferAllocateInfo(*command_pool_, vk::CommandBufferLevel::ePrimary, 1)));
  return std::move(buffers.front());
}

double Device::submit_and_wait(const vk::raii::CommandBuffer& cmd) {
  const vk::CommandBuffer handle = *cmd;
  XR_VK_CHECK(device_.resetFences(*fence_));
  const auto start = HostClock::now();
  XR_VK_CHECK(queue_.submit(vk::SubmitInfo({}, {}, handle), *fence_));
  wait(fence_, default_wait());
  return ms_since(start);
}

void Device::timed_out(std::string_view what) const {
  device_timed_out("vulkan: " + std::string(what) + " did not finish within " +
                   knobs().timeout.describe() +
                   ": the device stopped answering (a kernel that never finishes?); "
                   "XR_DEVICE_TIMEOUT sets the limit");
}

void Device::wait(const vk::raii::Fence& fence, Wait how) const {
  if (how == Wait::block) {
    const auto timeout_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(timeout()).count();
    if (XR_VK_CHECK(device_.waitForFences(*fence, VK_TRUE, timeout_ns)) == vk::Result::eTimeout)
      timed_out("a submission");
    return;
  }
  const auto deadline = HostClock::now() + timeout();
  for (unsigned polls = 1;; ++polls) {
    const vk::Result r = XR_VK_CHECK(fence.getStatus());
    if (r == vk::Result::eSuccess) return;
    if (polls % 4096 == 0 && HostClock::now() > deadline) timed_out("a submission");
  }
}

void Device::bind_sparse(vk::Buffer buffer, std::span<const vk::SparseMemoryBind> binds) {
  const vk::SparseBufferMemoryBindInfo buffer_binds(buffer, binds);
  const vk::BindSparseInfo info({}, buffer_binds, {}, {}, {});
  XR_VK_CHECK(device_.resetFences(*fence_));
  XR_VK_CHECK(queue_.bindSparse(info, *fence_));
  wait(fence_, Wait::block);
}

void Device::run_once(const std::function<void(const vk::raii::CommandBuffer&)>& record) {
  vk::raii::CommandBuffer cmd = allocate_command_buffer();
  cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
  record_queue_barrier(cmd);
  record(cmd);
  cmd.end();
  submit_and_wait(cmd);
}

void record_queue_barrier(const vk::raii::CommandBuffer& cmd) {
  using A = vk::AccessFlagBits;
  using S = vk::PipelineStageFlagBits;
  const vk::MemoryBarrier barrier(
      A::eShaderWrite | A::eTransferWrite,
      A::eShaderRead | A::eShaderWrite | A::eTransferRead | A::eTransferWrite);
  cmd.pipelineBarrier(S::eComputeShader | S::eTransfer, S::eComputeShader | S::eTransfer, {},
                      barrier, {}, {});
}

}  // namespace xr::vulkan
