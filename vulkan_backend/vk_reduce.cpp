#include "vk_reduce.hpp"

#include <algorithm>
#include <cstring>
#include <deque>
#include <optional>

#include "vk_array.hpp"
#include "vk_check.hpp"
#include "vk_recorded.hpp"
#include "vk_requirements.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/error.hpp"

namespace xr::vulkan {
namespace {

constexpr std::uint32_t kSmem = 0;
// fast/single-pass runs one workgroup, without partials or ticket, up to this n: as CUDA's
// kOneBlockMax (cuda_backend/dispatch_fast.cu), the ticket's chain of L2 round trips costs more
// than one workgroup's extra iterations. H200, f32 sum (cold / batch us): 8K 6.7 / 2.9 against
// 8.8 / 4.2 with 4096-element tiles, 16K 7.5 / 3.4 against 8.7 / 4.3, but 32K 9.9 / 4.1 against
// 8.5 / 4.0.
constexpr std::uint32_t kSinglePassOneGroupMax = 16384;
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
    VariantInfo info =
        catalog_variant(Primitive::reduce, v.id, vulkan_dtypes(), {Op::sum, Op::min, Op::max});
    info.requirements = requirement_words(v.needs);
    out.push_back(std::move(info));
  }
  return out;
}

namespace {
// sdata/sgroup arrays of WG 4-byte accumulators plus a few words.
std::uint32_t shared_bytes_4(const VariantSpec& spec) {
  return spec.workgroup * 4 + 64;
}
}  // namespace

std::string unsupported_reason(const VariantSpec& spec, const DeviceFacts& f) {
  return missing_reason(spec.needs, spec.workgroup, shared_bytes_4(spec), f);
}

// --- reducers -------------------------------------------------------------------------------

