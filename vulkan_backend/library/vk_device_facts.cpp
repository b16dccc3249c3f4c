#include "vk_device_facts.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <utility>

namespace xr::vulkan {
namespace {

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
  const std::pair<F, const char*> names[] = {{F::eBasic, "basic"},
                                             {F::eVote, "vote"},
                                             {F::eArithmetic, "arithmetic"},
                                             {F::eBallot, "ballot"},
                                             {F::eShuffle, "shuffle"},
                                             {F::eShuffleRelative, "shuffle-relative"},
                                             {F::eClustered, "clustered"},
                                             {F::eQuad, "quad"},
                                             {F::ePartitionedNV, "partitioned (NV)"}};
  std::string text;
  for (auto [bit, name] : names)
    if (ops & bit) text += (text.empty() ? "" : ", ") + std::string(name);
  return text.empty() ? "none" : text;
}

// The compute family with timestamps if there is one (the first such is the main queue on the
// drivers seen so far), else the first compute family; -1 without one.
int compute_family(const std::vector<vk::QueueFamilyProperties>& families) {
  int family = -1;
  for (std::size_t i = 0; i < families.size(); ++i) {
    if (!(families[i].queueFlags & vk::QueueFlagBits::eCompute)) continue;
    if (family < 0 || (families[family].timestampValidBits == 0 && families[i].timestampValidBits))
      family = static_cast<int>(i);
  }
  return family;
}

void read_identity(DeviceFacts& f, const vk::raii::PhysicalDevice& physical, int index) {
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
}

// Vulkan 1.1 and 1.2 properties and features (the device has 1.2).
void read_12(DeviceFacts& f, const vk::raii::PhysicalDevice& physical, bool sparse_queue) {
  const auto chain =
      physical.getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceVulkan11Properties,
                              vk::PhysicalDeviceVulkan12Properties>();
  const auto& p11 = chain.get<vk::PhysicalDeviceVulkan11Properties>();
  const auto& p12 = chain.get<vk::PhysicalDeviceVulkan12Properties>();
  f.info.uuid = uuid_text(p11.deviceUUID);
  f.info.driver_version = std::string(p12.driverName.data()) + " " + p12.driverInfo.data();
  f.subgroup_size = f.min_subgroup_size = f.max_subgroup_size = p11.subgroupSize;
  if (p11.subgroupSupportedStages & vk::ShaderStageFlagBits::eCompute)
    f.subgroup_ops = p11.subgroupSupportedOperations;
  f.max_allocation = p11.maxMemoryAllocationSize;

  const auto features =
      physical.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan11Features,
                            vk::PhysicalDeviceVulkan12Features>();
  const auto& f10 = features.get<vk::PhysicalDeviceFeatures2>().features;
  const auto& f12 = features.get<vk::PhysicalDeviceVulkan12Features>();
  f.float64 = f10.shaderFloat64;
  f.storage16 = features.get<vk::PhysicalDeviceVulkan11Features>().storageBuffer16BitAccess;
  f.subgroup_extended_types = f12.shaderSubgroupExtendedTypes;
  f.memory_model = f12.vulkanMemoryModel && f12.vulkanMemoryModelDeviceScope;
  f.int64_atomics = f10.shaderInt64 && f12.shaderBufferInt64Atomics;
  f.timeline_semaphore = f12.timelineSemaphore;
  f.sparse_binding = f10.sparseBinding && sparse_queue;
  f.sparse_address_space = f.limits.sparseAddressSpaceSize;
  // Every operand is reached by its device address with 64-bit indices (shaders/params.glsl).
  if (!f12.bufferDeviceAddress || !f10.shaderInt64)
    f.unusable_reason = !f12.bufferDeviceAddress ? "no bufferDeviceAddress" : "no shaderInt64";
}

void read_13(DeviceFacts& f, const vk::raii::PhysicalDevice& physical) {
  const auto p13 =
      physical.getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceVulkan13Properties>()
          .get<vk::PhysicalDeviceVulkan13Properties>();
  const auto f13 =
      physical.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan13Features>()
          .get<vk::PhysicalDeviceVulkan13Features>();
  f.full_subgroups = f13.subgroupSizeControl && f13.computeFullSubgroups;
  f.max_buffer = p13.maxBufferSize;
  f.min_subgroup_size = p13.minSubgroupSize;
  f.max_subgroup_size = std::max(p13.maxSubgroupSize, f.subgroup_size);
}

std::string yes_no(bool b) {
  return b ? "yes" : "no";
}

std::string bytes_or_not_reported(std::uint64_t bytes) {
  return bytes ? std::to_string(bytes) + " bytes" : "not reported";
}

std::string workgroup_size_text(const vk::PhysicalDeviceLimits& l) {
  return std::to_string(l.maxComputeWorkGroupSize[0]) + " x " +
         std::to_string(l.maxComputeWorkGroupSize[1]) + " x " +
         std::to_string(l.maxComputeWorkGroupSize[2]) + ", " +
         std::to_string(l.maxComputeWorkGroupInvocations) + " invocations";
}

std::string workgroup_count_text(const vk::PhysicalDeviceLimits& l) {
  return std::to_string(l.maxComputeWorkGroupCount[0]) + " x " +
         std::to_string(l.maxComputeWorkGroupCount[1]) + " x " +
         std::to_string(l.maxComputeWorkGroupCount[2]);
}

std::string timestamps_text(const DeviceFacts& f) {
  if (!f.timestamps()) return "no (host time instead)";
  std::ostringstream ts;
  ts << "yes, period " << f.limits.timestampPeriod << " ns, " << f.timestamp_valid_bits
     << " valid bits";
  return ts.str();
}

std::string subgroup_size_text(const DeviceFacts& f) {
  std::string text = std::to_string(f.subgroup_size);
  if (f.min_subgroup_size != f.max_subgroup_size)
    text += " (" + std::to_string(f.min_subgroup_size) + ".." +
            std::to_string(f.max_subgroup_size) + ")";
  return text;
}

}  // namespace

