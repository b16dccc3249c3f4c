#include "vk_scan.hpp"

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <optional>

#include "vk_array.hpp"
#include "vk_check.hpp"
#include "vk_recorded.hpp"
#include "vk_reduce.hpp"
#include "vk_requirements.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/error.hpp"

namespace xr::vulkan {
namespace {

constexpr std::uint32_t kNone = 0;
// The fast/* tile (shaders/scan_vector_tile.glsl): subgroup scans, shuffles for the segment carry.
constexpr std::uint32_t kVectorTile = need_subgroup_basic | need_subgroup_arithmetic |
                                      need_subgroup_shuffle | need_subgroup_shuffle_relative;
constexpr std::uint32_t kLookBack =
    kVectorTile | need_subgroup_ballot | need_subgroup_vote | need_int64_atomics;

// The shapes are the CUDA ladder's (dispatch_scan_tiled.cu, dispatch_scan_bit.cu,
// dispatch_scan_fast.cu), so each id compares like with like across the APIs:
// hillis-steele 512 x 1, bcao 512 x 2, the register rung 256 x 8 (subgroups for warps), the BIT
// the seed's 256, reduce-then-scan 256 x 4 vectors. The look-back is the exception: CUDA's
// 128 x 8 leans on __nanosleep pauses, which GLSL lacks, so its Vulkan shape was swept on an
// H200 (2^28 inclusive sum, cold L2, XR_VK_LOOKBACK_SHAPE, CUDA's look-back 0.646-0.666 ms in the
// same processes):
//   128 x 8   0.789 / 0.782 ms (i32 / f32)      256 x 8   0.773 / 0.756
//   256 x 4   0.902 / 0.901                    512 x 4   0.820 / 0.960
//   128 x 16  0.739-0.745 / 0.746-0.747        256 x 16  0.787 / 0.786
//   64 x 16   0.779 / 0.778                    128 x 32  0.878 / 0.873
// 128 x 16 it is; docs/results/H200/scan/vulkan-vs-cuda.md has the rest of the experiment.
constexpr ScanSpec kScans[] = {
    {"smem/hillis-steele",
     ScanFamily::tiled,
     "scan_hillis_steele",
     {},
     {},
     512,
     1,
     2 * 512 * 4,
     kNone},
    {"bit/one-layer", ScanFamily::bit, "bit_build_block", "bit_build_level", "bit_query", 256, 1, 0,
     kNone},
    {"bit/between-blocks", ScanFamily::bit, "bit_build_block", "bit_build_between", "bit_query",
     256, 1, 0, kNone},
    {"bit/smem", ScanFamily::bit, "bit_build_block", "bit_build_between", "bit_query_smem", 256, 1,
     256 * 4, kNone},
    {"bit/unrolled", ScanFamily::bit, "bit_build_block_unrolled", "bit_build_between",
     "bit_query_smem", 256, 1, 256 * 4, kNone},
    {"blelloch/bcao",
     ScanFamily::tiled,
     "scan_blelloch_bcao",
     {},
     {},
     512,
     2,
     (1024 + 32) * 4,
     kNone},
    {"subgroup/shuffle-up",
     ScanFamily::tiled,
     "scan_subgroup_shuffle_up",
     {},
     {},
     256,
     8,
     (2048 + 64 + 256) * 4,
     need_subgroup_basic | need_subgroup_shuffle_relative},
    {"subgroup/arithmetic",
     ScanFamily::tiled,
     "scan_subgroup_arithmetic",
     {},
     {},
     256,
     8,
     (2048 + 64 + 256) * 4,
     need_subgroup_basic | need_subgroup_arithmetic},
    {"fast/reduce-then-scan",
     ScanFamily::reduce_then_scan,
     "scan_rts_tiles",
     {},
     {},
     256,
     4,
     1024 * 4,
     kVectorTile},
    // The look-back sums a tile's predecessors in an order that depends on which of them have
    // published their inclusive prefix yet: floats differ in the last bits run to run.
    {"fast/decoupled-lookback",
     ScanFamily::look_back,
     "scan_lookback",
     {},
     {},
     128,
     16,
     128 * 4 + 16,
     kLookBack,
     false},
};

// fast/reduce-then-scan: pass 1 folds with 4 vector loads in flight (fast/vectorized's shape);
// pass 2 is one workgroup of up to 1024 invocations over at most kGridGroups partials; pass 3
// runs at most kGridGroups workgroups, each over a contiguous chunk of whole tiles.
constexpr std::uint32_t kReduceUnroll = 4;
constexpr std::uint32_t kPartialsWorkgroup = 1024;

// fast/decoupled-lookback: polls of an incomplete window before the workgroup stops waiting and
// reduces the missing predecessors itself (the decoupled fallback). A starting point, measured
// in docs/results (how often it triggers on the H200 and on lavapipe); XR_VK_LOOKBACK_POLLS
// overrides it (0: fall back at the first incomplete window, which tests use to force the path).
constexpr std::uint32_t kLookBackPolls = 512;
// fast/decoupled-lookback: the pause between polls (specialization constant 2 of
// scan_lookback.comp, in ~4-cycle steps), used by grids of at least kPauseTiles tiles as CUDA
// pauses grids of at least 500 blocks. XR_VK_LOOKBACK_BACKOFF overrides it (a tuning knob). Off:
// on an H200 at 2^28 i32 it changed nothing measurable (128 x 8: 0.790-0.797 ms for 0, 50, 150,
// 300, 600; 128 x 16: 0.745 / 0.750 / 0.742 ms for 0, 100, 400), since a spinning subgroup keeps
// its issue slots where __nanosleep gives them up.
constexpr std::uint32_t kLookBackBackoff = 0;
constexpr std::uint32_t kPauseTiles = 500;
// fast/decoupled-lookback over 8-byte accumulators (i64, u64, f64): CUDA's 8-byte tile
// (dispatch_scan_fast.cu: 256 threads x 32 elements, 64 KB), whose size amortises the second
// status word each look-back step reads. Not tuned for Vulkan: one H200 sweep (2^27 f64, cold,
// XR_VK_LOOKBACK_SHAPE) gave 256 x 4 0.851 ms, 64 x 16 0.861, 128 x 8 0.872, 256 x 8 0.927,
// 128 x 16 2.46, but the same sweep's f16 rows were 3-8x off their repeat, so it needs re-running
// before a shape is chosen from it.
struct LookBackShape {
  std::uint32_t workgroup, vectors;
};
constexpr LookBackShape k8ByteLookBack{256, 8};

// The shader flags of scan_common.glsl.
constexpr std::uint32_t kExclusiveFlag = 1, kWriteTotals = 2, kHasPrefix = 4, kNoWait = 8,
                        kFromWide = 16;

bool no_wait_knob() {
  const char* s = std::getenv("XR_VK_LOOKBACK_EXPERIMENT");
  if (!s || !*s) return false;
  if (std::string_view(s) == "no-wait") return true;
  throw Error(ErrorCategory::usage, "XR_VK_LOOKBACK_EXPERIMENT must be no-wait or empty");
}

// A look-back knob from the environment, or its default.
std::uint32_t knob(const char* name, std::uint32_t fallback) {
  const char* s = std::getenv(name);
  if (!s) return fallback;
  char* end = nullptr;
  const unsigned long v = std::strtoul(s, &end, 10);
  if (end == s || *end != '\0' || v > 0xffffffffUL || s[0] == '-')
    throw Error(ErrorCategory::usage,
                std::string(name) + " must be a whole number from 0 to 4294967295");
  return static_cast<std::uint32_t>(v);
}

// The largest power-of-two workgroup of at most `want` invocations the device allows.
std::uint32_t fit_workgroup(std::uint32_t want, const DeviceFacts& f) {
  const std::uint32_t limit =
      std::min(f.limits.maxComputeWorkGroupInvocations, f.limits.maxComputeWorkGroupSize[0]);
  while (want > limit) want /= 2;
  return want;
}

// --- plans ----------------------------------------------------------------------------------

// The operands of a pass (shaders/params.glsl: src, dst, aux).
enum OperandSet : int {
  io_set = 0,       // (input, output, scratch)
  scratch_set = 1,  // (scratch, scratch, scratch): the levels above the first
  wide_set = 2,     // (input, scratch, scratch): a 16-bit tiled scan's first level
};
constexpr std::size_t kOperandSets = 3;

struct ScanPass {
  std::string_view shader;
  std::uint32_t workgroup;
  std::uint32_t unroll;   // specialization constant 1
  std::uint32_t backoff;  // specialization constant 2
  OperandSet set;
  PushConstants push;
  Grid grid;
  bool takes_kind;    // the pass writes the caller's output: exclusive when the call is
  bool wide = false;  // the "<shader>_wide" module: float results into scratch (f16/bf16)
};

struct LookBackKnobs {
  std::uint32_t polls = kLookBackPolls;
  std::uint32_t backoff = kLookBackBackoff;
  // XR_VK_LOOKBACK_EXPERIMENT=no-wait: every tile takes the identity as its prefix and never
  // looks back (wrong results, refused by every check): what the same shader costs without the
  // look-back, to isolate the look-back's share of the time.
  bool no_wait = false;
  // XR_VK_LOOKBACK_SHAPE is set: its shape serves every dtype.
  bool shape_forced = false;
};

// XR_VK_LOOKBACK_SHAPE=<workgroup>x<vectors> (e.g. 256x4) replaces the look-back's tile shape:
// the tuning sweep's knob.
ScanSpec with_shape_knob(ScanSpec spec) {
  const char* s = std::getenv("XR_VK_LOOKBACK_SHAPE");
  if (!s || spec.family != ScanFamily::look_back) return spec;
  unsigned wg = 0, vecs = 0;
  char tail = 0;
  if (std::sscanf(s, "%ux%u%c", &wg, &vecs, &tail) != 2 || wg < 32 || wg > 1024 ||
      (wg & (wg - 1)) || vecs < 1 || vecs > 32)
    throw Error(ErrorCategory::usage,
                "XR_VK_LOOKBACK_SHAPE must be <workgroup>x<vectors>, a power of two from 32 to "
                "1024 and 1 to 32 (e.g. 128x8)");
  spec.workgroup = wg;
  spec.items = vecs;
  spec.shared_bytes = wg * 4 + 16;
  return spec;
}

struct ScanPlan {
  std::vector<ScanPass> passes;
  std::uint64_t scratch_bytes = 16;
  std::optional<std::uint64_t> fallbacks_at;  // look-back: bytes into scratch of the count
  std::uint32_t tiles = 0;
};

ScanPass pass(const ScanSpec& spec, std::string_view shader, OperandSet set, PushConstants push,
              const DeviceFacts& f, bool takes_kind) {
  return {shader,    spec.workgroup, spec.items, 0, set, push, grid_for(push.groups, f, spec.id),
          takes_kind};
}

// Level 0 scans the input tile by tile into the output and writes the tile totals; level k
// scans level k-1's totals (exclusively) into scratch; then each level below the top gets its
// tiles' prefixes added (scan_uniform_add), from the top down to the output. Scratch, in
// accumulators: for each level k >= 1 its input (the totals) and its output. A 16-bit scan of
// more than one tile (`wide_outputs`) scans level 0 into n float accumulators in scratch, and the
// last uniform add rounds each once into the output, as CUDA's tiled scans do.
ScanPlan plan_tiled(const ScanSpec& spec, const DeviceFacts& f, std::uint64_t n,
                    std::size_t acc_bytes, bool wide_outputs) {
  const std::uint32_t tile = spec.workgroup * spec.items;
  std::vector<std::uint64_t> counts{n};  // level 0's may pass 2^32; the totals' never do
  std::vector<std::uint32_t> in_at{0}, out_at{0};
  std::uint64_t used = 0;
  for (std::uint64_t m = n; m > tile;) {
    m = ceil_div(m, tile);
    in_at.push_back(static_cast<std::uint32_t>(used));
    used += round_up4(static_cast<std::uint32_t>(m));
    out_at.push_back(static_cast<std::uint32_t>(used));
    used += round_up4(static_cast<std::uint32_t>(m));
    counts.push_back(m);
  }
  const std::size_t levels = counts.size();
  const bool wide = wide_outputs && levels > 1;
  const std::uint32_t wide_at = static_cast<std::uint32_t>(used);
  if (wide) used += n;
  ScanPlan plan;
  plan.scratch_bytes = std::max<std::uint64_t>(16, used * acc_bytes);
  for (std::size_t level = 0; level < levels; ++level) {
    const bool totals = level + 1 < levels;
    PushConstants push{counts[level], in_at[level], out_at[level], ceil_div(counts[level], tile)};
    push.aux_offset = totals ? in_at[level + 1] : 0;
    push.flags = (level ? kExclusiveFlag : 0) | (totals ? kWriteTotals : 0);
    OperandSet set = level ? scratch_set : io_set;
    if (level == 0 && wide) {
      set = wide_set;
      push.out_offset = wide_at;
    }
    plan.passes.push_back(pass(spec, spec.shader, set, push, f, !level));
    plan.passes.back().wide = level == 0 && wide;
  }
  for (std::size_t level = levels - 1; level >= 1; --level) {
    PushConstants push{counts[level - 1], 0, out_at[level - 1],
                       static_cast<std::uint32_t>(counts[level] - 1)};
    push.aux_offset = out_at[level];
    push.param = tile;
    if (level == 1 && wide) {  // every tile, from the floats to the output
      push.in_offset = wide_at;
      push.groups = static_cast<std::uint32_t>(counts[level]);
      push.flags = kFromWide;
    }
    plan.passes.push_back(
        pass(spec, "scan_uniform_add", level - 1 ? scratch_set : io_set, push, f, false));
  }
  return plan;
}

// The tree (n elements) in scratch: built from the input in-block, then above the block (one
// pass per level, or one workgroup for every level), then queried into the output.
ScanPlan plan_bit(const ScanSpec& spec, const DeviceFacts& f, std::uint64_t n,
                  std::size_t acc_bytes) {
  ScanPlan plan;
  plan.scratch_bytes = std::max<std::uint64_t>(16, std::uint64_t{n} * acc_bytes);
  const PushConstants all{n, 0, 0, ceil_div(n, spec.workgroup)};
  plan.passes.push_back(pass(spec, spec.shader, io_set, all, f, false));
  const std::uint64_t above_block = 2 * std::uint64_t{spec.workgroup};
  if (spec.levels == "bit_build_level") {
    for (std::uint64_t idx = above_block; idx <= n; idx *= 2) {
      PushConstants level = all;
      // The level as an exponent: levels from 2^32 up would not fit a 32-bit value.
      level.param = static_cast<std::uint32_t>(std::countr_zero(idx));
      plan.passes.push_back(pass(spec, spec.levels, io_set, level, f, false));
    }
  } else if (above_block <= n) {
    PushConstants one{n, 0, 0, 1};
    one.param = static_cast<std::uint32_t>(above_block);
    plan.passes.push_back(pass(spec, spec.levels, io_set, one, f, false));
  }
  plan.passes.push_back(pass(spec, spec.query, io_set, all, f, true));
  return plan;
}

// At most kGridGroups workgroups, each over a contiguous chunk of whole tiles: reduce the
// chunks, scan the partials in one workgroup, rescan the chunks from their prefixes. One
// workgroup covering n skips the first two passes.
ScanPlan plan_reduce_then_scan(const ScanSpec& spec, const DeviceFacts& f, std::uint64_t n,
                               std::size_t acc_bytes) {
  const std::uint32_t tile = spec.workgroup * spec.items * 4;
  const std::uint32_t per_group = ceil_div(ceil_div(n, tile), kGridGroups);
  const std::uint32_t chunk = per_group * tile;
  const std::uint32_t groups = ceil_div(n, chunk);
  ScanPlan plan;
  plan.scratch_bytes = std::max<std::uint64_t>(16, std::uint64_t{round_up4(groups)} * acc_bytes);
  PushConstants push{n, 0, 0, groups};
  push.param = chunk;
  if (groups > 1) {
    ScanPass reduce = pass(spec, "scan_rts_reduce", io_set, push, f, false);
    reduce.unroll = kReduceUnroll;
    plan.passes.push_back(reduce);
    ScanPass partials =
        pass(spec, "scan_rts_partials", io_set, PushConstants{groups, 0, 0, 1}, f, false);
    partials.workgroup = fit_workgroup(kPartialsWorkgroup, f);
    plan.passes.push_back(partials);
    push.flags = kHasPrefix;
  }
  plan.passes.push_back(pass(spec, spec.shader, io_set, push, f, true));
  return plan;
}

// One workgroup per tile. Scratch, in 64-bit words: the status words of every tile (one, or two
// for 8-byte accumulators: scan_lookback.comp), the ticket counter, the fallback count.
ScanPlan plan_look_back(const ScanSpec& spec, const DeviceFacts& f, std::uint64_t n,
                        std::size_t acc_bytes, const LookBackKnobs& knobs) {
  const bool wide = acc_bytes == 8 && !knobs.shape_forced;
  const std::uint32_t workgroup = wide ? k8ByteLookBack.workgroup : spec.workgroup;
  const std::uint32_t vectors = wide ? k8ByteLookBack.vectors : spec.items;
  const std::uint32_t tile = workgroup * vectors * 4;
  const std::uint32_t words = acc_bytes == 8 ? 2 : 1;
  ScanPlan plan;
  plan.tiles = ceil_div(n, tile);
  const Grid grid = grid_for(plan.tiles, f, spec.id);
  PushConstants push{n, 0, 0, grid.x * grid.y};  // every dispatched workgroup draws a ticket
  push.param = plan.tiles * words;               // the ticket's word
  push.limit = knobs.polls;
  if (knobs.no_wait) push.flags |= kNoWait;
  const std::uint32_t backoff = plan.tiles >= kPauseTiles ? knobs.backoff : 0;
  plan.passes.push_back({spec.shader, workgroup, vectors, backoff, io_set, push, grid, true});
  plan.scratch_bytes = (std::uint64_t{push.param} + 2) * 8;
  plan.fallbacks_at = (std::uint64_t{push.param} + 1) * 8;
  return plan;
}

// Scratch holds accumulators (accumulator_of: float for f16/bf16).
ScanPlan plan_scan(const ScanSpec& spec, const DeviceFacts& f, std::uint64_t n, DType t,
                   const LookBackKnobs& knobs) {
  const std::size_t acc_bytes = size_of(accumulator_of(t));
  switch (spec.family) {
    case ScanFamily::tiled:
      return plan_tiled(spec, f, n, acc_bytes, accumulator_of(t) != t);
    case ScanFamily::bit:
      return plan_bit(spec, f, n, acc_bytes);
    case ScanFamily::reduce_then_scan:
      return plan_reduce_then_scan(spec, f, n, acc_bytes);
    case ScanFamily::look_back:
      return plan_look_back(spec, f, n, acc_bytes, knobs);
  }
  throw Error(ErrorCategory::usage, "vulkan: unknown scan family");
}

// --- the scanner ----------------------------------------------------------------------------

// The recorded calls over one (input, output) pair for one kind: a single call, and on first use
// per count a batch of back-to-back calls in one command buffer.
class Recorded {
 public:
  Recorded(Device& device, const ScanPlan& plan, DType t, Op op, const VulkanArray& input,
           const VulkanArray& output, ScanKind kind, const Buffer& scratch, const Buffer* readback)
      : device_(&device),
        plan_(&plan),
        dtype_(t),
        op_(op),
        input_(input.serial()),
        output_(output.serial()),
        kind_(kind),
        scratch_(&scratch),
        readback_(readback),
        addressing_(
            addressing_for(device.facts(), input.size(),
                           {input.buffer().size(), output.buffer().size(), scratch.size()})),
        operands_{Bound{{input.address(), output.address(), scratch.address()}},
                  Bound{{scratch.address(), scratch.address(), scratch.address()}},
                  Bound{{input.address(), scratch.address(), scratch.address()}}},
        commands_(device) {
    if (addressing_ == Addressing::binding) {
      sets_.emplace(
          device,
          std::array{
              BindingSets::Triple{input.buffer().handle(), output.buffer().handle(),
                                  scratch.handle()},
              BindingSets::Triple{scratch.handle(), scratch.handle(), scratch.handle()},
              BindingSets::Triple{input.buffer().handle(), scratch.handle(), scratch.handle()}});
      for (std::size_t i = 0; i < operands_.size(); ++i) operands_[i].set = (*sets_)[i];
    }
    record(commands_, 1);
  }

