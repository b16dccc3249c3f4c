#include "vk_context.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <sstream>

#include "vk_check.hpp"
#include "vk_transfer.hpp"
#include "xreduce/error.hpp"
#include "xreduce/spirv_modules.hpp"

namespace xr::vulkan {

ErrorCategory category_of(vk::Result result) {
  switch (result) {
    case vk::Result::eErrorOutOfHostMemory:
    case vk::Result::eErrorOutOfDeviceMemory:
    case vk::Result::eErrorOutOfPoolMemory:
    case vk::Result::eErrorFragmentation:
      return ErrorCategory::out_of_memory;
    case vk::Result::eErrorInitializationFailed:
    case vk::Result::eErrorIncompatibleDriver:
    case vk::Result::eErrorLayerNotPresent:
    case vk::Result::eErrorExtensionNotPresent:
      return ErrorCategory::unavailable;
    case vk::Result::eErrorFeatureNotPresent:
    case vk::Result::eErrorFormatNotSupported:
      return ErrorCategory::unsupported;
    default:
      return ErrorCategory::device_lost;
  }
}

// --- validation -----------------------------------------------------------------------------

void ValidationSink::add(std::string message) {
  std::lock_guard lock(mutex_);
  messages_.push_back(std::move(message));
}

void ValidationSink::raise() {
  std::vector<std::string> messages;
  {
    std::lock_guard lock(mutex_);
    messages.swap(messages_);
  }
  if (messages.empty()) return;
  std::string text = "Vulkan validation: " + messages.front();
  if (messages.size() > 1) text += " (+" + std::to_string(messages.size() - 1) + " more)";
  throw Error(ErrorCategory::check_failed, text);
}

namespace {

VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  const char* id = data && data->pMessageIdName ? data->pMessageIdName : "";
  std::string message = std::string(id) + ": " + (data && data->pMessage ? data->pMessage : "");
  std::fprintf(stderr, "[vulkan %s] %s\n",
               severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning",
               message.c_str());
  // The loader's own notes (ICD manifests of other drivers) describe the machine, not this
  // program; they are printed above but do not fail a call.
  if (std::strcmp(id, "Loader Message") != 0) static_cast<ValidationSink*>(user)->add(message);
  return VK_FALSE;
}

bool has_layer(const vk::raii::Context& context, std::string_view name) {
  for (const auto& layer : context.enumerateInstanceLayerProperties())
    if (name == layer.layerName.data()) return true;
  return false;
}

bool has_extension(const std::vector<vk::ExtensionProperties>& list, std::string_view name) {
  return std::any_of(list.begin(), list.end(),
                     [&](const auto& e) { return name == e.extensionName.data(); });
}

std::string version_text(std::uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) +
         "." + std::to_string(VK_API_VERSION_PATCH(v));
}

// NVIDIA packs its driver version as 10.8.8.6 bits; everyone else uses the API encoding.
std::string driver_version_text(std::uint32_t vendor, std::uint32_t v) {
  if (vendor == 0x10de)
    return std::to_string((v >> 22) & 0x3ff) + "." + std::to_string((v >> 14) & 0xff) + "." +
           std::to_string((v >> 6) & 0xff);
  return version_text(v);
}

std::string uuid_text(const std::array<std::uint8_t, VK_UUID_SIZE>& uuid) {
  std::ostringstream out;
  for (auto byte : uuid) out << std::hex << std::setw(2) << std::setfill('0') << int(byte);
  return out.str();
}

std::string type_text(vk::PhysicalDeviceType t) {
  switch (t) {
    case vk::PhysicalDeviceType::eDiscreteGpu:
      return "discrete GPU";
    case vk::PhysicalDeviceType::eIntegratedGpu:
      return "integrated GPU";
    case vk::PhysicalDeviceType::eVirtualGpu:
      return "virtual GPU";
    case vk::PhysicalDeviceType::eCpu:
      return "CPU";
    default:
      return "other";
  }
}

std::string subgroup_ops_text(vk::SubgroupFeatureFlags ops) {
  using F = vk::SubgroupFeatureFlagBits;
  const std::pair<F, const char*> names[] = {
      {F::eBasic, "basic"},           {F::eVote, "vote"},
      {F::eArithmetic, "arithmetic"}, {F::eBallot, "ballot"},
      {F::eShuffle, "shuffle"},       {F::eShuffleRelative, "shuffle-relative"},
      {F::eClustered, "clustered"},   {F::eQuad, "quad"}};
  std::string text;
  for (auto [bit, name] : names)
    if (ops & bit) text += (text.empty() ? "" : ", ") + std::string(name);
  return text.empty() ? "none" : text;
}

