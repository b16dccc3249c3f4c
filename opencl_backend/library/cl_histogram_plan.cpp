#include "cl_histogram_plan.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <string>
#include <type_traits>

#include "cl_check.hpp"
#include "xreduce/error.hpp"

namespace xr::opencl {
namespace {

using histogram::Args;
using histogram::IntegerPath;
using histogram::Kernel;
using histogram::Plan;

// What a histogram's launches take of a device before its limits, by whether it has sub-groups
// (NVIDIA's warps by inline PTX) as the sort's tiles are chosen.
struct HistogramTuning {
  std::string_view device;       // "sub-groups" or "no sub-groups"
  std::uint32_t resident_items;  // work-items a compute unit runs at once: a wave's
  std::uint32_t fast_threads;    // fast/replicated's work-group, within the device's
  std::uint32_t fast_loads;      // its 16-byte loads in flight a work-item (u8: half)
  std::uint32_t max_copies;      // its sub-histograms a work-group, a power of two
  std::uint32_t match_items;     // subgroup/aggregated without sub-groups: work-items a match
  std::string_view evidence;
};
constexpr HistogramTuning kTuning[] = {
    {"sub-groups", 2048, 1024, 4, 32, 32,
     "NVIDIA: an SM's 2048 threads a wave; fast/replicated in CUDA's shape (1024 work-items, 4 "
     "vectors in flight, u8 2, a sub-histogram a lane); unmeasured in OpenCL"},
    {"no sub-groups", 1024, 256, 4, 4, 32,
     "a CPU device: four work-groups of 256 a core a wave, four sub-histograms a work-group, "
     "32 work-items a match as a warp's; unmeasured"},
};

const HistogramTuning& tuning_of(const DeviceFacts& f) {
  const std::string_view device = f.subgroup_size() > 1 ? "sub-groups" : "no sub-groups";
  return *std::find_if(std::begin(kTuning), std::end(kTuning),
                       [&](const HistogramTuning& r) { return r.device == device; });
}

// Where fast/replicated's local copies are lane-banked (32 counters a bin, a lane's in its own
// bank) instead of a copy a lane: devices of the row's kind, samples of `dtype`, at most max_bins
// bins, a Histogram made for min_samples or more; up to `copies` copies a work-group.
struct LaneBanked {
  std::string_view device;
  DType dtype;
  std::uint32_t max_bins;
  std::uint64_t min_samples;
  std::uint32_t copies;
  std::string_view evidence;
};
constexpr LaneBanked kLaneBanked[] = {
    {"sub-groups", DType::u8, 256, std::uint64_t{1} << 27, 4,
     "H200 at 1956-1971 MHz, uniform u8, 256 bins, cold (docs/results/H200/histogram/lane-banked): "
     "lane-banked copies 0.1084 ms at 2^28 against 0.2098 for 32 copies a lane and 0.1312 for "
     "CUB, 0.0633 against 0.1123 at 2^27"},
};
constexpr LaneBanked kLaneBankedForced{
    "", DType::u8, 0, 0, 4, "XR_CL_HISTOGRAM_LAYOUT=lane-banked: wherever the bins fit"};

const LaneBanked* lane_banked_row(const Plan& p, const HistogramTuning& tuning,
                                  HistogramLayout layout) {
  if (layout == HistogramLayout::lane_banked) return &kLaneBankedForced;
  if (layout == HistogramLayout::replicated) return nullptr;
  for (const LaneBanked& row : kLaneBanked)
    if (row.device == tuning.device && row.dtype == p.desc.dtype &&
        p.desc.levels.bins <= row.max_bins && p.desc.count >= row.min_samples)
      return &row;
  return nullptr;
}

// A work-group counts fewer than 2^32 samples into its u32 local counters: at most 2^31 from the
// stride, plus a few a work-item.
constexpr std::uint64_t kMaxGroupSamples = std::uint64_t{1} << 31;
// Copies in global memory take at most 1 / kCacheShare of CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, so that
// their atomics stay in the cache beside the streaming samples; unmeasured.
constexpr std::uint64_t kCacheShare = 2;
// Local sub-histograms are a multiple of this many counters apart, plus one: the same bin of 32
// copies falls in 32 banks.
constexpr std::uint32_t kBanks = 32;
constexpr std::uint32_t kMergeThreads = 256;

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return (a + b - 1) / b;
}

std::uint64_t counter_bytes(const HistogramDesc& d) {
  return d.levels.counts == HistogramCounts::u64 ? 8 : 4;
}

bool coarsened(Kernel k) {
  return k == Kernel::atomic_coarsened || k == Kernel::atomic_aggregated ||
         k == Kernel::subgroup_aggregated;
}

// The cheapest exact path for `width` and `bins`: d <= width - 1, so (width - 1) * bins < 2^32
// bounds every product d * bins in 32 bits.
IntegerPath integer_path(std::uint64_t width, std::uint32_t bins) {
  constexpr std::uint64_t k32 = std::uint64_t{1} << 32;
  if (width == bins) return IntegerPath::identity;
  if (width < k32 && (width - 1) * bins < k32) return IntegerPath::narrow;
  return IntegerPath::wide;
}

void split(std::uint64_t v, std::uint32_t& lo, std::uint32_t& hi) {
  lo = static_cast<std::uint32_t>(v);
  hi = static_cast<std::uint32_t>(v >> 32);
}

template <class T>
std::uint64_t bits_of(T v) {
  if constexpr (sizeof(T) == 4)
    return std::bit_cast<std::uint32_t>(v);
  else
    return std::bit_cast<std::uint64_t>(v);
}

// EvenBins's constants for the desc's sample type (xreduce/histogram.hpp), step for step in it.
void set_rule(Plan& p) {
  const HistogramLevels& l = p.desc.levels;
  Args& a = p.args;
  a.bins = l.bins;
  a.bin_bits = static_cast<std::uint32_t>(std::bit_width(l.bins));
  a.wide = l.counts == HistogramCounts::u64 ? 1 : 0;
  visit_histogram_sample(p.desc.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T>) {
      const T lower = static_cast<T>(l.lower), upper = static_cast<T>(l.upper);
      const T width = upper - lower;
      const T scale = static_cast<T>(static_cast<T>(l.bins) / width);
      split(bits_of(lower), a.lower_lo, a.lower_hi);
      split(bits_of(upper), a.upper_lo, a.upper_hi);
      split(bits_of(scale), a.scale_lo, a.scale_hi);
    } else {
      const auto lower = static_cast<std::int64_t>(l.lower);
      const auto upper = static_cast<std::int64_t>(l.upper);
      const auto width = static_cast<std::uint64_t>(upper - lower);
      a.offset = static_cast<std::uint32_t>(static_cast<std::uint64_t>(lower));
      a.last = static_cast<std::uint32_t>(width - 1);
      split(width, a.width_lo, a.width_hi);
      p.path = integer_path(width, l.bins);
      a.path = static_cast<std::uint32_t>(p.path);
    }
  });
}

