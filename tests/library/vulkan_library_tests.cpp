#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include <vulkan/vulkan_raii.hpp>

#include "allocation_count.hpp"
#include "library_checks.hpp"
#include "vk_keep_loaded.hpp"
#include "xreduce/error.hpp"
#include "xreduce/histogram_reference.hpp"
#include "xreduce/histogram_samples.hpp"
#include "xreduce/vulkan.hpp"

namespace {

using xrtest::check_stable_sort;
using xrtest::refusal;

using xr::vulkan::Operand;

// Without a Vulkan device the test is skipped (ctest's SKIP_RETURN_CODE), unless CI says Vulkan
// must be there (XR_TEST_REQUIRE_BACKENDS, .ci/run).
void skip_without_device(bool usable) {
  if (usable) return;
  const char* required = std::getenv("XR_TEST_REQUIRE_BACKENDS");
  if (required && std::string_view(required).find("vulkan") != std::string_view::npos)
    FAIL("no Vulkan device, and XR_TEST_REQUIRE_BACKENDS requires one");
  std::puts("skipped: no Vulkan device");
  std::exit(77);
}

// Every validation message fails the test that caused it (the layer is on unless
// XR_VK_VALIDATION=0, as in the conformance suite, or not installed).
int g_validation_messages = 0;
VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                          VkDebugUtilsMessageTypeFlagsEXT,
                                          const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  ++g_validation_messages;
  std::fprintf(stderr, "validation: %s\n", data->pMessage);
  return VK_FALSE;
}

bool validation_wanted(const vk::raii::Context& loader) {
  const char* knob = std::getenv("XR_VK_VALIDATION");
  if (knob && std::string_view(knob) == "0") return false;
  for (const auto& layer : loader.enumerateInstanceLayerProperties())
    if (std::string_view(layer.layerName.data()) == "VK_LAYER_KHRONOS_validation") return true;
  return false;
}

// A device of the first physical device with a compute queue, made as a library caller makes
// one: with bufferDeviceAddress and shaderInt64 (or not: `bda`), and nothing else. Under the
// validation layer with synchronization validation, so that a barrier the docs give and the
// layer finds wrong fails the test.
struct TestDevice {
  explicit TestDevice(bool bda = true, bool push_descriptors = false) {
    vk::ApplicationInfo app("library_tests", 1, nullptr, 0, VK_API_VERSION_1_2);
    std::vector<const char*> layers, extensions;
    const bool validate = validation_wanted(loader);
    if (validate) {
      layers.push_back("VK_LAYER_KHRONOS_validation");
      extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
      extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
    }
    const vk::ValidationFeatureEnableEXT enables[] = {
        vk::ValidationFeatureEnableEXT::eSynchronizationValidation};
    const vk::ValidationFeaturesEXT features(enables, {});
    instance = vk::raii::Instance(loader, vk::InstanceCreateInfo({}, &app, layers, extensions,
                                                                 validate ? &features : nullptr));
    if (validate) {
      using S = vk::DebugUtilsMessageSeverityFlagBitsEXT;
      using T = vk::DebugUtilsMessageTypeFlagBitsEXT;
      messenger = vk::raii::DebugUtilsMessengerEXT(
          instance, {{}, S::eWarning | S::eError, T::eGeneral | T::eValidation, &on_message});
    }
    xr::vulkan::keep_vulkan_libraries_loaded();  // ASan builds: Mesa's leak stays nameable
    g_validation_messages = 0;
    vk::raii::PhysicalDevices all(instance);
    if (all.empty()) return;
    physical = all.front();
    const auto families = physical.getQueueFamilyProperties();
    while (!(families[family].queueFlags & vk::QueueFlagBits::eCompute)) ++family;
    queue_info = vk::DeviceQueueCreateInfo({}, family, 1, &priority);
    chain.get<vk::PhysicalDeviceFeatures2>().features.shaderInt64 = true;
    chain.get<vk::PhysicalDeviceVulkan12Features>().bufferDeviceAddress = bda;
    chain.get<vk::DeviceCreateInfo>().setQueueCreateInfos(queue_info);
    if (push_descriptors) {
      for (const auto& e : physical.enumerateDeviceExtensionProperties())
        if (std::string_view(e.extensionName.data()) == VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)
          extensions_enabled.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
      chain.get<vk::DeviceCreateInfo>().setPEnabledExtensionNames(extensions_enabled);
    }
    device = vk::raii::Device(physical, chain.get<vk::DeviceCreateInfo>());
    queue = device.getQueue(family, 0);
    pool = vk::raii::CommandPool(device, {{}, family});
  }
  bool usable() const { return static_cast<bool>(*device); }
  xr::vulkan::ContextInfo info() const {
    return {
        .instance = *instance,
        .physical_device = *physical,
        .device = *device,
        .device_info = &static_cast<const VkDeviceCreateInfo&>(chain.get<vk::DeviceCreateInfo>())};
  }

  // A device-local buffer with a device address, and a host-visible one to read it back.
  struct Memory {
    vk::raii::Buffer buffer{nullptr};
    vk::raii::DeviceMemory memory{nullptr};
    vk::DeviceAddress address = 0;
    void* mapped = nullptr;
  };
  Memory buffer(vk::DeviceSize bytes, bool host) const {
    Memory m;
    using U = vk::BufferUsageFlagBits;
    m.buffer =
        vk::raii::Buffer(device, {{},
                                  bytes,
                                  U::eStorageBuffer | U::eShaderDeviceAddress | U::eTransferSrc |
                                      U::eTransferDst | U::eIndirectBuffer});
    const auto req = m.buffer.getMemoryRequirements();
    const auto want =
        host ? vk::MemoryPropertyFlagBits::eHostVisible | vk::MemoryPropertyFlagBits::eHostCoherent
             : vk::MemoryPropertyFlagBits::eDeviceLocal;
    const auto props = physical.getMemoryProperties();
    std::uint32_t type = 0;
    while (!((req.memoryTypeBits >> type) & 1) ||
           (props.memoryTypes[type].propertyFlags & want) != want)
      ++type;
    vk::StructureChain<vk::MemoryAllocateInfo, vk::MemoryAllocateFlagsInfo> info(
        {req.size, type}, {vk::MemoryAllocateFlagBits::eDeviceAddress});
    m.memory = vk::raii::DeviceMemory(device, info.get<vk::MemoryAllocateInfo>());
    m.buffer.bindMemory(*m.memory, 0);
    m.address = device.getBufferAddress({*m.buffer});
    if (host) m.mapped = m.memory.mapMemory(0, bytes);
    return m;
  }

  // Records with `record`, submits and waits.
  template <class Record>
  void run(Record&& record) const {
    vk::raii::CommandBuffers cmds(device, {*pool, vk::CommandBufferLevel::ePrimary, 1});
    const vk::raii::CommandBuffer& cmd = cmds.front();
    cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
    record(cmd);
    cmd.end();
    vk::raii::Fence fence(device, vk::FenceCreateInfo());
    const vk::CommandBuffer handle = *cmd;
    queue.submit(vk::SubmitInfo({}, {}, handle), *fence);
    REQUIRE(device.waitForFences(*fence, VK_TRUE, 120'000'000'000ull) == vk::Result::eSuccess);
    CHECK(g_validation_messages == 0);
  }

  vk::raii::Context loader;
  vk::raii::Instance instance{nullptr};
  vk::raii::DebugUtilsMessengerEXT messenger{nullptr};
  vk::raii::PhysicalDevice physical{nullptr};
  std::uint32_t family = 0;
  float priority = 1.0f;
  vk::DeviceQueueCreateInfo queue_info;
  std::vector<const char*> extensions_enabled;
  vk::StructureChain<vk::DeviceCreateInfo, vk::PhysicalDeviceFeatures2,
                     vk::PhysicalDeviceVulkan12Features>
      chain;
  vk::raii::Device device{nullptr};
  vk::raii::Queue queue{nullptr};
  vk::raii::CommandPool pool{nullptr};
};

void barrier(const vk::raii::CommandBuffer& cmd, vk::PipelineStageFlags from,
             vk::AccessFlags written, vk::PipelineStageFlags to, vk::AccessFlags read) {
  cmd.pipelineBarrier(from, to, {}, vk::MemoryBarrier(written, read), {}, {});
}

xr::ErrorCategory category_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const xr::Error& e) {
    return e.category();
  }
  FAIL("no xr::Error thrown");
  return xr::ErrorCategory::usage;
}

}  // namespace

TEST_CASE("Context refuses a device created without bufferDeviceAddress", "[library]") {
  const TestDevice d(false);
  skip_without_device(d.usable());
  try {
    xr::vulkan::Context context(d.info());
    FAIL("a Context was made");
  } catch (const xr::Error& e) {
    CHECK(e.category() == xr::ErrorCategory::unsupported);
    CHECK_THAT(e.what(), Catch::Contains("bufferDeviceAddress"));
    // Which calls need it: the sorts past one binding too, not reduce and scan alone.
    CHECK_THAT(e.what(), Catch::Contains("which every reduce and scan needs, and a radix sort "
                                         "whose keys or values pass one storage-buffer binding"));
  }
  CHECK(category_of([&] {
          xr::vulkan::ContextInfo info = d.info();
          info.device_info = nullptr;
          xr::vulkan::Context context(info);
        }) == xr::ErrorCategory::usage);
}

