// Context layer of the Vulkan backend: the instance (with the optional validation messenger),
// the facts of every physical device, the logical device with its queue, command pool, pipeline
// cache, shared pipeline layout and pipelines, and move-only buffers with their memory and
// device address.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>
#include <vulkan/vulkan_raii.hpp>

#include "xreduce/backend.hpp"

namespace xr::vulkan {

// Collects the validation layer's warnings and errors (the callback may run on any thread);
// raise() turns them into Error(check_failed) at the next backend call.
class ValidationSink {
 public:
  void add(std::string message);
  // Throws Error(check_failed, "Vulkan validation: <first message> (+N more)") and forgets the
  // messages, if any arrived since the last call.
  void raise();

 private:
  std::mutex mutex_;
  std::vector<std::string> messages_;
};

// What the backend needs to know about one physical device, read once.
struct DeviceFacts {
  vk::raii::PhysicalDevice physical{nullptr};
  DeviceInfo info;
  std::string unusable_reason;  // empty when the device can run compute (Vulkan >= 1.2)
  std::uint32_t api_version = 0;
  vk::PhysicalDeviceType type = vk::PhysicalDeviceType::eOther;
  vk::PhysicalDeviceLimits limits;
  std::uint32_t queue_family = 0;
  std::uint32_t timestamp_valid_bits = 0;  // 0: no timestamps on the compute queue
  std::uint32_t subgroup_size = 0;
  std::uint32_t max_subgroup_size = 0;
  vk::SubgroupFeatureFlags subgroup_ops;  // empty when subgroups are not supported in compute
  bool memory_model = false;              // vulkanMemoryModel + ...DeviceScope (listed only)
  bool full_subgroups = false;            // subgroupSizeControl + computeFullSubgroups
  bool int64_atomics = false;             // shaderInt64 + shaderBufferInt64Atomics (enabled)
  // Element types beyond the 32-bit ones (each enabled when present): f64 arithmetic, f16/bf16
  // elements in storage buffers (their arithmetic is float), 64-bit integer subgroup operands.
  bool float64 = false;                  // shaderFloat64
  bool storage16 = false;                // storageBuffer16BitAccess
  bool subgroup_extended_types = false;  // Vulkan 1.2 shaderSubgroupExtendedTypes
  bool timeline_semaphore = false;       // Vulkan 1.2 timelineSemaphore (enabled when present)
  bool sparse_binding = false;       // sparseBinding on the compute queue: arrays in several blocks
  std::uint64_t max_allocation = 0;  // maxMemoryAllocationSize (0: not reported)
  std::uint64_t max_buffer = 0;      // maxBufferSize (Vulkan 1.3; 0: not reported)
  std::uint64_t sparse_address_space = 0;
  std::uint64_t device_local_bytes = 0;
  // XR_VK_BLOCK_BYTES: the largest allocation arrays make, below maxMemoryAllocationSize, so the
  // several-block path runs on small arrays too (tests on a GPU). 0: the device's limit.
  std::uint64_t block_override = 0;
  // XR_VK_ADDRESSING=address: every plan reaches its operands by device address, also where a
  // binding would hold them (tests and the before/after of the address path).
  bool force_address = false;

  bool timestamps() const { return timestamp_valid_bits > 0; }
  bool cpu() const { return type == vk::PhysicalDeviceType::eCpu; }
};

// The Vulkan instance and its physical devices. Not movable: the messenger's callback holds the
// address of its sink. Shared by the backend, its logical devices and their objects.
class Instance {
 public:
  // Error(unavailable) when there is no loader, no Vulkan 1.2 instance, or validation was asked
  // for and the layer is missing.
  static std::shared_ptr<Instance> create();

  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  std::vector<DeviceFacts>& devices() { return devices_; }
  const std::vector<DeviceFacts>& devices() const { return devices_; }
  ValidationSink& sink() { return sink_; }
  bool validation() const { return validation_; }