// -DHS_U8 ... -DHS_F64: kernels/histogram_common.cl's sample type.
std::string sample_define(DType t) {
  std::string s(to_string(t));
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return "-DHS_" + s;
}

// A histogram kernel's build: its samples' type and the device's atomics as defines, the
// common.cl element type fixed (the samples' type is HS_*, which common.cl does not know).
KernelKey histogram_key(std::string_view kernel, DType samples, bool idx64, const DeviceFacts& f,
                        std::uint32_t threads, std::uint32_t unroll, const std::string& defines) {
  std::string all = sample_define(samples);
  if (f.int64_atomics()) all += " -DXR_HIST_ATOM64";
  if (!defines.empty()) all += " " + defines;
  return {.kernel = std::string(kernel),
          .dtype = DType::u32,
          .op = Op::sum,
          .workgroup = threads,
          .unroll = unroll,
          .idx64 = idx64,
          .defines = all};
}

// Work-groups of `threads` a wave: the device's compute units, each running the row's work-items.
std::uint64_t wave_of(const DeviceFacts& f, std::uint32_t threads, const HistogramTuning& row) {
  return std::uint64_t{std::max(f.compute_units, 1u)} *
         std::max<std::uint64_t>(row.resident_items / threads, 1);
}

}  // namespace

namespace histogram {
std::string_view to_string(IntegerPath p) {
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
}  // namespace histogram

namespace {

// The main kernel's work-groups for n samples: one work-item a sample, or a wave at most (for
// fast/replicated, no more than give each work-item a whole iteration of vectors), and never a
// work-group past kMaxGroupSamples.
std::uint64_t grid_for(const Plan& p, std::uint64_t n) {
  const std::uint64_t threads = p.main.workgroup;
  const std::uint64_t bounded = ceil_div(n, kMaxGroupSamples);
  if (p.kernel == Kernel::fast_replicated)
    return std::max({std::min(p.wave, ceil_div(n, p.group_samples)), bounded, std::uint64_t{1}});
  if (!coarsened(p.kernel)) return ceil_div(n, threads);
  return std::max(std::min(p.wave, ceil_div(n, threads)), bounded);
}

// The ladder's build: its aggregation, and for subgroup/aggregated how the work-items of a bin
// meet (NVIDIA's match.any.sync from sm_70, its ballots before; local memory without warps).
std::string ladder_defines(Kernel k, const DeviceFacts& f, const HistogramTuning& row) {
  if (k == Kernel::atomic_aggregated) return "-DAGG=1";
  if (k != Kernel::subgroup_aggregated) return "-DAGG=0";
  if (f.subgroup_size() == 1) return "-DAGG=2 -DMATCH=" + std::to_string(row.match_items);
  return f.compute_major >= 7 ? "-DAGG=2 -DXR_HIST_MATCH_ANY" : "-DAGG=2";
}

std::string ladder_note(const Plan& p, const DeviceFacts& f) {
  if (p.kernel == Kernel::atomic_global) return "one global atomic a sample";
  std::string note = coarsened(p.kernel) ? "a wave of work-groups striding over the samples"
                                         : "one work-item a sample";
  if (p.kernel == Kernel::subgroup_aggregated)
    note += f.subgroup_size() > 1 ? (f.compute_major >= 7 ? ", a warp's bins matched by "
                                                            "match.any.sync"
                                                          : ", a warp's bins matched by ballots")
                                  : ", the bins of " + std::to_string(tuning_of(f).match_items) +
                                        " work-items matched in local memory";
  if (p.counters_in_global)
    note += "; " + std::to_string(p.desc.levels.bins) + " u32 counters pass the device's " +
            std::to_string(f.local_memory) +
            " bytes of local memory (CL_DEVICE_LOCAL_MEM_SIZE): global atomics instead";
  return note;
}

// atomic/* and subgroup/aggregated: the bins in local memory where they fit beside the match's
// slots, else in global memory; a wave for the coarsened rungs.
void plan_ladder(Plan& p, const histogram::Spec& spec, const DeviceFacts& f,
                 const HistogramTuning& row) {
  const std::uint32_t threads = spec.threads;
  const bool slots = spec.kernel == Kernel::subgroup_aggregated && f.subgroup_size() == 1;
  const std::uint64_t slot_bytes = slots ? std::uint64_t{threads} * 4 : 0;
  const std::uint64_t counter_words = p.desc.levels.bins;
  p.counters_in_global =
      spec.kernel == Kernel::atomic_global || counter_words * 4 + slot_bytes > f.local_memory;
  p.args.privatized = p.counters_in_global ? 0 : 1;
  p.local_bytes =
      std::max<std::uint64_t>((p.counters_in_global ? 0 : counter_words * 4) + slot_bytes, 4);
  p.wave = coarsened(spec.kernel) ? wave_of(f, threads, row) : 0;
  p.main = histogram_key("histogram_atomic", p.desc.dtype, needs_idx64(p.desc.count), f, threads, 1,
                         ladder_defines(spec.kernel, f, row));
  p.note = ladder_note(p, f);
  p.tuning = std::to_string(threads) + " work-items a work-group (the ladder's, unmeasured)" +
             (p.wave ? ", a wave of " + std::to_string(p.wave) +
                           " work-groups: " + std::string(row.evidence)
                     : std::string());
}

// fast/replicated's work-group: the row's, within the device's, a power of two.
std::uint32_t fast_threads(const DeviceFacts& f, const HistogramTuning& row) {
  const std::uint64_t most = std::min<std::uint64_t>(row.fast_threads, f.max_work_group);
  return static_cast<std::uint32_t>(std::bit_floor(std::max<std::uint64_t>(most, 1)));
}

// The most sub-histograms (a power of two up to the row's) whose counters fit the device's local
// memory; false where not one copy fits.
bool plan_local_copies(Plan& p, const DeviceFacts& f, const HistogramTuning& row) {
  const std::uint32_t bins = p.desc.levels.bins;
  const std::uint32_t stride = (bins + kBanks - 1) / kBanks * kBanks + 1;
  for (std::uint32_t copies = row.max_copies; copies >= 1; copies /= 2) {
    const std::uint64_t bytes = std::uint64_t{copies} * stride * 4;
    if (bytes > f.local_memory) continue;
    p.args.copies = copies;
    p.args.stride = stride;
    p.local_bytes = bytes;
    p.note = std::to_string(copies) + " sub-histograms a work-group, " + std::to_string(stride) +
             " counters apart";
    return true;
  }
  return false;
}

// Lane-banked local copies: the most (a power of two up to the row's) of 32 counters a bin that
// fit the device's local memory, the work-group in whole 32-lane groups; false where not one
// does.
bool plan_lane_banked(Plan& p, const DeviceFacts& f, const LaneBanked& row, std::uint32_t threads) {
  // 32 counters a bin and the discard bin's (kernels/histogram_replicated.cl).
  const std::uint64_t stride = (std::uint64_t{p.desc.levels.bins} + 1) * kBanks;
  if (threads % kBanks != 0) return false;
  for (std::uint32_t copies = row.copies; copies >= 1; copies /= 2) {
    const std::uint64_t bytes = copies * stride * 4;
    if (bytes > f.local_memory) continue;
    p.lane_banked = true;
    p.args.copies = copies;
    p.args.stride = static_cast<std::uint32_t>(stride);
    p.local_bytes = bytes;
    p.note = std::to_string(copies) +
             " lane-banked copies a work-group: bin b of lane l at counter 32 b + l, a lane's "
             "counters in its own bank";
    return true;
  }
  return false;
}

// Bins past the local memory: copies in scratch, as many as fit the cache's share and at most one
// a resident work-group, summed by histogram_merge.cl; with one copy, the output itself.
void plan_global_copies(Plan& p, const DeviceFacts& f) {
  const std::uint64_t copy_bytes = std::uint64_t{p.desc.levels.bins} * counter_bytes(p.desc);
  const std::uint64_t fit = f.cache_bytes / kCacheShare / copy_bytes;
  const auto copies = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(fit, 1, p.wave));
  p.counters_in_global = true;
  p.args.copies = copies;
  p.local_bytes = 4;
  p.scratch_bytes = copies > 1 ? copies * copy_bytes : 0;
  if (copies > 1) {
    p.merge = histogram_key("histogram_merge", DType::u32, false, f, kMergeThreads, 1, "");
    p.merge_groups = ceil_div(p.desc.levels.bins, kMergeThreads);
  }
  const std::string past = "the bins pass the device's " + std::to_string(f.local_memory) +
                           " bytes of local memory (CL_DEVICE_LOCAL_MEM_SIZE): ";
  p.note = copies == 1 ? past +
                             "one global atomic a sample into the counts (two copies pass "
                             "half the device's cache)"
                       : past + std::to_string(copies) +
                             " copies in global memory (within half the device's cache), "
                             "summed into the counts";
}

void plan_fast(Plan& p, const DeviceFacts& f, const HistogramTuning& row, HistogramLayout layout) {
  const std::uint32_t threads = fast_threads(f, row);
  const std::uint32_t loads =
      p.desc.dtype == DType::u8 ? std::max(row.fast_loads / 2, 1u) : row.fast_loads;
  p.wave = wave_of(f, threads, row);
  p.group_samples = std::uint64_t{threads} * loads * (16 / size_of(p.desc.dtype));
  const LaneBanked* banked = lane_banked_row(p, row, layout);
  const bool lanes = banked && plan_lane_banked(p, f, *banked, threads);
  const bool local = lanes || plan_local_copies(p, f, row);
  if (!local) plan_global_copies(p, f);
  // The identity path's samples clamp to their bin or the discard bin (IDENTITY_BINS).
  const bool identity = !is_float(p.desc.dtype) && p.path == IntegerPath::identity;
  const char* defines = !lanes     ? (local ? "" : "-DGLOBAL_COPIES")
                        : identity ? "-DLANE_BANKED -DIDENTITY_BINS"
                                   : "-DLANE_BANKED";
  p.main = histogram_key("histogram_replicated", p.desc.dtype, needs_idx64(p.desc.count), f,
                         threads, loads, defines);
  p.tuning = std::to_string(threads) + " work-items a work-group, " + std::to_string(loads) +
             " vectors of 16 bytes in flight a work-item, up to " + std::to_string(row.max_copies) +
             " sub-histograms, a wave of " + std::to_string(p.wave) +
             " work-groups: " + std::string(row.evidence);
  if (lanes) p.tuning += "; lane-banked: " + std::string(banked->evidence);
}

}  // namespace

