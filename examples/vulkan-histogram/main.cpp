// A renderer's frame loop over xreduce::vulkan's histogram, as an exposure control counts each
// frame's luminance: its own compute pass renders the frame and writes its 8-bit luma, four
// pixels a word, then the library counts the luma into 256 bins twice in the same command buffer:
// into the frame's counts (HistogramOutput::overwrite) and into counts summed over every frame on
// the GPU (HistogramOutput::accumulate). One Histogram serves both calls and every frame. Every
// --check-every frames the program reads both back and checks them on the host, which renders
// every frame too, while the GPU does: the frame's counts against its histogram of the frame, the
// running counts against its sum of every frame's. It prints the two calls' GPU time per frame
// (timestamps around them) and the host's time to record them.
//
//   vulkan_histogram [--width W] [--height H] [--frames F] [--check-every K] [--device I]
//                    [--validate]
//
// Exit codes: 0 every checked frame matched the host, 1 one did not (or a validation message),
// 2 bad arguments, 3 no Vulkan device that can run it.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <vector>
#include <vulkan/vulkan_raii.hpp>
#include <xreduce/vulkan.hpp>

#include "frame_luma.spv.h"

namespace {

// The luma pass's one row of workgroups, a word of four pixels an invocation.
constexpr unsigned long long kMostPixels = 65535ull * 256 * 4;

struct Args {
  std::uint32_t width = 1919, height = 1079;  // pixels not a multiple of 4, nor of any tile
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
    if (flag == "--width" && (v = number(65535)))
      a.width = static_cast<std::uint32_t>(*v);
    else if (flag == "--height" && (v = number(65535)))
      a.height = static_cast<std::uint32_t>(*v);
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
  if (std::uint64_t{a.width} * a.height > kMostPixels) return std::nullopt;
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

// The frame as frame_luma.comp renders it, for the host's histogram: the same integer arithmetic,
// step for step, so every pixel's luma is the GPU's.
struct Frame {
  std::uint32_t width, height, frame;
};
std::uint32_t hash(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}
std::uint32_t luma(const Frame& f, std::uint32_t p) {
  const std::uint32_t x = p % f.width, y = p / f.width;
  const std::uint32_t gx = x * 256u / f.width, gy = y * 256u / f.height;
  const std::uint32_t t = (f.frame * 8u) % 512u;
  const std::uint32_t day = t < 256u ? t : 511u - t;
  const std::uint32_t noise = hash(p ^ (f.frame * 0x9e3779b9u));
  const std::uint32_t r =
      std::min(255u, ((((gx + f.frame * 3u) & 255u) * day) >> 8) + (noise & 63u));
  const std::uint32_t g = std::min(255u, ((gy * (255u - day / 2u)) >> 8) + ((noise >> 6) & 63u));
  const std::uint32_t b = std::min(255u, (((gx ^ gy) * (255u - day)) >> 8) + ((noise >> 12) & 63u));
  return (54u * r + 183u * g + 19u * b + 128u) >> 8;
}
// The frame's 256 counts, added into the host's running sum too (u32, wrapping as the GPU's
// counters do). Nothing is stored but the counts: the host renders every frame, checked or not.
void histogram_on_host(const Frame& f, std::array<std::uint32_t, 256>& counts,
                       std::array<std::uint32_t, 256>& running) {
  counts.fill(0);
  const std::uint32_t pixels = f.width * f.height;
  for (std::uint32_t p = 0; p < pixels; ++p) ++counts[luma(f, p)];
  for (std::size_t b = 0; b < 256; ++b) running[b] += counts[b];
}

// A buffer with its own memory, device-local or host-visible (mapped).
struct Buffer {
  Buffer(const vk::raii::Device& device, const vk::raii::PhysicalDevice& physical,
         vk::DeviceSize bytes, bool host_visible)
      : buffer(device, vk::BufferCreateInfo({}, bytes,
                                            vk::BufferUsageFlagBits::eStorageBuffer |
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
  vk::ApplicationInfo app("vulkan_histogram", 1, nullptr, 0, VK_API_VERSION_1_3);
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
// the histograms bind with), the first compute queue, and its pool.
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

// The program's own pass: frame_luma.comp, its one buffer pushed as a descriptor.
struct LumaPass {
  explicit LumaPass(const Gpu& g) {
    const vk::DescriptorSetLayoutBinding binding(0, vk::DescriptorType::eStorageBuffer, 1,
                                                 vk::ShaderStageFlagBits::eCompute);
    set_layout = vk::raii::DescriptorSetLayout(
        g.device, {vk::DescriptorSetLayoutCreateFlagBits::ePushDescriptorKHR, binding});
    const vk::PushConstantRange push(vk::ShaderStageFlagBits::eCompute, 0, sizeof(Frame));
    layout = vk::raii::PipelineLayout(g.device, {{}, *set_layout, push});
    const vk::raii::ShaderModule module(g.device, {{}, sizeof kFrameLumaSpirv, kFrameLumaSpirv});
    pipeline = vk::raii::Pipeline(
        g.device, nullptr,
        vk::ComputePipelineCreateInfo({}, {{}, vk::ShaderStageFlagBits::eCompute, *module, "main"},
                                      *layout));
  }
  void record(const vk::raii::CommandBuffer& cmd, const Frame& frame, vk::Buffer luma,
              vk::DeviceSize bytes) const {
    cmd.bindPipeline(vk::PipelineBindPoint::eCompute, *pipeline);
    const vk::DescriptorBufferInfo info(luma, 0, bytes);
    const vk::WriteDescriptorSet write({}, 0, 0, vk::DescriptorType::eStorageBuffer, {}, info);
    cmd.pushDescriptorSetKHR(vk::PipelineBindPoint::eCompute, *layout, 0, write);
    cmd.pushConstants<Frame>(*layout, vk::ShaderStageFlagBits::eCompute, 0, frame);
    const std::uint32_t words = static_cast<std::uint32_t>(bytes / 4);
    cmd.dispatch((words + 255) / 256, 1, 1);
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

// The two count buffers read back (the frame's, then the running sum's) against the host's.
bool frame_matches(int frame, const void* host, const std::array<std::uint32_t, 256>& expected,
                   const std::array<std::uint32_t, 256>& running, std::uint32_t pixels) {
  std::array<std::uint32_t, 256> counts{}, sums{};
  std::memcpy(counts.data(), host, sizeof counts);
  std::memcpy(sums.data(), static_cast<const char*>(host) + sizeof counts, sizeof sums);
  std::size_t wrong = 0, wrong_sums = 0;
  for (std::size_t b = 0; b < 256; ++b) {
    wrong += counts[b] != expected[b];
    wrong_sums += sums[b] != running[b];
  }
  const auto top =
      static_cast<std::size_t>(std::max_element(counts.begin(), counts.end()) - counts.begin());
  std::printf(
      "frame %d: luma %zu most common (%u of %u pixels), %zu of 256 bins wrong, %zu in the "
      "running sum of frames 0 to %d\n",
      frame, top, counts[top], pixels, wrong, wrong_sums, frame);
  return wrong == 0 && wrong_sums == 0;
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

  // One Histogram for both calls of every frame: the frame's luma, u8 samples in 256 bins.
  const std::uint32_t pixels = args.width * args.height;
  const xr::vulkan::Histogram histogram(
      context,
      {.dtype = xr::DType::u8, .count = pixels, .levels = {.bins = 256, .lower = 0, .upper = 256}});
  std::printf("histogram: %s, %ux%u pixels, scratch %llu bytes\n", histogram.variant().c_str(),
              args.width, args.height, static_cast<unsigned long long>(histogram.scratch_size()));
  // The luma's bytes in whole words, as the library reads u8 samples. The two calls get a scratch
  // each, in one buffer at offsets aligned to Context::operand_alignment(), so that nothing they
  // write is shared and no barrier goes between them: both only read the luma.
  const vk::DeviceSize luma_bytes = (vk::DeviceSize{pixels} + 3) / 4 * 4;
  const vk::DeviceSize align = context.operand_alignment();
  const vk::DeviceSize scratch_bytes = histogram.scratch_size();
  const vk::DeviceSize second_scratch = (scratch_bytes + align - 1) / align * align;
  constexpr vk::DeviceSize kCountsBytes = 256 * 4;
  Buffer luma(g.device, g.physical, luma_bytes, false),
      counts(g.device, g.physical, kCountsBytes, false),
      running(g.device, g.physical, kCountsBytes, false),
      scratch(g.device, g.physical, second_scratch + scratch_bytes, false),
      host(g.device, g.physical, 2 * kCountsBytes, true);
  const LumaPass pass(g);
  const bool timed = g.physical.getQueueFamilyProperties()[g.family].timestampValidBits > 0;
  vk::raii::QueryPool stamps(g.device, {{}, vk::QueryType::eTimestamp, 2});
  const double tick_ns = g.physical.getProperties().limits.timestampPeriod;
  vk::raii::CommandBuffers cmds(g.device, {*g.pool, vk::CommandBufferLevel::ePrimary, 1});
  const vk::raii::CommandBuffer& cmd = cmds.front();
  vk::raii::Fence fence(g.device, vk::FenceCreateInfo());
  using S = vk::PipelineStageFlagBits;
  using A = vk::AccessFlagBits;
  using xr::vulkan::HistogramOutput;
  using xr::vulkan::Operand;

  std::array<std::uint32_t, 256> expected{}, expected_running{};
  std::vector<double> histogram_ms, record_us;
  bool all_match = true;
  for (int frame = 0; frame < args.frames; ++frame) {
    const Frame f{args.width, args.height, static_cast<std::uint32_t>(frame)};
    const bool check = (frame + 1) % args.check_every == 0 || frame + 1 == args.frames;
    cmd.reset();
    cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
    if (timed) cmd.resetQueryPool(*stamps, 0, 2);
    if (frame == 0) {  // the running sum starts at zero: every frame adds to it
      cmd.fillBuffer(*running.buffer, 0, kCountsBytes, 0);
      barrier(cmd, S::eTransfer, A::eTransferWrite, S::eComputeShader,
              A::eShaderRead | A::eShaderWrite);
    }
    pass.record(cmd, f, *luma.buffer, luma_bytes);
    // The library's contract: the samples visible to its compute shaders.
    barrier(cmd, S::eComputeShader, A::eShaderWrite, S::eComputeShader, A::eShaderRead);
    if (timed) cmd.writeTimestamp(S::eAllCommands, *stamps, 0);
    const auto t0 = std::chrono::steady_clock::now();
    const Operand samples = Operand::of(*luma.buffer, 0, luma_bytes);
    histogram.record(*cmd, samples, Operand::of(*counts.buffer),
                     Operand::of(*scratch.buffer, 0, scratch_bytes), HistogramOutput::overwrite);
    histogram.record(*cmd, samples, Operand::of(*running.buffer),
                     Operand::of(*scratch.buffer, second_scratch, scratch_bytes),
                     HistogramOutput::accumulate);
    record_us.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    if (timed) cmd.writeTimestamp(S::eAllCommands, *stamps, 1);
    // The counts visible to the copies below, and every buffer of this frame's calls to the next
    // frame's: its luma pass writes what they read, its calls what they wrote and the running
    // sum they added to.
    barrier(cmd, S::eComputeShader, A::eShaderWrite, S::eTransfer | S::eComputeShader,
            A::eTransferRead | A::eShaderRead | A::eShaderWrite);
    if (check) {
      cmd.copyBuffer(*counts.buffer, *host.buffer, vk::BufferCopy(0, 0, kCountsBytes));
      cmd.copyBuffer(*running.buffer, *host.buffer, vk::BufferCopy(0, kCountsBytes, kCountsBytes));
      barrier(cmd, S::eTransfer, A::eTransferWrite, S::eHost, A::eHostRead);
    }
    cmd.end();
    const vk::CommandBuffer handle = *cmd;
    g.queue.submit(vk::SubmitInfo({}, {}, handle), *fence);
    histogram_on_host(f, expected, expected_running);  // while the GPU renders the same frame
    if (g.device.waitForFences(*fence, VK_TRUE, 60'000'000'000ull) != vk::Result::eSuccess)
      throw std::runtime_error("the GPU did not finish a frame within a minute");
    g.device.resetFences(*fence);
    if (timed) {
      const auto [result, ticks] =
          stamps.getResults<std::uint64_t>(0, 2, 16, 8, vk::QueryResultFlagBits::e64);
      if (result == vk::Result::eSuccess)
        histogram_ms.push_back((ticks[1] - ticks[0]) * tick_ns / 1e6);
    }
    if (check) all_match &= frame_matches(frame, host.mapped, expected, expected_running, pixels);
  }
  std::printf(
      "%d frames: histogram %.4f ms a frame on the GPU (median, timestamps%s; overwrite and "
      "accumulate), recorded in %.1f us on the host (median)\n",
      args.frames, median(histogram_ms), timed ? "" : ": none on this queue", median(record_us));
  if (validation_messages) std::printf("%d validation messages\n", validation_messages);
  return all_match && validation_messages == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<Args> args = parse(argc, argv);
  if (!args) {
    std::fprintf(stderr,
                 "usage: vulkan_histogram [--width W] [--height H] [--frames F] [--check-every K] "
                 "[--device I] [--validate]\n"
                 "       (W x H at most %llu pixels)\n",
                 kMostPixels);
    return 2;
  }
  try {
    return run(*args);
  } catch (const xr::Error& e) {
    std::fprintf(stderr, "vulkan_histogram: %s\n", e.what());
    return e.category() == xr::ErrorCategory::unsupported ? 3 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vulkan_histogram: %s\n", e.what());
    return 3;
  }
}