// XR_VK_BLOCK_BYTES=<bytes>: see DeviceFacts::block_override.
std::uint64_t block_override_from_env() {
  const char* s = std::getenv("XR_VK_BLOCK_BYTES");
  if (!s || !*s) return 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (*end != '\0' || v < (1u << 20))
    throw Error(ErrorCategory::usage,
                "XR_VK_BLOCK_BYTES must be a number of bytes of at least 1048576");
  return v;
}

DeviceFacts read_facts(vk::raii::PhysicalDevice physical, int index) {
  DeviceFacts f;
  const auto props = physical.getProperties();
  f.api_version = props.apiVersion;
  f.type = props.deviceType;
  f.limits = props.limits;
  f.info.index = index;
  f.info.name = props.deviceName.data();
  f.info.api_version = "Vulkan " + version_text(props.apiVersion);
  f.info.driver_version = driver_version_text(props.vendorID, props.driverVersion);
  for (const auto& heap : physical.getMemoryProperties().memoryHeaps)
    if (heap.flags & vk::MemoryHeapFlagBits::eDeviceLocal)
      f.device_local_bytes = std::max<std::uint64_t>(f.device_local_bytes, heap.size);
  f.info.memory_bytes = f.device_local_bytes;

  const auto families = physical.getQueueFamilyProperties();
  int family = -1;
  for (std::size_t i = 0; i < families.size(); ++i) {
    if (!(families[i].queueFlags & vk::QueueFlagBits::eCompute)) continue;
    // Prefer a compute family with timestamps; the first such one is the main queue on the
    // drivers seen so far.
    if (family < 0 || (families[family].timestampValidBits == 0 && families[i].timestampValidBits))
      family = static_cast<int>(i);
  }

  auto& p = f.info.properties;
  p.emplace_back("type", type_text(props.deviceType));
  if (props.apiVersion < VK_API_VERSION_1_2) {
    f.unusable_reason = "Vulkan " + version_text(props.apiVersion) + " < 1.2";
  } else if (family < 0) {
    f.unusable_reason = "no compute queue";
  }
  if (!f.unusable_reason.empty()) {
    p.emplace_back("unusable", f.unusable_reason);
    f.physical = std::move(physical);
    return f;
  }
  f.queue_family = static_cast<std::uint32_t>(family);
  f.timestamp_valid_bits = families[family].timestampValidBits;

  const auto chain =
      physical.getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceVulkan11Properties,
                              vk::PhysicalDeviceVulkan12Properties>();
  const auto& p11 = chain.get<vk::PhysicalDeviceVulkan11Properties>();
  const auto& p12 = chain.get<vk::PhysicalDeviceVulkan12Properties>();
  f.info.uuid = uuid_text(p11.deviceUUID);
  f.info.driver_version = std::string(p12.driverName.data()) + " " + p12.driverInfo.data();
  f.subgroup_size = f.max_subgroup_size = p11.subgroupSize;
  if (p11.subgroupSupportedStages & vk::ShaderStageFlagBits::eCompute)
    f.subgroup_ops = p11.subgroupSupportedOperations;
  f.max_allocation = p11.maxMemoryAllocationSize;

  const auto features =
      physical.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan11Features,
                            vk::PhysicalDeviceVulkan12Features>();
  const auto& f10 = features.get<vk::PhysicalDeviceFeatures2>().features;
  const auto& f11 = features.get<vk::PhysicalDeviceVulkan11Features>();
  const auto& f12 = features.get<vk::PhysicalDeviceVulkan12Features>();
  f.float64 = f10.shaderFloat64;
  f.storage16 = f11.storageBuffer16BitAccess;
  f.subgroup_extended_types = f12.shaderSubgroupExtendedTypes;
  f.memory_model = f12.vulkanMemoryModel && f12.vulkanMemoryModelDeviceScope;
  f.int64_atomics = f10.shaderInt64 && f12.shaderBufferInt64Atomics;
  f.timeline_semaphore = f12.timelineSemaphore;
  f.sparse_binding =
      f10.sparseBinding && (families[family].queueFlags & vk::QueueFlagBits::eSparseBinding);
  f.sparse_address_space = f.limits.sparseAddressSpaceSize;
  f.block_override = block_override_from_env();
  const char* addressing = std::getenv("XR_VK_ADDRESSING");
  f.force_address = addressing && std::string_view(addressing) == "address";
  if (addressing && *addressing && !f.force_address && std::string_view(addressing) != "auto")
    throw Error(ErrorCategory::usage, "XR_VK_ADDRESSING must be auto or address");
  // Every operand is reached by its device address with 64-bit indices (shaders/params.glsl).
  if (!f12.bufferDeviceAddress || !f10.shaderInt64) {
    f.unusable_reason = !f12.bufferDeviceAddress ? "no bufferDeviceAddress" : "no shaderInt64";
    p.emplace_back("unusable", f.unusable_reason);
    f.physical = std::move(physical);
    return f;
  }
  std::string subgroup_range = std::to_string(p11.subgroupSize);
  if (props.apiVersion >= VK_API_VERSION_1_3) {
    const auto p13 =
        physical
            .getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceVulkan13Properties>()
            .get<vk::PhysicalDeviceVulkan13Properties>();
    const auto f13 =
        physical.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan13Features>()
            .get<vk::PhysicalDeviceVulkan13Features>();
    f.full_subgroups = f13.subgroupSizeControl && f13.computeFullSubgroups;
    f.max_buffer = p13.maxBufferSize;
    f.max_subgroup_size = std::max(p13.maxSubgroupSize, p11.subgroupSize);
    if (p13.minSubgroupSize != p13.maxSubgroupSize)
      subgroup_range += " (" + std::to_string(p13.minSubgroupSize) + ".." +
                        std::to_string(p13.maxSubgroupSize) + ")";
  }

  const auto& l = f.limits;
  p.emplace_back("driver", std::string(p12.driverName.data()) + " " + p12.driverInfo.data());
  p.emplace_back("subgroup size", subgroup_range);
  p.emplace_back("subgroup operations", subgroup_ops_text(f.subgroup_ops));
  p.emplace_back("max shared memory", std::to_string(l.maxComputeSharedMemorySize) + " bytes");
  p.emplace_back("max workgroup size", std::to_string(l.maxComputeWorkGroupSize[0]) + " x " +
                                           std::to_string(l.maxComputeWorkGroupSize[1]) + " x " +
                                           std::to_string(l.maxComputeWorkGroupSize[2]) + ", " +
                                           std::to_string(l.maxComputeWorkGroupInvocations) +
                                           " invocations");
  p.emplace_back("max workgroup count", std::to_string(l.maxComputeWorkGroupCount[0]) + " x " +
                                            std::to_string(l.maxComputeWorkGroupCount[1]) + " x " +
                                            std::to_string(l.maxComputeWorkGroupCount[2]));
  p.emplace_back("max storage buffer range",
                 std::to_string(l.maxStorageBufferRange) +
                     " bytes (larger arrays: operands by device address)");
  p.emplace_back("max allocation",
                 f.max_allocation ? std::to_string(f.max_allocation) + " bytes" : "not reported");
  p.emplace_back("max buffer size",
                 f.max_buffer ? std::to_string(f.max_buffer) + " bytes" : "not reported");
  p.emplace_back("sparse binding", f.sparse_binding ? "yes" : "no");
  p.emplace_back("largest array", largest_buffer(f).why);
  std::ostringstream ts;
  if (f.timestamps())
    ts << "yes, period " << l.timestampPeriod << " ns, " << f.timestamp_valid_bits << " valid bits";
  else
    ts << "no (host time instead)";
  p.emplace_back("timestamps", ts.str());
  p.emplace_back("memory model",
                 f.memory_model ? "Vulkan, device scope" : "no Vulkan memory model");
  p.emplace_back("full subgroups", f.full_subgroups ? "yes" : "no");
  p.emplace_back("64-bit buffer atomics", f.int64_atomics ? "yes" : "no");
  p.emplace_back("shaderFloat64 (f64)", f.float64 ? "yes" : "no");
  p.emplace_back("storageBuffer16BitAccess (f16, bf16)", f.storage16 ? "yes" : "no");
  p.emplace_back("shaderSubgroupExtendedTypes (i64/u64 subgroup operands)",
                 f.subgroup_extended_types ? "yes" : "no");
  f.physical = std::move(physical);
  return f;
}

}  // namespace

