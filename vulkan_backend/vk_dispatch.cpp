#include "vk_dispatch.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <deque>

#include "vk_check.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/error.hpp"

namespace xr::vulkan {
namespace {

// Workgroups of the grid-stride variants' first pass: enough to keep every SM of an H100/H200
// (132 SMs x 8 workgroups of 256) busy in one wave, and few enough that one workgroup folds the
// partials in the second pass. Chosen by that reasoning, then checked, not swept: on an H200
// (driver 580.159.04) fast/vectorized sums 2^28 f32 at 4215 GB/s, 95.0% of the 4435 GB/s the
// read_bandwidth probe measures (`xreduce compare --backend vulkan --n 2^28 --dtype f32`).
constexpr std::uint32_t kGridGroups = 1024;

constexpr std::uint32_t kSmem = 0;
constexpr std::uint32_t kBasic = need_subgroup_basic;

// The variant table: the Harris ladder, the subgroup family, the fast pair. Workgroups of 256
// invocations throughout, the size seed 003 and the CUDA ladder use, so steps compare like with
// like.
constexpr VariantSpec kVariants[] = {
    {"smem/interleaved-divergent", "smem_interleaved_divergent", Shape::per_block, 256, 1, 1, 0,
     kSmem},
    {"smem/interleaved-strided", "smem_interleaved_strided", Shape::per_block, 256, 1, 1, 0, kSmem},
    {"smem/sequential", "smem_sequential", Shape::per_block, 256, 1, 1, 0, kSmem},
    {"smem/first-add", "smem_first_add", Shape::per_block, 256, 2, 1, 0, kSmem},
    {"smem/unroll-last-warp", "smem_unroll_subgroup", Shape::per_block, 256, 2, 1, 0, kBasic},
    {"smem/complete-unroll", "smem_complete_unroll", Shape::per_block, 256, 2, 1, 0, kBasic},
    {"smem/multi-element", "smem_multi_element", Shape::grid_stride, 256, 2, 1, kGridGroups,
     kBasic},
    {"subgroup/shuffle-down", "subgroup_shuffle_down", Shape::grid_stride, 256, 2, 1, kGridGroups,
     kBasic | need_subgroup_shuffle_relative},
    {"subgroup/shuffle-xor", "subgroup_shuffle_xor", Shape::grid_stride, 256, 2, 1, kGridGroups,
     kBasic | need_subgroup_shuffle},
    {"subgroup/arithmetic", "subgroup_arithmetic", Shape::grid_stride, 256, 2, 1, kGridGroups,
     kBasic | need_subgroup_arithmetic},
    // 4 lanes x 4 vector loads in flight per invocation and iteration.
    {"fast/vectorized", "fast_vectorized", Shape::grid_stride, 256, 16, 4, kGridGroups,
     kBasic | need_subgroup_arithmetic},
    {"fast/single-pass", "fast_single_pass", Shape::single_pass, 256, 16, 4, kGridGroups,
     kBasic | need_subgroup_arithmetic},
};

std::vector<std::string> need_words(std::uint32_t needs) {
  std::vector<std::string> words;
  if (needs & need_subgroup_basic) words.push_back("subgroups in compute (basic)");
  if (needs & need_subgroup_shuffle) words.push_back("subgroup shuffle");
  if (needs & need_subgroup_shuffle_relative)
    words.push_back("subgroup shuffle-relative (subgroupShuffleDown)");
  if (needs & need_subgroup_arithmetic)
    words.push_back("subgroup arithmetic (subgroupAdd/Min/Max)");
  return words;
}

std::uint32_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return static_cast<std::uint32_t>((a + b - 1) / b);
}
std::uint32_t round_up4(std::uint32_t x) {
  return (x + 3u) & ~3u;
}

}  // namespace

std::span<const VariantSpec> variant_table() {
  return kVariants;
}

const VariantSpec* find_variant(std::string_view id) {
  for (const auto& v : kVariants)
    if (v.id == id) return &v;
  return nullptr;
}

