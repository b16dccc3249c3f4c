#include "vk_device.hpp"

#include <algorithm>
#include <string_view>

namespace xr::onebin {
namespace {

constexpr std::string_view kCudaKernelLaunch = "VK_NV_cuda_kernel_launch";

vk::raii::Instance make_instance(const vk::raii::Context& context) {
  const vk::ApplicationInfo app("xreduce_one_binary", 1, nullptr, 0, VK_API_VERSION_1_3);
  return XR_VK(vk::raii::Instance(context, vk::InstanceCreateInfo({}, &app)));
}

vk::raii::PhysicalDevice find_physical(const vk::raii::Instance& instance, const DeviceUuid& uuid) {
  for (const vk::raii::PhysicalDevice& p : XR_VK(vk::raii::PhysicalDevices(instance))) {
    const auto chain =
        p.getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceIDProperties>();
    const auto& id = chain.get<vk::PhysicalDeviceIDProperties>().deviceUUID;
    if (std::equal(uuid.begin(), uuid.end(), id.begin())) return p;
  }
  throw Error(ErrorCategory::unavailable,
              "vulkan: no device has the CUDA device's UUID " + uuid_text(uuid));
}

bool offers(const vk::raii::PhysicalDevice& p, std::string_view extension) {
  const auto all = p.enumerateDeviceExtensionProperties();
  return std::any_of(all.begin(), all.end(), [&](const vk::ExtensionProperties& e) {
    return extension == std::string_view(e.extensionName.data());
  });
}

std::uint32_t compute_family(const vk::raii::PhysicalDevice& p) {
  const auto families = p.getQueueFamilyProperties();
  for (std::uint32_t i = 0; i < families.size(); ++i)
    if ((families[i].queueFlags & vk::QueueFlagBits::eCompute) && families[i].timestampValidBits)
      return i;
  throw Error(ErrorCategory::unavailable, "vulkan: no compute queue family has timestamps");
}

vk::raii::Device make_device(const vk::raii::PhysicalDevice& p, std::uint32_t family) {
  if (!offers(p, VK_NVX_BINARY_IMPORT_EXTENSION_NAME))
    throw Error(ErrorCategory::unavailable,
                "vulkan: the device offers no VK_NVX_binary_import: CUDA's modules do not load");
  const float priority = 1;
  const vk::DeviceQueueCreateInfo queue({}, family, 1, &priority);
  vk::PhysicalDeviceVulkan12Features v12;
  v12.bufferDeviceAddress = VK_TRUE;
  const char* extensions[] = {VK_NVX_BINARY_IMPORT_EXTENSION_NAME};
  vk::DeviceCreateInfo info;
  info.setQueueCreateInfos(queue).setPEnabledExtensionNames(extensions).setPNext(&v12);
  return XR_VK(vk::raii::Device(p, info));
}

std::string describe_device(const vk::raii::PhysicalDevice& p) {
  const vk::PhysicalDeviceProperties props = p.getProperties();
  const std::uint32_t v = props.driverVersion;  // NVIDIA's packing: 10.8.8.6 bits
  return std::string(props.deviceName.data()) + ", driver " + std::to_string(v >> 22) + "." +
         std::to_string((v >> 14) & 0xff) + "." + std::to_string((v >> 6) & 0xff) +
         ", VK_NVX_binary_import; " + std::string(kCudaKernelLaunch) +
         (offers(p, kCudaKernelLaunch) ? " offered (not used)" : " not offered");
}

}  // namespace

VulkanDevice::VulkanDevice(const DeviceUuid& uuid)
    : instance_(make_instance(context_)),
      physical_(find_physical(instance_, uuid)),
      family_(compute_family(physical_)),
      device_(make_device(physical_, family_)),
      queue_(XR_VK(device_.getQueue(family_, 0))),
      describe_(describe_device(physical_)) {
  timestamp_ns_ = physical_.getProperties().limits.timestampPeriod;
  const std::uint32_t bits = physical_.getQueueFamilyProperties()[family_].timestampValidBits;
  timestamp_mask_ = bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

std::uint32_t VulkanDevice::memory_type(std::uint32_t allowed, vk::MemoryPropertyFlags want) const {
  const vk::PhysicalDeviceMemoryProperties m = physical_.getMemoryProperties();
  for (std::uint32_t i = 0; i < m.memoryTypeCount; ++i)
    if ((allowed & (1u << i)) && (m.memoryTypes[i].propertyFlags & want) == want) return i;
  throw Error(ErrorCategory::unavailable, "vulkan: no memory type has the properties asked for");
}

}  // namespace xr::onebin
