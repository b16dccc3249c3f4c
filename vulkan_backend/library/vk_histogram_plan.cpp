#include "vk_histogram_plan.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <type_traits>

#include "xreduce/error.hpp"

namespace xr::vulkan {
namespace {

using histogram::IntegerPath;
using histogram::Kernel;
using histogram::Match;

// fast/replicated's workgroup and loads before the device's limits: CUDA's shape (1024
// invocations, 4 vectors of 16 bytes in flight each, 2 for u8 samples: dispatch_histogram_fast.cu),
// its workgroup cut to maxComputeWorkGroupInvocations; unmeasured in Vulkan.
struct FastTile {
  std::uint32_t threads;
  std::uint32_t vectors;     // 16-byte loads in flight an invocation
  std::uint32_t vectors_u8;  // for u8 samples
  std::string_view evidence;
};
constexpr FastTile kFastTile{1024, 4, 2, "CUDA's fast/replicated shape; unmeasured in Vulkan"};
// Sub-histograms a workgroup at most: a copy a lane of a 32-bank shared memory (NVIDIA's and
// AMD's), so that a subgroup's adds to one bin fall in different banks.
constexpr std::uint32_t kMaxCopies = 32;
constexpr std::uint32_t kBanks = 32;
// Bins past one workgroup's shared copy split into at most this many slices, a grid row each,
// every row reading every sample; past it the copies in global memory count them. Eight slices
// hold 65536 u32 counters in 32 KiB of shared memory (lavapipe's) and six in NVIDIA's 48 KiB;
// unmeasured but at 65536 bins.
constexpr std::uint32_t kMaxSlices = 8;
// Where fast/replicated's copies are lane-banked (32 counters a bin, a lane's in its own bank)
// instead of a copy a lane: samples of `dtype`, at most max_bins bins, a Histogram made for
// min_samples or more; up to `copies` copies a workgroup, as many as the shared memory holds.
struct LaneBanked {
  DType dtype;
  std::uint32_t max_bins;
  std::uint64_t min_samples;
  std::uint32_t copies;
  std::string_view evidence;
};
constexpr LaneBanked kLaneBanked[] = {
    {DType::u8, 256, std::uint64_t{1} << 27, 4,
     "H200 at 1956-1971 MHz, uniform u8, 256 bins, cold, 4 vectors in flight "
     "(docs/results/H200/histogram/lane-banked): one lane-banked copy 0.0876 ms at 2^28 against "
     "0.1515 for 32 copies a lane and 0.1312 for CUB, 0.0532 against 0.0829 at 2^27; at 2^26 no "
     "faster (0.0493 against 0.0490 before the discard bin)"},
};
constexpr LaneBanked kLaneBankedForced{DType::u8, 0, 0, 4,
                                       "XR_VK_HISTOGRAM_LAYOUT=lane-banked: wherever the bins fit"};

// The table's row for the desc, or the knob's; null: a copy a lane.
const LaneBanked* lane_banked_row(const HistogramDesc& d, histogram::Layout layout) {
  if (layout == histogram::Layout::lane_banked) return &kLaneBankedForced;
  if (layout != histogram::Layout::automatic) return nullptr;
  for (const LaneBanked& row : kLaneBanked)
    if (row.dtype == d.dtype && d.levels.bins <= row.max_bins && d.count >= row.min_samples)
      return &row;
  return nullptr;
}

// A wave of workgroups where the driver tells no resident invocations
// (VK_NV_shader_sm_builtins): on a GPU the 1024 workgroups of 256 of core's grid-stride reduces
// (kGridGroups), on a CPU device the 16 of 256 of its sorts' CPU wave; unmeasured for a
// histogram.
constexpr std::uint32_t kGpuResidentInvocations = 1024 * 256;
constexpr std::uint32_t kCpuResidentInvocations = 16 * 256;
// fast/replicated's copies of the bins in global memory: zeroing and summing them moves at most
// 1 / kCopiesShare of the samples' bytes; unmeasured (Vulkan tells no cache size to fit them to,
// as CUDA's fit half the L2).
constexpr std::uint64_t kCopiesShare = 8;
// A workgroup counts fewer than 2^32 samples into its u32 shared counters.
constexpr std::uint64_t kMaxGroupSamples = std::uint64_t{1} << 31;
// Samples by binding have 32-bit indices: below 2^31 samples, an index plus a stride stays below
// 2^32.
constexpr std::uint64_t kMaxBoundSamples = std::uint64_t{1} << 31;
// The least shared counters a rung declares, and its counters rounded up to a power of two
// beside: fewer pipelines (one per size) for at most twice the counters' shared memory.
constexpr std::uint32_t kLeastSharedWords = 256;
// The zero and sum passes' workgroup: one counter an invocation a step.
constexpr std::uint32_t kPassThreads = 256;

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return (a + b - 1) / b;
}

std::uint32_t counter_words(const HistogramDesc& d) {
  return d.levels.counts == HistogramCounts::u64 ? 2 : 1;
}

// The bytes a call of n samples reads: whole 32-bit words.
std::uint64_t sample_bytes(DType t, std::uint64_t n) {
  return ceil_div(n * size_of(t), 4) * 4;
}

IntegerPath integer_path(std::uint64_t width, std::uint32_t bins) {
  constexpr std::uint64_t k32 = std::uint64_t{1} << 32;
  if (width == bins) return IntegerPath::identity;
  if (width < k32 && (width - 1) * bins < k32) return IntegerPath::narrow;
  return IntegerPath::wide;
}

// EvenBins's constants for the desc's sample type: its constructor, step for step, in T.
void set_bin_rule(histogram::Plan& p) {
  const HistogramLevels& levels = p.desc.levels;
  histogram::Args& a = p.rule;
  a.bins = levels.bins;
  visit_histogram_sample(p.desc.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T>) {
      using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
      const T lower = static_cast<T>(levels.lower), upper = static_cast<T>(levels.upper);
      const T width = upper - lower;
      const T scale = static_cast<T>(static_cast<T>(levels.bins) / width);
      const auto bits = [](T v) { return static_cast<std::uint64_t>(std::bit_cast<Bits>(v)); };
      a.lower_low = static_cast<std::uint32_t>(bits(lower));
      a.lower_high = static_cast<std::uint32_t>(bits(lower) >> 32);
      a.upper_low = static_cast<std::uint32_t>(bits(upper));
      a.upper_high = static_cast<std::uint32_t>(bits(upper) >> 32);
      a.scale_low = static_cast<std::uint32_t>(bits(scale));
      a.scale_high = static_cast<std::uint32_t>(bits(scale) >> 32);
    } else {
      const auto lower = static_cast<std::int64_t>(levels.lower);
      const auto width =
          static_cast<std::uint64_t>(static_cast<std::int64_t>(levels.upper) - lower);
      a.lower_low = static_cast<std::uint32_t>(static_cast<std::uint64_t>(lower));
      a.upper_low = static_cast<std::uint32_t>(width - 1);
      a.scale_low = static_cast<std::uint32_t>(width);
      a.scale_high = static_cast<std::uint32_t>(width >> 32);
      p.path = integer_path(width, levels.bins);
    }
  });
}