std::shared_ptr<Instance> Instance::create() {
  std::shared_ptr<Instance> self(new Instance());
  const char* env = std::getenv("XR_VK_VALIDATION");
  self->validation_ = env && std::string_view(env) == "1";

  const std::uint32_t loader = XR_VK_CHECK(self->context_.enumerateInstanceVersion());
  if (loader < VK_API_VERSION_1_2)
    throw Error(ErrorCategory::unavailable,
                "the Vulkan loader supports only " + version_text(loader) + "; 1.2 is needed");

  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  constexpr const char* kLayer = "VK_LAYER_KHRONOS_validation";
  vk::DebugUtilsMessengerCreateInfoEXT messenger_info(
      {},
      vk::DebugUtilsMessageSeverityFlagBitsEXT::eWarning |
          vk::DebugUtilsMessageSeverityFlagBitsEXT::eError,
      vk::DebugUtilsMessageTypeFlagBitsEXT::eGeneral |
          vk::DebugUtilsMessageTypeFlagBitsEXT::eValidation |
          vk::DebugUtilsMessageTypeFlagBitsEXT::ePerformance,
      &on_validation_message, &self->sink_);
  const vk::ValidationFeatureEnableEXT enables[] = {
      vk::ValidationFeatureEnableEXT::eSynchronizationValidation};
  vk::ValidationFeaturesEXT features(enables, {});
  const void* next = nullptr;
  if (self->validation_) {
    if (!has_layer(self->context_, kLayer))
      throw Error(ErrorCategory::unavailable,
                  "XR_VK_VALIDATION=1 but the layer VK_LAYER_KHRONOS_validation is not installed "
                  "(Debian: vulkan-validationlayers) or not on VK_LAYER_PATH");
    layers.push_back(kLayer);
    const auto available = self->context_.enumerateInstanceExtensionProperties(std::string(kLayer));
    const auto global = self->context_.enumerateInstanceExtensionProperties();
    if (!has_extension(available, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) &&
        !has_extension(global, VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
      throw Error(ErrorCategory::unavailable,
                  "XR_VK_VALIDATION=1 but VK_EXT_debug_utils is not available");
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    messenger_info.pNext = nullptr;
    if (has_extension(available, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME)) {
      extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
      features.pNext = &messenger_info;
      next = &features;
    } else {
      throw Error(ErrorCategory::unavailable,
                  "XR_VK_VALIDATION=1 but the validation layer lacks VK_EXT_validation_features "
                  "(needed for synchronization validation)");
    }
  }

  const std::uint32_t api = std::min<std::uint32_t>(loader, VK_API_VERSION_1_3);
  vk::ApplicationInfo app("xreduce", 1, "xreduce", 1, api);
  vk::InstanceCreateInfo info({}, &app, layers, extensions, next);
  self->instance_ = XR_VK_CHECK(vk::raii::Instance(self->context_, info));
  if (self->validation_)
    self->messenger_ = XR_VK_CHECK(self->instance_.createDebugUtilsMessengerEXT(messenger_info));

  vk::raii::PhysicalDevices physicals = XR_VK_CHECK(vk::raii::PhysicalDevices(self->instance_));
  int index = 0;
  for (auto& physical : physicals)
    self->devices_.push_back(read_facts(std::move(physical), index++));
  self->sink_.raise();
  return self;
}

// --- buffers --------------------------------------------------------------------------------

namespace {

std::uint32_t choose_memory_type(const vk::PhysicalDeviceMemoryProperties& mem,
                                 std::uint32_t allowed, MemoryKind kind) {
  using M = vk::MemoryPropertyFlagBits;
  // Preferences in order; the first memory type that has all the flags of one wins.
  std::vector<vk::MemoryPropertyFlags> wanted;
  switch (kind) {
    case MemoryKind::device_local:
      wanted = {M::eDeviceLocal, {}};
      break;
    case MemoryKind::upload:
      wanted = {M::eHostVisible | M::eHostCoherent};
      break;
    case MemoryKind::readback:
      wanted = {M::eHostVisible | M::eHostCoherent | M::eHostCached,
                M::eHostVisible | M::eHostCoherent};
      break;
  }
  for (const auto& flags : wanted)
    for (std::uint32_t i = 0; i < mem.memoryTypeCount; ++i)
      if ((allowed & (1u << i)) && (mem.memoryTypes[i].propertyFlags & flags) == flags) return i;
  throw Error(ErrorCategory::unavailable, "no Vulkan memory type fits a buffer of this kind");
}

}  // namespace

std::uint64_t block_limit(const DeviceFacts& f) {
  if (f.block_override && (!f.max_allocation || f.block_override < f.max_allocation))
    return f.block_override;
  return f.max_allocation;
}

namespace {
std::string gib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / (1ull << 30));
  return text;
}
}  // namespace