  bool matches(const VulkanArray& input, const VulkanArray& output, ScanKind kind) const {
    return input_ == input.serial() && output_ == output.serial() && kind_ == kind;
  }

  // `calls` back-to-back calls; the time per call.
  Timing run(int calls) {
    if (calls == 1) return commands_.run();
    if (!batch_ || batch_calls_ != calls) {
      batch_.reset();
      batch_.emplace(*device_);
      record(*batch_, calls);
      batch_calls_ = calls;
    }
    return per_call(batch_->run(), calls);
  }

 private:
  void record(TimedCommands& commands, int calls) {
    Device& device = *device_;
    const auto& cmd = commands.begin();
    for (int c = 0; c < calls; ++c)
      for (std::size_t i = 0; i < plan_->passes.size(); ++i) {
        if (c > 0 || i > 0) record_pass_barrier(cmd);  // a pass reads what the last one wrote
        const ScanPass& p = plan_->passes[i];
        PushConstants push = p.push;
        if (p.takes_kind && kind_ == ScanKind::exclusive) push.flags |= kExclusiveFlag;
        // Passes over scratch alone (the tiled scans' upper levels) scan accumulators.
        const DType t = p.set == scratch_set ? accumulator_of(dtype_) : dtype_;
        const std::string shader = std::string(p.shader) + (p.wide ? "_wide" : "");
        const vk::Pipeline pipeline =
            device.pipeline({.module = module_name(shader, t, addressing_),
                             .workgroup = p.workgroup,
                             .unroll = p.unroll,
                             .backoff = p.backoff,
                             .op = op_constant(op_)});
        record_dispatch(cmd, device, pipeline, operands_[p.set], push, p.grid);
      }
    commands.end_timing();
    if (plan_->fallbacks_at && readback_) {  // the look-back's fallback count, after the timing
      using A = vk::AccessFlagBits;
      using S = vk::PipelineStageFlagBits;
      const vk::MemoryBarrier written(A::eShaderWrite, A::eTransferRead);
      cmd.pipelineBarrier(S::eComputeShader, S::eTransfer, {}, written, {}, {});
      cmd.copyBuffer(scratch_->handle(), readback_->handle(),
                     vk::BufferCopy(*plan_->fallbacks_at, 0, 8));
      const vk::MemoryBarrier to_host(A::eTransferWrite, A::eHostRead);
      cmd.pipelineBarrier(S::eTransfer, S::eHost, {}, to_host, {}, {});
    }
    commands.end();
  }