std::vector<VariantInfo> variant_infos() {
  std::vector<VariantInfo> out;
  for (const auto& v : kVariants) {
    VariantInfo info = catalog_variant(
        Primitive::reduce, v.id, {DType::i32, DType::u32, DType::f32}, {Op::sum, Op::min, Op::max});
    info.requirements = need_words(v.needs);
    info.max_elements = (std::uint64_t{1} << 31) - 1;  // 32-bit shader indices
    out.push_back(std::move(info));
  }
  return out;
}

std::string unsupported_reason(const VariantSpec& spec, const DeviceFacts& f) {
  if (!f.unusable_reason.empty()) return "the device is unusable: " + f.unusable_reason;
  using F = vk::SubgroupFeatureFlagBits;
  std::uint32_t missing = 0;
  const std::pair<std::uint32_t, F> subgroup_bits[] = {
      {need_subgroup_basic, F::eBasic},
      {need_subgroup_shuffle, F::eShuffle},
      {need_subgroup_shuffle_relative, F::eShuffleRelative},
      {need_subgroup_arithmetic, F::eArithmetic}};
  for (auto [need, bit] : subgroup_bits)
    if ((spec.needs & need) && !(f.subgroup_ops & bit)) missing |= need;
  std::vector<std::string> words = need_words(missing);
  const auto& l = f.limits;
  if (spec.workgroup > l.maxComputeWorkGroupInvocations ||
      spec.workgroup > l.maxComputeWorkGroupSize[0])
    words.push_back("workgroups of " + std::to_string(spec.workgroup) + " invocations");
  // sdata/sgroup arrays of WG 4-byte elements plus a few words.
  const std::uint32_t shared_bytes = spec.workgroup * 4 + 64;
  if (shared_bytes > l.maxComputeSharedMemorySize)
    words.push_back(std::to_string(shared_bytes) + " bytes of shared memory");
  if ((spec.needs & need_subgroup_basic) && f.max_subgroup_size > spec.workgroup)
    words.push_back("subgroups no larger than the workgroup of " + std::to_string(spec.workgroup));
  if (words.empty()) return {};
  std::string text = "needs ";
  for (std::size_t i = 0; i < words.size(); ++i)
    text += (i ? (i + 1 == words.size() ? " and " : ", ") : "") + words[i];
  return text + ", which this device lacks";
}

std::uint64_t max_elements(const DeviceFacts& f, DType t) {
  std::uint64_t bytes = f.limits.maxStorageBufferRange & ~std::uint64_t{15};
  if (f.max_allocation) bytes = std::min<std::uint64_t>(bytes, f.max_allocation & ~15ull);
  if (f.device_local_bytes) bytes = std::min<std::uint64_t>(bytes, f.device_local_bytes);
  return std::min<std::uint64_t>(bytes / size_of(t), (std::uint64_t{1} << 31) - 1);
}

// --- arrays ---------------------------------------------------------------------------------

namespace {

std::atomic<std::uint64_t> g_next_serial{1};

// Storage buffers are padded to 16 bytes so vector loads and zero-sized arrays are legal.
vk::DeviceSize array_bytes(DType t, std::size_t n) {
  return std::max<vk::DeviceSize>(16, (n * size_of(t) + 15) & ~vk::DeviceSize{15});
}

constexpr vk::BufferUsageFlags kStorageUsage = vk::BufferUsageFlagBits::eStorageBuffer |
                                               vk::BufferUsageFlagBits::eTransferSrc |
                                               vk::BufferUsageFlagBits::eTransferDst;

}  // namespace

VulkanArray::VulkanArray(std::shared_ptr<Device> device, DType t, std::size_t n)
    : device_(std::move(device)),
      dtype_(t),
      size_(n),
      buffer_(*device_, array_bytes(t, n), kStorageUsage, MemoryKind::device_local),
      serial_(g_next_serial++) {}

VulkanArray::VulkanArray(std::shared_ptr<Device> device, HostView data)
    : VulkanArray(std::move(device), data.dtype, data.size) {
  device_->write_buffer(buffer_, data.data, data.bytes());
  device_->raise_validation();
}

void VulkanArray::write(HostView src) {
  if (src.dtype != dtype_ || src.size != size_)
    throw Error(ErrorCategory::usage, "DeviceArray::write: dtype or size differs from the array");
  device_->raise_validation();
  device_->write_buffer(buffer_, src.data, src.bytes());
  device_->raise_validation();
}