bool coarsened(Kernel k) {
  return k == Kernel::atomic_coarsened || k == Kernel::atomic_aggregated ||
         k == Kernel::subgroup_aggregated || k == Kernel::fast_replicated;
}

// Workgroups of `threads` resident at once: the driver's count where it tells, else the wave of
// the device's kind.
std::uint32_t resident_groups(const DeviceFacts& f, std::uint32_t threads) {
  const std::uint32_t invocations = f.resident_invocations ? f.resident_invocations
                                    : f.cpu()              ? kCpuResidentInvocations
                                                           : kGpuResidentInvocations;
  return std::max<std::uint32_t>(invocations / threads, 1);
}

Match match_of(const histogram::Spec& spec, const DeviceFacts& f, const histogram::Knobs& knobs) {
  if (spec.kernel != Kernel::subgroup_aggregated) return Match::none;
  return f.subgroup_partitioned && !knobs.force_ballots ? Match::partition : Match::ballots;
}

std::string module_of(const histogram::Plan& p) {
  std::string m = p.kernel == Kernel::fast_replicated ? "histogram_fast"
                  : p.match == Match::partition       ? "histogram_partition"
                  : p.match == Match::ballots         ? "histogram_ballot"
                                                      : "histogram_atomic";
  m += '.';
  m += to_string(p.desc.dtype);
  if (p.by_address) m += ".addr";
  return m;
}

