// A Vulkan program of its own that uses xreduce as a library: it makes its instance, device,
// buffers and command buffer, uploads n int32 values, records an inclusive scan, a sum and a
// sort of float keys with u32 values (a splat renderer's depths and indices) with xreduce::vulkan,
// checks each against the host, and with --reps times the scan as `xreduce compare` does (L2
// flushed, GPU timestamps around one call, the median) and the host cost of recording it.
//
//   vulkan_scan [--n N] [--device I] [--reps R] [--idle MS[,MS...]] [--lead-us US] [--trace]
//               [--validate] [--variant ID] [--sort-variant ID]
//
// With --reps it first keeps the GPU busy until its SM clock stops rising (xr::vulkan::peak_mhz),
// then reads the clock with a probe of --lead-us microseconds (default 100) just before every
// timed scan (xreduce/vulkan/clock.hpp, where the device has VK_KHR_shader_clock's device clock)
// and prints it beside the time; --trace prints every settling probe's clock and every scan's.
// With --idle, after the timing, it leaves the GPU idle for each MS milliseconds and times one
// more scan: what a sporadic workload pays at the clock an idle GPU drops to.
//
// Exit codes: 0 the results match, 1 they do not (or a validation message), 2 bad arguments,
// 3 no Vulkan device that can run it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>
#include <vulkan/vulkan_raii.hpp>
#include <xreduce/vulkan.hpp>

