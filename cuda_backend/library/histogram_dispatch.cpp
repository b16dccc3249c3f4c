// The switch from a histogram::Kernel to its family's planner, launcher and policy, and the bin
// rule's constants every family shares.
#include "histogram_dispatch.hpp"

#include <cstdint>
#include <string>
#include <type_traits>

namespace xr::cuda {

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

// The cheapest exact path for `width` and `bins`: d <= width - 1, so (width - 1) * bins < 2^32
// bounds every product d * bins in 32 bits.
histogram::IntegerPath integer_path(std::uint64_t width, std::uint32_t bins) {
  constexpr std::uint64_t k32 = std::uint64_t{1} << 32;
  if (width == bins) return histogram::IntegerPath::identity;
  if (width < k32 && (width - 1) * bins < k32) return histogram::IntegerPath::narrow;
  return histogram::IntegerPath::wide;
}

}  // namespace

histogram::BinParams histogram_bin_params(const HistogramDesc& desc) {
  const HistogramLevels& levels = desc.levels;
  histogram::BinParams b;
  b.bins = levels.bins;
  visit_histogram_sample(desc.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T>) {
      // EvenBins<T>'s constructor, step for step, each in T.
      const T lower = static_cast<T>(levels.lower), upper = static_cast<T>(levels.upper);
      const T width = upper - lower;
      const T scale = static_cast<T>(static_cast<T>(levels.bins) / width);
      b.lower = lower;
      b.upper = upper;
      b.scale = scale;
    } else {
      // EvenBins<T>'s levels as 64-bit integers; the kernels take d modulo 2^32.
      const auto lower = static_cast<std::int64_t>(levels.lower);
      const auto upper = static_cast<std::int64_t>(levels.upper);
      b.offset = static_cast<std::uint32_t>(static_cast<std::uint64_t>(lower));
      b.width = static_cast<std::uint64_t>(upper - lower);
      b.path = integer_path(b.width, b.bins);
    }
  });
  return b;
}

Policy histogram_policy(histogram::Kernel k, const DeviceLimits& dev) {
  switch (k) {
    case histogram::Kernel::atomic_global:
    case histogram::Kernel::atomic_privatized:
    case histogram::Kernel::atomic_coarsened:
    case histogram::Kernel::atomic_aggregated:
    case histogram::Kernel::subgroup_aggregated:
      return detail::policy_histogram_atomic(k, dev);
    case histogram::Kernel::fast_replicated:
      return detail::policy_histogram_fast(dev);
    case histogram::Kernel::lib_cub:
      return {0, 0, 0, 0, "CUB's own tuning policies"};
  }
  return {};
}

histogram::Plan make_histogram_plan(histogram::Kernel k, const HistogramDesc& desc,
                                    const DeviceLimits& dev, const histogram::Tuning& tuning) {
  histogram::Plan plan;
  plan.kernel = k;
  plan.desc = desc;
  plan.bin = histogram_bin_params(desc);
  switch (k) {
    case histogram::Kernel::atomic_global:
    case histogram::Kernel::atomic_privatized:
    case histogram::Kernel::atomic_coarsened:
    case histogram::Kernel::atomic_aggregated:
    case histogram::Kernel::subgroup_aggregated:
      detail::plan_histogram_atomic(plan, dev);
      break;
    case histogram::Kernel::fast_replicated:
      detail::plan_histogram_fast(plan, dev, tuning);
      break;
    case histogram::Kernel::lib_cub:
      detail::plan_histogram_cub(plan, dev);
      break;
  }
  if (plan.tuning.empty()) plan.tuning = histogram_policy(k, dev).to_string();
  return plan;
}

std::string histogram_counted_reason(const histogram::Plan& plan) {
  if (plan.kernel == histogram::Kernel::lib_cub)
    return "takes its count from the host (cub::DeviceHistogram has no count on the device)";
  return {};
}

void enqueue_histogram(const histogram::Plan& plan, const histogram::Call& call,
                       const histogram::Buffers& bufs, cudaStream_t stream) {
  if (call.count)
    if (const std::string why = histogram_counted_reason(plan); !why.empty())
      throw Error(ErrorCategory::unsupported, "xreduce::cuda: " + why);
  switch (plan.kernel) {
    case histogram::Kernel::atomic_global:
    case histogram::Kernel::atomic_privatized:
    case histogram::Kernel::atomic_coarsened:
    case histogram::Kernel::atomic_aggregated:
    case histogram::Kernel::subgroup_aggregated:
      return detail::enqueue_histogram_atomic(plan, call, bufs, stream);
    case histogram::Kernel::fast_replicated:
      return detail::enqueue_histogram_fast(plan, call, bufs, stream);
    case histogram::Kernel::lib_cub:
      return detail::enqueue_histogram_cub(plan, call, bufs, stream);
  }
}

namespace detail {
void zero_counts(const histogram::Plan& plan, void* counts, cudaStream_t stream) {
  XR_CUDA_CHECK(cudaMemsetAsync(counts, 0, histogram_counts_bytes(plan.desc.levels), stream));
}
}  // namespace detail

std::string histogram::Plan::describe() const {
  const HistogramLevels& l = desc.levels;
  const bool integers = desc.dtype != DType::f32 && desc.dtype != DType::f64;
  std::string s = std::to_string(desc.count) + " " + std::string(xr::to_string(desc.dtype)) +
                  " samples, " + std::to_string(l.bins) + " bins over " + range_text(l) + ", " +
                  std::string(xr::to_string(l.counts)) + " counts";
  if (integers) s += ", " + std::string(to_string(bin.path)) + " bins";
  if (grid)
    s += ", " + std::to_string(grid) + (slices > 1 ? "x" + std::to_string(slices) : "") + "x" +
         std::to_string(block);
  if (items_per_thread) s += ", " + std::to_string(items_per_thread) + " samples a thread";
  if (copies)
    s += ", " + std::to_string(copies) + (copies == 1 ? " copy" : " copies") + " of the bins in " +
         (counters_in_global ? "global" : "shared") + " memory";
  if (slices > 1)
    s += ", the bins in " + std::to_string(slices) + " slices of " + std::to_string(slice_bins);
  if (shared_bytes) s += " (" + std::to_string(shared_bytes) + " B shared)";
  s += ", temp " + std::to_string(temp_bytes) + " B";
  if (!note.empty()) s += "; " + note;
  return s;
}

}  // namespace xr::cuda