// A ContextInfo filled wrongly is one line of usage before the library calls the driver with it
// (a consumer's uninitialised or mixed-up field must never crash inside the driver).
TEST_CASE("Context refuses a ContextInfo filled wrongly, naming the field", "[library]") {
  const TestDevice d;
  skip_without_device(d.usable());
  const auto refusal = [](const xr::vulkan::ContextInfo& info) -> std::string {
    try {
      xr::vulkan::Context context(info);
    } catch (const xr::Error& e) {
      CHECK(e.category() == xr::ErrorCategory::usage);
      CHECK(std::string_view(e.what()).find('\n') == std::string_view::npos);
      return e.what();
    }
    FAIL("a Context was made");
    return {};
  };
  xr::vulkan::ContextInfo info = d.info();
  info.api_version = 0xdeadbeef;
  CHECK_THAT(refusal(info), Catch::Contains("api_version 3735928559 is not a Vulkan 1.x"));

  info = d.info();
  VkDeviceCreateInfo wrong_type = *info.device_info;
  wrong_type.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  info.device_info = &wrong_type;
  CHECK_THAT(refusal(info), Catch::Contains("device_info is not a VkDeviceCreateInfo"));

  VkDeviceCreateInfo no_names = *d.info().device_info;
  no_names.enabledExtensionCount = 2;
  no_names.ppEnabledExtensionNames = nullptr;
  info.device_info = &no_names;
  CHECK_THAT(refusal(info), Catch::Contains("2 extensions and no ppEnabledExtensionNames"));

  VkPhysicalDeviceFeatures2 loop{};
  loop.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  loop.pNext = &loop;
  VkDeviceCreateInfo looped = *d.info().device_info;
  looped.pNext = &loop;
  info.device_info = &looped;
  CHECK_THAT(refusal(info), Catch::Contains("pNext chain is longer than"));

  // A physical device of another instance: the same GPU, through another function table.
  const TestDevice other;
  info = d.info();
  info.physical_device = *other.physical;
  CHECK_THAT(refusal(info), Catch::Contains("physical_device is not one of the instance's"));
}

TEST_CASE("the library's choice, and what it refuses by id, count and operand", "[library]") {
  const TestDevice d;
  skip_without_device(d.usable());
  const xr::vulkan::Context context(d.info());
  // Without shaderBufferInt64Atomics enabled, the look-back is not among the scans.
  const auto scans = context.variants(xr::Primitive::scan, xr::DType::i32);
  REQUIRE_FALSE(scans.empty());
  CHECK(scans.front() == "fast/reduce-then-scan");
  CHECK(std::find(scans.begin(), scans.end(), "fast/decoupled-lookback") == scans.end());
  CHECK(context.variants(xr::Primitive::reduce, xr::DType::i32).front() == "fast/single-pass");
  // f64 needs shaderFloat64, which this device was not given.
  CHECK(context.variants(xr::Primitive::reduce, xr::DType::f64).empty());
  CHECK(category_of([&] {
          xr::vulkan::Reduce r(context, {.dtype = xr::DType::f64, .count = 10});
        }) == xr::ErrorCategory::unsupported);
  CHECK(category_of([&] {
          xr::vulkan::Scan s(context, {.count = 10, .variant = "fast/decoupled-lookback"});
        }) == xr::ErrorCategory::unsupported);
  CHECK(category_of([&] { xr::vulkan::Scan s(context, {.count = 10, .variant = "no/such"}); }) ==
        xr::ErrorCategory::usage);
  CHECK(category_of([&] { xr::vulkan::Reduce r(context, {.count = 0}); }) ==
        xr::ErrorCategory::usage);

  const xr::vulkan::Scan scan(context, {.count = 1000});
  const auto in = d.buffer(4000, false);
  const auto scratch = d.buffer(scan.scratch_size(), false);
  const VkDeviceSize align = context.operand_alignment();
  CHECK(align >= 32);
  d.run([&](const vk::raii::CommandBuffer& cmd) {
    CHECK(category_of([&] {
            scan.record(*cmd, xr::ScanKind::inclusive, Operand::of(*in.buffer, align / 2),
                        Operand::of(*in.buffer), Operand::of(*scratch.buffer));
          }) == xr::ErrorCategory::usage);
    CHECK(category_of([&] {
            scan.record(*cmd, xr::ScanKind::inclusive, Operand{}, Operand::of(*in.buffer),
                        Operand::of(*scratch.buffer));
          }) == xr::ErrorCategory::usage);
  });
}

TEST_CASE("reduce and scans by buffer device address", "[library]") {
  const TestDevice d;
  skip_without_device(d.usable());
  const xr::vulkan::Context context(d.info());
  const std::uint64_t n = 100'003;
  std::vector<std::int32_t> data(n);
  for (std::uint64_t i = 0; i < n; ++i) data[i] = static_cast<std::int32_t>(i * 7919 % 23) - 11;
  const auto kind = xr::vulkan::OperandKind::addresses;
  const xr::vulkan::Reduce reduce(context, {.op = xr::Op::max, .count = n, .operands = kind});
  const xr::vulkan::Scan scan(context, {.count = n, .operands = kind});
  const auto in = d.buffer(n * 4, false), out = d.buffer(n * 4, false), max = d.buffer(16, false);
  const auto scan_scratch = d.buffer(scan.scratch_size(), false);
  const auto reduce_scratch = d.buffer(reduce.scratch_size(), false);
  const auto host = d.buffer(n * 4 + 16, true);
  std::memcpy(host.mapped, data.data(), n * 4);

  using S = vk::PipelineStageFlagBits;
  using A = vk::AccessFlagBits;
  d.run([&](const vk::raii::CommandBuffer& cmd) {
    cmd.copyBuffer(*host.buffer, *in.buffer, vk::BufferCopy(0, 0, n * 4));
    scan.record_scratch_init(*cmd, *scan_scratch.buffer);
    reduce.record_scratch_init(*cmd, *reduce_scratch.buffer);
    barrier(cmd, S::eTransfer, A::eTransferWrite, S::eComputeShader, A::eShaderRead);
    scan.record(*cmd, xr::ScanKind::exclusive, Operand::at(in.address), Operand::at(out.address),
                Operand::at(scan_scratch.address));
    reduce.record(*cmd, Operand::at(in.address), Operand::at(max.address),
                  Operand::at(reduce_scratch.address));
    barrier(cmd, S::eComputeShader, A::eShaderWrite, S::eTransfer, A::eTransferRead);
    cmd.copyBuffer(*out.buffer, *host.buffer, vk::BufferCopy(0, 0, n * 4));
    cmd.copyBuffer(*max.buffer, *host.buffer, vk::BufferCopy(0, n * 4, 4));
    barrier(cmd, S::eTransfer, A::eTransferWrite, S::eHost, A::eHostRead);
  });
  std::vector<std::int32_t> expected(n), got(n);
  std::exclusive_scan(data.begin(), data.end(), expected.begin(), 0);
  std::memcpy(got.data(), host.mapped, n * 4);
  CHECK(got == expected);
  std::int32_t result;
  std::memcpy(&result, static_cast<const char*>(host.mapped) + n * 4, 4);
  CHECK(result == *std::max_element(data.begin(), data.end()));
  CHECK(reduce.result_dtype() == xr::DType::i32);
}

TEST_CASE("scans of buffers at offsets, by binding and by address", "[library]") {
  const TestDevice d(true, true);
  skip_without_device(d.usable());
  const xr::vulkan::Context context(d.info());
  const std::uint64_t n = 5'001;
  std::vector<std::int32_t> data(n);
  for (std::uint64_t i = 0; i < n; ++i) data[i] = static_cast<std::int32_t>(i % 13) - 6;
  std::vector<std::int32_t> expected(n);
  std::inclusive_scan(data.begin(), data.end(), expected.begin());
  // The input and the output share one buffer at two aligned offsets.
  const VkDeviceSize in_at = context.operand_alignment() * 3;
  const VkDeviceSize out_at = in_at + ((n * 4 + 1023) / 1024) * 1024;
  for (const auto kind : {xr::vulkan::OperandKind::buffers, xr::vulkan::OperandKind::addresses}) {
    CAPTURE(kind == xr::vulkan::OperandKind::buffers ? "buffers" : "addresses");
    const xr::vulkan::Scan scan(context, {.count = n, .operands = kind});
    const auto both = d.buffer(out_at + n * 4, false);
    const VkDeviceSize scratch_at = context.operand_alignment();
    const auto scratch = d.buffer(scratch_at + scan.scratch_size(), false);
    const auto host = d.buffer(n * 4, true);
    std::memcpy(host.mapped, data.data(), n * 4);
    using S = vk::PipelineStageFlagBits;
    using A = vk::AccessFlagBits;
    d.run([&](const vk::raii::CommandBuffer& cmd) {
      cmd.copyBuffer(*host.buffer, *both.buffer, vk::BufferCopy(0, in_at, n * 4));
      scan.record_scratch_init(*cmd, *scratch.buffer, scratch_at);
      barrier(cmd, S::eTransfer, A::eTransferWrite, S::eComputeShader, A::eShaderRead);
      scan.record(*cmd, xr::ScanKind::inclusive, Operand::of(*both.buffer, in_at),
                  Operand::of(*both.buffer, out_at), Operand::of(*scratch.buffer, scratch_at));
      barrier(cmd, S::eComputeShader, A::eShaderWrite, S::eTransfer, A::eTransferRead);
      cmd.copyBuffer(*both.buffer, *host.buffer, vk::BufferCopy(out_at, 0, n * 4));
      barrier(cmd, S::eTransfer, A::eTransferWrite, S::eHost, A::eHostRead);
    });
    std::vector<std::int32_t> got(n);
    std::memcpy(got.data(), host.mapped, n * 4);
    CHECK(got == expected);
  }
}

