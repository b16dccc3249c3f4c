// The library's state behind a Context (xreduce/vulkan/context.hpp): the caller's instance and
// device seen through Vulkan-Hpp's function tables (borrowed: released, never destroyed), the
// device's facts restricted to what the caller enabled, the pipelines and the policies.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>
#include "vk_hpp.hpp"

#include "vk_device_facts.hpp"
#include "vk_histogram_table.hpp"
#include "vk_knobs.hpp"
#include "vk_pipelines.hpp"
#include "vk_reduce_table.hpp"
#include "vk_requirements.hpp"
#include "vk_scan_table.hpp"
#include "vk_sort_table.hpp"
#include "xreduce/library_variants.hpp"
#include "xreduce/vulkan/context.hpp"

namespace xr::vulkan {

// A Vulkan-Hpp RAII handle over the caller's object: released, never destroyed, however the
// holder goes (a constructor that throws half-way included).
template <class Handle>
class Borrowed {
 public:
  Borrowed() = default;
  ~Borrowed() { handle_.release(); }
  Borrowed(const Borrowed&) = delete;
  Borrowed& operator=(const Borrowed&) = delete;
  template <class... Args>
  void emplace(Args&&... args) {
    handle_.release();
    handle_ = Handle(std::forward<Args>(args)...);
  }
  const Handle& operator*() const { return handle_; }
  const Handle* operator->() const { return &handle_; }

 private:
  Handle handle_{nullptr};
};

struct ContextState {
  // Error(unsupported) naming what the device lacks or the caller did not enable. `knobs`: the
  // tool's (docs/cli.md); a library caller gets the defaults, no environment is read.
  ContextState(const ContextInfo& info, VulkanKnobs knobs);
  ~ContextState();
  ContextState(const ContextState&) = delete;
  ContextState& operator=(const ContextState&) = delete;

  const vk::raii::DeviceDispatcher& dispatch() const { return *device->getDispatcher(); }
  vk::DeviceSize operand_alignment() const;

  vk::raii::Context loader;  // the system loader's vkGetInstanceProcAddr
  Borrowed<vk::raii::Instance> instance;
  DeviceFacts facts;  // only what the caller enabled
  Borrowed<vk::raii::Device> device;
  VulkanKnobs knobs;
  LookBackPolicy lookback;
  std::optional<Pipelines> pipelines;  // reset before the device is released
};

// The library's variants as core reads its tables: Variants::has(primitive, id), info(primitive,
// id) (the VariantInfo the catalog registers), all() (reduces, scans, sorts, histograms).
using Variants = LibraryVariants<&reduce_table, &scan_table, &vulkan_dtypes, &requirement_words,
                                 &missing_reason, &sort_table, &histogram_table>;

// What the device lacks for histogram samples of `t`, in words (empty: nothing): f64 samples'
// bin rule runs in double (shaderFloat64); every sample type is read as 32-bit words.
std::string histogram_sample_missing(DType t, const DeviceFacts& facts);

// Why `facts`' device cannot run variant `id` of `primitive` as the library plans it (a scan with
// `lookback`'s tile): "unknown variant" for an id the library lacks, a feature the device lacks;
// empty when it can. The one answer the library's Reduce, Scan and variants() and the tool's
// adapter pass on; a dtype's own needs are require_dtype's (vk_requirements.hpp).
std::string variant_unsupported_reason(Primitive primitive, std::string_view id,
                                       const DeviceFacts& facts, const LookBackPolicy& lookback);

// The state of `context` (a friend of Context: no public accessor).
ContextState& state_of(const Context& context);

// A Context over `state` (the tool's, with its knobs).
Context make_context(std::unique_ptr<ContextState> state);

// The variants of a primitive in the library's order: the measured fastest first (the policy
// in vk_context.cpp), then the rest of the table from its fast end.
std::vector<std::string_view> variant_order(Primitive primitive);

}  // namespace xr::vulkan