  Device* device_;
  const ScanPlan* plan_;  // the scanner's: it clears its recorded calls before replanning
  DType dtype_;
  Op op_;
  std::uint64_t input_, output_;
  ScanKind kind_;
  const Buffer* scratch_;
  const Buffer* readback_;
  Addressing addressing_;
  std::optional<BindingSets> sets_;           // where the plan binds its operands
  std::array<Bound, kOperandSets> operands_;  // by OperandSet
  TimedCommands commands_;
  std::optional<TimedCommands> batch_;
  int batch_calls_ = 0;
};

// Recorded calls kept per (n, dtype, op): a sweep alternates few (input, output, kind) triples.
constexpr std::size_t kRecordedKept = 8;

class VulkanScanner final : public Scanner {
 public:
  VulkanScanner(std::shared_ptr<Device> device, const ScanSpec& spec)
      : device_(std::move(device)),
        spec_(with_shape_knob(spec)),
        knobs_{knob("XR_VK_LOOKBACK_POLLS", kLookBackPolls),
               knob("XR_VK_LOOKBACK_BACKOFF", kLookBackBackoff), no_wait_knob(),
               std::getenv("XR_VK_LOOKBACK_SHAPE") != nullptr} {
    for (auto& info : scan_infos())
      if (info.id == spec.id) info_ = info;
  }
  ~VulkanScanner() override {
    device_->drain();   // a timed-out call may still be running them
    recorded_.clear();  // before device_: they hold command buffers of its pool
  }