// peak_mhz's rule on a scripted clock: `clock_at(ms)` is the clock after the device has been
// kept busy that long. Returns {peak, busy milliseconds it took}.
namespace {
std::pair<double, double> peak_of(const std::function<double(double)>& clock_at) {
  double busy_ms = 0;
  const double peak = xr::vulkan::peak_mhz(
      [&](double step_ms) {
        busy_ms += step_ms;
        return clock_at(busy_ms);
      },
      10);
  return {peak, busy_ms};
}
}  // namespace

TEST_CASE("peak_mhz keeps the device busy past a flat stretch at idle clock", "[library][clock]") {
  // An H200 without a CUDA context (examples/vulkan-scan --trace, docs/results/H200/clock):
  // 344 MHz for 70 ms, 374 for the next 170, then 981 and 1976. Two readings agreeing alone
  // would have settled at 344.
  const auto [peak, busy] = peak_of([](double ms) {
    return ms <= 70 ? 344.0 : ms <= 240 ? 374.0 : ms <= 250 ? 981.0 : 1976.0;
  });
  CHECK(peak == 1976.0);
  // The last new peak at 260 ms, then 400 ms without one.
  CHECK(busy == 660.0);
}

TEST_CASE(
    "peak_mhz stops a quiet period after the peak when the clock is flat, noise under the rise",
    "[library][clock]") {
  const auto [peak, busy] =
      peak_of([](double ms) { return static_cast<int>(ms / 10) % 2 ? 1980.0 : 1970.0; });
  CHECK(peak == 1980.0);
  // The first reading is the peak (1970 then 1980 is under the 1 % rise); 400 ms later.
  CHECK(busy == 410.0);
}

TEST_CASE("peak_mhz gives up at its maximum when the clock never settles", "[library][clock]") {
  // 2 % higher every 10 ms: a new peak at every step.
  const auto clock_at = [](double ms) { return 100 * std::pow(1.02, ms / 10); };
  const auto [peak, busy] = peak_of(clock_at);
  CHECK(busy == 2000.0);
  CHECK(peak == clock_at(2000));
}

// A sort's scratch is known before the Sort is made (its plan, no pipeline), as the Sort made
// then says; a request the constructor refuses is refused the same way.
TEST_CASE("a sort's scratch size before the Sort is made", "[library]") {
  const TestDevice d(true, true);
  skip_without_device(d.usable());
  const xr::vulkan::Context context(d.info());
  xrtest::check_scratch_before_sort(
      [&](const xr::SortDesc& desc) { return xr::vulkan::Sort::scratch_size(context, desc); },
      [&](const xr::SortDesc& desc) { return xr::vulkan::Sort(context, desc).scratch_size(); });
}

TEST_CASE("a sort of float keys with u32 values, as a splat renderer sorts depths", "[library]") {
  const TestDevice without(true, false);
  skip_without_device(without.usable());
  {
    // Its operands are pushed descriptors: a device made without the extension runs no sort.
    const xr::vulkan::Context context(without.info());
    CHECK(context.variants(xr::Primitive::sort, xr::DType::f32).empty());
    for (const char* variant : {"", "radix/onesweep"}) {
      try {
        xr::vulkan::Sort s(context, {.count = 10, .variant = variant});
        FAIL("a Sort was made");
      } catch (const xr::Error& e) {
        CHECK(e.category() == xr::ErrorCategory::unsupported);
        CHECK_THAT(e.what(), Catch::Contains("made without VK_KHR_push_descriptor"));
      }
    }
  }
  const TestDevice d(true, true);
  const xr::vulkan::Context context(d.info());
  constexpr std::uint64_t n = 100'003;  // many tiles, not a multiple of one
  std::vector<float> depth(n);
  std::vector<std::uint32_t> index(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    depth[i] = static_cast<float>(i * 7919 % 1000) * 0.25f - 100.0f;  // many equal keys
    index[i] = static_cast<std::uint32_t>(i);
  }
  // The expected order: stable, so equal depths keep their indices ascending.
  std::vector<std::uint32_t> order(index);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return depth[a] < depth[b]; });
  CHECK(category_of([&] {
          xr::vulkan::Sort s(context, {.dtype = xr::DType::u32, .count = 10, .bits = {0, 33}});
        }) == xr::ErrorCategory::usage);
  // An empty range says it is empty, not that it passes the key.
  CHECK_THAT(refusal([&] {
               xr::vulkan::Sort s(context, {.dtype = xr::DType::f32, .count = 10, .bits = {8, 8}});
             }),
             Catch::Contains("bits 8:8 are an empty range: begin must be below end"));
  const xr::vulkan::Sort sort(context,
                              {.dtype = xr::DType::f32, .count = n, .values = xr::SortValues::u32});
  CHECK(sort.variant() == "radix/onesweep");
  CHECK(sort.diagnostics().ranking() ==
        "subgroup ballots");  // lavapipe has every subgroup operation
  {
    // The tool's knobs are the tool's: a library user's environment changes nothing.
    setenv("XR_VK_SORT_RANKING", "counting", 1);
    setenv("XR_VK_SORT_TILE", "256x4", 1);
    const xr::vulkan::Context knobbed(d.info());
    const xr::vulkan::Sort same(
        knobbed, {.dtype = xr::DType::f32, .count = n, .values = xr::SortValues::u32});
    unsetenv("XR_VK_SORT_RANKING");
    unsetenv("XR_VK_SORT_TILE");
    CHECK(same.diagnostics().ranking() == "subgroup ballots");
    CHECK_THAT(std::string(sort.diagnostics().tuning()), Catch::StartsWith("digit tile "));
    CHECK(same.diagnostics().tuning() == sort.diagnostics().tuning());
    CHECK(same.scratch_size() == sort.scratch_size());
  }
  // Every operand at an offset into its buffer.
  const VkDeviceSize at = context.operand_alignment(), bytes = n * 4;
  const auto keys = d.buffer(at + bytes, false), keys_out = d.buffer(at + bytes, false);
  const auto values = d.buffer(at + bytes, false), values_out = d.buffer(at + bytes, false);
  const auto scratch = d.buffer(at + sort.scratch_size(), false);
  const auto host = d.buffer(2 * bytes, true);
  using S = vk::PipelineStageFlagBits;
  using A = vk::AccessFlagBits;
  for (int call = 0; call < 2; ++call) {  // the scratch is zeroed once, not between calls
    std::memcpy(host.mapped, depth.data(), bytes);
    std::memcpy(static_cast<char*>(host.mapped) + bytes, index.data(), bytes);
    d.run([&](const vk::raii::CommandBuffer& cmd) {
      cmd.copyBuffer(*host.buffer, *keys.buffer, vk::BufferCopy(0, at, bytes));
      cmd.copyBuffer(*host.buffer, *values.buffer, vk::BufferCopy(bytes, at, bytes));
      if (call == 0) sort.record_scratch_init(*cmd, *scratch.buffer, at);
      barrier(cmd, S::eTransfer, A::eTransferWrite, S::eComputeShader, A::eShaderRead);
      sort.record(*cmd, Operand::of(*keys.buffer, at), Operand::of(*keys_out.buffer, at),
                  Operand::of(*values.buffer, at), Operand::of(*values_out.buffer, at),
                  Operand::of(*scratch.buffer, at));
      barrier(cmd, S::eComputeShader, A::eShaderWrite, S::eTransfer, A::eTransferRead);
      cmd.copyBuffer(*keys_out.buffer, *host.buffer, vk::BufferCopy(at, 0, bytes));
      cmd.copyBuffer(*values_out.buffer, *host.buffer, vk::BufferCopy(at, bytes, bytes));
      barrier(cmd, S::eTransfer, A::eTransferWrite, S::eHost, A::eHostRead);
    });
    std::vector<float> got_keys(n);
    std::vector<std::uint32_t> got_values(n);
    std::memcpy(got_keys.data(), host.mapped, bytes);
    std::memcpy(got_values.data(), static_cast<const char*>(host.mapped) + bytes, bytes);
    CHECK(got_values == order);
    std::size_t keys_wrong = 0;
    for (std::uint64_t j = 0; j < n; ++j) keys_wrong += got_keys[j] != depth[order[j]];
    CHECK(keys_wrong == 0);
  }
}