BufferLimit largest_buffer(const DeviceFacts& f) {
  BufferLimit limit{f.device_local_bytes ? f.device_local_bytes : UINT64_MAX, ""};
  std::string bound = "the device-local heap";
  const auto cap = [&](std::uint64_t bytes, const char* what) {
    if (bytes && bytes < limit.bytes) {
      limit.bytes = bytes;
      bound = what;
    }
  };
  cap(f.max_buffer, "maxBufferSize");
  const std::uint64_t block = block_limit(f);
  std::string blocks;
  if (block && limit.bytes > block) {
    if (f.sparse_binding) {
      cap(f.sparse_address_space, "sparseAddressSpaceSize");
      blocks = ", bound sparsely in blocks of at most " + gib(block) +
               (block == f.max_allocation ? " (maxMemoryAllocationSize)" : " (XR_VK_BLOCK_BYTES)");
    } else {
      // Without sparse binding the array is one allocation, past the soft limit of
      // maxMemoryAllocationSize (the spec lets the device refuse it: then out_of_memory).
      blocks = ", one allocation past maxMemoryAllocationSize (" + gib(f.max_allocation) +
               "), which the device may refuse";
    }
  }
  limit.bytes &= ~std::uint64_t{15};
  limit.why = gib(limit.bytes) + ": " + bound + blocks;
  return limit;
}