 private:
  Instance() = default;
  // Declaration order is destruction order reversed: the sink outlives the messenger, the
  // physical devices go before the instance.
  ValidationSink sink_;
  bool validation_ = false;
  vk::raii::Context context_;
  vk::raii::Instance instance_{nullptr};
  vk::raii::DebugUtilsMessengerEXT messenger_{nullptr};
  std::vector<DeviceFacts> devices_;
};

class Device;
struct Staging;  // vk_transfer.hpp

enum class MemoryKind {
  device_local,  // storage buffers the shaders read and write
  upload,        // host-visible, coherent: staging for uploads
  readback,      // host-visible, coherent, cached where possible: results and downloads
};

// The largest buffer an array may be on a device, and why, in words for `list`.
struct BufferLimit {
  std::uint64_t bytes = 0;
  std::string why;
};
BufferLimit largest_buffer(const DeviceFacts& f);

// The largest allocation one buffer's block may be: maxMemoryAllocationSize, or the
// XR_VK_BLOCK_BYTES override below it. 0: no limit reported.
std::uint64_t block_limit(const DeviceFacts& f);

// A buffer with its own memory and, for shader access, its device address. Device-local
// buffers larger than one allocation may be (block_limit) are bound sparsely to several blocks
// where the device has sparseBinding: the shaders still see one contiguous range of addresses.
// Move-only through its RAII members. Host-visible kinds stay mapped for their lifetime.
class Buffer {
 public:
  // Error(out_of_memory) when an allocation fails; Error(unsupported) when the buffer exceeds
  // maxBufferSize.
  Buffer(Device& device, vk::DeviceSize bytes, vk::BufferUsageFlags usage, MemoryKind kind);
  vk::Buffer handle() const { return *buffer_; }
  vk::DeviceSize size() const { return size_; }
  void* mapped() const { return mapped_; }
  // Device address of byte 0 (0 unless the usage holds eShaderDeviceAddress).
  vk::DeviceAddress address() const { return address_; }
  std::size_t blocks() const { return memory_.size(); }

 private:
  void bind_sparsely(Device& device, const vk::MemoryRequirements& req, std::uint32_t type,
                     vk::DeviceSize block);

  vk::raii::Buffer buffer_{nullptr};
  std::vector<vk::raii::DeviceMemory> memory_;
  vk::DeviceSize size_ = 0;
  void* mapped_ = nullptr;
  vk::DeviceAddress address_ = 0;
};

// Pipeline variants differ in module and specialization constants (shaders/common.glsl).
struct PipelineKey {
  std::string module;             // an embedded SPIR-V module name (xreduce/spirv_modules.hpp)
  std::uint32_t workgroup = 256;  // specialization constant 0
  std::uint32_t unroll = 1;       // 1: vector loads in flight
  std::uint32_t backoff = 0;      // 2: the scan look-back's pause
  std::uint32_t op = 0;           // 3: the operator, core's Op as a number (0 sum, 1 min, 2 max)
  auto operator<=>(const PipelineKey&) const = default;
};

// The sizes of one pass, the part of every shader's push constants (shaders/params.glsl) that
// plans compute. Reduce shaders read n to groups; the scan shaders all of them.
struct PushConstants {
  std::uint64_t n = 0;
  std::uint32_t in_offset = 0;
  std::uint32_t out_offset = 0;
  std::uint32_t groups = 0;
  std::uint32_t aux_offset = 0;
  std::uint32_t flags = 0;
  std::uint32_t param = 0;
  std::uint32_t limit = 0;
};

// A pass's three operands by device address (the buffers' byte 0): the source, the destination
// and the pass's own scratch (shaders/params.glsl: src, dst, aux).
struct Operands {
  vk::DeviceAddress src = 0, dst = 0, aux = 0;
};

// The push constants as the shaders see them, byte for byte.
struct PushBlock {
  Operands operands;
  PushConstants sizes;
};
static_assert(offsetof(PushBlock, sizes) == 24 && offsetof(PushBlock, sizes.in_offset) == 32 &&
                  offsetof(PushBlock, sizes.limit) == 56,
              "PushBlock must match shaders/params.glsl");

// The logical device of one physical device, its compute queue and the objects every variant
// shares. The backend is single-threaded, so one command pool and one fence serve every
// submission. Held by shared_ptr: arrays and reducers keep it alive.
class Device {
 public:
  Device(std::shared_ptr<Instance> instance, std::size_t index);
  ~Device();  // waits for the queue to drain (no-throw) before anything is destroyed
  // Waits for the queue to drain (no-throw): objects holding command buffers call it before
  // freeing them, which after a timed-out fence may still be pending.
  void drain() const noexcept;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceFacts& facts() const { return instance_->devices()[index_]; }
  const vk::raii::Device& handle() const { return device_; }
  vk::PipelineLayout pipeline_layout() const { return *pipeline_layout_; }
  vk::DescriptorSetLayout set_layout() const { return *set_layout_; }