// One Sort sorts every count up to the one it was made for, over one scratch zeroed once: each
// count given on the host (record's count), then read on the GPU (record_indirect, the counts in
// a buffer the command buffer fills, never read back), every variant lavapipe runs.
TEST_CASE("one Sort sorts every count up to its own: given on the host or read on the GPU",
          "[library]") {
  const TestDevice d(true, true);
  skip_without_device(d.usable());
  const xr::vulkan::Context context(d.info());
  const VkDeviceSize align = context.operand_alignment();
  const VkDeviceSize bytes = xrtest::kCountCapacity * 4;
  const auto keys_in = d.buffer(bytes, false), keys_out = d.buffer(bytes, false);
  // Room for u64 values.
  const auto values_in = d.buffer(2 * bytes, false), values_out = d.buffer(2 * bytes, false);
  using S = vk::PipelineStageFlagBits;
  using A = vk::AccessFlagBits;
  for (const std::string& variant : context.variants(xr::Primitive::sort, xr::DType::f32))
    for (const xr::SortDesc& desc : xrtest::count_descs(variant))
      for (const bool on_device : {false, true}) {
        CAPTURE(variant, std::string(xr::to_string(desc.dtype)), on_device);
        const xr::vulkan::Sort sort(context, desc);
        const std::vector<std::uint64_t> counts = xrtest::counts_to_sort(on_device);
        const std::vector<std::uint32_t> keys = xrtest::count_keys(desc.dtype);
        const std::vector<std::uint32_t> values = xrtest::count_values(desc);
        const VkDeviceSize value_bytes = xrtest::count_value_bytes(desc);
        const auto scratch = d.buffer(sort.scratch_size(), false);
        const auto count_words = d.buffer(counts.size() * align, false);
        // The inputs, the counts at their offsets, then each call's keys and values.
        const VkDeviceSize inputs = bytes + value_bytes;
        const VkDeviceSize outputs = inputs + counts.size() * align;
        const auto host = d.buffer(outputs + counts.size() * inputs, true);
        auto* const mapped = static_cast<char*>(host.mapped);
        std::memcpy(mapped, keys.data(), bytes);
        std::memcpy(mapped + bytes, values.data(), values.size() * 4);
        for (std::size_t i = 0; i < counts.size(); ++i) {
          const auto word = static_cast<std::uint32_t>(counts[i]);
          std::memcpy(mapped + inputs + i * align, &word, 4);
        }
        d.run([&](const vk::raii::CommandBuffer& cmd) {
          cmd.copyBuffer(*host.buffer, *keys_in.buffer, vk::BufferCopy(0, 0, bytes));
          cmd.copyBuffer(*host.buffer, *values_in.buffer, vk::BufferCopy(bytes, 0, value_bytes));
          cmd.copyBuffer(*host.buffer, *count_words.buffer,
                         vk::BufferCopy(inputs, 0, counts.size() * align));
          sort.record_scratch_init(*cmd, *scratch.buffer);
          for (std::size_t i = 0; i < counts.size(); ++i) {
            barrier(cmd, S::eTransfer | S::eComputeShader, A::eTransferWrite | A::eShaderWrite,
                    S::eComputeShader, A::eShaderRead | A::eShaderWrite);
            const std::array<Operand, 5> ops{
                Operand::of(*keys_in.buffer), Operand::of(*keys_out.buffer),
                Operand::of(*values_in.buffer), Operand::of(*values_out.buffer),
                Operand::of(*scratch.buffer)};
            if (on_device)
              sort.record_indirect(*cmd, Operand::of(*count_words.buffer, i * align), ops[0],
                                   ops[1], ops[2], ops[3], ops[4]);
            else
              sort.record(*cmd, counts[i], ops[0], ops[1], ops[2], ops[3], ops[4]);
            barrier(cmd, S::eComputeShader, A::eShaderWrite, S::eTransfer, A::eTransferRead);
            const VkDeviceSize at = outputs + i * inputs;
            cmd.copyBuffer(*keys_out.buffer, *host.buffer, vk::BufferCopy(0, at, bytes));
            cmd.copyBuffer(*values_out.buffer, *host.buffer,
                           vk::BufferCopy(0, at + bytes, value_bytes));
          }
          barrier(cmd, S::eTransfer, A::eTransferWrite, S::eHost, A::eHostRead);
        });
        for (std::size_t i = 0; i < counts.size(); ++i) {
          const std::uint64_t sorted = std::min(counts[i], xrtest::kCountCapacity);
          CAPTURE(counts[i]);
          const std::size_t words = sorted * xr::value_bytes(desc.values) / 4;
          std::vector<std::uint32_t> got_keys(sorted), got_values(words);
          const char* at = mapped + outputs + i * inputs;
          if (sorted) std::memcpy(got_keys.data(), at, sorted * 4);  // no null pointer to memcpy
          if (words) std::memcpy(got_values.data(), at + bytes, words * 4);
          xrtest::check_count_sort(desc, keys, sorted, got_keys, got_values);
        }
      }
  // A count past the Sort's is refused, before anything is recorded.
  const xr::vulkan::Sort sort(context, xrtest::count_descs("")[0]);
  d.run([&](const vk::raii::CommandBuffer& cmd) {
    const auto scratch = d.buffer(sort.scratch_size(), false);
    CHECK_THAT(refusal([&] {
                 sort.record(*cmd, xrtest::kCountCapacity + 1, Operand::of(*keys_in.buffer),
                             Operand::of(*keys_out.buffer), Operand::of(*values_in.buffer),
                             Operand::of(*values_out.buffer), Operand::of(*scratch.buffer));
               }),
               Catch::Contains("20001 keys, and this Sort was made for at most 20000"));
    CHECK_THAT(refusal([&] {
                 sort.record_indirect(
                     *cmd, Operand::of(*keys_in.buffer, align / 2), Operand::of(*keys_in.buffer),
                     Operand::of(*keys_out.buffer), Operand::of(*values_in.buffer),
                     Operand::of(*values_out.buffer), Operand::of(*scratch.buffer));
               }),
               Catch::Contains("`count` offset"));
    // An aligned offset near 2^64, whose sum with the word's 4 bytes would wrap.
    const VkDeviceSize top = ~VkDeviceSize{0} - align + 1;
    CHECK_THAT(
        refusal([&] {
          sort.record_indirect(*cmd, Operand::of(*keys_in.buffer, top),
                               Operand::of(*keys_in.buffer), Operand::of(*keys_out.buffer),
                               Operand::of(*values_in.buffer), Operand::of(*values_out.buffer),
                               Operand::of(*scratch.buffer));
        }),
        Catch::Contains("`count` starts at offset " + std::to_string(top) + ", past its buffer's"));
  });
}

// A count the host writes through a mapping of host-coherent memory before the submit is the one
// record_indirect reads (the submission makes the write visible; docs/library.md): no barrier of
// the host's, and none that synchronization validation asks for.
TEST_CASE("a count the host writes before the submit is the one record_indirect reads",
          "[library]") {
  const TestDevice d(true, true);
  skip_without_device(d.usable());
  const xr::vulkan::Context context(d.info());
  const xr::SortDesc desc = xrtest::count_descs("")[1];  // u32 keys, no values
  const xr::vulkan::Sort sort(context, desc);
  const VkDeviceSize bytes = xrtest::kCountCapacity * 4;
  const std::vector<std::uint32_t> keys = xrtest::count_keys(desc.dtype);
  const auto keys_in = d.buffer(bytes, false), keys_out = d.buffer(bytes, false);
  const auto scratch = d.buffer(sort.scratch_size(), false);
  const auto host = d.buffer(bytes, true), word = d.buffer(4, true);
  std::memcpy(host.mapped, keys.data(), bytes);
  constexpr std::uint32_t count = 3841;
  std::memcpy(word.mapped, &count, 4);
  using S = vk::PipelineStageFlagBits;
  using A = vk::AccessFlagBits;
  d.run([&](const vk::raii::CommandBuffer& cmd) {
    cmd.copyBuffer(*host.buffer, *keys_in.buffer, vk::BufferCopy(0, 0, bytes));
    sort.record_scratch_init(*cmd, *scratch.buffer);
    barrier(cmd, S::eTransfer, A::eTransferWrite, S::eComputeShader, A::eShaderRead);
    sort.record_indirect(*cmd, Operand::of(*word.buffer), Operand::of(*keys_in.buffer),
                         Operand::of(*keys_out.buffer), Operand{}, Operand{},
                         Operand::of(*scratch.buffer));
    barrier(cmd, S::eComputeShader, A::eShaderWrite, S::eTransfer, A::eTransferRead);
    cmd.copyBuffer(*keys_out.buffer, *host.buffer, vk::BufferCopy(0, 0, bytes));
    barrier(cmd, S::eTransfer, A::eTransferWrite, S::eHost, A::eHostRead);
  });
  std::vector<std::uint32_t> got(count);
  std::memcpy(got.data(), host.mapped, count * 4);
  xrtest::check_count_sort(desc, keys, count, got, {});
}

