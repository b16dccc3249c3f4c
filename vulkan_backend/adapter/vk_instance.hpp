// The Vulkan instance: the loader's entry, the optional validation layer (its messages collected
// and raised as errors), and the facts of every physical device, read once.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>
#include "vk_internal.hpp"

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

// The instance and its physical devices, with the knobs the backend read. Not movable: the
// messenger's callback holds the address of its sink. Shared by the backend, its logical devices
// and their objects.
class Instance {
 public:
  // Error(unavailable) when there is no loader, no Vulkan 1.2 instance, or validation was asked
  // for and the layer is missing.
  static std::shared_ptr<Instance> create(VulkanKnobs knobs);

  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  std::vector<DeviceFacts>& devices() { return devices_; }
  const std::vector<DeviceFacts>& devices() const { return devices_; }
  const VulkanKnobs& knobs() const { return knobs_; }
  const vk::raii::Instance& handle() const { return instance_; }
  std::uint32_t api_version() const { return api_version_; }  // the instance was made with
  ValidationSink& sink() { return sink_; }

 private:
  explicit Instance(VulkanKnobs knobs) : knobs_(std::move(knobs)) {}
  void create_instance();

  // Declaration order is destruction order reversed: the sink outlives the messenger, the
  // physical devices go before the instance.
  VulkanKnobs knobs_;
  std::uint32_t api_version_ = 0;
  ValidationSink sink_;
  vk::raii::Context context_;
  vk::raii::Instance instance_{nullptr};
  vk::raii::DebugUtilsMessengerEXT messenger_{nullptr};
  std::vector<DeviceFacts> devices_;
};

}  // namespace xr::vulkan