Buffer::Buffer(Device& device, vk::DeviceSize bytes, vk::BufferUsageFlags usage, MemoryKind kind)
    : size_(bytes) {
  const DeviceFacts& facts = device.facts();
  if (facts.max_buffer && bytes > facts.max_buffer)
    throw Error(ErrorCategory::unsupported, "a buffer of " + std::to_string(bytes) +
                                                " bytes exceeds this device's maxBufferSize of " +
                                                std::to_string(facts.max_buffer) + " bytes");
  const std::uint64_t block = block_limit(facts);
  const bool sparse =
      kind == MemoryKind::device_local && block && bytes > block && facts.sparse_binding;
  const bool addressed = bool(usage & vk::BufferUsageFlagBits::eShaderDeviceAddress);
  const auto& dev = device.handle();
  vk::BufferCreateInfo info({}, bytes, usage, vk::SharingMode::eExclusive);
  if (sparse) info.flags = vk::BufferCreateFlagBits::eSparseBinding;
  buffer_ = XR_VK_CHECK(dev.createBuffer(info));
  const auto req = buffer_.getMemoryRequirements();
  const auto type =
      choose_memory_type(facts.physical.getMemoryProperties(), req.memoryTypeBits, kind);
  if (sparse) {
    bind_sparsely(device, req, type, block);
  } else {
    vk::StructureChain<vk::MemoryAllocateInfo, vk::MemoryAllocateFlagsInfo> alloc(
        vk::MemoryAllocateInfo(req.size, type),
        vk::MemoryAllocateFlagsInfo(vk::MemoryAllocateFlagBits::eDeviceAddress));
    if (!addressed) alloc.unlink<vk::MemoryAllocateFlagsInfo>();
    memory_.push_back(XR_VK_CHECK(dev.allocateMemory(alloc.get<vk::MemoryAllocateInfo>())));
    buffer_.bindMemory(*memory_.front(), 0);
  }
  if (addressed) address_ = dev.getBufferAddress(vk::BufferDeviceAddressInfo(*buffer_));
  if (kind != MemoryKind::device_local)
    mapped_ = XR_VK_CHECK(memory_.front().mapMemory(0, VK_WHOLE_SIZE));
}

