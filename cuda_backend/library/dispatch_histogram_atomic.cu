// The textbook histogram ladder: atomic/global, atomic/privatized, atomic/coarsened,
// atomic/aggregated and subgroup/aggregated, one kernel body (kernels/histogram_atomic.cuh) per
// sample type and aggregation.
//   grid: one thread a sample (global, privatized), or one resident wave of blocks, more where a
//   block would count 2^31 samples (its u32 shared counters cannot wrap)
//   shared: bins u32 counters a block, where they fit the device's opt-in shared memory; past it
//   the rung counts into the output in global memory (plan.counters_in_global, the note says so)
//   temp: none. An overwriting call zeroes the counts first (cudaMemsetAsync).
#include <algorithm>
#include <string>
#include <type_traits>

#include "histogram_dispatch.hpp"
#include "kernels/histogram_atomic.cuh"

namespace xr::cuda::detail {
namespace {

using histogram::Kernel;
using kernels::Aggregation;

// Every rung's block: 256 threads, unmeasured (the textbook's kernels leave it to the caller).
constexpr int kBlock = 256;
// A block counts fewer than 2^32 samples: at most 2^31 from the stride, plus one a thread.
constexpr std::size_t kMaxBlockSamples = std::size_t{1} << 31;

Aggregation aggregation_of(Kernel k) {
  if (k == Kernel::atomic_aggregated) return Aggregation::run;
  if (k == Kernel::subgroup_aggregated) return Aggregation::warp;
  return Aggregation::none;
}

// The rungs whose grid is a resident wave: many samples a thread.
bool coarsened(Kernel k) {
  return k == Kernel::atomic_coarsened || k == Kernel::atomic_aggregated ||
         k == Kernel::subgroup_aggregated;
}

// Calls f(kernel, rule) with the plan's kernel and its bin rule.
template <class F>
void with_kernel(const histogram::Plan& plan, F&& f) {
  kernels::with_sample_type(plan.desc.dtype, [&]<class T>() {
    const auto rule = kernels::BinRule<T>::of(plan.bin);
    switch (aggregation_of(plan.kernel)) {
      case Aggregation::none:
        return f(kernels::histogram_atomic<T, Aggregation::none, kBlock>, rule);
      case Aggregation::run:
        return f(kernels::histogram_atomic<T, Aggregation::run, kBlock>, rule);
      case Aggregation::warp:
        return f(kernels::histogram_atomic<T, Aggregation::warp, kBlock>, rule);
    }
  });
}

template <class Kernel>
void allow_shared(Kernel kernel, std::size_t bytes) {
  XR_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(bytes)));
}

// Whether the plan's bins fit a block's shared memory beside the kernel's own (static) shared
// memory, and the wave of its blocks with that shared memory.
struct SharedFit {
  bool fits = false;
  std::size_t wave = 0;
};
SharedFit shared_fit(const histogram::Plan& plan, const DeviceLimits& dev) {
  SharedFit fit;
  const std::size_t bytes = std::size_t(plan.desc.levels.bins) * sizeof(unsigned);
  with_kernel(plan, [&](auto kernel, const auto&) {
    cudaFuncAttributes attributes{};
    XR_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    fit.fits = bytes + attributes.sharedSizeBytes <= dev.shared_per_block_optin;
    const std::size_t shared = fit.fits && plan.kernel != Kernel::atomic_global ? bytes : 0;
    if (shared) allow_shared(kernel, shared);
    int per_sm = 0;
    XR_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlock, shared));
    fit.wave = std::size_t(std::max(per_sm, 1)) * std::max(dev.sm_count, 1);
  });
  return fit;
}

// The grid for n samples: one thread a sample, or a wave at most and no block past
// kMaxBlockSamples.
unsigned grid_for(const histogram::Plan& plan, std::size_t n) {
  const std::size_t blocks = ceil_div(n, kBlock);
  if (!coarsened(plan.kernel)) return to_grid(blocks);
  return to_grid(std::max(std::min(plan.wave, blocks), ceil_div(n, kMaxBlockSamples)));
}

std::string note_of(const histogram::Plan& plan) {
  if (plan.kernel == Kernel::atomic_global) return "one global atomic a sample";
  std::string note =
      coarsened(plan.kernel) ? "a wave of blocks striding over the samples" : "one thread a sample";
  if (plan.counters_in_global)
    note += "; " + std::to_string(plan.desc.levels.bins) +
            " u32 counters pass the device's shared memory a block: global atomics instead";
  return note;
}

}  // namespace

Policy policy_histogram_atomic(Kernel k, const DeviceLimits&) {
  switch (k) {
    case Kernel::atomic_global:
      return {kBlock, 1, 0, 0,
              "one sample a thread, each load one sample (0: its width); unmeasured"};
    case Kernel::atomic_privatized:
      return {kBlock, 1, 0, 0,
              "one sample a thread, each load one sample (0: its width), a copy a block; "
              "unmeasured"};
    case Kernel::atomic_coarsened:
      return {kBlock, 1, 0, 0,
              "a resident wave striding over the samples, one a step, each load one sample (0: its "
              "width); unmeasured"};
    case Kernel::atomic_aggregated:
      return {kBlock, 1, 0, 0, "coarsened, a thread's runs of one bin added once; unmeasured"};
    case Kernel::subgroup_aggregated:
      return {kBlock, 1, 0, 0, "coarsened, a warp's lanes of one bin added once; unmeasured"};
    default:
      break;
  }
  return {};
}

void plan_histogram_atomic(histogram::Plan& plan, const DeviceLimits& dev) {
  const HistogramDesc& d = plan.desc;
  const SharedFit fit = shared_fit(plan, dev);
  plan.block = kBlock;
  plan.wave = coarsened(plan.kernel) ? fit.wave : 0;
  plan.counters_in_global = plan.kernel == Kernel::atomic_global || !fit.fits;
  plan.copies = plan.counters_in_global ? 0 : 1;
  plan.shared_bytes = plan.counters_in_global ? 0 : std::size_t(d.levels.bins) * sizeof(unsigned);
  plan.grid = grid_for(plan, d.count);
  plan.items_per_thread = ceil_div(d.count, std::size_t(plan.grid) * kBlock);
  plan.temp_bytes = 0;
  plan.note = note_of(plan);
}

void enqueue_histogram_atomic(const histogram::Plan& plan, const histogram::Call& call,
                              const histogram::Buffers& bufs, cudaStream_t stream) {
  if (call.output == HistogramOutput::overwrite) zero_counts(plan, bufs.counts, stream);
  const unsigned grid = call.count ? plan.grid : grid_for(plan, call.n);
  const kernels::Counters out{bufs.counts, plan.desc.levels.counts == HistogramCounts::u64};
  with_kernel(plan, [&](auto kernel, const auto& rule) {
    using T = typename std::remove_cvref_t<decltype(rule)>::Sample;
    if (plan.shared_bytes) allow_shared(kernel, plan.shared_bytes);
    kernel<<<grid, kBlock, plan.shared_bytes, stream>>>(
        static_cast<const T*>(bufs.samples), call.n, call.count, rule, out, plan.desc.levels.bins,
        !plan.counters_in_global);
    XR_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace xr::cuda::detail