  const VariantInfo& info() const override { return info_; }

  Timing scan(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind) override {
    return run(input, output, op, kind, 1);
  }
  Timing scan_batch(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind,
                    int calls) override {
    return run(input, output, op, kind, calls);
  }

  std::string diagnostics() const override {
    if (spec_.family != ScanFamily::look_back) return {};
    return "look-back fallbacks: " + std::to_string(fallbacks_) + " of " + std::to_string(tiles_) +
           " tiles over " + std::to_string(calls_) + " calls reduced a predecessor's input (" +
           std::to_string(knobs_.polls) + " polls before falling back, back-off " +
           std::to_string(knobs_.backoff) + ")";
  }

 private:
  Timing run(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind, int calls) {
    if (calls < 1) throw Error(ErrorCategory::usage, "a batch needs at least one call");
    device_->raise_validation();
    const DType t = input.dtype();
    if (!info_.claims(t) || !info_.claims(op) || !info_.claims(kind))
      throw Error(ErrorCategory::unsupported,
                  info_.id + " does not implement the " + std::string(to_string(kind)) + " " +
                      std::string(to_string(op)) + " scan of " + std::string(to_string(t)));
    auto* in = dynamic_cast<VulkanArray*>(&input);
    auto* out = dynamic_cast<VulkanArray*>(&output);
    if (!in || !out || in->device() != device_.get() || out->device() != device_.get())
      throw Error(ErrorCategory::usage,
                  "vulkan scanner given an array of another backend or device");
    if (in == out || out->dtype() != t || out->size() != in->size())
      throw Error(ErrorCategory::usage,
                  "scan output must be a distinct array of the input's dtype and size");
    require_dtype(info_.id, t, spec_.needs, spec_.shared_bytes, device_->facts());
    const std::size_t n = in->size();
    if (n == 0) return Timing{0, 0, device_->facts().timestamps()};
    prepare(t, op, n);
    const Timing timing = recorded_for(*in, *out, kind).run(calls);
    calls_ += static_cast<std::uint64_t>(calls);
    if (readback_) {
      std::uint64_t total;
      std::memcpy(&total, readback_->mapped(), sizeof total);
      fallbacks_ += total - fallbacks_seen_;
      fallbacks_seen_ = total;
      tiles_ += plan_.tiles * static_cast<std::uint64_t>(calls);
    }
    device_->raise_validation();
    return timing;
  }