// A call of another count plans into storage the thread keeps: once it has planned one, the
// host allocates nothing for the next, of either form. Without the validation layer, whose
// interception allocates for every command; the driver's own allocations are C's, not counted.
TEST_CASE("a Sort's calls of any count allocate nothing on the host once warm", "[library]") {
  setenv("XR_VK_VALIDATION", "0", 1);
  const TestDevice d(true, true);
  unsetenv("XR_VK_VALIDATION");
  skip_without_device(d.usable());
  const xr::vulkan::Context context(d.info());
  const xr::vulkan::Sort sort(context, xrtest::count_descs("")[0]);
  const VkDeviceSize bytes = xrtest::kCountCapacity * 4;
  const auto keys_in = d.buffer(bytes, false), keys_out = d.buffer(bytes, false);
  const auto values_in = d.buffer(2 * bytes, false), values_out = d.buffer(2 * bytes, false);
  const auto scratch = d.buffer(sort.scratch_size(), false);
  const auto count_word = d.buffer(4, false);
  using S = vk::PipelineStageFlagBits;
  using A = vk::AccessFlagBits;
  d.run([&](const vk::raii::CommandBuffer& cmd) {
    const std::array<Operand, 5> ops{Operand::of(*keys_in.buffer), Operand::of(*keys_out.buffer),
                                     Operand::of(*values_in.buffer),
                                     Operand::of(*values_out.buffer), Operand::of(*scratch.buffer)};
    cmd.fillBuffer(*count_word.buffer, 0, 4, 3841);
    sort.record_scratch_init(*cmd, *scratch.buffer);
    const auto between = [&] {
      barrier(cmd, S::eTransfer | S::eComputeShader, A::eTransferWrite | A::eShaderWrite,
              S::eComputeShader, A::eShaderRead | A::eShaderWrite);
    };
    between();
    sort.record(*cmd, 7681, ops[0], ops[1], ops[2], ops[3], ops[4]);
    const std::uint64_t before = xrtest::allocations();
    for (const std::uint64_t n : {1u, 257u, 3841u, 19'999u}) {
      between();
      sort.record(*cmd, n, ops[0], ops[1], ops[2], ops[3], ops[4]);
      between();
      sort.record_indirect(*cmd, Operand::of(*count_word.buffer), ops[0], ops[1], ops[2], ops[3],
                           ops[4]);
    }
    CHECK(xrtest::allocations() == before);
  });
}

// Every misuse a caller can make of a sort's operands is one line of usage before anything is
// recorded, and the same command buffer then sorts right: in place (wrong keys, silently, for
// sorts of one to three digit passes), overlapping ranges of one buffer, arrays and scratch
// shorter than the call reaches (accesses past their end inside the shaders), offsets past the
// buffer, and device addresses where the sort binds.
TEST_CASE("the Vulkan sort refuses misused operands, then sorts right", "[library]") {
  const TestDevice d(true, true);
  skip_without_device(d.usable());
  const xr::vulkan::Context context(d.info());
  constexpr std::uint64_t n = 65'537;  // one digit pass of 8 bits, the case in place gets wrong
  const VkDeviceSize bytes = n * 4, align = context.operand_alignment();
  std::vector<std::uint32_t> keys(n), index(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    keys[i] = static_cast<std::uint32_t>(i * 2654435761u);
    index[i] = static_cast<std::uint32_t>(i);
  }
  const xr::vulkan::Sort sort(
      context,
      {.dtype = xr::DType::u32, .count = n, .bits = {0, 8}, .values = xr::SortValues::u32});
  const auto keys_in = d.buffer(bytes, false), keys_out = d.buffer(bytes, false);
  const auto values_in = d.buffer(bytes, false), values_out = d.buffer(bytes, false);
  const auto scratch = d.buffer(sort.scratch_size(), false);
  const auto short_keys = d.buffer(bytes / 2, false), short_scratch = d.buffer(1024, false);
  const VkDeviceSize second = (bytes + align - 1) / align * align;  // the second range of `shared`
  const auto shared = d.buffer(second + bytes, false);
  const auto host = d.buffer(2 * bytes, true);
  std::memcpy(host.mapped, keys.data(), bytes);
  std::memcpy(static_cast<char*>(host.mapped) + bytes, index.data(), bytes);
  const std::array<Operand, 5> right{Operand::of(*keys_in.buffer), Operand::of(*keys_out.buffer),
                                     Operand::of(*values_in.buffer),
                                     Operand::of(*values_out.buffer), Operand::of(*scratch.buffer)};
  enum { kin, kout, vin, vout, scr };

  using S = vk::PipelineStageFlagBits;
  using A = vk::AccessFlagBits;
  d.run([&](const vk::raii::CommandBuffer& cmd) {
    const auto with = [&](std::size_t i, Operand o) {
      std::array<Operand, 5> ops = right;
      ops[i] = o;
      return refusal([&] { sort.record(*cmd, ops[0], ops[1], ops[2], ops[3], ops[4]); });
    };
    CHECK_THAT(with(kout, right[kin]), Catch::Contains("`keys_in` and `keys_out` overlap"));
    CHECK_THAT(with(scr, right[vin]), Catch::Contains("`values_in` and `scratch` overlap"));
    // Two ranges of one buffer overlap where their bytes do.
    {
      std::array<Operand, 5> ops = right;
      ops[kout] = Operand::of(*shared.buffer, 0);
      ops[vout] = Operand::of(*shared.buffer, bytes / align * align);
      CHECK_THAT(refusal([&] { sort.record(*cmd, ops[0], ops[1], ops[2], ops[3], ops[4]); }),
                 Catch::Contains("`keys_out` and `values_out` overlap"));
    }
    CHECK_THAT(with(kin, Operand::of(*short_keys.buffer)),
               Catch::Contains("Sort::record: `keys_in` holds") &&
                   Catch::Contains("the call needs " + std::to_string(bytes)));
    CHECK_THAT(with(kin, Operand::of(*keys_in.buffer, 0, bytes - 4)),
               Catch::Contains("`keys_in` holds " + std::to_string(bytes - 4) +
                               " bytes from its offset; the call needs " + std::to_string(bytes)));
    CHECK_THAT(with(vin, Operand::of(*values_in.buffer, 2 * second)),
               Catch::Contains("`values_in` starts at offset " + std::to_string(2 * second) +
                               ", past its buffer's"));
    CHECK_THAT(with(scr, Operand::of(*short_scratch.buffer)),
               Catch::Contains("`scratch` holds") && Catch::Contains("(Sort::scratch_size())"));
    CHECK_THAT(refusal([&] { sort.record_scratch_init(*cmd, *short_scratch.buffer); }),
               Catch::Contains("Sort::record_scratch_init: `scratch` holds"));
    CHECK_THAT(with(scr, Operand::at(scratch.address)),
               Catch::Contains("`scratch` is a device address (Operand::at)"));
    CHECK_THAT(with(kin, Operand::at(keys_in.address)),
               Catch::Contains("`keys_in` is a device address (Operand::at), and this sort"));
    CHECK_THAT(with(vin, Operand{}), Catch::Contains("`values_in` has neither a buffer nor"));
    CHECK_THAT(with(kout, Operand::of(*keys_out.buffer, align / 2)),
               Catch::Contains("`keys_out` offset " + std::to_string(align / 2) +
                               " is not a multiple of"));

    // The refusals recorded nothing: the same command buffer sorts right, each output in its
    // own range of one buffer.
    cmd.copyBuffer(*host.buffer, *keys_in.buffer, vk::BufferCopy(0, 0, bytes));
    cmd.copyBuffer(*host.buffer, *values_in.buffer, vk::BufferCopy(bytes, 0, bytes));
    sort.record_scratch_init(*cmd, *scratch.buffer);
    barrier(cmd, S::eTransfer, A::eTransferWrite, S::eComputeShader, A::eShaderRead);
    sort.record(*cmd, right[kin], Operand::of(*shared.buffer, 0, bytes), right[vin],
                Operand::of(*shared.buffer, second, bytes), right[scr]);
    barrier(cmd, S::eComputeShader, A::eShaderWrite, S::eTransfer, A::eTransferRead);
    cmd.copyBuffer(*shared.buffer, *host.buffer, vk::BufferCopy(0, 0, bytes));
    cmd.copyBuffer(*shared.buffer, *host.buffer, vk::BufferCopy(second, bytes, bytes));
    barrier(cmd, S::eTransfer, A::eTransferWrite, S::eHost, A::eHostRead);
  });
  std::vector<std::uint32_t> got_keys(n), got_values(n);
  std::memcpy(got_keys.data(), host.mapped, bytes);
  std::memcpy(got_values.data(), static_cast<const char*>(host.mapped) + bytes, bytes);
  check_stable_sort(keys, got_keys, got_values,
                    [](std::uint32_t a, std::uint32_t b) { return (a & 0xff) < (b & 0xff); });
}

// One scratch serves two Sorts (another key type, order and bit range, keys alone) and a Scan in
// turn, in one command buffer: each zeroes it again with record_scratch_init right after the last
// one's record, with no barrier of the caller's between them, as docs/library.md says. Under
// synchronization validation: no message, and every result right.
TEST_CASE("one scratch zeroed again between two Sorts and a Scan in one command buffer",
          "[library]") {
  const TestDevice d(true, true);
  skip_without_device(d.usable());
  const xr::vulkan::Context context(d.info());
  constexpr std::uint64_t n = 20'001;
  const VkDeviceSize bytes = n * 4;
  std::vector<float> depth(n);
  std::vector<std::uint32_t> keys(n), index(n);
  std::vector<std::int32_t> data(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    depth[i] = static_cast<float>(i * 7919 % 1000) * 0.25f - 100.0f;
    keys[i] = static_cast<std::uint32_t>(i * 2654435761u);
    index[i] = static_cast<std::uint32_t>(i);
    data[i] = static_cast<std::int32_t>(i % 13) - 6;
  }
  const xr::vulkan::Sort pairs(
      context, {.dtype = xr::DType::f32, .count = n, .values = xr::SortValues::u32});
  const xr::vulkan::Sort descending(
      context,
      {.dtype = xr::DType::u32, .count = n, .order = xr::SortOrder::descending, .bits = {0, 20}});
  const xr::vulkan::Scan scan(context, {.dtype = xr::DType::i32, .count = n});
  const auto scratch = d.buffer(
      std::max({pairs.scratch_size(), descending.scratch_size(), scan.scratch_size()}), false);
  // Four arrays a buffer, each at an aligned offset: the inputs (depths, indices, keys, data),
  // the outputs in that order, and the host's copy of both.
  const VkDeviceSize align = context.operand_alignment();
  const VkDeviceSize stride = (bytes + align - 1) / align * align;
  const auto host = d.buffer(8 * stride, true);
  auto* const mapped = static_cast<char*>(host.mapped);
  std::memcpy(mapped, depth.data(), bytes);
  std::memcpy(mapped + stride, index.data(), bytes);
  std::memcpy(mapped + 2 * stride, keys.data(), bytes);
  std::memcpy(mapped + 3 * stride, data.data(), bytes);
  const auto in = d.buffer(4 * stride, false), out = d.buffer(4 * stride, false);
  const auto at = [&](const TestDevice::Memory& m, int k) {
    return Operand::of(*m.buffer, k * stride, bytes);
  };
  using S = vk::PipelineStageFlagBits;
  using A = vk::AccessFlagBits;
  d.run([&](const vk::raii::CommandBuffer& cmd) {
    cmd.copyBuffer(*host.buffer, *in.buffer, vk::BufferCopy(0, 0, 4 * stride));
    barrier(cmd, S::eTransfer, A::eTransferWrite, S::eComputeShader, A::eShaderRead);
    pairs.record_scratch_init(*cmd, *scratch.buffer);
    pairs.record(*cmd, at(in, 0), at(out, 0), at(in, 1), at(out, 1), Operand::of(*scratch.buffer));
    descending.record_scratch_init(*cmd, *scratch.buffer);
    descending.record(*cmd, at(in, 2), at(out, 2), Operand{}, Operand{},
                      Operand::of(*scratch.buffer));
    scan.record_scratch_init(*cmd, *scratch.buffer);
    scan.record(*cmd, xr::ScanKind::inclusive, at(in, 3), at(out, 3), Operand::of(*scratch.buffer));
    barrier(cmd, S::eComputeShader, A::eShaderWrite, S::eTransfer, A::eTransferRead);
    cmd.copyBuffer(*out.buffer, *host.buffer, vk::BufferCopy(0, 4 * stride, 4 * stride));
    barrier(cmd, S::eTransfer, A::eTransferWrite, S::eHost, A::eHostRead);
  });
  const auto read = [&](auto& v, int k) {
    std::memcpy(v.data(), mapped + (4 + k) * stride, bytes);
  };
  std::vector<float> got_depth(n);
  std::vector<std::uint32_t> got_index(n), got_keys(n);
  std::vector<std::int32_t> got_sums(n), sums(n);
  read(got_depth, 0);
  read(got_index, 1);
  read(got_keys, 2);
  read(got_sums, 3);
  check_stable_sort(depth, got_depth, got_index, std::less<float>());
  const std::uint32_t low = (1u << 20) - 1;
  xrtest::check_stable_order(keys, got_keys, nullptr, [&](std::uint32_t a, std::uint32_t b) {
    return (a & low) > (b & low);
  });
  std::inclusive_scan(data.begin(), data.end(), sums.begin());
  CHECK(got_sums == sums);
}

TEST_CASE("the Vulkan scan refuses an input that is its output, or short", "[library]") {
  const TestDevice d(true, true);
  skip_without_device(d.usable());
  const xr::vulkan::Context context(d.info());
  const std::uint64_t n = 5'000;
  const xr::vulkan::Scan scan(context, {.dtype = xr::DType::i32, .count = n});
  const auto in = d.buffer(n * 4, false), out = d.buffer(n * 4, false);
  const auto scratch = d.buffer(scan.scratch_size() + 4, false);
  d.run([&](const vk::raii::CommandBuffer& cmd) {
    const auto kind = xr::ScanKind::inclusive;
    CHECK_THAT(refusal([&] {
                 scan.record(*cmd, kind, Operand::of(*in.buffer), Operand::of(*in.buffer),
                             Operand::of(*scratch.buffer));
               }),
               Catch::Contains("Scan::record: `in` and `out` overlap"));
    CHECK_THAT(refusal([&] {
                 scan.record(*cmd, kind, Operand::of(*in.buffer, 0, n * 2),
                             Operand::of(*out.buffer), Operand::of(*scratch.buffer));
               }),
               Catch::Contains("`in` holds " + std::to_string(n * 2) + " bytes from its offset"));
  });
}

// --- histograms -------------------------------------------------------------------------------

namespace {

using xr::HistogramCounts;
using xr::HistogramDesc;
using xr::HistogramLevels;
using xr::HistogramOutput;

// The host rule's counts of the first n samples (core's EvenBins): the check of every histogram
// below.
std::vector<std::uint64_t> expected_counts(const xr::HostArray& samples, std::uint64_t n,
                                           const HistogramLevels& levels) {
  const xr::HostView prefix{samples.dtype(), samples.data(), static_cast<std::size_t>(n)};
  return xr::HistogramReference(prefix, levels).counts();
}

std::vector<std::uint64_t> sum_of(std::vector<std::uint64_t> a,
                                  const std::vector<std::uint64_t>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] += b[i];
  return a;
}

// Orders a histogram call after the last one and the copies of its counts, and before the next
// copy: every compute-shader and transfer access of the buffers they share.
void between_histograms(const vk::raii::CommandBuffer& cmd) {
  using S = vk::PipelineStageFlagBits;
  using A = vk::AccessFlagBits;
  barrier(cmd, S::eComputeShader | S::eTransfer, A::eShaderWrite | A::eTransferWrite,
          S::eComputeShader | S::eTransfer,
          A::eShaderRead | A::eShaderWrite | A::eTransferRead | A::eTransferWrite);
}

// One Histogram's buffers and a host buffer holding the samples, the count words (256 bytes
// apart, past any Context::operand_alignment) and a slot of counts for each call to check.
class HistogramBuffers {
 public:
  HistogramBuffers(const TestDevice& d, const xr::vulkan::Histogram& h,
                   const xr::HostArray& samples, const HistogramLevels& levels, std::size_t slots,
                   const std::vector<std::uint32_t>& count_words)
      : levels_(levels),
        sample_bytes_((samples.bytes() + 15) / 16 * 16),
        count_bytes_(xr::histogram_counts_bytes(levels)),
        words_at_(sample_bytes_ + slots * count_bytes_),
        words_(count_words.size()),
        samples_(d.buffer(sample_bytes_, false)),
        counts_(d.buffer(count_bytes_, false)),
        scratch_(d.buffer(h.scratch_size(), false)),
        count_words_(d.buffer(256 * words_ + 256, false)),
        host_(d.buffer(words_at_ + 256 * words_ + 256, true)) {
    auto* const mapped = static_cast<char*>(host_.mapped);
    std::memcpy(mapped, samples.data(), samples.bytes());
    for (std::size_t i = 0; i < words_; ++i)
      std::memcpy(mapped + words_at_ + 256 * i, &count_words[i], 4);
  }

  // The samples and the count words into their device buffers.
  void upload(const vk::raii::CommandBuffer& cmd) const {
    cmd.copyBuffer(*host_.buffer, *samples_.buffer, vk::BufferCopy(0, 0, sample_bytes_));
    if (words_)
      cmd.copyBuffer(*host_.buffer, *count_words_.buffer,
                     vk::BufferCopy(words_at_, 0, 256 * words_));
    between_histograms(cmd);
  }
  // The counts as the last call left them, into `slot`.
  void keep(const vk::raii::CommandBuffer& cmd, std::size_t slot) const {
    between_histograms(cmd);
    cmd.copyBuffer(*counts_.buffer, *host_.buffer,
                   vk::BufferCopy(0, sample_bytes_ + slot * count_bytes_, count_bytes_));
    between_histograms(cmd);
  }
  // Once the command buffer has run: the counts of `slot`, widened to u64.
  std::vector<std::uint64_t> slot(std::size_t slot) const {
    const char* at = static_cast<const char*>(host_.mapped) + sample_bytes_ + slot * count_bytes_;
    std::vector<std::uint64_t> out(levels_.bins);
    for (std::uint32_t b = 0; b < levels_.bins; ++b) {
      if (levels_.counts == HistogramCounts::u64) {
        std::memcpy(&out[b], at + 8 * b, 8);
      } else {
        std::uint32_t c;
        std::memcpy(&c, at + 4 * b, 4);
        out[b] = c;
      }
    }
    return out;
  }

  Operand samples() const { return Operand::of(*samples_.buffer); }
  Operand counts() const { return Operand::of(*counts_.buffer); }
  Operand scratch() const { return Operand::of(*scratch_.buffer); }
  Operand word(std::size_t i) const { return Operand::of(*count_words_.buffer, 256 * i); }
  const TestDevice::Memory& samples_memory() const { return samples_; }
  const TestDevice::Memory& counts_memory() const { return counts_; }

 private:
  HistogramLevels levels_;
  VkDeviceSize sample_bytes_, count_bytes_, words_at_;
  std::size_t words_;
  TestDevice::Memory samples_, counts_, scratch_, count_words_, host_;
};

// The levels and samples of one histogram test: part of them out of range (NaNs among the
// floats), of a count no vector divides.
struct HistogramCase {
  xr::DType dtype;
  HistogramLevels levels;
};
constexpr HistogramCase kHistogramCases[] = {
    {xr::DType::u8, {.bins = 256, .lower = 0, .upper = 256}},
    {xr::DType::f32, {.bins = 257, .lower = -2.5, .upper = 23.2, .counts = HistogramCounts::u64}},
    {xr::DType::i32, {.bins = 1000, .lower = -100000, .upper = 900000}},
};

}  // namespace