histogram::Plan histogram_launches(const histogram::Spec& spec, const DeviceFacts& f,
                                   const HistogramDesc& desc, HistogramLayout layout) {
  Plan p;
  p.kernel = spec.kernel;
  p.desc = desc;
  set_rule(p);
  const HistogramTuning& row = tuning_of(f);
  if (spec.kernel == Kernel::fast_replicated)
    plan_fast(p, f, row, layout);
  else
    plan_ladder(p, spec, f, row);
  p.groups = grid_for(p, desc.count);
  return p;
}

histogram::Kernels build_histogram_kernels(Programs& programs, const histogram::Plan& plan) {
  return {.main = programs.kernel(plan.main),
          .merge = plan.merge ? programs.kernel(*plan.merge) : nullptr};
}

namespace {

// Every histogram kernel's arguments (kernels/histogram_common.cl, HIST_KERNEL): the adds from
// `adds`' first word, the count's word where the call has one (the counts otherwise, never read).
void set_args(cl_kernel kernel, const histogram::CallBuffers& b, cl_mem adds,
              std::uint64_t local_bytes, const Args& a) {
  static_assert(sizeof(Args) == 22 * 4, "histogram::Args must match kernels/histogram_common.cl");
  const cl_ulong adds_at = 0;
  const cl_mem count = b.count ? b.count : b.counts;
  const cl_ulong count_at = b.count ? b.count_offset / 4 : 0;
  cl_uint i = 0;
  XR_CL_CHECK(clSetKernelArg(kernel, i++, sizeof(cl_mem), &b.samples));
  XR_CL_CHECK(clSetKernelArg(kernel, i++, sizeof(cl_mem), &adds));
  XR_CL_CHECK(clSetKernelArg(kernel, i++, sizeof adds_at, &adds_at));
  XR_CL_CHECK(clSetKernelArg(kernel, i++, sizeof(cl_mem), &b.counts));
  XR_CL_CHECK(clSetKernelArg(kernel, i++, sizeof(cl_mem), &count));
  XR_CL_CHECK(clSetKernelArg(kernel, i++, sizeof count_at, &count_at));
  XR_CL_CHECK(clSetKernelArg(kernel, i++, static_cast<std::size_t>(local_bytes), nullptr));
  XR_CL_CHECK(clSetKernelArg(kernel, i++, sizeof a, &a));
}

void fill_zero(cl_command_queue queue, cl_mem buffer, std::uint64_t bytes, std::size_t index,
               std::size_t count, const EnqueueEvents& events) {
  const cl_uint zero = 0;
  enqueue_command(index, count, events, [&](cl_uint waits, const cl_event* wait, cl_event* event) {
    XR_CL_CHECK(clEnqueueFillBuffer(queue, buffer, &zero, sizeof zero, 0,
                                    static_cast<std::size_t>(bytes), waits, wait, event));
  });
}

}  // namespace