// NVIDIA's SMs and their warps (a property: the extension need not be enabled to read it).
void read_sm_builtins(DeviceFacts& f, const vk::raii::PhysicalDevice& physical) {
  const auto sm = physical
                      .getProperties2<vk::PhysicalDeviceProperties2,
                                      vk::PhysicalDeviceShaderSMBuiltinsPropertiesNV>()
                      .get<vk::PhysicalDeviceShaderSMBuiltinsPropertiesNV>();
  f.resident_invocations = sm.shaderSMCount * sm.shaderWarpsPerSM * 32;
}

// The extensions used where present: VK_KHR_push_descriptor (operands by binding without
// descriptor pools) and VK_KHR_shader_clock: its subgroup clock (the look-back's back-off in
// cycles, XR_VK_LOOKBACK_CLOCK) and its device clock (the SM clock probe, against the first);
// VK_KHR_pipeline_executable_properties: what the driver compiled (`xreduce inspect`);
// VK_NV_shader_subgroup_partitioned: subgroup/aggregated's match. VK_NV_shader_sm_builtins is
// read, not enabled.
void read_extensions(DeviceFacts& f, const vk::raii::PhysicalDevice& physical) {
  bool clock_listed = false, executable_listed = false, partition_listed = false, sm_listed = false;
  for (const auto& e : physical.enumerateDeviceExtensionProperties()) {
    const std::string_view name(e.extensionName.data());
    clock_listed |= name == VK_KHR_SHADER_CLOCK_EXTENSION_NAME;
    executable_listed |= name == VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
    f.push_descriptors |= name == VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    partition_listed |= name == VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME;
    sm_listed |= name == VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME;
    // A beta extension: its name macro is in vulkan_beta.h alone.
    f.cuda_kernel_launch |= name == "VK_NV_cuda_kernel_launch";
    f.binary_import |= name == VK_NVX_BINARY_IMPORT_EXTENSION_NAME;
  }
  f.subgroup_partitioned =
      partition_listed && bool(f.subgroup_ops & vk::SubgroupFeatureFlagBits::ePartitionedNV);
  if (sm_listed) read_sm_builtins(f, physical);
  if (executable_listed)
    f.executable_statistics =
        physical
            .getFeatures2<vk::PhysicalDeviceFeatures2,
                          vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR>()
            .get<vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR>()
            .pipelineExecutableInfo;
  if (!clock_listed) return;
  const auto clock =
      physical.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceShaderClockFeaturesKHR>()
          .get<vk::PhysicalDeviceShaderClockFeaturesKHR>();
  f.shader_clock = clock.shaderSubgroupClock;
  f.device_clock = clock.shaderSubgroupClock && clock.shaderDeviceClock;
}