// Every variant the device runs, as a frame loop calls it: overwriting, then accumulating into
// the same counts; the first `count` samples given on the host; the count read on the GPU from a
// device word (below the Histogram's count, and past it, which counts all); no samples. Each
// call's counts against the host rule, bin for bin, under synchronization validation.
TEST_CASE("a histogram overwrites or accumulates, its count on the host or read on the GPU",
          "[library][histogram]") {
  const TestDevice d(true, true);
  skip_without_device(d.usable());
  const xr::vulkan::Context context(d.info());
  constexpr std::uint64_t n = 100'003, fewer = 77'777, on_device = 50'001;
  for (const HistogramCase& c : kHistogramCases)
    for (const std::string& variant : context.variants(xr::Primitive::histogram, c.dtype)) {
      CAPTURE(variant, std::string(xr::to_string(c.dtype)));
      const xr::HostArray samples =
          xr::histogram_samples(c.dtype, n, 7, xr::SampleDistribution::part_out, c.levels);
      const xr::vulkan::Histogram h(
          context, {.dtype = c.dtype, .count = n, .levels = c.levels, .variant = variant});
      CHECK(h.variant() == variant);
      const HistogramBuffers b(d, h, samples, c.levels, 7, {on_device, n + 1000});
      const auto accumulate = HistogramOutput::accumulate;
      d.run([&](const vk::raii::CommandBuffer& cmd) {
        b.upload(cmd);
        h.record(*cmd, b.samples(), b.counts(), b.scratch());
        b.keep(cmd, 0);
        h.record(*cmd, b.samples(), b.counts(), b.scratch(), accumulate);
        b.keep(cmd, 1);
        h.record(*cmd, fewer, b.samples(), b.counts(), b.scratch());
        b.keep(cmd, 2);
        h.record_indirect(*cmd, b.word(0), b.samples(), b.counts(), b.scratch(), accumulate);
        b.keep(cmd, 3);
        h.record_indirect(*cmd, b.word(1), b.samples(), b.counts(), b.scratch());
        b.keep(cmd, 4);
        h.record(*cmd, 0, b.samples(), b.counts(), b.scratch(), accumulate);  // records nothing
        b.keep(cmd, 5);
        h.record(*cmd, 0, b.samples(), b.counts(), b.scratch());
        b.keep(cmd, 6);
      });
      const std::vector<std::uint64_t> all = expected_counts(samples, n, c.levels);
      const std::vector<std::uint64_t> part = expected_counts(samples, fewer, c.levels);
      CHECK(b.slot(0) == all);
      CHECK(b.slot(1) == sum_of(all, all));
      CHECK(b.slot(2) == part);
      CHECK(b.slot(3) == sum_of(part, expected_counts(samples, on_device, c.levels)));
      CHECK(b.slot(4) == all);
      CHECK(b.slot(5) == all);
      CHECK(b.slot(6) == std::vector<std::uint64_t>(c.levels.bins, 0));
    }
}