  // Plans and allocates zeroed scratch once per (n, dtype, op).
  void prepare(DType t, Op op, std::uint64_t n) {
    if (scratch_ && n_ == n && dtype_ == t && op_ == op) return;
    recorded_.clear();
    scratch_.reset();
    readback_.reset();
    plan_ = plan_scan(spec_, device_->facts(), n, t, knobs_);
    scratch_.emplace(*device_, plan_.scratch_bytes, kStorageUsage, MemoryKind::device_local);
    // The look-back's status words start "never written" (epoch 0), its counters at 0.
    device_->run_once([&](const vk::raii::CommandBuffer& cmd) {
      cmd.fillBuffer(scratch_->handle(), 0, VK_WHOLE_SIZE, 0);
    });
    if (plan_.fallbacks_at) {
      readback_.emplace(*device_, 16, vk::BufferUsageFlagBits::eTransferDst, MemoryKind::readback);
      fallbacks_seen_ = 0;
    }
    calls_ = tiles_ = fallbacks_ = 0;  // diagnostics() counts per (n, dtype, op)
    n_ = n;
    dtype_ = t;
    op_ = op;
  }

  Recorded& recorded_for(const VulkanArray& in, const VulkanArray& out, ScanKind kind) {
    for (auto& r : recorded_)
      if (r->matches(in, out, kind)) return *r;
    if (recorded_.size() == kRecordedKept) recorded_.pop_front();
    recorded_.push_back(std::make_unique<Recorded>(*device_, plan_, dtype_, op_, in, out, kind,
                                                   *scratch_, readback_ ? &*readback_ : nullptr));
    return *recorded_.back();
  }

