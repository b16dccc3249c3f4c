#include "vk_context.hpp"

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "vk_check.hpp"
#include "vk_enabled_features.hpp"
#include "vk_reduce_table.hpp"
#include "vk_requirements.hpp"
#include "xreduce/call_check.hpp"
#include "xreduce/choice_order.hpp"
#include "xreduce/error.hpp"
#include "xreduce/library_variants.hpp"

namespace xr::vulkan {
namespace {

// The library's choice, fastest first (i32 and f32 sums, 1K..256M, cold and batch). The rest of
// each table follows from its fast end, for devices that lack what these need.
constexpr LibraryChoice kReducePolicy[] = {
    {"fast/single-pass",
     "H200: the fastest Vulkan reduce from 16K; fast/vectorized 0.3-0.6 us faster at 1K-4K, "
     "where single-pass runs one workgroup too; docs/results/H200/results.json"},
    {"fast/vectorized", ""}};
constexpr LibraryChoice kScanPolicy[] = {
    {"fast/decoupled-lookback",
     "H200: the fastest Vulkan scan from 16K up to 2^28 (its one-group path below); "
     "docs/results/H200/results.json"},
    {"fast/reduce-then-scan", ""}};
// Sorts: onesweep first; bitonic/smem, the ladder's slow first rung, last.
constexpr LibraryChoice kSortPolicy[] = {
    {"radix/onesweep", "one read and one write of the keys a digit pass"},
    {"radix/reduce-then-scan", "two reads of the keys a digit pass"},
    {"bitonic/smem",
     "O(n log^2 n) compares: the sort of a device without the radix sorts' subgroup operations"}};
// Histograms: unmeasured, CUDA's order (the order the ladder's design predicts: fewer, less
// contended atomics and wider loads first).
constexpr LibraryChoice kHistogramPolicy[] = {
    {"fast/replicated",
     "unmeasured: sub-histograms a lane in shared memory, 16-byte loads, a wave of workgroups"},
    {"subgroup/aggregated", "unmeasured: a subgroup's equal bins added once"},
    {"atomic/aggregated", "unmeasured: an invocation's runs of one bin added once"},
    {"atomic/coarsened", "unmeasured: a copy a workgroup, merged once per resident workgroup"},
    {"atomic/privatized", "unmeasured: a copy a workgroup, merged once per 256 samples"},
    {"atomic/global", "unmeasured: one global atomic a sample"}};

[[noreturn]] void misused(const std::string& what) {
  throw Error(ErrorCategory::usage, "xreduce::vulkan: ContextInfo: " + what);
}

// Longer pNext chains than this are taken for a loop (a struct linked to itself).
constexpr int kMaxChain = 256;

// Everything of ContextInfo the library reads is checked before it is used: a field left
// uninitialised or set to the wrong object is one line of usage, never a crash inside a driver.
void check_info(const ContextInfo& info) {
  if (!info.instance || !info.physical_device || !info.device || !info.device_info)
    misused(
        "needs the instance, the physical device, the device and the VkDeviceCreateInfo it "
        "was created with (a null handle or pointer)");
  if (VK_API_VERSION_VARIANT(info.api_version) != 0 || VK_API_VERSION_MAJOR(info.api_version) != 1)
    misused("api_version " + std::to_string(info.api_version) +
            " is not a Vulkan 1.x version (VK_API_VERSION_1_2, VK_MAKE_API_VERSION(0, 1, 3, 0))");
  const VkDeviceCreateInfo& d = *info.device_info;
  if (d.sType != VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO)
    misused("device_info is not a VkDeviceCreateInfo (its sType is " + std::to_string(d.sType) +
            ")");
  if (d.enabledExtensionCount && !d.ppEnabledExtensionNames)
    misused("device_info has " + std::to_string(d.enabledExtensionCount) +
            " extensions and no ppEnabledExtensionNames");
  for (std::uint32_t i = 0; i < d.enabledExtensionCount; ++i)
    if (!d.ppEnabledExtensionNames[i])
      misused("device_info's extension name " + std::to_string(i) + " is null");
  int length = 0;
  for (auto* s = static_cast<const VkBaseInStructure*>(d.pNext); s; s = s->pNext)
    if (++length > kMaxChain)
      misused("device_info's pNext chain is longer than " + std::to_string(kMaxChain) +
              " structures (a struct linked to itself?)");
}

// The physical device must be one of the instance's: a handle of another instance (or any other
// pointer) would reach the driver through the wrong function table.
void check_physical_device(const vk::raii::Instance& instance, VkPhysicalDevice physical) {
  const auto& dispatch = *instance.getDispatcher();
  std::uint32_t count = 0;
  if (dispatch.vkEnumeratePhysicalDevices(*instance, &count, nullptr) == VK_SUCCESS) {
    std::vector<VkPhysicalDevice> devices(count);
    if (dispatch.vkEnumeratePhysicalDevices(*instance, &count, devices.data()) >= 0 &&
        std::find(devices.begin(), devices.begin() + count, physical) != devices.begin() + count)
      return;
  }
  misused("physical_device is not one of the instance's physical devices");
}

}  // namespace

ContextState::ContextState(const ContextInfo& info, VulkanKnobs knobs_in)
    : knobs(std::move(knobs_in)), lookback(lookback_policy(knobs)) {
  check_info(info);
  instance.emplace(loader, info.instance);
  if (!instance->getDispatcher()->vkGetPhysicalDeviceProperties2)
    throw Error(ErrorCategory::unsupported,
                "xreduce::vulkan: the instance was created for Vulkan 1.0; the library needs 1.2");
  check_physical_device(*instance, info.physical_device);
  facts =
      query_facts(vk::raii::PhysicalDevice(*instance, info.physical_device), 0, info.api_version);
  if (!facts.unusable_reason.empty())
    throw Error(ErrorCategory::unsupported,
                "xreduce::vulkan: " + facts.info.name + " cannot run it: " + facts.unusable_reason);
  restrict_to_enabled(facts, enabled_features(*info.device_info));
  device.emplace(facts.physical, info.device);
  if (!device->getDispatcher()->vkGetBufferDeviceAddress)
    throw Error(ErrorCategory::unsupported,
                "xreduce::vulkan: the device has no vkGetBufferDeviceAddress (Vulkan 1.2)");
  pipelines.emplace(*device, facts, info.pipeline_cache, knobs.capture_ir_dir);
}

ContextState::~ContextState() {
  pipelines.reset();  // before the borrowed device goes
}

vk::DeviceSize ContextState::operand_alignment() const {
  return std::max<vk::DeviceSize>(32, facts.limits.minStorageBufferOffsetAlignment);
}

std::vector<std::string_view> variant_order(Primitive primitive) {
  const auto id_of = [](const auto& row) { return std::string_view(row.id()); };
  if (primitive == Primitive::reduce) return choice_order(kReducePolicy, reduce_table(), id_of);
  if (primitive == Primitive::scan) return choice_order(kScanPolicy, scan_table(), id_of);
  if (primitive == Primitive::histogram)
    return choice_order(kHistogramPolicy, histogram_table(), id_of);
  return choice_order(kSortPolicy, sort_table(), id_of);
}

std::string histogram_sample_missing(DType t, const DeviceFacts& f) {
  if (t == DType::f64 && !f.float64) return "shaderFloat64 (f64 samples)";
  return {};
}

namespace {

// Whether the device runs variant `id` of `primitive` over `t`, past what the variant itself
// needs (variant_unsupported_reason): the element type's features, the push descriptors the sorts
// and histograms bind their operands by.
bool runs_over(Primitive primitive, std::string_view id, DType t, const ContextState& c) {
  const DeviceFacts& f = c.facts;
  if (primitive == Primitive::reduce) {
    const ReduceSpec& spec = *find_reduce(id);
    return dtype_missing(t, spec.needs, reduce_group_memory_bytes(spec.schedule), f).empty();
  }
  if (primitive == Primitive::sort) {
    const sort::Spec& spec = *find_sort(id);
    return f.push_descriptors && dtype_missing(t, spec.needs, spec.group_bytes, f).empty();
  }
  if (primitive == Primitive::histogram)
    return f.push_descriptors &&
           std::find(std::begin(kHistogramSampleDTypes), std::end(kHistogramSampleDTypes), t) !=
               std::end(kHistogramSampleDTypes) &&
           histogram_sample_missing(t, f).empty();
  const ScanSpec spec = effective_spec(*find_scan(id), c.lookback);
  return dtype_missing(t, spec.needs, spec.group_bytes, f).empty();
}

}  // namespace

// --- the public Context --------------------------------------------------------------------

Context::Context(const ContextInfo& info) : state_(make_state<ContextState>(info, VulkanKnobs{})) {}
Context::Context(std::unique_ptr<ContextState> state) : state_(own_state(std::move(state))) {}

Context make_context(std::unique_ptr<ContextState> state) {
  return Context(std::move(state));
}

const std::string& Context::device_name() const {
  return state_->facts.info.name;
}

VkDeviceSize Context::operand_alignment() const {
  return state_->operand_alignment();
}

bool Context::clock_supported() const {
  return state_->facts.device_clock;
}

std::vector<std::string> Context::variants(Primitive primitive, DType t) const {
  std::vector<std::string> runnable;
  for (std::string_view id : variant_order(primitive))
    if (variant_unsupported_reason(primitive, id, state_->facts, state_->lookback).empty() &&
        runs_over(primitive, id, t, *state_))
      runnable.emplace_back(id);
  return runnable;
}

std::string variant_unsupported_reason(Primitive primitive, std::string_view id,
                                       const DeviceFacts& facts, const LookBackPolicy& lookback) {
  return Variants::unsupported_reason(
      primitive, id, facts, [&](const ScanSpec& s) { return effective_spec(s, lookback); });
}

ContextState& state_of(const Context& context) {
  return *context.state_;
}

}  // namespace xr::vulkan
