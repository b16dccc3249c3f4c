// The library's state behind a Context (xreduce/vulkan/context.hpp): the caller's instance and
// device seen through Vulkan-Hpp's function tables (borrowed: released, never destroyed), the
// device's facts restricted to what the caller enabled, the pipelines and the policies.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <vector>
#include <vulkan/vulkan_raii.hpp>

#include "vk_device_facts.hpp"
#include "vk_knobs.hpp"
#include "vk_pipelines.hpp"
#include "vk_scan_table.hpp"
#include "xreduce/vulkan/context.hpp"

namespace xr::vulkan {

struct ContextState {
  // Error(unsupported) naming what the device lacks or the caller did not enable. `knobs`: the
  // tool's (docs/cli.md); a library caller gets the defaults, no environment is read.
  ContextState(const ContextInfo& info, VulkanKnobs knobs);
  ~ContextState();
  ContextState(const ContextState&) = delete;
  ContextState& operator=(const ContextState&) = delete;

  const vk::raii::DeviceDispatcher& dispatch() const { return *device.getDispatcher(); }
  vk::DeviceSize operand_alignment() const;

  vk::raii::Context loader;              // the system loader's vkGetInstanceProcAddr
  vk::raii::Instance instance{nullptr};  // borrowed
  DeviceFacts facts;                     // only what the caller enabled
  vk::raii::Device device{nullptr};      // borrowed
  VulkanKnobs knobs;
  LookBackPolicy lookback;
  std::optional<Pipelines> pipelines;  // reset before the device is released
};

// A Context over `state` (the tool's, with its knobs).
Context make_context(std::unique_ptr<ContextState> state);

// The variants of a primitive in the library's order: the measured fastest first (the policy
// in vk_context.cpp), then the rest of the table from its fast end.
std::vector<std::string_view> variant_order(Primitive primitive);

}  // namespace xr::vulkan