void VulkanArray::read_into(HostArray& out) const {
  if (out.dtype() != dtype_ || out.size() != size_)
    throw Error(ErrorCategory::usage,
                "DeviceArray::read_into: dtype or size differs from the array");
  device_->raise_validation();
  device_->read_buffer(buffer_, out.data(), out.bytes());
  device_->raise_validation();
}

// --- reducers -------------------------------------------------------------------------------

namespace {

struct Pass {
  bool from_input;
  PushConstants push;
  std::uint32_t groups_x, groups_y;
};

// The passes for n elements: each pass turns `count` elements into one partial per workgroup,
// stored in scratch at 16-byte-aligned offsets (vector loads of the next pass stay aligned),
// until one value remains. Returns the passes and the scratch element holding the result.
std::pair<std::vector<Pass>, std::uint32_t> plan_passes(const VariantSpec& spec,
                                                        const DeviceFacts& f, std::uint32_t n) {
  const auto& max_count = f.limits.maxComputeWorkGroupCount;
  std::vector<Pass> passes;
  std::uint32_t count = n, in_offset = 0, scratch_used = 0;
  bool from_input = true;
  for (;;) {
    std::uint32_t groups = ceil_div(count, std::uint64_t{spec.workgroup} * spec.items);
    Pass pass{from_input, {count, in_offset, scratch_used, 0}, 0, 1};
    if (spec.shape == Shape::per_block) {
      pass.groups_x = std::min(groups, max_count[0]);
      pass.groups_y = ceil_div(groups, pass.groups_x);
      if (pass.groups_y > max_count[1])
        throw Error(ErrorCategory::unsupported,
                    std::string(spec.id) + ": " + std::to_string(groups) +
                        " workgroups exceed this device's maxComputeWorkGroupCount");
    } else {
      groups = std::min({groups, spec.max_groups, max_count[0]});
      pass.groups_x = groups;
    }
    pass.push.groups = groups;
    scratch_used += round_up4(groups);
    if (spec.shape == Shape::single_pass) {
      // Partials at scratch[0, groups), the result after them.
      pass.push.out_offset = scratch_used;
      passes.push_back(pass);
      return {passes, scratch_used};
    }
    passes.push_back(pass);
    if (groups == 1) return {passes, pass.push.out_offset};
    count = groups;
    in_offset = pass.push.out_offset;
    from_input = false;
  }
}

std::string module_name(const VariantSpec& spec, DType t, Op op) {
  return std::string(spec.shader) + "." + std::string(to_string(t)) + "." +
         std::string(to_string(op));
}

// Everything one (array, n, op, dtype) needs, with its command buffer recorded once.
class Plan {
 public:
  Plan(Device& device, const VariantSpec& spec, const VulkanArray& input, Op op)
      : serial_(input.serial()),
        op_(op),
        passes_(plan_passes(spec, device.facts(), static_cast<std::uint32_t>(input.size()))),
        scratch_(device, (std::uint64_t{passes_.second} + 4) * 4, kStorageUsage,
                 MemoryKind::device_local),
        ticket_(device, 16, kStorageUsage, MemoryKind::device_local),
        readback_(device, 16, vk::BufferUsageFlagBits::eTransferDst, MemoryKind::readback),
        command_buffer_(device.allocate_command_buffer()) {
    const auto& dev = device.handle();
    const vk::DescriptorPoolSize sizes(vk::DescriptorType::eStorageBuffer, 6);
    pool_ = XR_VK_CHECK(dev.createDescriptorPool(vk::DescriptorPoolCreateInfo(
        vk::DescriptorPoolCreateFlagBits::eFreeDescriptorSet, 2, sizes)));
    const vk::DescriptorSetLayout layouts[] = {device.set_layout(), device.set_layout()};
    sets_ =
        XR_VK_CHECK(vk::raii::DescriptorSets(dev, vk::DescriptorSetAllocateInfo(*pool_, layouts)));
    const vk::DescriptorBufferInfo input_info(input.buffer().handle(), 0, VK_WHOLE_SIZE);
    const vk::DescriptorBufferInfo scratch_info(scratch_.handle(), 0, VK_WHOLE_SIZE);
    const vk::DescriptorBufferInfo ticket_info(ticket_.handle(), 0, VK_WHOLE_SIZE);
    std::vector<vk::WriteDescriptorSet> writes;
    for (int s = 0; s < 2; ++s) {
      const vk::DescriptorSet set = *sets_[s];
      writes.emplace_back(set, 0, 0, vk::DescriptorType::eStorageBuffer, nullptr,
                          s == 0 ? input_info : scratch_info);
      writes.emplace_back(set, 1, 0, vk::DescriptorType::eStorageBuffer, nullptr, scratch_info);
      writes.emplace_back(set, 2, 0, vk::DescriptorType::eStorageBuffer, nullptr, ticket_info);
    }
    dev.updateDescriptorSets(writes, {});

    // The ticket starts at 0; the last workgroup of fast/single-pass puts it back to 0.
    device.run_once([&](const vk::raii::CommandBuffer& cmd) {
      cmd.fillBuffer(ticket_.handle(), 0, VK_WHOLE_SIZE, 0);
    });

    const DeviceFacts& f = device.facts();
    if (f.timestamps())
      queries_ = XR_VK_CHECK(
          dev.createQueryPool(vk::QueryPoolCreateInfo({}, vk::QueryType::eTimestamp, 2)));
    record(device,
           device.pipeline({module_name(spec, input.dtype(), op), spec.workgroup, spec.unroll}));
  }