void Buffer::bind_sparsely(Device& device, const vk::MemoryRequirements& req, std::uint32_t type,
                           vk::DeviceSize block) {
  // Blocks are whole multiples of the sparse alignment; the last one ends with the buffer.
  block -= block % req.alignment;
  if (block == 0)
    throw Error(ErrorCategory::unsupported,
                "the sparse block size is below this device's alignment of " +
                    std::to_string(req.alignment) + " bytes");
  const vk::MemoryAllocateFlagsInfo flags(vk::MemoryAllocateFlagBits::eDeviceAddress);
  std::vector<vk::SparseMemoryBind> binds;
  for (vk::DeviceSize offset = 0; offset < req.size; offset += block) {
    const vk::DeviceSize bytes = std::min(block, req.size - offset);
    memory_.push_back(
        XR_VK_CHECK(device.handle().allocateMemory(vk::MemoryAllocateInfo(bytes, type, &flags))));
    binds.emplace_back(offset, bytes, *memory_.back(), 0);
  }
  device.bind_sparse(*buffer_, binds);
}

// --- device ---------------------------------------------------------------------------------

Device::Device(std::shared_ptr<Instance> instance, std::size_t index)
    : instance_(std::move(instance)), index_(index) {
  const DeviceFacts& f = facts();
  const float priority = 1.0f;
  vk::DeviceQueueCreateInfo queue_info({}, f.queue_family, 1, &priority);
  vk::StructureChain<vk::DeviceCreateInfo, vk::PhysicalDeviceFeatures2,
                     vk::PhysicalDeviceVulkan11Features, vk::PhysicalDeviceVulkan12Features,
                     vk::PhysicalDeviceVulkan13Features>
      chain;
  chain.get<vk::DeviceCreateInfo>().setQueueCreateInfos(queue_info);
  // Operands by device address with 64-bit indices (both required by read_facts); arrays past
  // one allocation bound sparsely; fast/decoupled-lookback's status words are 64-bit atomics.
  auto& f10 = chain.get<vk::PhysicalDeviceFeatures2>().features;
  f10.shaderInt64 = true;
  f10.sparseBinding = f.sparse_binding;
  // The element types the device has (vk_requirements.cpp refuses the others).
  f10.shaderFloat64 = f.float64;
  chain.get<vk::PhysicalDeviceVulkan11Features>().storageBuffer16BitAccess = f.storage16;
  chain.get<vk::PhysicalDeviceVulkan12Features>().shaderSubgroupExtendedTypes =
      f.subgroup_extended_types;
  chain.get<vk::PhysicalDeviceVulkan12Features>().bufferDeviceAddress = true;
  chain.get<vk::PhysicalDeviceVulkan12Features>().shaderBufferInt64Atomics = f.int64_atomics;
  chain.get<vk::PhysicalDeviceVulkan12Features>().timelineSemaphore = f.timeline_semaphore;
  if (f.api_version >= VK_API_VERSION_1_3) {
    auto& f13 = chain.get<vk::PhysicalDeviceVulkan13Features>();
    f13.subgroupSizeControl = f13.computeFullSubgroups = f.full_subgroups;
  } else {
    chain.unlink<vk::PhysicalDeviceVulkan13Features>();
  }
  device_ = XR_VK_CHECK(f.physical.createDevice(chain.get<vk::DeviceCreateInfo>()));
  queue_ = XR_VK_CHECK(device_.getQueue(f.queue_family, 0));
  command_pool_ = XR_VK_CHECK(device_.createCommandPool(vk::CommandPoolCreateInfo(
      vk::CommandPoolCreateFlagBits::eResetCommandBuffer, f.queue_family)));
  pipeline_cache_ = XR_VK_CHECK(device_.createPipelineCache(vk::PipelineCacheCreateInfo()));

  // Three storage-buffer bindings (the operands of the binding modules) and the push constants
  // (with the operands' addresses, read by the address modules): shaders/common.glsl.
  std::array<vk::DescriptorSetLayoutBinding, 3> bindings;
  for (std::uint32_t b = 0; b < bindings.size(); ++b)
    bindings[b] = vk::DescriptorSetLayoutBinding(b, vk::DescriptorType::eStorageBuffer, 1,
                                                 vk::ShaderStageFlagBits::eCompute);
  set_layout_ = XR_VK_CHECK(
      device_.createDescriptorSetLayout(vk::DescriptorSetLayoutCreateInfo({}, bindings)));
  const vk::PushConstantRange push(vk::ShaderStageFlagBits::eCompute, 0, sizeof(PushBlock));
  const vk::DescriptorSetLayout set_layout = *set_layout_;
  pipeline_layout_ =
      XR_VK_CHECK(device_.createPipelineLayout(vk::PipelineLayoutCreateInfo({}, set_layout, push)));
  fence_ = XR_VK_CHECK(device_.createFence(vk::FenceCreateInfo()));
  instance_->sink().raise();
}