DeviceFacts query_facts(vk::raii::PhysicalDevice physical, int index, std::uint32_t api_cap) {
  DeviceFacts f;
  read_identity(f, physical, index);
  f.api_version = std::min(f.api_version, api_cap);
  const auto families = physical.getQueueFamilyProperties();
  const int family = compute_family(families);
  if (f.api_version < VK_API_VERSION_1_2)
    f.unusable_reason = "Vulkan " + version_text(f.api_version) + " < 1.2";
  else if (family < 0)
    f.unusable_reason = "no compute queue";
  if (f.unusable_reason.empty()) {
    f.queue_family = static_cast<std::uint32_t>(family);
    f.timestamp_valid_bits = families[family].timestampValidBits;
    read_12(f, physical, bool(families[family].queueFlags & vk::QueueFlagBits::eSparseBinding));
    if (f.unusable_reason.empty() && f.api_version >= VK_API_VERSION_1_3) read_13(f, physical);
    if (f.unusable_reason.empty()) read_extensions(f, physical);
  }
  f.physical = std::move(physical);
  return f;
}

void describe_facts(DeviceFacts& f, const std::string& largest_array) {
  auto& p = f.info.properties;
  p.clear();
  p.emplace_back("type", type_text(f.type));
  if (!f.unusable_reason.empty()) {
    p.emplace_back("unusable", f.unusable_reason);
    return;
  }
  const auto& l = f.limits;
  p.emplace_back("driver", f.info.driver_version);
  p.emplace_back("subgroup size", subgroup_size_text(f));
  p.emplace_back("subgroup operations", subgroup_ops_text(f.subgroup_ops));
  p.emplace_back("max shared memory", std::to_string(l.maxComputeSharedMemorySize) + " bytes");
  p.emplace_back("max workgroup size", workgroup_size_text(l));
  p.emplace_back("max workgroup count", workgroup_count_text(l));
  p.emplace_back("max storage buffer range",
                 std::to_string(l.maxStorageBufferRange) +
                     " bytes (larger arrays: operands by device address)");
  p.emplace_back("max allocation", bytes_or_not_reported(f.max_allocation));
  p.emplace_back("max buffer size", bytes_or_not_reported(f.max_buffer));
  p.emplace_back("sparse binding", yes_no(f.sparse_binding));
  p.emplace_back("largest array", largest_array);
  p.emplace_back("timestamps", timestamps_text(f));
  p.emplace_back("memory model",
                 f.memory_model ? "Vulkan, device scope" : "no Vulkan memory model");
  p.emplace_back("full subgroups", yes_no(f.full_subgroups));
  p.emplace_back("64-bit buffer atomics", yes_no(f.int64_atomics));
  p.emplace_back("shader clock (subgroup)", yes_no(f.shader_clock));
  p.emplace_back("shader clock (device)", yes_no(f.device_clock));
  p.emplace_back("push descriptors", yes_no(f.push_descriptors));
  p.emplace_back(
      "CUDA binaries (VK_NV_cuda_kernel_launch, VK_NVX_binary_import)",
      std::string(yes_no(f.cuda_kernel_launch)) + ", " + yes_no(f.binary_import) +
          (f.binary_import ? " (--kernel FILE.ptx runs here by VK_NVX_binary_import)" : ""));
  p.emplace_back("subgroup partition (VK_NV_shader_subgroup_partitioned)",
                 yes_no(f.subgroup_partitioned));
  if (f.resident_invocations)
    p.emplace_back("resident invocations", std::to_string(f.resident_invocations));
  p.emplace_back("pipeline statistics", yes_no(f.executable_statistics));
  p.emplace_back("shaderFloat64 (f64)", yes_no(f.float64));
  p.emplace_back("storageBuffer16BitAccess (f16, bf16)", yes_no(f.storage16));
  p.emplace_back("shaderSubgroupExtendedTypes (i64/u64 subgroup operands)",
                 yes_no(f.subgroup_extended_types));
}

}  // namespace xr::vulkan