// The counting pass's specialization constant 8 (histogram_common.glsl's bits).
std::uint32_t mode_of(const histogram::Plan& p) {
  std::uint32_t mode = static_cast<std::uint32_t>(p.path);
  if (p.kernel == Kernel::atomic_aggregated) mode |= 1u << 2;
  if (p.kernel == Kernel::subgroup_aggregated) mode |= 2u << 2;
  if (!p.counters_in_global) mode |= 1u << 4;
  if (p.desc.levels.counts == HistogramCounts::u64) mode |= 1u << 5;
  if (p.copies_bytes) mode |= 1u << 6;
  if (p.lane_banked) mode |= 1u << 7;
  return mode;
}

std::uint32_t max_group_threads(const DeviceFacts& f) {
  return std::min(f.limits.maxComputeWorkGroupInvocations, f.limits.maxComputeWorkGroupSize[0]);
}

}  // namespace

std::string_view histogram::to_string(IntegerPath p) {
  switch (p) {
    case IntegerPath::identity:
      return "identity";
    case IntegerPath::narrow:
      return "32-bit";
    case IntegerPath::wide:
      return "64-bit";
  }
  return "?";
}

std::string_view histogram::to_string(Match m) {
  switch (m) {
    case Match::partition:
      return "subgroup partition (subgroupPartitionNV)";
    case Match::ballots:
      return "subgroup ballots";
    case Match::none:
      break;
  }
  return {};
}

