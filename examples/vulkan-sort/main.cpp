// A renderer's frame loop over xreduce::vulkan's sort, as a Gaussian-splat renderer sorts its
// splats every frame: its own compute pass writes the frame's depths of the visible splats and
// counts them on the GPU, then the library sorts them, depths with the splats' indices, by the
// count the GPU wrote (Sort::record_indirect), in the same command buffer: nothing is read back
// to record a frame. One Sort made for every splat serves every frame's count. Every
// --check-every frames the program reads the frame back and checks the count and the order on
// the host; it prints the sort's GPU time per frame (timestamps around it) and the host's time
// to record it.
//
//   vulkan_sort [--splats N] [--frames F] [--check-every K] [--device I] [--validate]
//
// Exit codes: 0 every checked frame matched the host, 1 one did not (or a validation message),
// 2 bad arguments, 3 no Vulkan device that can run it.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <numeric>
#include <optional>
#include <string>
#include <vector>
#include <vulkan/vulkan_raii.hpp>
#include <xreduce/vulkan.hpp>

#include "splat_depths.spv.h"

namespace {

struct Args {
  std::uint32_t splats = 1'000'003;  // not a multiple of any tile
  int frames = 60;
  int check_every = 20;
  std::uint32_t device = ~0u;  // default: the first discrete GPU, else the first device
  bool validate = false;
};

std::optional<Args> parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const bool has_value = i + 1 < argc;
    char* end = nullptr;
    const auto number = [&](unsigned long long most) -> std::optional<unsigned long long> {
      const unsigned long long v = std::strtoull(argv[++i], &end, 10);
      if (*end || v == 0 || v > most) return std::nullopt;
      return v;
    };
    std::optional<unsigned long long> v;
    if (flag == "--validate") {
      a.validate = true;
      continue;
    }
    if (!has_value) return std::nullopt;
    if (flag == "--splats" && (v = number(65535ull * 256)))  // one row of workgroups
      a.splats = static_cast<std::uint32_t>(*v);
    else if (flag == "--frames" && (v = number(100'000)))
      a.frames = static_cast<int>(*v);
    else if (flag == "--check-every" && (v = number(100'000)))
      a.check_every = static_cast<int>(*v);
    else if (flag == "--device") {
      a.device = static_cast<std::uint32_t>(std::strtoul(argv[++i], &end, 10));
      if (*end || a.device == ~0u) return std::nullopt;
    } else
      return std::nullopt;
  }
  return a;
}

int validation_messages = 0;

VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                          VkDebugUtilsMessageTypeFlagsEXT,
                                          const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  ++validation_messages;
  std::fprintf(stderr, "validation: %s\n", data->pMessage);
  return VK_FALSE;
}

// The splats' view of the GPU's arithmetic (splat_depths.comp), for the host's count.
std::uint32_t hash(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}
float coordinate(std::uint32_t bits) {
  return static_cast<float>(bits & 0xffffu) / 32768.0f - 1.0f;
}
// The frame's view direction: a turn of the camera about the vertical axis every 90 frames.
struct View {
  float dx, dz;
  std::uint32_t splats;
};
View view_of(int frame, std::uint32_t splats) {
  const double a = 2 * 3.14159265358979 * frame / 90;
  return {static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a)), splats};
}
std::uint32_t visible_on_host(const View& v) {
  std::uint32_t count = 0;
  for (std::uint32_t i = 0; i < v.splats; ++i) {
    const std::uint32_t h = hash(i);
    const volatile float along_x = coordinate(h) * v.dx;  // rounded as the GPU's `precise`
    const volatile float along_z = coordinate(h >> 16) * v.dz;
    const volatile float sum = along_x + along_z;
    count += sum + 0.25f > 0.0f;
  }
  return count;
}

// A buffer with its own memory, device-local or host-visible (mapped).
struct Buffer {
  Buffer(const vk::raii::Device& device, const vk::raii::PhysicalDevice& physical,
         vk::DeviceSize bytes, bool host_visible)
      : buffer(device, vk::BufferCreateInfo({}, bytes,
                                            vk::BufferUsageFlagBits::eStorageBuffer |
                                                vk::BufferUsageFlagBits::eIndirectBuffer |
                                                vk::BufferUsageFlagBits::eTransferSrc |
                                                vk::BufferUsageFlagBits::eTransferDst)) {
    const vk::MemoryRequirements req = buffer.getMemoryRequirements();
    const auto want = host_visible ? vk::MemoryPropertyFlagBits::eHostVisible |
                                         vk::MemoryPropertyFlagBits::eHostCoherent
                                   : vk::MemoryPropertyFlagBits::eDeviceLocal;
    const auto props = physical.getMemoryProperties();
    std::uint32_t type = 0;
    while (!((req.memoryTypeBits >> type) & 1) ||
           (props.memoryTypes[type].propertyFlags & want) != want)
      ++type;
    memory = vk::raii::DeviceMemory(device, vk::MemoryAllocateInfo(req.size, type));
    buffer.bindMemory(*memory, 0);
    if (host_visible) mapped = memory.mapMemory(0, bytes);
  }
  vk::raii::Buffer buffer;
  vk::raii::DeviceMemory memory{nullptr};
  void* mapped = nullptr;
};

// Everything the program makes itself: the library is given these objects, never makes its own.
struct Gpu {
  vk::raii::Context loader;
  vk::raii::Instance instance{nullptr};
  vk::raii::DebugUtilsMessengerEXT messenger{nullptr};
  vk::raii::PhysicalDevice physical{nullptr};
  vk::raii::Device device{nullptr};
  vk::raii::Queue queue{nullptr};
  vk::raii::CommandPool pool{nullptr};
  std::uint32_t family = 0;
  VkDeviceCreateInfo device_info{};
};

void make_instance(Gpu& g, bool validate) {
  vk::ApplicationInfo app("vulkan_sort", 1, nullptr, 0, VK_API_VERSION_1_3);
  std::vector<const char*> layers, extensions;
  if (validate) {
    layers.push_back("VK_LAYER_KHRONOS_validation");
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
  }
  // Synchronization validation too: a missing or wrong barrier is a message, and fails the run.
  const vk::ValidationFeatureEnableEXT enables[] = {
      vk::ValidationFeatureEnableEXT::eSynchronizationValidation};
  const vk::ValidationFeaturesEXT features(enables, {});
  g.instance = vk::raii::Instance(g.loader, vk::InstanceCreateInfo({}, &app, layers, extensions,
                                                                   validate ? &features : nullptr));
  if (validate) {
    using S = vk::DebugUtilsMessageSeverityFlagBitsEXT;
    using T = vk::DebugUtilsMessageTypeFlagBitsEXT;
    g.messenger = vk::raii::DebugUtilsMessengerEXT(
        g.instance, vk::DebugUtilsMessengerCreateInfoEXT(
                        {}, S::eWarning | S::eError, T::eGeneral | T::eValidation | T::ePerformance,
                        &on_message));
  }
}

// The device with what xreduce needs (bufferDeviceAddress, shaderInt64, push descriptors, which
// the sorts bind with), the first compute queue, and its pool.
void make_device(Gpu& g, std::uint32_t index,
                 vk::StructureChain<vk::DeviceCreateInfo, vk::PhysicalDeviceFeatures2,
                                    vk::PhysicalDeviceVulkan12Features>& chain,
                 const float& priority, vk::DeviceQueueCreateInfo& queue,
                 std::vector<const char*>& extensions) {
  vk::raii::PhysicalDevices all(g.instance);
  if (all.empty() || (index != ~0u && index >= all.size()))
    throw std::runtime_error("no such Vulkan device");
  g.physical = all[index != ~0u ? index : 0];
  if (index == ~0u)
    for (auto& p : all)
      if (p.getProperties().deviceType == vk::PhysicalDeviceType::eDiscreteGpu) {
        g.physical = p;
        break;
      }
  const auto families = g.physical.getQueueFamilyProperties();
  while (g.family < families.size() &&
         !(families[g.family].queueFlags & vk::QueueFlagBits::eCompute))
    ++g.family;
  chain.get<vk::PhysicalDeviceFeatures2>().features.shaderInt64 = true;
  chain.get<vk::PhysicalDeviceVulkan12Features>().bufferDeviceAddress = true;
  extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  queue = vk::DeviceQueueCreateInfo({}, g.family, 1, &priority);
  chain.get<vk::DeviceCreateInfo>().setQueueCreateInfos(queue).setPEnabledExtensionNames(
      extensions);
  g.device_info = chain.get<vk::DeviceCreateInfo>();
  g.device = vk::raii::Device(g.physical, chain.get<vk::DeviceCreateInfo>());
  g.queue = g.device.getQueue(g.family, 0);
  g.pool = vk::raii::CommandPool(g.device,
                                 {vk::CommandPoolCreateFlagBits::eResetCommandBuffer, g.family});
}

// The program's own pass: splat_depths.comp, its three buffers pushed as descriptors.
struct DepthPass {
  explicit DepthPass(const Gpu& g) {
    const std::array<vk::DescriptorSetLayoutBinding, 3> bindings{
        vk::DescriptorSetLayoutBinding(0, vk::DescriptorType::eStorageBuffer, 1,
                                       vk::ShaderStageFlagBits::eCompute),
        vk::DescriptorSetLayoutBinding(1, vk::DescriptorType::eStorageBuffer, 1,
                                       vk::ShaderStageFlagBits::eCompute),
        vk::DescriptorSetLayoutBinding(2, vk::DescriptorType::eStorageBuffer, 1,
                                       vk::ShaderStageFlagBits::eCompute)};
    set_layout = vk::raii::DescriptorSetLayout(
        g.device, {vk::DescriptorSetLayoutCreateFlagBits::ePushDescriptorKHR, bindings});
    const vk::PushConstantRange push(vk::ShaderStageFlagBits::eCompute, 0, sizeof(View));
    layout = vk::raii::PipelineLayout(g.device, {{}, *set_layout, push});
    const vk::raii::ShaderModule module(g.device,
                                        {{}, sizeof kSplatDepthsSpirv, kSplatDepthsSpirv});
    pipeline = vk::raii::Pipeline(
        g.device, nullptr,
        vk::ComputePipelineCreateInfo({}, {{}, vk::ShaderStageFlagBits::eCompute, *module, "main"},
                                      *layout));
  }
  void record(const vk::raii::CommandBuffer& cmd, const View& view, vk::Buffer count,
              vk::Buffer keys, vk::Buffer values) const {
    cmd.bindPipeline(vk::PipelineBindPoint::eCompute, *pipeline);
    const std::array<vk::DescriptorBufferInfo, 3> infos{
        vk::DescriptorBufferInfo(count, 0, 4), vk::DescriptorBufferInfo(keys, 0, VK_WHOLE_SIZE),
        vk::DescriptorBufferInfo(values, 0, VK_WHOLE_SIZE)};
    std::array<vk::WriteDescriptorSet, 3> writes;
    for (std::uint32_t b = 0; b < 3; ++b)
      writes[b] =
          vk::WriteDescriptorSet({}, b, 0, vk::DescriptorType::eStorageBuffer, {}, infos[b]);
    cmd.pushDescriptorSetKHR(vk::PipelineBindPoint::eCompute, *layout, 0, writes);
    cmd.pushConstants<View>(*layout, vk::ShaderStageFlagBits::eCompute, 0, view);
    cmd.dispatch((view.splats + 255) / 256, 1, 1);
  }
  vk::raii::DescriptorSetLayout set_layout{nullptr};
  vk::raii::PipelineLayout layout{nullptr};
  vk::raii::Pipeline pipeline{nullptr};
};

void barrier(const vk::raii::CommandBuffer& cmd, vk::PipelineStageFlags src,
             vk::AccessFlags src_access, vk::PipelineStageFlags dst, vk::AccessFlags dst_access) {
  cmd.pipelineBarrier(src, dst, {}, vk::MemoryBarrier(src_access, dst_access), {}, {});
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// The frame read back: the count, the appended depths and indices (the sort's input) and the
// sorted ones, against the host's count and the stable order of the input.
bool frame_matches(int frame, const View& view, const void* host, std::uint32_t splats) {
  std::uint32_t count = 0;
  std::memcpy(&count, host, 4);
  const auto* at = static_cast<const char*>(host) + 16;
  const auto array = [&](int k, auto* out) {
    std::memcpy(out, at + std::size_t(k) * splats * 4, std::size_t(count) * 4);
  };
  std::vector<float> keys(count), sorted_keys(count);
  std::vector<std::uint32_t> values(count), sorted_values(count), order(count);
  array(0, keys.data());
  array(1, values.data());
  array(2, sorted_keys.data());
  array(3, sorted_values.data());
  const std::uint32_t expected = visible_on_host(view);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  std::size_t wrong = 0;
  for (std::uint32_t j = 0; j < count; ++j)
    wrong += sorted_keys[j] != keys[order[j]] || sorted_values[j] != values[order[j]];
  std::printf("frame %d: %u of %u splats visible (host %u), %zu out of order\n", frame, count,
              splats, expected, wrong);
  return count == expected && wrong == 0;
}

int run(const Args& args) {
  Gpu g;
  make_instance(g, args.validate);
  vk::StructureChain<vk::DeviceCreateInfo, vk::PhysicalDeviceFeatures2,
                     vk::PhysicalDeviceVulkan12Features>
      chain;
  const float priority = 1.0f;
  vk::DeviceQueueCreateInfo queue_info;
  std::vector<const char*> extensions;
  make_device(g, args.device, chain, priority, queue_info, extensions);
  const xr::vulkan::Context context({.instance = *g.instance,
                                     .physical_device = *g.physical,
                                     .device = *g.device,
                                     .device_info = &g.device_info,
                                     .api_version = VK_API_VERSION_1_3});
  std::printf("device: %s\n", context.device_name().c_str());

  // One Sort for every frame, made for every splat: each frame sorts the count its GPU wrote.
  const std::uint32_t n = args.splats;
  const xr::vulkan::Sort sort(context,
                              {.dtype = xr::DType::f32, .count = n, .values = xr::SortValues::u32});
  std::printf("sort: %s, %u splats at most, scratch %llu bytes\n", sort.variant().c_str(), n,
              static_cast<unsigned long long>(sort.scratch_size()));
  const vk::DeviceSize bytes = vk::DeviceSize{n} * 4;
  Buffer count(g.device, g.physical, 16, false), keys(g.device, g.physical, bytes, false),
      values(g.device, g.physical, bytes, false), sorted_keys(g.device, g.physical, bytes, false),
      sorted_values(g.device, g.physical, bytes, false),
      scratch(g.device, g.physical, sort.scratch_size(), false),
      host(g.device, g.physical, 16 + 4 * bytes, true);
  const DepthPass depths(g);
  const bool timed = g.physical.getQueueFamilyProperties()[g.family].timestampValidBits > 0;
  vk::raii::QueryPool stamps(g.device, {{}, vk::QueryType::eTimestamp, 2});
  const double tick_ns = g.physical.getProperties().limits.timestampPeriod;
  vk::raii::CommandBuffers cmds(g.device, {*g.pool, vk::CommandBufferLevel::ePrimary, 1});
  const vk::raii::CommandBuffer& cmd = cmds.front();
  vk::raii::Fence fence(g.device, vk::FenceCreateInfo());
  using S = vk::PipelineStageFlagBits;
  using A = vk::AccessFlagBits;
  using xr::vulkan::Operand;

  std::vector<double> sort_ms, record_us;
  bool all_match = true;
  for (int frame = 0; frame < args.frames; ++frame) {
    const View view = view_of(frame, n);
    const bool check = (frame + 1) % args.check_every == 0 || frame + 1 == args.frames;
    cmd.reset();
    cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
    if (frame == 0) sort.record_scratch_init(*cmd, *scratch.buffer);  // once, for every frame
    if (timed) cmd.resetQueryPool(*stamps, 0, 2);
    cmd.fillBuffer(*count.buffer, 0, 4, 0);
    barrier(cmd, S::eTransfer, A::eTransferWrite, S::eComputeShader,
            A::eShaderRead | A::eShaderWrite);
    depths.record(cmd, view, *count.buffer, *keys.buffer, *values.buffer);
    // The library's contract: the count and the arrays visible to its compute shaders.
    barrier(cmd, S::eComputeShader, A::eShaderWrite, S::eComputeShader, A::eShaderRead);
    if (timed) cmd.writeTimestamp(S::eAllCommands, *stamps, 0);
    const auto t0 = std::chrono::steady_clock::now();
    sort.record_indirect(*cmd, Operand::of(*count.buffer), Operand::of(*keys.buffer),
                         Operand::of(*sorted_keys.buffer), Operand::of(*values.buffer),
                         Operand::of(*sorted_values.buffer), Operand::of(*scratch.buffer));
    record_us.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    if (timed) cmd.writeTimestamp(S::eAllCommands, *stamps, 1);
    // The next frame's passes write what this frame's sort reads and writes.
    barrier(cmd, S::eComputeShader, A::eShaderWrite, S::eTransfer | S::eComputeShader,
            A::eTransferRead | A::eTransferWrite | A::eShaderRead | A::eShaderWrite);
    if (check) {
      cmd.copyBuffer(*count.buffer, *host.buffer, vk::BufferCopy(0, 0, 4));
      int k = 0;
      for (const Buffer* b : {&keys, &values, &sorted_keys, &sorted_values})
        cmd.copyBuffer(*b->buffer, *host.buffer, vk::BufferCopy(0, 16 + bytes * k++, bytes));
      barrier(cmd, S::eTransfer, A::eTransferWrite, S::eHost, A::eHostRead);
    }
    cmd.end();
    const vk::CommandBuffer handle = *cmd;
    g.queue.submit(vk::SubmitInfo({}, {}, handle), *fence);
    if (g.device.waitForFences(*fence, VK_TRUE, 60'000'000'000ull) != vk::Result::eSuccess)
      throw std::runtime_error("the GPU did not finish a frame within a minute");
    g.device.resetFences(*fence);
    if (timed) {
      const auto [result, ticks] =
          stamps.getResults<std::uint64_t>(0, 2, 16, 8, vk::QueryResultFlagBits::e64);
      if (result == vk::Result::eSuccess) sort_ms.push_back((ticks[1] - ticks[0]) * tick_ns / 1e6);
    }
    if (check) all_match &= frame_matches(frame, view, host.mapped, n);
  }
  std::printf(
      "%d frames: sort %.4f ms a frame on the GPU (median, timestamps%s), recorded in "
      "%.1f us on the host (median)\n",
      args.frames, median(sort_ms), timed ? "" : ": none on this queue", median(record_us));
  if (validation_messages) std::printf("%d validation messages\n", validation_messages);
  return all_match && validation_messages == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<Args> args = parse(argc, argv);
  if (!args) {
    std::fprintf(stderr,
                 "usage: vulkan_sort [--splats N] [--frames F] [--check-every K] [--device I] "
                 "[--validate]\n");
    return 2;
  }
  try {
    return run(*args);
  } catch (const xr::Error& e) {
    std::fprintf(stderr, "vulkan_sort: %s\n", e.what());
    return e.category() == xr::ErrorCategory::unsupported ? 3 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vulkan_sort: %s\n", e.what());
    return 3;
  }
}