Device::~Device() {
  // After a timed-out fence the queue may still hold work that uses the objects destroyed below.
  drain();
}

void Device::drain() const noexcept {
  if (*device_) device_.getDispatcher()->vkDeviceWaitIdle(*device_);  // no-throw twin of waitIdle
}

vk::Pipeline Device::pipeline(const PipelineKey& key) {
  auto it = pipelines_.find(key);
  if (it != pipelines_.end()) return *it->second.pipeline;
  const spirv::Module* module = spirv::find(key.module);
  if (!module)
    throw Error(ErrorCategory::unavailable,
                "SPIR-V module '" + key.module + "' is not embedded in this build");
  PipelineEntry entry;
  entry.module = XR_VK_CHECK(device_.createShaderModule(
      vk::ShaderModuleCreateInfo({}, module->words.size_bytes(), module->words.data())));
  // Specialization constants: 0 = workgroup size, 1 = unroll factor, 2 = back-off, 3 = operator
  // (each ignored by shaders that do not declare it).
  const std::uint32_t values[] = {key.workgroup, key.unroll, key.backoff, key.op};
  const vk::SpecializationMapEntry entries[] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}, {3, 12, 4}};
  vk::SpecializationInfo spec(entries, vk::ArrayProxyNoTemporaries<const std::uint32_t>(values));
  vk::PipelineShaderStageCreateFlags stage_flags;
  // Subgroup shaders index shared memory by lane and need every subgroup full.
  if (facts().full_subgroups && key.workgroup % facts().max_subgroup_size == 0)
    stage_flags |= vk::PipelineShaderStageCreateFlagBits::eRequireFullSubgroups;
  vk::PipelineShaderStageCreateInfo stage(stage_flags, vk::ShaderStageFlagBits::eCompute,
                                          *entry.module, "main", &spec);
  entry.pipeline = XR_VK_CHECK(device_.createComputePipeline(
      pipeline_cache_, vk::ComputePipelineCreateInfo({}, stage, *pipeline_layout_)));
  return *pipelines_.emplace(key, std::move(entry)).first->second.pipeline;
}

vk::raii::CommandBuffer Device::allocate_command_buffer() {
  vk::raii::CommandBuffers buffers = XR_VK_CHECK(vk::raii::CommandBuffers(
      device_, vk::CommandBufferAllocateInfo(*command_pool_, vk::CommandBufferLevel::ePrimary, 1)));
  return std::move(buffers.front());
}

double Device::submit_and_wait(const vk::raii::CommandBuffer& cmd) {
  const vk::CommandBuffer handle = *cmd;
  XR_VK_CHECK(device_.resetFences(*fence_));
  const auto start = std::chrono::steady_clock::now();
  XR_VK_CHECK(queue_.submit(vk::SubmitInfo({}, {}, handle), *fence_));
  wait(fence_, facts().cpu() ? Wait::block : kGpuWait);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

void Device::wait(const vk::raii::Fence& fence, Wait how) const {
  const auto timed_out = [] {
    throw Error(ErrorCategory::device_lost, "Vulkan fence wait timed out after " +
                                                std::to_string(kFenceTimeout.count()) +
                                                " s: the device stopped answering");
  };
  if (how == Wait::block) {
    const auto timeout_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(kFenceTimeout).count();
    if (XR_VK_CHECK(device_.waitForFences(*fence, VK_TRUE, timeout_ns)) == vk::Result::eTimeout)
      timed_out();
    return;
  }
  const auto deadline = std::chrono::steady_clock::now() + kFenceTimeout;
  for (unsigned polls = 1;; ++polls) {
    const vk::Result r = XR_VK_CHECK(fence.getStatus());
    if (r == vk::Result::eSuccess) return;
    if (polls % 4096 == 0 && std::chrono::steady_clock::now() > deadline) timed_out();
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