namespace {

// The textbook rungs: one workgroup of the table's invocations a sample each, or a wave; the
// bins in shared memory where they fit it (atomic/global: never), else in the counts.
void plan_rung(histogram::Plan& p, const histogram::Spec& spec, const DeviceFacts& f) {
  const std::uint32_t bins = p.desc.levels.bins;
  const std::uint32_t limit = f.limits.maxComputeSharedMemorySize;
  p.count.workgroup = spec.threads;
  p.wave = coarsened(p.kernel) ? resident_groups(f, spec.threads) : 0;
  p.counters_in_global = p.kernel == Kernel::atomic_global || std::uint64_t{bins} * 4 > limit;
  if (p.counters_in_global) return;
  p.copies = 1;
  const std::uint32_t rounded = std::max(kLeastSharedWords, std::bit_ceil(bins));
  p.count.shared_words = std::uint64_t{rounded} * 4 <= limit ? rounded : bins;
  p.shared_bytes = p.count.shared_words * 4;
}

// Counters from one shared copy to the next: the bins rounded up to the banks, plus one, so the
// same bin of kBanks copies falls in kBanks banks; one copy needs no spacing.
std::uint32_t copy_stride(std::uint32_t bins, std::uint32_t copies) {
  return copies == 1 ? bins : (bins + kBanks - 1) / kBanks * kBanks + 1;
}

// fast/replicated in shared memory: the fewest slices of the bins (up to kMaxSlices), then the
// most copies of a slice (a power of two, at most kMaxCopies and the workgroup) whose counters
// fit maxComputeSharedMemorySize; false where not one copy of a kMaxSlices slice does.
bool plan_shared_copies(histogram::Plan& p, const DeviceFacts& f, bool slices_allowed) {
  const std::uint32_t bins = p.desc.levels.bins;
  const std::uint32_t limit = f.limits.maxComputeSharedMemorySize;
  const std::uint32_t most_slices =
      slices_allowed ? std::min({kMaxSlices, bins, f.limits.maxComputeWorkGroupCount[1]}) : 1;
  for (std::uint32_t slices = 1; slices <= most_slices; ++slices) {
    const std::uint32_t slice_bins = (bins + slices - 1) / slices;
    for (std::uint32_t c = std::min(kMaxCopies, std::bit_floor(p.count.workgroup)); c >= 1;
         c /= 2) {
      const std::uint64_t words = std::uint64_t{c} * copy_stride(slice_bins, c);
      if (words * 4 > limit) continue;
      p.copies = c;
      p.slices = slices;
      p.rule.slice_bins = slice_bins;
      p.rule.copy_stride = copy_stride(slice_bins, c);
      p.count.shared_words = static_cast<std::uint32_t>(words);
      p.shared_bytes = static_cast<std::uint32_t>(words * 4);
      return true;
    }
  }
  return false;
}

// fast/replicated lane-banked: the most copies (a power of two, at most row.copies) of 32
// counters a bin that fit maxComputeSharedMemorySize, with invocations in whole 32-lane groups;
// false where not one copy does.
bool plan_lane_banked(histogram::Plan& p, const DeviceFacts& f, const LaneBanked& row) {
  // 32 counters a bin and the discard bin's (histogram_fast.comp).
  const std::uint64_t copy_words = (std::uint64_t{p.desc.levels.bins} + 1) * kBanks;
  if (p.count.workgroup % kBanks != 0) return false;
  for (std::uint32_t c = row.copies; c >= 1; c /= 2) {
    if (c * copy_words * 4 > f.limits.maxComputeSharedMemorySize) continue;
    p.lane_banked = true;
    // 4 vectors in flight for every type: with no copy a lane to index, u8's need not halve them.
    p.vectors = kFastTile.vectors;
    p.count.items = p.vectors;
    p.copies = c;
    p.rule.copy_stride = static_cast<std::uint32_t>(copy_words);
    p.rule.slice_bins = p.desc.levels.bins;
    p.count.shared_words = static_cast<std::uint32_t>(c * copy_words);
    p.shared_bytes = p.count.shared_words * 4;
    p.tuning = std::string(row.evidence);
    return true;
  }
  return false;
}

// Past the shared memory: copies of the bins in scratch, as many as kCopiesShare of the samples'
// bytes pays for, within one binding and one a resident workgroup; one copy: the counts.
void plan_global_copies(histogram::Plan& p, const DeviceFacts& f) {
  const HistogramDesc& d = p.desc;
  const std::uint64_t copy_bytes = std::uint64_t{d.levels.bins} * counter_words(d) * 4;
  const std::uint64_t paid = sample_bytes(d.dtype, d.count) / kCopiesShare / copy_bytes;
  const std::uint64_t most =
      std::min<std::uint64_t>(p.wave, f.limits.maxStorageBufferRange / copy_bytes);
  p.counters_in_global = true;
  p.copies = static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>(paid, 1, std::max<std::uint64_t>(most, 1)));
  p.rule.copy_stride = d.levels.bins;
  if (p.copies == 1) return;
  p.copies_bytes = p.copies * copy_bytes;
  p.scratch_bytes = p.copies_bytes;
  p.sum = {.module = "histogram_sum",
           .workgroup = kPassThreads,
           .mode = d.levels.counts == HistogramCounts::u64 ? 1u << 5 : 0u};
}

void plan_fast(histogram::Plan& p, const DeviceFacts& f, const histogram::Knobs& knobs) {
  p.count.workgroup = std::min(kFastTile.threads, max_group_threads(f));
  p.vectors = p.desc.dtype == DType::u8 ? kFastTile.vectors_u8 : kFastTile.vectors;
  p.count.items = p.vectors;
  p.wave = resident_groups(f, p.count.workgroup);
  const LaneBanked* row = lane_banked_row(p.desc, knobs.layout);
  if (row && plan_lane_banked(p, f, *row)) return;
  if (!plan_shared_copies(p, f, knobs.layout != histogram::Layout::global))
    plan_global_copies(p, f);
}

std::string rung_policy(const histogram::Plan& p) {
  std::string s = std::to_string(p.count.workgroup) + " invocations a workgroup, ";
  s += p.wave ? "a wave of " + std::to_string(p.wave) + " workgroups striding over the samples"
              : std::string("one sample an invocation");
  if (p.match != Match::none) s += ", matched by " + std::string(to_string(p.match));
  return s + "; unmeasured";
}