  std::shared_ptr<Device> device_;
  ScanSpec spec_;  // a copy: XR_VK_LOOKBACK_SHAPE may change the look-back's shape
  VariantInfo info_;
  LookBackKnobs knobs_;
  ScanPlan plan_;
  std::uint64_t n_ = 0;
  DType dtype_ = DType::f32;
  Op op_ = Op::sum;
  std::optional<Buffer> scratch_;
  std::optional<Buffer> readback_;
  std::deque<std::unique_ptr<Recorded>> recorded_;
  std::uint64_t calls_ = 0, tiles_ = 0, fallbacks_ = 0, fallbacks_seen_ = 0;
};

}  // namespace

std::span<const ScanSpec> scan_table() {
  return kScans;
}

const ScanSpec* find_scan(std::string_view id) {
  for (const auto& s : kScans)
    if (s.id == id) return &s;
  return nullptr;
}

std::vector<VariantInfo> scan_infos() {
  std::vector<VariantInfo> out;
  for (const auto& s : kScans) {
    VariantInfo info =
        catalog_variant(Primitive::scan, s.id, vulkan_dtypes(), {Op::sum, Op::min, Op::max});
    info.deterministic = s.deterministic;
    info.requirements = requirement_words(s.needs);
    out.push_back(std::move(info));
  }
  return out;
}

std::string scan_unsupported_reason(const ScanSpec& spec, const DeviceFacts& f) {
  return missing_reason(spec.needs, spec.workgroup, spec.shared_bytes, f);
}

std::unique_ptr<Scanner> make_scanner(std::shared_ptr<Device> device, const ScanSpec& spec) {
  return std::make_unique<VulkanScanner>(std::move(device), spec);
}

}  // namespace xr::vulkan