// Bins past any device's shared memory (65536 u32 counters, 256 KiB): the textbook rungs count
// with global atomics, fast/replicated into copies of the bins in scratch summed into the counts
// by a pass of their own (or, with fewer samples than pay for copies, into the counts), of
// either counter width, overwriting and accumulating.
// 65536 bins: fast/replicated in slices of shared memory (eight of 8192 in lavapipe's 32 KiB),
// the rungs in global memory; 98305 bins, past eight slices: fast/replicated's copies in
// scratch, as many as 1/8 of the samples' 16 MiB pays for.
TEST_CASE("bins past the shared memory: slices, global atomics, or copies in global memory summed",
          "[library][histogram]") {
  const TestDevice d(true, true);
  skip_without_device(d.usable());
  const xr::vulkan::Context context(d.info());
  constexpr std::uint64_t n = (std::uint64_t{1} << 22) + 5;
  for (const std::uint32_t bins : {65536u, 98305u}) {
    const HistogramLevels u32_levels{.bins = bins, .lower = 0, .upper = 0x1p32};
    const xr::HostArray samples =
        xr::histogram_samples(xr::DType::u32, n, 11, xr::SampleDistribution::skewed, u32_levels);
    for (const HistogramCounts counts : xr::kAllHistogramCounts)
      for (const char* variant : {"fast/replicated", "atomic/coarsened"}) {
        HistogramLevels levels = u32_levels;
        levels.counts = counts;
        CAPTURE(bins, variant, std::string(xr::to_string(counts)));
        const xr::vulkan::Histogram h(
            context, {.dtype = xr::DType::u32, .count = n, .levels = levels, .variant = variant});
        const std::string plan = h.describe();
        CAPTURE(plan);
        if (std::string_view(variant) == "fast/replicated" && bins == 65536) {
          CHECK_THAT(plan, Catch::Contains("the bins in 8 slices of 8192"));
        } else if (std::string_view(variant) == "fast/replicated") {
          CHECK_THAT(plan, Catch::Contains("copies in global memory, summed into the counts"));
          CHECK(h.scratch_size() >= 2 * xr::histogram_counts_bytes(levels));
        } else {
          CHECK_THAT(plan, Catch::Contains("global atomics instead"));
        }
        const HistogramBuffers b(d, h, samples, levels, 3, {});
        d.run([&](const vk::raii::CommandBuffer& cmd) {
          b.upload(cmd);
          h.record(*cmd, b.samples(), b.counts(), b.scratch());
          b.keep(cmd, 0);
          h.record(*cmd, b.samples(), b.counts(), b.scratch(), HistogramOutput::accumulate);
          b.keep(cmd, 1);
          h.record(*cmd, 1000, b.samples(), b.counts(), b.scratch());
          b.keep(cmd, 2);
        });
        const std::vector<std::uint64_t> all = expected_counts(samples, n, levels);
        CHECK(b.slot(0) == all);
        CHECK(b.slot(1) == sum_of(all, all));
        CHECK(b.slot(2) == expected_counts(samples, 1000, levels));
      }
  }
}