  bool matches(const VulkanArray& input, Op op) const {
    return serial_ == input.serial() && op_ == op;
  }

  // Submits the recorded passes; returns the result's bits and the timing.
  std::pair<std::uint32_t, Timing> run(Device& device) {
    Timing timing;
    timing.host_ms = device.submit_and_wait(command_buffer_);
    std::uint32_t bits;
    std::memcpy(&bits, readback_.mapped(), sizeof bits);
    const DeviceFacts& f = device.facts();
    if (f.timestamps()) {
      auto [result, ticks] = queries_.getResults<std::uint64_t>(
          0, 2, 2 * sizeof(std::uint64_t), sizeof(std::uint64_t), vk::QueryResultFlagBits::e64);
      if (result != vk::Result::eSuccess)
        throw Error(ErrorCategory::device_lost,
                    "Vulkan timestamps not available after the fence signalled");
      const std::uint64_t mask = f.timestamp_valid_bits >= 64
                                     ? ~std::uint64_t{0}
                                     : (std::uint64_t{1} << f.timestamp_valid_bits) - 1;
      timing.device_ms =
          static_cast<double>((ticks[1] - ticks[0]) & mask) * f.limits.timestampPeriod / 1e6;
    } else {
      timing.device_ms = timing.host_ms;
      timing.device_timer = false;
    }
    return {bits, timing};
  }

 private:
  void record(Device& device, vk::Pipeline pipeline) {
    using S = vk::PipelineStageFlagBits;
    using A = vk::AccessFlagBits;
    auto& cmd = command_buffer_;
    cmd.begin(vk::CommandBufferBeginInfo());
    record_queue_barrier(cmd);
    if (*queries_) {
      cmd.resetQueryPool(*queries_, 0, 2);
      cmd.writeTimestamp(S::eTopOfPipe, *queries_, 0);
    }
    cmd.bindPipeline(vk::PipelineBindPoint::eCompute, pipeline);
    const auto& passes = passes_.first;
    for (std::size_t i = 0; i < passes.size(); ++i) {
      const Pass& p = passes[i];
      cmd.bindDescriptorSets(vk::PipelineBindPoint::eCompute, device.pipeline_layout(), 0,
                             *sets_[p.from_input ? 0 : 1], {});
      cmd.pushConstants<PushConstants>(device.pipeline_layout(), vk::ShaderStageFlagBits::eCompute,
                                       0, p.push);
      cmd.dispatch(p.groups_x, p.groups_y, 1);
      if (i + 1 < passes.size()) {
        // The next pass reads the partials this one wrote.
        const vk::BufferMemoryBarrier partials(A::eShaderWrite, A::eShaderRead,
                                               VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED,
                                               scratch_.handle(), 0, VK_WHOLE_SIZE);
        cmd.pipelineBarrier(S::eComputeShader, S::eComputeShader, {}, {}, partials, {});
      }
    }
    if (*queries_) cmd.writeTimestamp(S::eBottomOfPipe, *queries_, 1);
    const vk::BufferMemoryBarrier result(A::eShaderWrite, A::eTransferRead, VK_QUEUE_FAMILY_IGNORED,
                                         VK_QUEUE_FAMILY_IGNORED, scratch_.handle(), 0,
                                         VK_WHOLE_SIZE);
    cmd.pipelineBarrier(S::eComputeShader, S::eTransfer, {}, {}, result, {});
    cmd.copyBuffer(scratch_.handle(), readback_.handle(),
                   vk::BufferCopy(std::uint64_t{passes_.second} * 4, 0, 4));
    const vk::MemoryBarrier to_host(A::eTransferWrite, A::eHostRead);
    cmd.pipelineBarrier(S::eTransfer, S::eHost, {}, to_host, {}, {});
    cmd.end();
  }