namespace {

struct Pass {
  bool from_input;
  PushConstants push;
  Grid grid;
};

// The passes for n elements: each pass turns `count` elements into one partial per workgroup,
// stored in scratch at 16-byte-aligned offsets (vector loads of the next pass stay aligned),
// until one value remains. Returns the passes and the scratch element holding the result.
std::pair<std::vector<Pass>, std::uint32_t> plan_passes(const VariantSpec& spec,
                                                        const DeviceFacts& f, std::uint64_t n) {
  std::vector<Pass> passes;
  std::uint64_t count = n;  // the first pass's n may pass 2^32; partials never do
  std::uint32_t in_offset = 0, scratch_used = 0;
  bool from_input = true;
  for (;;) {
    std::uint32_t groups = ceil_div(count, std::uint64_t{spec.workgroup} * spec.items);
    if (spec.shape == Shape::single_pass && count <= kSinglePassOneGroupMax) groups = 1;
    if (spec.shape != Shape::per_block)
      groups = std::min({groups, spec.max_groups, f.limits.maxComputeWorkGroupCount[0]});
    Pass pass{from_input, {count, in_offset, scratch_used, groups}, grid_for(groups, f, spec.id)};
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

// Everything one (array, n, op, dtype) needs, with its command buffer recorded once. Partials
// are accumulators (accumulator_of: float for f16/bf16), so the passes after the first run the
// accumulator type's module over them, and the result is read back as an accumulator.
class Plan {
 public:
  Plan(Device& device, const VariantSpec& spec, const VulkanArray& input, Op op)
      : serial_(input.serial()),
        op_(op),
        accumulator_(accumulator_of(input.dtype())),
        acc_bytes_(size_of(accumulator_)),
        passes_(plan_passes(spec, device.facts(), input.size())),
        scratch_(device, (std::uint64_t{passes_.second} + 4) * acc_bytes_, kStorageUsage,
                 MemoryKind::device_local),
        ticket_(device, 16, kStorageUsage, MemoryKind::device_local),
        readback_(device, 16, vk::BufferUsageFlagBits::eTransferDst, MemoryKind::readback),
        addressing_(
            addressing_for(device.facts(), input.size(), {input.buffer().size(), scratch_.size()})),
        operands_{Bound{{input.address(), scratch_.address(), ticket_.address()}},
                  Bound{{scratch_.address(), scratch_.address(), ticket_.address()}}},
        commands_(device) {
    if (addressing_ == Addressing::binding) {
      sets_.emplace(
          device,
          std::array{
              BindingSets::Triple{input.buffer().handle(), scratch_.handle(), ticket_.handle()},
              BindingSets::Triple{scratch_.handle(), scratch_.handle(), ticket_.handle()}});
      for (std::size_t i = 0; i < operands_.size(); ++i) operands_[i].set = (*sets_)[i];
    }
    // The ticket starts at 0; the last workgroup of fast/single-pass puts it back to 0.
    device.run_once([&](const vk::raii::CommandBuffer& cmd) {
      cmd.fillBuffer(ticket_.handle(), 0, VK_WHOLE_SIZE, 0);
    });
    first_pipeline_ =
        device.pipeline({.module = module_name(spec.shader, input.dtype(), addressing_),
                         .workgroup = spec.workgroup,
                         .unroll = spec.unroll,
                         .op = op_constant(op)});
    later_pipeline_ =
        device.pipeline({.module = module_name(spec.shader, accumulator_, addressing_),
                         .workgroup = spec.workgroup,
                         .unroll = spec.unroll,
                         .op = op_constant(op)});
    record(device, commands_, 1);
  }

  bool matches(const VulkanArray& input, Op op) const {
    return serial_ == input.serial() && op_ == op;
  }

  // Submits `calls` back-to-back calls (one command buffer: the single call's, or the batch's,
  // recorded on first use per count); returns the last result (of the accumulator type) and the
  // time per call.
  std::pair<Value, Timing> run(Device& device, int calls) {
    TimedCommands* commands = &commands_;
    if (calls > 1) {
      if (!batch_ || batch_calls_ != calls) {
        batch_.reset();
        batch_.emplace(device);
        record(device, *batch_, calls);
        batch_calls_ = calls;
      }
      commands = &*batch_;
    }
    const Timing timing = per_call(commands->run(), calls);
    Value result = visit_dtype(accumulator_, [&](auto tag) {
      typename decltype(tag)::type v;
      std::memcpy(&v, readback_.mapped(), sizeof v);
      return Value::of(v);
    });
    return {result, timing};
  }

 private:
  void record(Device& device, TimedCommands& commands, int calls) {
    using S = vk::PipelineStageFlagBits;
    using A = vk::AccessFlagBits;
    const auto& cmd = commands.begin();
    const auto& passes = passes_.first;
    for (int c = 0; c < calls; ++c)
      for (std::size_t i = 0; i < passes.size(); ++i) {
        if (c > 0 || i > 0) record_pass_barrier(cmd);  // the next pass reads the partials
        const Pass& p = passes[i];
        record_dispatch(cmd, device, p.from_input ? first_pipeline_ : later_pipeline_,
                        operands_[p.from_input ? 0 : 1], p.push, p.grid);
      }
    commands.end_timing();
    const vk::BufferMemoryBarrier result(A::eShaderWrite, A::eTransferRead, VK_QUEUE_FAMILY_IGNORED,
                                         VK_QUEUE_FAMILY_IGNORED, scratch_.handle(), 0,
                                         VK_WHOLE_SIZE);
    cmd.pipelineBarrier(S::eComputeShader, S::eTransfer, {}, {}, result, {});
    cmd.copyBuffer(scratch_.handle(), readback_.handle(),
                   vk::BufferCopy(std::uint64_t{passes_.second} * acc_bytes_, 0, acc_bytes_));
    const vk::MemoryBarrier to_host(A::eTransferWrite, A::eHostRead);
    cmd.pipelineBarrier(S::eTransfer, S::eHost, {}, to_host, {}, {});
    commands.end();
  }

  std::uint64_t serial_;
  Op op_;
  DType accumulator_;
  std::size_t acc_bytes_;
  std::pair<std::vector<Pass>, std::uint32_t> passes_;  // passes, result element in scratch
  Buffer scratch_;
  Buffer ticket_;
  Buffer readback_;
  Addressing addressing_;
  std::optional<BindingSets> sets_;  // where the plan binds its operands
  std::array<Bound, 2> operands_;    // the first pass's (from the input), the later passes'

  // Owned by the device's pipeline table: the first pass's (over the input's elements) and the
  // later passes' (over accumulator partials).
  vk::Pipeline first_pipeline_;
  vk::Pipeline later_pipeline_;
  TimedCommands commands_;
  std::optional<TimedCommands> batch_;  // batch_calls_ calls in one command buffer
  int batch_calls_ = 0;
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
    device_->drain();  // a timed-out call may still be running them
    plans_.clear();    // before device_: they hold command buffers of its pool
  }

  const VariantInfo& info() const override { return info_; }

  Reduction reduce(DeviceArray& input, Op op) override { return run(input, op, 1); }
  Reduction reduce_batch(DeviceArray& input, Op op, int calls) override {
    return run(input, op, calls);
  }

 private:
  Reduction run(DeviceArray& input, Op op, int calls) {
    if (calls < 1) throw Error(ErrorCategory::usage, "a batch needs at least one call");
    device_->raise_validation();
    if (!info_.claims(input.dtype()) || !info_.claims(op))
      throw Error(ErrorCategory::unsupported, info_.id + " does not support " +
                                                  std::string(to_string(op)) + " over " +
                                                  std::string(to_string(input.dtype())));
    auto* array = dynamic_cast<VulkanArray*>(&input);
    if (!array || array->device() != device_.get())
      throw Error(ErrorCategory::usage,
                  "vulkan reducer given an array of another backend or device");
    require_dtype(info_.id, input.dtype(), spec_.needs, shared_bytes_4(spec_), device_->facts());
    Reduction out;
    out.timing.device_timer = device_->facts().timestamps();
    if (array->size() == 0) {
      out.value = Value::identity_of(array->dtype(), op);
      return out;
    }
    auto [accumulated, timing] = plan_for(*array, op).run(*device_, calls);
    out.timing = timing;
    // f16/bf16 results come back as float and are rounded once, here.
    out.value = visit_dtype(array->dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (HalfFloat<T>)
        return Value::of(narrow<T>(accumulated.template get<float>()));
      else
        return accumulated;
    });
    device_->raise_validation();
    return out;
  }

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

}  // namespace xr::vulkan