void enqueue_histogram(cl_command_queue queue, const histogram::Plan& plan,
                       const histogram::Kernels& kernels, const histogram::Call& call,
                       const histogram::CallBuffers& b, const EnqueueEvents& events) {
  Args a = plan.args;
  const std::uint64_t n = call.counted ? plan.desc.count : call.n;
  split(n, a.n_lo, a.n_hi);
  a.counted = call.counted ? 1 : 0;
  a.accumulate = call.output == HistogramOutput::accumulate ? 1 : 0;
  // The merge writes every bin: only the counts it does not write are zeroed first.
  const bool merged = plan.merge.has_value();
  const bool zero_counts = call.output == HistogramOutput::overwrite && !merged;
  const std::size_t commands = (zero_counts ? 1 : 0) + (merged ? 3 : 1);
  std::size_t at = 0;
  if (zero_counts)
    fill_zero(queue, b.counts, histogram_counts_bytes(plan.desc.levels), at++, commands, events);
  if (merged) fill_zero(queue, b.scratch, plan.scratch_bytes, at++, commands, events);
  const cl_mem adds = merged ? b.scratch : b.counts;
  set_args(kernels.main, b, adds, plan.local_bytes, a);
  enqueue_launch(queue, kernels.main, plan.main.workgroup,
                 call.counted ? plan.groups : grid_for(plan, n), at++, commands, events);
  if (!merged) return;
  set_args(kernels.merge, b, adds, 4, a);
  enqueue_launch(queue, kernels.merge, plan.merge->workgroup, plan.merge_groups, at, commands,
                 events);
}