  std::uint64_t serial_;
  Op op_;
  std::pair<std::vector<Pass>, std::uint32_t> passes_;  // passes, result element in scratch
  Buffer scratch_;
  Buffer ticket_;
  Buffer readback_;
  vk::raii::DescriptorPool pool_{nullptr};
  vk::raii::DescriptorSets sets_{nullptr};
  vk::raii::QueryPool queries_{nullptr};
  vk::raii::CommandBuffer command_buffer_;
};

// Recorded plans kept per reducer: a compare sweep alternates few sizes per variant, and each
// plan holds only small scratch buffers.
constexpr std::size_t kPlansKept = 8;

class VulkanReducer final : public Reducer {
 public:
  VulkanReducer(std::shared_ptr<Device> device, const VariantSpec& spec)
      : device_(std::move(device)), spec_(spec) {
    for (auto& info : variant_infos())
      if (info.id == spec.id) info_ = info;
  }
  ~VulkanReducer() override {
    plans_.clear();  // before device_: they hold command buffers of its pool
  }

  const VariantInfo& info() const override { return info_; }

  Reduction reduce(DeviceArray& input, Op op) override {
    device_->raise_validation();
    if (!info_.claims(input.dtype()) || !info_.claims(op))
      throw Error(ErrorCategory::unsupported, info_.id + " does not support " +
                                                  std::string(to_string(op)) + " over " +
                                                  std::string(to_string(input.dtype())));
    auto* array = dynamic_cast<VulkanArray*>(&input);
    if (!array || array->device() != device_.get())
      throw Error(ErrorCategory::usage,
                  "vulkan reducer given an array of another backend or device");
    Reduction out;
    out.timing.device_timer = device_->facts().timestamps();
    if (array->size() == 0) {
      out.value = Value::identity_of(array->dtype(), op);
      return out;
    }
    if (array->size() > info_.max_elements)
      throw Error(ErrorCategory::unsupported, info_.id + ": n = " + std::to_string(array->size()) +
                                                  " exceeds " + std::to_string(info_.max_elements) +
                                                  " (32-bit shader indices)");
    auto [bits, timing] = plan_for(*array, op).run(*device_);
    out.timing = timing;
    out.value = visit_dtype(array->dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      T v;
      std::memcpy(&v, &bits, sizeof v);
      return Value::of(v);
    });
    device_->raise_validation();
    return out;
  }

 private:
  Plan& plan_for(const VulkanArray& array, Op op) {
    for (auto& plan : plans_)
      if (plan->matches(array, op)) return *plan;
    if (plans_.size() == kPlansKept) plans_.pop_front();
    plans_.push_back(std::make_unique<Plan>(*device_, spec_, array, op));
    return *plans_.back();
  }

  std::shared_ptr<Device> device_;
  const VariantSpec& spec_;
  VariantInfo info_;
  std::deque<std::unique_ptr<Plan>> plans_;
};

}  // namespace

std::unique_ptr<Reducer> make_reducer(std::shared_ptr<Device> device, const VariantSpec& spec) {
  return std::make_unique<VulkanReducer>(std::move(device), spec);
}

// --- probes ---------------------------------------------------------------------------------