  // The compute pipeline of `key`, created on first use through the pipeline cache.
  // Error(unavailable) if the module is not embedded (a build problem).
  vk::Pipeline pipeline(const PipelineKey& key);

  vk::raii::CommandBuffer allocate_command_buffer();
  const vk::raii::Queue& queue() const { return queue_; }
  // Submits `cmd` and waits for its fence; a wait longer than kFenceTimeout throws
  // Error(device_lost). Returns the host time from submit to completion, in ms.
  double submit_and_wait(const vk::raii::CommandBuffer& cmd);
  // How a fence is waited for: polling vkGetFenceStatus or one blocking vkWaitForFences.
  // submit_and_wait spins on a GPU (kGpuWait) and blocks on a CPU device, whose work runs on the
  // host's cores: a spinning thread would take one from it.
  enum class Wait { spin, block };
  // Waits for `fence` the `how` way, bounded by kFenceTimeout (then Error(device_lost)).
  void wait(const vk::raii::Fence& fence, Wait how) const;
  // Binds `binds` (blocks of memory) to the sparse buffer `buffer` on the queue and waits.
  void bind_sparse(vk::Buffer buffer, std::span<const vk::SparseMemoryBind> binds);
  // Records `record` into a fresh command buffer, submits it and waits.
  void run_once(const std::function<void(const vk::raii::CommandBuffer&)>& record);

  // Blocking copies between host memory and a device-local buffer, through two staging buffers
  // kept for the device's life: the copy of one chunk overlaps the (parallel) host copy of the
  // next (vk_transfer.cpp).
  void write_buffer(const Buffer& dst, const void* src, std::size_t bytes);
  void read_buffer(const Buffer& src, void* dst, std::size_t bytes);

  // Throws the validation messages collected so far (see ValidationSink).
  void raise_validation() { instance_->sink().raise(); }

  // A fence wait this long means the device stopped answering. Far above the slowest single
  // submission seen (lavapipe, 2^25 elements, well under a second); not a tuned number.
  static constexpr std::chrono::seconds kFenceTimeout{60};
  // Polling the fence: the blocking vkWaitForFences sleeps and is woken, the host round trip of
  // a 1K call was ~52 us on the H200 against CUDA's ~22 us; the overhead table of
  // `compare --overheads` measures both waits. CUDA's synchronise spins the same way.
  static constexpr Wait kGpuWait = Wait::spin;

 private:
  struct PipelineEntry {
    vk::raii::ShaderModule module{nullptr};
    vk::raii::Pipeline pipeline{nullptr};
  };

  std::shared_ptr<Instance> instance_;
  std::size_t index_;
  vk::raii::Device device_{nullptr};
  vk::raii::Queue queue_{nullptr};
  vk::raii::CommandPool command_pool_{nullptr};
  vk::raii::PipelineCache pipeline_cache_{nullptr};
  vk::raii::DescriptorSetLayout set_layout_{nullptr};
  vk::raii::PipelineLayout pipeline_layout_{nullptr};
  vk::raii::Fence fence_{nullptr};
  std::map<PipelineKey, PipelineEntry> pipelines_;
  // Last: its command buffers and fences go before the pool and the device.
  std::unique_ptr<Staging> staging_;  // created by the first transfer
};

// A memory barrier that orders every earlier compute-shader or transfer write before every
// later compute-shader or transfer access; recorded at the start of each command buffer so
// successive submissions on the queue (upload, reduce, restore, read) never race.
void record_queue_barrier(const vk::raii::CommandBuffer& cmd);

}  // namespace xr::vulkan