namespace {

struct Args {
  std::uint64_t n = 1'000'003;  // not a multiple of any tile: the tails run too
  std::uint32_t device = ~0u;   // default: the first discrete GPU, else the first device
  int reps = 0;
  std::vector<double> idle_ms;  // --idle: single scans after this long idle
  double lead_us = 100;         // --lead-us: the clock probe's window just before a timed scan
  bool validate = false;
  bool trace = false;  // --trace: every settling probe's and every timed scan's clock
  std::string variant;
  std::string sort_variant;
};

std::optional<Args> parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const bool has_value = i + 1 < argc;
    char* end = nullptr;
    if (flag == "--validate") {
      a.validate = true;
    } else if (flag == "--trace") {
      a.trace = true;
    } else if (flag == "--n" && has_value) {
      a.n = std::strtoull(argv[++i], &end, 0);
      if (*end || a.n == 0) return std::nullopt;
    } else if (flag == "--device" && has_value) {
      a.device = static_cast<std::uint32_t>(std::strtoul(argv[++i], &end, 10));
      if (*end) return std::nullopt;
    } else if (flag == "--reps" && has_value) {
      a.reps = static_cast<int>(std::strtol(argv[++i], &end, 10));
      if (*end || a.reps < 0) return std::nullopt;
    } else if (flag == "--variant" && has_value) {
      a.variant = argv[++i];
    } else if (flag == "--sort-variant" && has_value) {
      a.sort_variant = argv[++i];
    } else if (flag == "--lead-us" && has_value) {
      a.lead_us = std::strtod(argv[++i], &end);
      if (*end || a.lead_us < 1) return std::nullopt;
    } else if (flag == "--idle" && has_value) {
      for (char* item = argv[++i]; *item; item = *end ? end + 1 : end) {
        a.idle_ms.push_back(std::strtod(item, &end));
        if (end == item || (*end && *end != ',') || a.idle_ms.back() < 0) return std::nullopt;
      }
    } else {
      return std::nullopt;
    }
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

// A buffer with its own memory, device-local or host-visible (mapped), with a device address.
struct Buffer {
  Buffer(const vk::raii::Device& device, const vk::raii::PhysicalDevice& physical,
         vk::DeviceSize bytes, vk::BufferUsageFlags usage, bool host_visible)
      : buffer(device, vk::BufferCreateInfo({}, bytes,
                                            usage | vk::BufferUsageFlagBits::eShaderDeviceAddress |
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
    vk::StructureChain<vk::MemoryAllocateInfo, vk::MemoryAllocateFlagsInfo> info(
        {req.size, type}, {vk::MemoryAllocateFlagBits::eDeviceAddress});
    memory = vk::raii::DeviceMemory(device, info.get<vk::MemoryAllocateInfo>());
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
};

vk::raii::PhysicalDevice pick(const vk::raii::Instance& instance, std::uint32_t index) {
  vk::raii::PhysicalDevices all(instance);
  if (index != ~0u) {
    if (index >= all.size()) throw std::runtime_error("no Vulkan device " + std::to_string(index));
    return all[index];
  }
  for (auto& p : all)
    if (p.getProperties().deviceType == vk::PhysicalDeviceType::eDiscreteGpu) return p;
  if (all.empty()) throw std::runtime_error("no Vulkan device");
  return all.front();
}

// Enables what xreduce needs (bufferDeviceAddress, shaderInt64) and what it uses where the
// device has it; the same VkDeviceCreateInfo then goes to xr::vulkan::Context.
struct DeviceFeatures {
  explicit DeviceFeatures(const vk::raii::PhysicalDevice& physical, std::uint32_t family) {
    const auto has =
        physical.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan12Features>();
    chain.get<vk::PhysicalDeviceFeatures2>().features.shaderInt64 = true;
    auto& f12 = chain.get<vk::PhysicalDeviceVulkan12Features>();
    f12.bufferDeviceAddress = true;
    // The look-back's status words.
    f12.shaderBufferInt64Atomics =
        has.get<vk::PhysicalDeviceVulkan12Features>().shaderBufferInt64Atomics;
    if (physical.getProperties().apiVersion >= VK_API_VERSION_1_3) {
      const auto has13 =
          physical.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan13Features>()
              .get<vk::PhysicalDeviceVulkan13Features>();
      auto& f13 = chain.get<vk::PhysicalDeviceVulkan13Features>();
      f13.subgroupSizeControl = has13.subgroupSizeControl;  // full subgroups
      f13.computeFullSubgroups = has13.computeFullSubgroups;
    } else {
      chain.unlink<vk::PhysicalDeviceVulkan13Features>();
    }
    // Push descriptors: buffers bound with 32-bit indices. The subgroup clock: the look-back's
    // pause between polls, which a 4-byte scan's look-back gains from (docs/library.md).
    for (const auto& e : physical.enumerateDeviceExtensionProperties()) {
      if (std::strcmp(e.extensionName, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) == 0)
        extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
      if (std::strcmp(e.extensionName, VK_KHR_SHADER_CLOCK_EXTENSION_NAME) == 0 &&
          physical
              .getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceShaderClockFeaturesKHR>()
              .get<vk::PhysicalDeviceShaderClockFeaturesKHR>()
              .shaderSubgroupClock) {
        extensions.push_back(VK_KHR_SHADER_CLOCK_EXTENSION_NAME);
        clock.shaderSubgroupClock = true;
        // The device clock too where there is one: the SM clock probe reads one against the other.
        clock.shaderDeviceClock = physical
                                      .getFeatures2<vk::PhysicalDeviceFeatures2,
                                                    vk::PhysicalDeviceShaderClockFeaturesKHR>()
                                      .get<vk::PhysicalDeviceShaderClockFeaturesKHR>()
                                      .shaderDeviceClock;
        clock.pNext = chain.get<vk::PhysicalDeviceFeatures2>().pNext;
        chain.get<vk::PhysicalDeviceFeatures2>().pNext = &clock;
      }
    }
    queue = vk::DeviceQueueCreateInfo({}, family, 1, &priority);
    chain.get<vk::DeviceCreateInfo>().setQueueCreateInfos(queue).setPEnabledExtensionNames(
        extensions);
  }
  DeviceFeatures(const DeviceFeatures&) = delete;  // the chain points into it
  DeviceFeatures& operator=(const DeviceFeatures&) = delete;
  const VkDeviceCreateInfo& info() const { return chain.get<vk::DeviceCreateInfo>(); }

  float priority = 1.0f;
  vk::DeviceQueueCreateInfo queue;
  std::vector<const char*> extensions;
  vk::StructureChain<vk::DeviceCreateInfo, vk::PhysicalDeviceFeatures2,
                     vk::PhysicalDeviceVulkan12Features, vk::PhysicalDeviceVulkan13Features>
      chain;
  vk::PhysicalDeviceShaderClockFeaturesKHR clock;
};

void make_instance(Gpu& g, bool validate) {
  vk::ApplicationInfo app("vulkan_scan", 1, nullptr, 0, VK_API_VERSION_1_3);
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

std::uint32_t compute_family(const vk::raii::PhysicalDevice& physical) {
  const auto families = physical.getQueueFamilyProperties();
  for (std::uint32_t i = 0; i < families.size(); ++i)
    if (families[i].queueFlags & vk::QueueFlagBits::eCompute) return i;
  throw std::runtime_error("no compute queue");
}

// Submits `cmd` and waits for it.
void submit(Gpu& g, const vk::raii::CommandBuffer& cmd) {
  vk::raii::Fence fence(g.device, vk::FenceCreateInfo());
  const vk::CommandBuffer handle = *cmd;
  g.queue.submit(vk::SubmitInfo({}, {}, handle), *fence);
  if (g.device.waitForFences(*fence, VK_TRUE, 60'000'000'000ull) != vk::Result::eSuccess)
    throw std::runtime_error("the GPU did not finish within a minute");
}

vk::raii::CommandBuffer begin(Gpu& g) {
  vk::raii::CommandBuffers cmds(g.device, {*g.pool, vk::CommandBufferLevel::ePrimary, 1});
  vk::raii::CommandBuffer cmd = std::move(cmds.front());
  cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
  return cmd;
}

// The caller's side of the library's barrier contract (docs/library.md): `src` stage writes
// before `dst` stage accesses.
void barrier(const vk::raii::CommandBuffer& cmd, vk::PipelineStageFlags src,
             vk::AccessFlags src_access, vk::PipelineStageFlags dst, vk::AccessFlags dst_access) {
  cmd.pipelineBarrier(src, dst, {}, vk::MemoryBarrier(src_access, dst_access), {}, {});
}

// One timed scan as xreduce compare's cold mode times one: after an L2 flush (a fill of a buffer
// larger than any L2, in its own submission), GPU timestamps around the scan, and the SM clock
// read by a probe just before it (the clock the scan starts at), in the same submission.
class ScanTimer {
 public:
  ScanTimer(Gpu& g, const xr::vulkan::Context& context, double lead_us)
      : g_(g),
        lead_us_(lead_us),
        flush_(g.device, g.physical, 256u << 20, {}, false),
        probe_result_(g.device, g.physical, 64, vk::BufferUsageFlagBits::eStorageBuffer, true),
        queries_(g.device, vk::QueryPoolCreateInfo({}, vk::QueryType::eTimestamp, 2)),
        period_(g.physical.getProperties().limits.timestampPeriod) {
    if (context.clock_supported()) {
      clock_.emplace(context);
      calibrate();
    }
  }

  struct Sample {
    double ms = 0;
    double mhz = 0;  // 0 where the device has no clock probe
  };

  // Keeps the GPU busy with 10 ms probes by the library's rule (xr::vulkan::peak_mhz: at least
  // 200 ms, then until 400 ms pass without a new peak, at most 2 s) and returns the peak. A GPU
  // that idled has dropped its clock (NVIDIA's driver, in a process without a CUDA context, to a
  // sixth of its working clock) and raises it in steps sized by how busy the GPU was over the
  // driver's last period, which scans with host round trips between them keep low: without this
  // the timed scans run at that low clock (docs/library.md, "The clock"). --trace shows it.
  double settle(bool trace) {
    if (!clock_) return 0;
    double busy_ms = 0;
    return xr::vulkan::peak_mhz(
        [&](double ms) {
          const double mhz = spin_mhz(ms * 1e3);
          busy_ms += ms;
          if (trace) std::printf("settle %4.0f ms busy: SM clock %.0f MHz\n", busy_ms, mhz);
          return mhz;
        },
        10);
  }

  Sample time(const xr::vulkan::Scan& scan, const xr::vulkan::Operand& in,
              const xr::vulkan::Operand& out, const xr::vulkan::Operand& scratch) {
    vk::raii::CommandBuffer fill = begin(g_);
    fill.fillBuffer(*flush_.buffer, 0, VK_WHOLE_SIZE, ++flushes_);
    fill.end();
    submit(g_, fill);
    vk::raii::CommandBuffer cmd = begin(g_);
    cmd.resetQueryPool(*queries_, 0, 2);
    barrier(cmd, S::eComputeShader | S::eTransfer, A::eShaderWrite | A::eTransferWrite,
            S::eComputeShader, A::eShaderRead | A::eShaderWrite);
    if (clock_) clock_->record(*cmd, probe_operand(), window_ticks_);
    cmd.writeTimestamp(S::eBottomOfPipe, *queries_, 0);
    scan.record(*cmd, xr::ScanKind::inclusive, in, out, scratch);
    cmd.writeTimestamp(S::eBottomOfPipe, *queries_, 1);
    barrier(cmd, S::eComputeShader, A::eShaderWrite, S::eHost, A::eHostRead);
    cmd.end();
    submit(g_, cmd);
    return {elapsed_ms(), clock_ ? probe_mhz() : 0};
  }

 private:
  using S = vk::PipelineStageFlagBits;
  using A = vk::AccessFlagBits;

  // The device clock's ticks per microsecond, once: a probe of 2M subgroup cycles (a
  // millisecond or more) between two timestamps, the fastest of three.
  void calibrate() {
    double best = 0;
    for (int i = 0; i < 3; ++i) {
      vk::raii::CommandBuffer cmd = begin(g_);
      cmd.resetQueryPool(*queries_, 0, 2);
      cmd.writeTimestamp(S::eBottomOfPipe, *queries_, 0);
      clock_->record(*cmd, probe_operand(), 2'000'000, true);
      cmd.writeTimestamp(S::eBottomOfPipe, *queries_, 1);
      barrier(cmd, S::eComputeShader, A::eShaderWrite, S::eHost, A::eHostRead);
      cmd.end();
      submit(g_, cmd);
      const auto reading = xr::vulkan::SmClock::read(probe_result_.mapped);
      best = std::max(best, xr::vulkan::SmClock::device_ticks_per_us(reading, timestamp_ticks(),
                                                                     static_cast<float>(period_)));
    }
    ticks_per_us_ = best;
    window_ticks_ = static_cast<std::uint64_t>(lead_us_ * ticks_per_us_);
  }

  // One probe of `us` microseconds in its own submission: the clock over it.
  double spin_mhz(double us) {
    vk::raii::CommandBuffer cmd = begin(g_);
    clock_->record(*cmd, probe_operand(), static_cast<std::uint64_t>(us * ticks_per_us_));
    barrier(cmd, S::eComputeShader, A::eShaderWrite, S::eHost, A::eHostRead);
    cmd.end();
    submit(g_, cmd);
    return probe_mhz();
  }

  xr::vulkan::Operand probe_operand() const {
    return xr::vulkan::Operand::of(*probe_result_.buffer);
  }
  std::uint64_t timestamp_ticks() {
    const auto [result, ticks] = queries_.getResults<std::uint64_t>(
        0, 2, 2 * sizeof(std::uint64_t), sizeof(std::uint64_t), vk::QueryResultFlagBits::e64);
    return ticks[1] - ticks[0];
  }
  double elapsed_ms() { return static_cast<double>(timestamp_ticks()) * period_ / 1e6; }
  double probe_mhz() const {
    return xr::vulkan::SmClock::mhz(xr::vulkan::SmClock::read(probe_result_.mapped), ticks_per_us_);
  }

  Gpu& g_;
  double lead_us_;
  Buffer flush_, probe_result_;
  vk::raii::QueryPool queries_;
  double period_;
  std::optional<xr::vulkan::SmClock> clock_;
  double ticks_per_us_ = 0;
  std::uint64_t window_ticks_ = 0;
  std::uint32_t flushes_ = 0;
};

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// The host time of recording one scan, over many records into one command buffer (never
// submitted), in microseconds.
double record_cost_us(Gpu& g, const xr::vulkan::Scan& scan, const xr::vulkan::Operand& in,
                      const xr::vulkan::Operand& out, const xr::vulkan::Operand& scratch) {
  constexpr int kRecords = 1000;
  double best = 1e30;
  for (int round = 0; round < 5; ++round) {
    vk::raii::CommandBuffer cmd = begin(g);
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kRecords; ++i) scan.record(*cmd, xr::ScanKind::inclusive, in, out, scratch);
    const auto end = std::chrono::steady_clock::now();
    cmd.end();
    best =
        std::min(best, std::chrono::duration<double, std::micro>(end - start).count() / kRecords);
  }
  return best;
}

// A splat renderer's sort: the values as float depths (many equal), each with its index, stable
// and ascending; the library's Sort, recorded into this program's command buffer, against the
// host's stable sort.
bool sort_matches(Gpu& g, const xr::vulkan::Context& context, const std::vector<std::int32_t>& data,
                  const std::string& variant) {
  const std::size_t n = data.size();
  std::vector<float> depth(n);
  std::vector<std::uint32_t> index(n);
  for (std::size_t i = 0; i < n; ++i) {
    depth[i] = 0.25f * static_cast<float>(data[i]);
    index[i] = static_cast<std::uint32_t>(i);
  }
  const xr::vulkan::Sort sort(
      context,
      {.dtype = xr::DType::f32, .count = n, .values = xr::SortValues::u32, .variant = variant});
  const vk::DeviceSize bytes = n * 4;
  using U = vk::BufferUsageFlagBits;
  Buffer keys(g.device, g.physical, bytes, U::eStorageBuffer, false);
  Buffer keys_out(g.device, g.physical, bytes, U::eStorageBuffer, false);
  Buffer values(g.device, g.physical, bytes, U::eStorageBuffer, false);
  Buffer values_out(g.device, g.physical, bytes, U::eStorageBuffer, false);
  Buffer scratch(g.device, g.physical, sort.scratch_size(), U::eStorageBuffer, false);
  Buffer staging(g.device, g.physical, 2 * bytes, {}, true);
  std::memcpy(staging.mapped, depth.data(), bytes);
  std::memcpy(static_cast<std::byte*>(staging.mapped) + bytes, index.data(), bytes);
  using xr::vulkan::Operand;
  using S = vk::PipelineStageFlagBits;
  using A = vk::AccessFlagBits;
  vk::raii::CommandBuffer cmd = begin(g);
  cmd.copyBuffer(*staging.buffer, *keys.buffer, vk::BufferCopy(0, 0, bytes));
  cmd.copyBuffer(*staging.buffer, *values.buffer, vk::BufferCopy(bytes, 0, bytes));
  sort.record_scratch_init(*cmd, *scratch.buffer);  // once, before its first call
  barrier(cmd, S::eTransfer, A::eTransferWrite, S::eComputeShader, A::eShaderRead);
  sort.record(*cmd, Operand::of(*keys.buffer), Operand::of(*keys_out.buffer),
              Operand::of(*values.buffer), Operand::of(*values_out.buffer),
              Operand::of(*scratch.buffer));
  barrier(cmd, S::eComputeShader, A::eShaderWrite, S::eTransfer, A::eTransferRead);
  cmd.copyBuffer(*keys_out.buffer, *staging.buffer, vk::BufferCopy(0, 0, bytes));
  cmd.copyBuffer(*values_out.buffer, *staging.buffer, vk::BufferCopy(0, bytes, bytes));
  barrier(cmd, S::eTransfer, A::eTransferWrite, S::eHost, A::eHostRead);
  cmd.end();
  submit(g, cmd);
  std::vector<float> got_keys(n);
  std::vector<std::uint32_t> got_values(n);
  std::memcpy(got_keys.data(), staging.mapped, bytes);
  std::memcpy(got_values.data(), static_cast<const std::byte*>(staging.mapped) + bytes, bytes);
  std::vector<std::uint32_t> order(index);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return depth[a] < depth[b]; });
  bool ok = got_values == order;
  for (std::size_t j = 0; ok && j < n; ++j) ok = got_keys[j] == depth[order[j]];
  std::printf("sort of %llu f32 keys with u32 values (%s): %s\n",
              static_cast<unsigned long long>(n), sort.variant().c_str(),
              ok ? "matches the host" : "WRONG");
  return ok;
}

int run(const Args& args) {
  Gpu g;
  make_instance(g, args.validate);
  g.physical = pick(g.instance, args.device);
  g.family = compute_family(g.physical);
  const DeviceFeatures features(g.physical, g.family);
  g.device = vk::raii::Device(g.physical, features.chain.get<vk::DeviceCreateInfo>());
  g.queue = g.device.getQueue(g.family, 0);
  g.pool = vk::raii::CommandPool(g.device, {{}, g.family});

  // The library, on this device: the Context reads what was enabled from the create info.
  const xr::vulkan::Context context({.instance = *g.instance,
                                     .physical_device = *g.physical,
                                     .device = *g.device,
                                     .device_info = &features.info(),
                                     .api_version = VK_API_VERSION_1_3});
  const std::uint64_t n = args.n;
  const xr::vulkan::Scan scan(
      context, {.dtype = xr::DType::i32, .op = xr::Op::sum, .count = n, .variant = args.variant});
  const xr::vulkan::Reduce reduce(context,
                                  {.dtype = xr::DType::i32, .op = xr::Op::sum, .count = n});

  // Phase one: the sizes. Then the buffers.
  const vk::DeviceSize bytes = n * sizeof(std::int32_t);
  using U = vk::BufferUsageFlagBits;
  Buffer in(g.device, g.physical, bytes, U::eStorageBuffer, false);
  Buffer out(g.device, g.physical, bytes, U::eStorageBuffer, false);
  Buffer scan_scratch(g.device, g.physical, scan.scratch_size(), U::eStorageBuffer, false);
  Buffer reduce_scratch(g.device, g.physical, reduce.scratch_size(), U::eStorageBuffer, false);
  Buffer sum(g.device, g.physical, 16, U::eStorageBuffer, false);
  Buffer staging(g.device, g.physical, bytes + 16, {}, true);

  std::vector<std::int32_t> data(n);
  std::mt19937 random(7);
  for (auto& x : data) x = static_cast<std::int32_t>(random() % 201) - 100;
  std::memcpy(staging.mapped, data.data(), bytes);

  using xr::vulkan::Operand;
  const Operand in_op = Operand::of(*in.buffer), out_op = Operand::of(*out.buffer),
                scan_scratch_op = Operand::of(*scan_scratch.buffer),
                reduce_scratch_op = Operand::of(*reduce_scratch.buffer),
                sum_op = Operand::of(*sum.buffer);
  using S = vk::PipelineStageFlagBits;
  using A = vk::AccessFlagBits;
  {
    vk::raii::CommandBuffer cmd = begin(g);
    cmd.copyBuffer(*staging.buffer, *in.buffer, vk::BufferCopy(0, 0, bytes));
    scan.record_scratch_init(*cmd, *scan_scratch.buffer);
    reduce.record_scratch_init(*cmd, *reduce_scratch.buffer);
    // The upload (a transfer write) before the shaders read it.
    barrier(cmd, S::eTransfer, A::eTransferWrite, S::eComputeShader, A::eShaderRead);
    scan.record(*cmd, xr::ScanKind::inclusive, in_op, out_op, scan_scratch_op);
    reduce.record(*cmd, in_op, sum_op, reduce_scratch_op);
    // The shaders' writes before the copies that read them back.
    barrier(cmd, S::eComputeShader, A::eShaderWrite, S::eTransfer, A::eTransferRead);
    cmd.copyBuffer(*out.buffer, *staging.buffer, vk::BufferCopy(0, 0, bytes));
    cmd.copyBuffer(*sum.buffer, *staging.buffer, vk::BufferCopy(0, bytes, 4));
    barrier(cmd, S::eTransfer, A::eTransferWrite, S::eHost, A::eHostRead);
    cmd.end();
    submit(g, cmd);
  }

  std::vector<std::int32_t> expected(n), got(n);
  std::inclusive_scan(data.begin(), data.end(), expected.begin());
  std::memcpy(got.data(), staging.mapped, bytes);
  std::int32_t total = 0;
  std::memcpy(&total, static_cast<const std::byte*>(staging.mapped) + bytes, 4);
  const auto mismatch = std::mismatch(expected.begin(), expected.end(), got.begin());
  const bool scan_ok = mismatch.first == expected.end();
  const bool sum_ok = total == expected.back();

  std::printf("device: %s (extensions:", context.device_name().c_str());
  for (const char* e : features.extensions) std::printf(" %s", e);
  std::printf(")\n");
  std::printf("scan of %llu i32 (%s): %s\n", static_cast<unsigned long long>(n),
              scan.variant().c_str(), scan_ok ? "matches the host" : "WRONG");
  if (!scan_ok)
    std::printf("  first difference at %lld: %d, expected %d\n",
                static_cast<long long>(mismatch.first - expected.begin()), *mismatch.second,
                *mismatch.first);
  std::printf("sum (%s): %d, %s\n", reduce.variant().c_str(), total,
              sum_ok ? "matches the host" : "WRONG");
  if (args.reps > 0) {
    ScanTimer timer(g, context, args.lead_us);
    const double settled = timer.settle(args.trace);
    std::vector<double> ms, mhz;
    for (int r = 0; r < args.reps; ++r) {
      const ScanTimer::Sample t = timer.time(scan, in_op, out_op, scan_scratch_op);
      ms.push_back(t.ms);
      mhz.push_back(t.mhz);
      if (args.trace) std::printf("scan %2d: %.4f ms, SM clock %.0f MHz\n", r, t.ms, t.mhz);
    }
    const double time = median(ms);
    std::printf("scan time: %.4f ms median of %d (cold, L2 flushed), %.1f GB/s", time, args.reps,
                2.0 * static_cast<double>(bytes) / time / 1e6);
    if (context.clock_supported())
      std::printf(", SM clock %.0f MHz median (lowest %.0f; settled at %.0f before timing)",
                  median(mhz), *std::min_element(mhz.begin(), mhz.end()), settled);
    std::printf("\n");
    for (double idle : args.idle_ms) {
      std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(idle));
      const ScanTimer::Sample t = timer.time(scan, in_op, out_op, scan_scratch_op);
      std::printf("after %.0f ms idle: %.4f ms (%.2fx the median)", idle, t.ms, t.ms / time);
      if (context.clock_supported()) std::printf(", SM clock %.0f MHz", t.mhz);
      std::printf("\n");
    }
    std::printf("record cost: %.3f us per scan\n",
                record_cost_us(g, scan, in_op, out_op, scan_scratch_op));
  }
  const bool sort_ok = sort_matches(g, context, data, args.sort_variant);
  g.device.waitIdle();
  if (validation_messages) std::printf("validation: %d messages\n", validation_messages);
  return scan_ok && sum_ok && sort_ok && validation_messages == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<Args> args = parse(argc, argv);
  if (!args) {
    std::fprintf(stderr,
                 "usage: vulkan_scan [--n N] [--device I] [--reps R] [--idle MS[,MS...]] "
                 "[--lead-us US] [--trace] [--validate] [--variant ID] [--sort-variant ID]\n");
    return 2;
  }
  try {
    return run(*args);
  } catch (const xr::Error& e) {
    std::fprintf(stderr, "vulkan_scan: %s\n", e.what());
    return e.category() == xr::ErrorCategory::usage ? 2 : 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vulkan_scan: %s\n", e.what());
    return 3;
  }
}