namespace {
// Flush scratch: twice the largest L2 expected on the GPUs of this project (H100/H200: 50 MiB).
constexpr vk::DeviceSize kFlushBytes = vk::DeviceSize{128} << 20;
// Bytes the read-bandwidth probe streams, the same as the CUDA backend's probe.
constexpr vk::DeviceSize kProbeBytes = vk::DeviceSize{1} << 30;
constexpr int kProbeRuns = 7;
}  // namespace

namespace {

// Median time in ms of the work `record` puts in a command buffer, over kProbeRuns runs after a
// warm-up: timestamps around it where the device has them, else the host's submit-to-fence time.
template <class Record>
double probe_median_ms(Device& device, Record&& record) {
  const DeviceFacts& f = device.facts();
  const auto& dev = device.handle();
  vk::raii::QueryPool queries{nullptr};
  if (f.timestamps())
    queries =
        XR_VK_CHECK(dev.createQueryPool(vk::QueryPoolCreateInfo({}, vk::QueryType::eTimestamp, 2)));
  vk::raii::CommandBuffer cmd = device.allocate_command_buffer();
  cmd.begin(vk::CommandBufferBeginInfo());
  record_queue_barrier(cmd);
  if (*queries) {
    cmd.resetQueryPool(*queries, 0, 2);
    cmd.writeTimestamp(vk::PipelineStageFlagBits::eTopOfPipe, *queries, 0);
  }
  record(cmd);
  if (*queries) cmd.writeTimestamp(vk::PipelineStageFlagBits::eBottomOfPipe, *queries, 1);
  cmd.end();

  std::vector<double> ms;
  for (int run = 0; run <= kProbeRuns; ++run) {
    const double host_ms = device.submit_and_wait(cmd);
    double t = host_ms;
    if (*queries) {
      auto [result, ticks] = queries.getResults<std::uint64_t>(
          0, 2, 2 * sizeof(std::uint64_t), sizeof(std::uint64_t), vk::QueryResultFlagBits::e64);
      if (result != vk::Result::eSuccess)
        throw Error(ErrorCategory::device_lost, "Vulkan timestamps not available");
      const std::uint64_t mask = f.timestamp_valid_bits >= 64
                                     ? ~std::uint64_t{0}
                                     : (std::uint64_t{1} << f.timestamp_valid_bits) - 1;
      t = static_cast<double>((ticks[1] - ticks[0]) & mask) * f.limits.timestampPeriod / 1e6;
    }
    if (run > 0) ms.push_back(t);  // run 0 warms up (pipeline, clocks)
  }
  std::sort(ms.begin(), ms.end());
  device.raise_validation();
  return ms[ms.size() / 2];
}

}  // namespace

void Probes::flush_cache() {
  Device& device = *device_;
  const DeviceFacts& f = device.facts();
  if (f.cpu()) return;
  device.raise_validation();
  if (!flush_buffer_) {
    vk::DeviceSize bytes = kFlushBytes;
    if (f.device_local_bytes) bytes = std::min<vk::DeviceSize>(bytes, f.device_local_bytes / 8);
    if (f.max_allocation) bytes = std::min<vk::DeviceSize>(bytes, f.max_allocation);
    flush_buffer_.emplace(device, bytes & ~vk::DeviceSize{15}, kStorageUsage,
                          MemoryKind::device_local);
  }
  const std::uint32_t value = ++flush_value_;
  device.run_once([&](const vk::raii::CommandBuffer& cmd) {
    cmd.fillBuffer(flush_buffer_->handle(), 0, VK_WHOLE_SIZE, value);
  });
  device.raise_validation();
}