void enqueue_no_samples(cl_command_queue queue, const HistogramLevels& levels, cl_mem counts,
                        HistogramOutput output, const EnqueueEvents& events) {
  if (output == HistogramOutput::overwrite)
    return fill_zero(queue, counts, histogram_counts_bytes(levels), 0, 1, events);
  enqueue_command(0, 1, events, [&](cl_uint waits, const cl_event* wait, cl_event* event) {
    XR_CL_CHECK(clEnqueueMarkerWithWaitList(queue, waits, wait, event));
  });
}

std::string histogram::Plan::describe() const {
  const HistogramLevels& l = desc.levels;
  const bool integers = desc.dtype != DType::f32 && desc.dtype != DType::f64;
  std::string s = std::to_string(desc.count) + " " + std::string(xr::to_string(desc.dtype)) +
                  " samples, " + std::to_string(l.bins) + " bins over " + range_text(l) + ", " +
                  std::string(xr::to_string(l.counts)) + " counts";
  if (integers) s += ", " + std::string(to_string(path)) + " bins";
  s += ", " + std::to_string(groups) + "x" + std::to_string(main.workgroup);
  if (local_bytes > 4) s += " (" + std::to_string(local_bytes) + " B local)";
  if (merge) s += ", then " + std::to_string(merge_groups) + "x" + std::to_string(merge->workgroup);
  s += ", scratch " + std::to_string(scratch_bytes) + " B";
  if (!note.empty()) s += "; " + note;
  return s;
}

}  // namespace xr::opencl
