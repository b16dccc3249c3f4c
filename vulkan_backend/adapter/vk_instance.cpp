#include "vk_instance.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "vk_buffer.hpp"
#include "vk_internal.hpp"
#include "vk_keep_loaded.hpp"
#include "xreduce/error.hpp"

#if defined(__SANITIZE_ADDRESS__)
#endif

namespace xr::vulkan {

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

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

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

vk::DebugUtilsMessengerCreateInfoEXT messenger_info(ValidationSink& sink) {
  using S = vk::DebugUtilsMessageSeverityFlagBitsEXT;
  using T = vk::DebugUtilsMessageTypeFlagBitsEXT;
  return {{},
          S::eWarning | S::eError,
          T::eGeneral | T::eValidation | T::ePerformance,
          &on_validation_message,
          &sink};
}

// The layer, VK_EXT_debug_utils and VK_EXT_validation_features (synchronization validation), or
// Error(unavailable) naming what is missing.
void require_validation(const vk::raii::Context& context) {
  if (!has_layer(context, kValidationLayer))
    throw Error(ErrorCategory::unavailable,
                "XR_VK_VALIDATION=1 but the layer VK_LAYER_KHRONOS_validation is not installed "
                "(Debian: vulkan-validationlayers) or not on VK_LAYER_PATH");
  const auto layer = context.enumerateInstanceExtensionProperties(std::string(kValidationLayer));
  const auto global = context.enumerateInstanceExtensionProperties();
  if (!has_extension(layer, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) &&
      !has_extension(global, VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
    throw Error(ErrorCategory::unavailable,
                "XR_VK_VALIDATION=1 but VK_EXT_debug_utils is not available");
  if (!has_extension(layer, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME))
    throw Error(ErrorCategory::unavailable,
                "XR_VK_VALIDATION=1 but the validation layer lacks VK_EXT_validation_features "
                "(needed for synchronization validation)");
}

}  // namespace

std::shared_ptr<Instance> Instance::create(VulkanKnobs knobs) {
  std::shared_ptr<Instance> self(new Instance(std::move(knobs)));
  self->create_instance();
  vk::raii::PhysicalDevices physicals = XR_VK_CHECK(vk::raii::PhysicalDevices(self->instance_));
  int index = 0;
  for (auto& physical : physicals) {
    self->devices_.push_back(query_facts(std::move(physical), index++, self->api_version_));
    describe_facts(self->devices_.back(), largest_buffer(self->devices_.back(), self->knobs_).why);
  }
  self->sink_.raise();
  return self;
}

void Instance::create_instance() {
  const std::uint32_t loader = XR_VK_CHECK(context_.enumerateInstanceVersion());
  if (loader < VK_API_VERSION_1_2)
    throw Error(ErrorCategory::unavailable,
                "the Vulkan loader supports only " + std::to_string(VK_API_VERSION_MAJOR(loader)) +
                    "." + std::to_string(VK_API_VERSION_MINOR(loader)) + "." +
                    std::to_string(VK_API_VERSION_PATCH(loader)) + "; 1.2 is needed");
  std::vector<const char*> layers, extensions;
  vk::DebugUtilsMessengerCreateInfoEXT messenger = messenger_info(sink_);
  const vk::ValidationFeatureEnableEXT enables[] = {
      vk::ValidationFeatureEnableEXT::eSynchronizationValidation};
  vk::ValidationFeaturesEXT features(enables, {}, &messenger);
  if (knobs_.validation) {
    require_validation(context_);
    layers.push_back(kValidationLayer);
    extensions = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
  }
  api_version_ = std::min<std::uint32_t>(loader, VK_API_VERSION_1_3);
  vk::ApplicationInfo app("xreduce", 1, "xreduce", 1, api_version_);
  vk::InstanceCreateInfo info({}, &app, layers, extensions,
                              knobs_.validation ? &features : nullptr);
  instance_ = XR_VK_CHECK(vk::raii::Instance(context_, info));
  keep_vulkan_libraries_loaded();
  if (knobs_.validation)
    messenger_ = XR_VK_CHECK(instance_.createDebugUtilsMessengerEXT(messenger_info(sink_)));
}

}  // namespace xr::vulkan