namespace {

// Median ms of the probe shader `name` (read_bandwidth, copy_bandwidth) over `vectors` 16-byte
// elements of `first`, with `second` bound beside it (the read probe's sink, the copy's target).
double probe_shader_ms(Device& device, const char* name, const Buffer& first, const Buffer& second,
                       std::uint32_t vectors) {
  const DeviceFacts& f = device.facts();
  const auto& dev = device.handle();
  const vk::DescriptorPoolSize sizes(vk::DescriptorType::eStorageBuffer, 3);
  vk::raii::DescriptorPool pool = XR_VK_CHECK(dev.createDescriptorPool(vk::DescriptorPoolCreateInfo(
      vk::DescriptorPoolCreateFlagBits::eFreeDescriptorSet, 1, sizes)));
  const vk::DescriptorSetLayout layout = device.set_layout();
  vk::raii::DescriptorSets sets =
      XR_VK_CHECK(vk::raii::DescriptorSets(dev, vk::DescriptorSetAllocateInfo(*pool, layout)));
  const vk::DescriptorBufferInfo first_info(first.handle(), 0, VK_WHOLE_SIZE);
  const vk::DescriptorBufferInfo second_info(second.handle(), 0, VK_WHOLE_SIZE);
  const vk::WriteDescriptorSet writes[] = {
      {*sets[0], 0, 0, vk::DescriptorType::eStorageBuffer, nullptr, first_info},
      {*sets[0], 1, 0, vk::DescriptorType::eStorageBuffer, nullptr, second_info},
      {*sets[0], 2, 0, vk::DescriptorType::eStorageBuffer, nullptr, second_info}};
  dev.updateDescriptorSets(writes, {});

  constexpr std::uint32_t kWorkgroup = 256, kUnroll = 4;
  const vk::Pipeline pipeline = device.pipeline({name, kWorkgroup, kUnroll});
  const std::uint32_t groups = std::min(
      {ceil_div(vectors, kWorkgroup * kUnroll), kGridGroups, f.limits.maxComputeWorkGroupCount[0]});
  return probe_median_ms(device, [&](const vk::raii::CommandBuffer& cmd) {
    cmd.bindPipeline(vk::PipelineBindPoint::eCompute, pipeline);
    cmd.bindDescriptorSets(vk::PipelineBindPoint::eCompute, device.pipeline_layout(), 0, *sets[0],
                           {});
    cmd.pushConstants<PushConstants>(device.pipeline_layout(), vk::ShaderStageFlagBits::eCompute, 0,
                                     PushConstants{vectors, 0, 0, groups});
    cmd.dispatch(groups, 1, 1);
  });
}

// Bytes of one probe buffer: 1 GiB, or less where one binding, one allocation or a `share` of
// the device's memory is smaller; a multiple of 16.
vk::DeviceSize probe_bytes(const DeviceFacts& f, vk::DeviceSize share) {
  vk::DeviceSize bytes = std::min<vk::DeviceSize>(kProbeBytes, f.limits.maxStorageBufferRange);
  if (f.max_allocation) bytes = std::min<vk::DeviceSize>(bytes, f.max_allocation);
  if (f.device_local_bytes) bytes = std::min<vk::DeviceSize>(bytes, f.device_local_bytes / share);
  return bytes & ~vk::DeviceSize{15};
}

}  // namespace

double Probes::read_bandwidth_gbps() {
  Device& device = *device_;
  device.raise_validation();
  const vk::DeviceSize bytes = probe_bytes(device.facts(), 4);
  Buffer data(device, bytes, kStorageUsage, MemoryKind::device_local);
  Buffer sink(device, 16, kStorageUsage, MemoryKind::device_local);
  device.run_once([&](const vk::raii::CommandBuffer& cmd) {
    cmd.fillBuffer(data.handle(), 0, VK_WHOLE_SIZE, 0);
    cmd.fillBuffer(sink.handle(), 0, VK_WHOLE_SIZE, 0);
  });
  const double median =
      probe_shader_ms(device, "read_bandwidth", data, sink, static_cast<std::uint32_t>(bytes / 16));
  return median > 0 ? static_cast<double>(bytes) / (median * 1e6) : 0;
}

double Probes::copy_bandwidth_gbps() {
  Device& device = *device_;
  device.raise_validation();
  const vk::DeviceSize bytes = probe_bytes(device.facts(), 8);
  Buffer src(device, bytes, kStorageUsage, MemoryKind::device_local);
  Buffer dst(device, bytes, kStorageUsage, MemoryKind::device_local);
  device.run_once([&](const vk::raii::CommandBuffer& cmd) {
    cmd.fillBuffer(src.handle(), 0, VK_WHOLE_SIZE, 1);
  });
  const double median =
      probe_shader_ms(device, "copy_bandwidth", src, dst, static_cast<std::uint32_t>(bytes / 16));
  // Bytes read plus bytes written, as a scan's GB/s counts them.
  return median > 0 ? 2.0 * static_cast<double>(bytes) / (median * 1e6) : 0;
}

}  // namespace xr::vulkan