std::string fast_policy(const histogram::Plan& p) {
  return std::to_string(p.count.workgroup) + " invocations, " + std::to_string(p.vectors) +
         " vectors of 16 bytes in flight each (" + std::string(kFastTile.evidence) +
         "), a wave of " + std::to_string(p.wave) + " workgroups; up to " +
         std::to_string(kMaxCopies) +
         " sub-histograms a workgroup, as many as maxComputeSharedMemorySize holds; past one copy "
         "the bins in up to " +
         std::to_string(kMaxSlices) +
         " slices, a grid row each reading every sample; past those copies in global memory, at "
         "most 1/" +
         std::to_string(kCopiesShare) + " of the samples' bytes; unmeasured";
}

std::string note_of(const histogram::Plan& p, const DeviceFacts& f) {
  const std::string bins = std::to_string(p.desc.levels.bins);
  const std::string limit = std::to_string(f.limits.maxComputeSharedMemorySize);
  if (p.kernel == Kernel::atomic_global) return "one global atomic a sample";
  if (p.kernel == Kernel::fast_replicated) {
    if (p.lane_banked)
      return std::to_string(p.copies) +
             " lane-banked copies a workgroup in shared memory: bin b of lane l at counter "
             "32 b + l, a lane's counters in its own bank";
    if (!p.counters_in_global && p.slices > 1)
      return "the bins in " + std::to_string(p.slices) + " slices of " +
             std::to_string(p.rule.slice_bins) + ", a grid row each reading every sample, " +
             std::to_string(p.copies) + " sub-histograms a workgroup";
    if (!p.counters_in_global)
      return std::to_string(p.copies) + " sub-histograms a workgroup in shared memory, " +
             std::to_string(p.rule.copy_stride) + " counters apart";
    if (p.copies == 1)
      return bins + " u32 counters pass the " + limit +
             " bytes of shared memory a workgroup: one global atomic a sample into the counts";
    return bins + " u32 counters pass the " + limit +
           " bytes of shared memory a workgroup: " + std::to_string(p.copies) +
           " copies in global memory, summed into the counts";
  }
  if (p.counters_in_global)
    return bins + " u32 counters pass the " + limit +
           " bytes of shared memory a workgroup: global atomics instead";
  return "a copy of the bins a workgroup in shared memory";
}

}  // namespace

std::uint32_t histogram_count_groups(const histogram::Plan& p, const DeviceFacts& f,
                                     std::uint64_t n) {
  const std::uint64_t per_group =
      std::uint64_t{p.count.workgroup} *
      (p.kernel == Kernel::fast_replicated ? p.vectors * (16 / size_of(p.desc.dtype)) : 1);
  std::uint64_t groups = ceil_div(n, per_group);
  if (p.wave) groups = std::min<std::uint64_t>(groups, std::max(p.wave / p.slices, 1u));
  groups = std::max(groups, ceil_div(n, kMaxGroupSamples));
  return static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>(groups, 1, f.limits.maxComputeWorkGroupCount[0]));
}

histogram::Plan histogram_plan(const histogram::Spec& spec, const DeviceFacts& f,
                               const HistogramDesc& desc, const histogram::Knobs& knobs) {
  histogram::Plan p;
  p.kernel = spec.kernel;
  p.desc = desc;
  set_bin_rule(p);
  p.match = match_of(spec, f, knobs);
  p.by_address = knobs.force_address || desc.count >= kMaxBoundSamples ||
                 sample_bytes(desc.dtype, desc.count) > f.limits.maxStorageBufferRange;
  p.zero = {.module = "histogram_zero", .workgroup = kPassThreads};
  if (spec.kernel == Kernel::fast_replicated)
    plan_fast(p, f, knobs);
  else
    plan_rung(p, spec, f);
  p.rule.copies = p.copies;
  p.count.module = module_of(p);
  p.count.mode = mode_of(p);
  if (p.tuning.empty())
    p.tuning = spec.kernel == Kernel::fast_replicated ? fast_policy(p) : rung_policy(p);
  p.note = note_of(p, f);
  if (desc.count == 0) return p;
  p.groups = histogram_count_groups(p, f, desc.count);
  if (ceil_div(desc.count, p.groups) >= 2 * kMaxGroupSamples)
    throw Error(ErrorCategory::unsupported,
                std::string(spec.id()) + ": " + std::to_string(desc.count) +
                    " samples in at most " + std::to_string(p.groups) +
                    " workgroups (maxComputeWorkGroupCount) pass a workgroup's u32 counters");
  return p;
}