// Histogram::scratch_size(context, desc), asked before a Histogram is made, is the size the
// Histogram then says, for every variant, bins within and past the shared memory, either counter
// width and no samples; a desc the constructor refuses is refused the same way.
TEST_CASE("a histogram's scratch size before the Histogram is made", "[library][histogram]") {
  const TestDevice d(true, true);
  skip_without_device(d.usable());
  const xr::vulkan::Context context(d.info());
  for (const std::string& variant : context.variants(xr::Primitive::histogram, xr::DType::u16))
    for (const std::uint32_t bins : {1u, 256u, 65536u})
      for (const HistogramCounts counts : xr::kAllHistogramCounts)
        for (const std::uint64_t count : {0ull, 1000ull, 1ull << 22}) {
          const HistogramDesc desc{
              .dtype = xr::DType::u16,
              .count = count,
              .levels = {.bins = bins, .lower = 0, .upper = 65536, .counts = counts},
              .variant = variant};
          CAPTURE(variant, bins, std::string(xr::to_string(counts)), count);
          const VkDeviceSize before = xr::vulkan::Histogram::scratch_size(context, desc);
          CHECK(before == xr::vulkan::Histogram(context, desc).scratch_size());
          CHECK(before >= 4);
        }
  for (const HistogramDesc& wrong :
       {HistogramDesc{.count = 10, .variant = "atomic/none"},
        HistogramDesc{.dtype = xr::DType::f16, .count = 10},
        HistogramDesc{.count = 10, .levels = {.bins = 256, .lower = 0, .upper = 300}}}) {
    CAPTURE(wrong.variant, std::string(xr::to_string(wrong.dtype)));
    const xr::ErrorCategory asked =
        category_of([&] { xr::vulkan::Histogram::scratch_size(context, wrong); });
    CHECK(asked == category_of([&] { xr::vulkan::Histogram h(context, wrong); }));
  }
}

// What a Histogram refuses when it is made, each in one line of the category the header says.
TEST_CASE("the Vulkan histogram refuses descs it cannot count", "[library][histogram]") {
  const TestDevice without(true, false);
  skip_without_device(without.usable());
  {
    // Its operands are pushed descriptors: a device made without the extension runs none.
    const xr::vulkan::Context context(without.info());
    CHECK(context.variants(xr::Primitive::histogram, xr::DType::u8).empty());
    for (const char* variant : {"", "atomic/global"}) {
      try {
        xr::vulkan::Histogram h(context, {.count = 10, .variant = variant});
        FAIL("a Histogram was made");
      } catch (const xr::Error& e) {
        CHECK(e.category() == xr::ErrorCategory::unsupported);
        CHECK_THAT(e.what(), Catch::Contains("made without VK_KHR_push_descriptor"));
      }
    }
  }
  const TestDevice d(true, true);
  const xr::vulkan::Context context(d.info());
  CHECK(context.variants(xr::Primitive::histogram, xr::DType::f16).empty());
  CHECK(context.variants(xr::Primitive::histogram, xr::DType::u8).front() == "fast/replicated");
  CHECK(xr::vulkan::Histogram(context, {.count = 10}).variant() == "fast/replicated");
  CHECK(category_of([&] {
          xr::vulkan::Histogram h(context, {.dtype = xr::DType::f16, .count = 10});
        }) == xr::ErrorCategory::unsupported);
  CHECK_THAT(refusal([&] { xr::vulkan::Histogram h(context, {.count = 10, .variant = "x/y"}); }),
             Catch::Contains("no histogram variant 'x/y'"));
  CHECK_THAT(refusal([&] {
               xr::vulkan::Histogram h(context, {.count = 10, .levels = {.bins = 0, .upper = 256}});
             }),
             Catch::Contains("bins 0 is not within 1 to 16777216"));
  CHECK_THAT(refusal([&] { xr::vulkan::Histogram h(context, {.count = std::uint64_t{1} << 32}); }),
             Catch::Contains("use u64 counts"));
}

// Every misuse of a histogram's operands is one line of usage before anything is recorded, and
// the same command buffer then counts right: samples that are the counts, samples short of the
// whole words the shaders read (a u8 count not a multiple of 4), counts and scratch short, a
// device address where the histogram binds, an offset off the alignment, a count past the
// Histogram's, a count word off the alignment.
TEST_CASE("the Vulkan histogram refuses misused operands, then counts right",
          "[library][histogram]") {
  const TestDevice d(true, true);
  skip_without_device(d.usable());
  const xr::vulkan::Context context(d.info());
  constexpr std::uint64_t n = 1001;
  const HistogramLevels levels{.bins = 256, .lower = 0, .upper = 256};
  const xr::HostArray samples =
      xr::histogram_samples(xr::DType::u8, n, 3, xr::SampleDistribution::image, levels);
  const xr::vulkan::Histogram h(context, {.dtype = xr::DType::u8, .count = n, .levels = levels});
  const HistogramBuffers b(d, h, samples, levels, 1, {7});
  const VkDeviceSize align = context.operand_alignment();
  const auto short_scratch = d.buffer(4, false);
  d.run([&](const vk::raii::CommandBuffer& cmd) {
    const auto with = [&](Operand samples_op, Operand counts_op, Operand scratch_op) {
      return refusal([&] { h.record(*cmd, samples_op, counts_op, scratch_op); });
    };
    CHECK_THAT(with(b.counts(), b.counts(), b.scratch()),
               Catch::Contains("Histogram::record: `samples` and `counts` overlap"));
    CHECK_THAT(with(Operand::of(b.samples().buffer, 0, n), b.counts(), b.scratch()),
               Catch::Contains("`samples` holds 1001 bytes from its offset; the call needs 1004 "
                               "(whole 32-bit words)"));
    CHECK_THAT(with(b.samples(), Operand::of(b.counts().buffer, 0, 1020), b.scratch()),
               Catch::Contains("`counts` holds 1020 bytes from its offset; the call needs 1024"));
    if (h.scratch_size() > 4)
      CHECK_THAT(with(b.samples(), b.counts(), Operand::of(*short_scratch.buffer)),
                 Catch::Contains("(Histogram::scratch_size())"));
    CHECK_THAT(with(Operand::at(b.samples_memory().address), b.counts(), b.scratch()),
               Catch::Contains("`samples` is a device address (Operand::at), and this histogram"));
    CHECK_THAT(with(b.samples(), Operand::at(b.counts_memory().address), b.scratch()),
               Catch::Contains("`counts` is a device address (Operand::at)"));
    CHECK_THAT(
        with(Operand::of(b.samples().buffer, align / 2), b.counts(), b.scratch()),
        Catch::Contains("`samples` offset " + std::to_string(align / 2) + " is not a multiple of"));
    CHECK_THAT(refusal([&] { h.record(*cmd, n + 1, b.samples(), b.counts(), b.scratch()); }),
               Catch::Contains("1002 samples, and this Histogram was made for at most 1001"));
    CHECK_THAT(refusal([&] {
                 h.record_indirect(*cmd, Operand::of(b.word(0).buffer, align / 2), b.samples(),
                                   b.counts(), b.scratch());
               }),
               Catch::Contains("`count` offset"));
    // The refusals recorded nothing: the same command buffer counts right.
    b.upload(cmd);
    h.record_indirect(*cmd, b.word(0), b.samples(), b.counts(), b.scratch());
    b.keep(cmd, 0);
  });
  CHECK(b.slot(0) == expected_counts(samples, 7, levels));
}

// A call of another count plans into a fixed array: once warm, the host allocates nothing for
// any form of call. Without the validation layer, whose interception allocates.
TEST_CASE("a Histogram's calls of any count allocate nothing on the host once warm",
          "[library][histogram]") {
  setenv("XR_VK_VALIDATION", "0", 1);
  const TestDevice d(true, true);
  unsetenv("XR_VK_VALIDATION");
  skip_without_device(d.usable());
  const xr::vulkan::Context context(d.info());
  const HistogramLevels levels{.bins = 4096, .lower = 0, .upper = 65536};
  const xr::HostArray samples =
      xr::histogram_samples(xr::DType::u16, 20'000, 5, xr::SampleDistribution::uniform, levels);
  for (const std::string& variant : context.variants(xr::Primitive::histogram, xr::DType::u16)) {
    CAPTURE(variant);
    const xr::vulkan::Histogram h(
        context, {.dtype = xr::DType::u16, .count = 20'000, .levels = levels, .variant = variant});
    const HistogramBuffers b(d, h, samples, levels, 1, {3841});
    d.run([&](const vk::raii::CommandBuffer& cmd) {
      b.upload(cmd);
      h.record(*cmd, b.samples(), b.counts(), b.scratch());
      const std::uint64_t before = xrtest::allocations();
      for (const std::uint64_t count : {0u, 1u, 257u, 19'999u}) {
        between_histograms(cmd);
        h.record(*cmd, count, b.samples(), b.counts(), b.scratch(), HistogramOutput::accumulate);
        between_histograms(cmd);
        h.record_indirect(*cmd, b.word(0), b.samples(), b.counts(), b.scratch());
      }
      CHECK(xrtest::allocations() == before);
    });
  }
}