namespace {

histogram::Pass zero_pass(const histogram::Plan& p, const DeviceFacts& f, bool copies) {
  histogram::Pass pass{.stage = histogram::Stage::zero, .zeroes_copies = copies};
  const std::uint64_t words =
      copies ? p.copies_bytes / 4 : std::uint64_t{p.desc.levels.bins} * counter_words(p.desc);
  pass.args.words = static_cast<std::uint32_t>(words);
  pass.groups = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(
      ceil_div(words, kPassThreads), 1, f.limits.maxComputeWorkGroupCount[0]));
  return pass;
}

histogram::Pass count_pass(const histogram::Plan& p, const DeviceFacts& f, std::uint64_t n,
                           bool counted) {
  histogram::Pass pass{.stage = histogram::Stage::count, .args = p.rule};
  pass.args.n = static_cast<std::uint32_t>(n);
  pass.args.n_high = static_cast<std::uint32_t>(n >> 32);
  pass.args.counted = counted ? 1 : 0;
  pass.groups = counted ? p.groups : histogram_count_groups(p, f, n);
  pass.rows = p.slices;
  return pass;
}

histogram::Pass sum_pass(const histogram::Plan& p, const DeviceFacts& f, HistogramOutput output) {
  histogram::Pass pass{.stage = histogram::Stage::sum, .args = p.rule};
  pass.args.flags = output == HistogramOutput::accumulate ? histogram::kAccumulate : 0;
  pass.groups = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(
      ceil_div(p.desc.levels.bins, kPassThreads), 1, f.limits.maxComputeWorkGroupCount[0]));
  return pass;
}

}  // namespace

histogram::Call histogram_call(const histogram::Plan& p, const DeviceFacts& f, std::uint64_t n,
                               bool counted, HistogramOutput output) {
  histogram::Call call;
  const auto add = [&](const histogram::Pass& pass) { call.passes[call.size++] = pass; };
  const bool any = counted ? p.desc.count > 0 : n > 0;
  if (any && p.copies_bytes) {
    add(zero_pass(p, f, true));
    add(count_pass(p, f, counted ? p.desc.count : n, counted));
    add(sum_pass(p, f, output));
    return call;
  }
  if (output == HistogramOutput::overwrite) add(zero_pass(p, f, false));
  if (any) add(count_pass(p, f, counted ? p.desc.count : n, counted));
  return call;
}

std::string histogram::Plan::describe() const {
  const HistogramLevels& l = desc.levels;
  const bool integers = desc.dtype != DType::f32 && desc.dtype != DType::f64;
  std::string s = std::to_string(desc.count) + " " + std::string(xr::to_string(desc.dtype)) +
                  " samples, " + std::to_string(l.bins) + " bins over " + range_text(l) + ", " +
                  std::string(xr::to_string(l.counts)) + " counts";
  if (integers) s += ", " + std::string(to_string(path)) + " bins";
  if (groups)
    s += ", " + std::to_string(groups) + (slices > 1 ? "x" + std::to_string(slices) : "") + "x" +
         std::to_string(count.workgroup);
  if (vectors) s += ", " + std::to_string(vectors) + " vectors of 16 bytes in flight";
  if (match != Match::none) s += ", matched by " + std::string(to_string(match));
  if (shared_bytes) s += " (" + std::to_string(shared_bytes) + " B shared)";
  s += by_address ? ", samples by address" : ", samples by binding";
  s += ", scratch " + std::to_string(scratch_bytes) + " B; " + note;
  return s;
}

}  // namespace xr::vulkan
