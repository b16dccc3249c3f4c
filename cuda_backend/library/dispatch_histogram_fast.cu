// fast/replicated: one resident wave of blocks of kernels/histogram_fast.cuh, 16-byte loads.
//   shared: `copies` sub-histograms a block (a power of two up to 32, a copy a lane), the most
//   whose counters fit the device's opt-in shared memory at kMinBlocks blocks an SM (the
//   occupancy API's answer for the kernel as compiled); copy_stride counters apart; where not
//   one copy of the bins fits, the bins in `slices` ranges (up to kMaxSlices), a grid row each
//   lane-banked, where kLaneBanked's row says (u8 samples, few bins, many of them): up to 4
//   copies of the bins a block, 32 counters a bin, a lane's in its own bank
//   global, past the shared memory: `copies` copies of the bins in temp (at.copies, the output's
//   counter width), as many as fit kL2Share of the L2 and at most one a resident block, then
//   histogram_sum_copies into the output; one copy: the output itself, no temp
//   grid: a wave at most, fewer where each thread would not take a whole iteration of vectors,
//   more where a block would count 2^31 samples (its u32 shared counters cannot wrap)
//   An overwriting call zeroes the counts first (cudaMemsetAsync), except where
//   histogram_sum_copies writes every bin.
#include <algorithm>
#include <string>
#include <string_view>

#include "histogram_dispatch.hpp"
#include "kernels/histogram_fast.cuh"

namespace xr::cuda::detail {
namespace {

// 1024 threads, 4 vectors of 16 bytes in flight each, one block an SM at least: the shape of
// onesweep's histogram kernel (dispatch_sort_onesweep.cu), unmeasured for this one. u8 samples
// take 2 vectors (32 samples) in flight: with 4, ptxas sm_90 spills at the 64 registers that
// 1024 threads allow.
constexpr int kBlock = 1024;
template <class T>
constexpr int kUnroll = sizeof(T) == 1 ? 2 : 4;
constexpr int kMinBlocks = 1;
// A copy a lane: a warp's adds to one bin land in 32 banks.
constexpr unsigned kMaxCopies = 32;
// Copies in global memory take at most 1 / kL2Share of the L2, so that their atomics stay in it
// beside the streaming samples; unmeasured.
constexpr std::size_t kL2Share = 2;
// Bins past one shared copy are split into at most this many slices, one a grid row, each row
// reading every sample; past it the copies in global memory count them. Unmeasured but at 65536
// bins (two slices).
constexpr unsigned kMaxSlices = 4;
// Where the lane-banked layout replaces the copies a lane (histogram_lane_banked): samples of
// `dtype`, at most max_bins bins, a Histogram made for min_samples or more; up to `copies`
// copies of its bins a block, at one block an SM. The layout's blocks take longer to start and
// finish (a copy is 32 counters a bin), so few samples stay with the copies a lane.
struct LaneBanked {
  DType dtype;
  unsigned max_bins;
  std::size_t min_samples;
  unsigned copies;
  std::string_view evidence;
};
constexpr LaneBanked kLaneBanked[] = {
    {DType::u8, 256, std::size_t{1} << 27, 4,
     "H200 at 1956-1971 MHz, uniform u8, 256 bins, cold (docs/results/H200/histogram/lane-banked): "
     "4 lane-banked copies 0.0990 ms at 2^28 against 0.1477 for 32 copies a lane and 0.1312 for "
     "CUB, 0.0616 against 0.0786 at 2^27; at 2^26 no faster (0.0509 against 0.0439 before the "
     "discard bin)"},
};

// Forced by the tool's knob: the most copies the table takes, for any samples and bins.
constexpr LaneBanked kLaneBankedForced{
    DType::u8, 0, 0, 4, "XR_CUDA_HISTOGRAM_LAYOUT=lane-banked: wherever the bins fit"};

const LaneBanked* lane_banked_row(const HistogramDesc& d, const histogram::Tuning& tuning) {
  if (tuning.lane_banked) return *tuning.lane_banked ? &kLaneBankedForced : nullptr;
  for (const LaneBanked& row : kLaneBanked)
    if (row.dtype == d.dtype && d.levels.bins <= row.max_bins && d.count >= row.min_samples)
      return &row;
  return nullptr;
}

// A block counts fewer than 2^32 samples: at most 2^31 from the stride, plus a few a thread.
constexpr std::size_t kMaxBlockSamples = std::size_t{1} << 31;
constexpr int kSumBlock = 256;

// Counters from one shared copy to the next: bins rounded up to 32, plus one, so that the same
// bin of 32 copies falls in 32 banks.
unsigned copy_stride(unsigned bins) {
  return (bins + 31) / 32 * 32 + 1;
}

std::size_t counter_bytes(const HistogramDesc& d) {
  return d.levels.counts == HistogramCounts::u64 ? 8 : 4;
}

template <class Kernel>
void allow_shared(Kernel kernel, std::size_t bytes) {
  XR_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(bytes)));
}

template <class Kernel>
int blocks_per_sm(Kernel kernel, std::size_t shared) {
  int per_sm = 0;
  XR_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlock, shared));
  return per_sm;
}

// The fewest slices of the bins (up to kMaxSlices), then the most copies of a slice, whose
// counters fit the shared memory at kMinBlocks blocks an SM, with the wave; copies 0 where not
// one copy of a kMaxSlices slice fits.
void plan_shared_copies(histogram::Plan& plan, const DeviceLimits& dev) {
  kernels::with_sample_type(plan.desc.dtype, [&]<class T>() {
    const auto kernel = kernels::histogram_replicated<T, kBlock, kMinBlocks, kUnroll<T>>;
    cudaFuncAttributes attributes{};
    XR_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    const std::size_t room = dev.shared_per_block_optin > attributes.sharedSizeBytes
                                 ? dev.shared_per_block_optin - attributes.sharedSizeBytes
                                 : 0;
    if (room) allow_shared(kernel, room);
    const unsigned bins = plan.desc.levels.bins;
    for (unsigned slices = 1; slices <= std::min(kMaxSlices, bins); ++slices) {
      const unsigned slice_bins = (bins + slices - 1) / slices;
      const unsigned stride = copy_stride(slice_bins);
      for (unsigned copies = kMaxCopies; copies >= 1; copies /= 2) {
        const std::size_t bytes = std::size_t(copies) * stride * sizeof(unsigned);
        if (bytes > room) continue;
        const int per_sm = blocks_per_sm(kernel, bytes);
        if (per_sm < kMinBlocks) continue;
        plan.slices = slices;
        plan.slice_bins = slice_bins;
        plan.copy_stride = stride;
        plan.copies = copies;
        plan.shared_bytes = bytes;
        plan.wave = std::size_t(per_sm) * std::max(dev.sm_count, 1);
        return;
      }
    }
  });
}

// The lane-banked layout of `row`: the most copies of the bins (up to row.copies, a power of two)
// whose 32 counters a bin fit the opt-in shared memory at kMinBlocks blocks an SM; false where
// not one does.
bool plan_lane_banked(histogram::Plan& plan, const DeviceLimits& dev, const LaneBanked& row) {
  bool planned = false;
  kernels::with_sample_type(plan.desc.dtype, [&]<class T>() {
    const auto kernel = kernels::histogram_lane_banked<T, kBlock, kMinBlocks, kUnroll<T>>;
    cudaFuncAttributes attributes{};
    XR_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    const std::size_t room = dev.shared_per_block_optin > attributes.sharedSizeBytes
                                 ? dev.shared_per_block_optin - attributes.sharedSizeBytes
                                 : 0;
    if (room) allow_shared(kernel, room);
    // 32 counters a bin and the discard bin's.
    const std::size_t copy_bytes = std::size_t(plan.desc.levels.bins + 1) * 32 * sizeof(unsigned);
    for (unsigned copies = row.copies; copies >= 1 && !planned; copies /= 2) {
      const std::size_t bytes = copies * copy_bytes;
      if (bytes > room) continue;
      const int per_sm = blocks_per_sm(kernel, bytes);
      if (per_sm < kMinBlocks) continue;
      plan.lane_banked = true;
      plan.copies = copies;
      plan.copy_stride = (plan.desc.levels.bins + 1) * 32;
      plan.slice_bins = plan.desc.levels.bins;
      plan.shared_bytes = bytes;
      plan.wave = std::size_t(per_sm) * std::max(dev.sm_count, 1);
      planned = true;
    }
  });
  return planned;
}

// Bins past the shared memory: the copies in global memory, as many as fit the L2's share and
// at most one a resident block.
void plan_global_copies(histogram::Plan& plan, const DeviceLimits& dev) {
  kernels::with_sample_type(plan.desc.dtype, [&]<class T>() {
    const auto kernel = kernels::histogram_replicated_global<T, kBlock, kMinBlocks, kUnroll<T>>;
    plan.wave = std::size_t(std::max(blocks_per_sm(kernel, 0), 1)) * std::max(dev.sm_count, 1);
  });
  const std::size_t copy_bytes = std::size_t(plan.desc.levels.bins) * counter_bytes(plan.desc);
  const std::size_t fit = dev.l2_bytes / kL2Share / copy_bytes;
  plan.copies = static_cast<unsigned>(std::clamp<std::size_t>(fit, 1, plan.wave));
  plan.counters_in_global = true;
  plan.copy_stride = plan.desc.levels.bins;
  plan.at.copies = 0;
  plan.temp_bytes = plan.copies > 1 ? plan.copies * copy_bytes : 0;
}

// The grid's row for n samples (each slice a row): a wave over the rows at most, a whole
// iteration of vectors a thread, no block past kMaxBlockSamples.
unsigned grid_for(const histogram::Plan& plan, std::size_t n) {
  std::size_t per_iteration = 0;
  kernels::with_sample_type(plan.desc.dtype, [&]<class T>() {
    per_iteration = std::size_t(kBlock) * kUnroll<T> * kernels::Pack<T>::kCount;
  });
  const std::size_t row_wave = std::max<std::size_t>(plan.wave / plan.slices, 1);
  const std::size_t useful = std::min(row_wave, ceil_div(n, per_iteration));
  return to_grid(std::max({useful, ceil_div(n, kMaxBlockSamples), std::size_t{1}}));
}

std::string note_of(const histogram::Plan& plan) {
  if (plan.lane_banked)
    return std::to_string(plan.copies) +
           " lane-banked copies a block: bin b of lane l at counter 32 b + l, a lane's counters "
           "in its own bank";
  if (!plan.counters_in_global && plan.slices > 1)
    return "the bins in " + std::to_string(plan.slices) + " slices of " +
           std::to_string(plan.slice_bins) + ", a grid row each reading every sample, " +
           std::to_string(plan.copies) + " sub-histograms a block";
  if (!plan.counters_in_global)
    return std::to_string(plan.copies) + " sub-histograms a block, " +
           std::to_string(plan.copy_stride) + " counters apart";
  if (plan.copies == 1)
    return "the bins pass the shared memory, two copies half the L2: one global atomic a "
           "sample into the counts";
  return "the bins pass the shared memory: " + std::to_string(plan.copies) +
         " copies in global memory (within half the L2), summed into the counts";
}

// Past the shared memory with copies in temp: zeroed, counted, summed into the counts.
template <class T>
void run_global_copies(const histogram::Plan& plan, const histogram::Call& call,
                       const histogram::Buffers& bufs, unsigned grid, cudaStream_t stream) {
  const HistogramDesc& d = plan.desc;
  const bool wide = d.levels.counts == HistogramCounts::u64;
  void* copies = static_cast<char*>(bufs.temp) + plan.at.copies;
  XR_CUDA_CHECK(cudaMemsetAsync(copies, 0, plan.temp_bytes, stream));
  kernels::histogram_replicated_global<T, kBlock, kMinBlocks, kUnroll<T>>
      <<<grid, kBlock, 0, stream>>>(static_cast<const T*>(bufs.samples), call.n, call.count,
                                    kernels::BinRule<T>::of(plan.bin), {copies, wide},
                                    d.levels.bins, plan.copies);
  XR_CUDA_CHECK_LAUNCH();
  const unsigned sum_grid = to_grid(ceil_div(d.levels.bins, kSumBlock));
  const bool accumulate = call.output == HistogramOutput::accumulate;
  kernels::with_counter_type(d.levels.counts, [&]<class Counter>() {
    kernels::histogram_sum_copies<Counter, kSumBlock><<<sum_grid, kSumBlock, 0, stream>>>(
        static_cast<const Counter*>(copies), plan.copies, d.levels.bins,
        static_cast<Counter*>(bufs.counts), accumulate);
    XR_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace

Policy policy_histogram_fast(const DeviceLimits&) {
  return {
      kBlock, 4, 16, 0,
      "a resident wave, 4 vectors of 16 bytes in flight a thread (onesweep's histogram "
      "shape; u8 2); up to 32 sub-histograms a block, a copy a lane, as many as the opt-in shared "
      "memory holds at one block an SM; past one copy the bins in up to 4 slices, a grid row "
      "each; past that copies in global memory within half the L2; unmeasured"};
}

void plan_histogram_fast(histogram::Plan& plan, const DeviceLimits& dev,
                         const histogram::Tuning& tuning) {
  plan.block = kBlock;
  const LaneBanked* row = lane_banked_row(plan.desc, tuning);
  if (!row || !plan_lane_banked(plan, dev, *row)) plan_shared_copies(plan, dev);
  if (plan.copies == 0) plan_global_copies(plan, dev);
  if (plan.lane_banked) plan.tuning = std::string(row->evidence);
  plan.grid = grid_for(plan, plan.desc.count);
  plan.items_per_thread = ceil_div(plan.desc.count, std::size_t(plan.grid) * kBlock);
  plan.note = note_of(plan);
}

void enqueue_histogram_fast(const histogram::Plan& plan, const histogram::Call& call,
                            const histogram::Buffers& bufs, cudaStream_t stream) {
  const HistogramDesc& d = plan.desc;
  const unsigned grid = call.count ? plan.grid : grid_for(plan, call.n);
  const kernels::Counters out{bufs.counts, d.levels.counts == HistogramCounts::u64};
  kernels::with_sample_type(d.dtype, [&]<class T>() {
    const auto* samples = static_cast<const T*>(bufs.samples);
    const auto rule = kernels::BinRule<T>::of(plan.bin);
    if (plan.counters_in_global && plan.copies > 1)
      return run_global_copies<T>(plan, call, bufs, grid, stream);
    if (call.output == HistogramOutput::overwrite) zero_counts(plan, bufs.counts, stream);
    if (plan.counters_in_global) {
      kernels::histogram_replicated_global<T, kBlock, kMinBlocks, kUnroll<T>>
          <<<grid, kBlock, 0, stream>>>(samples, call.n, call.count, rule, out, d.levels.bins, 1);
      XR_CUDA_CHECK_LAUNCH();
      return;
    }
    if (plan.lane_banked) {
      const auto kernel = kernels::histogram_lane_banked<T, kBlock, kMinBlocks, kUnroll<T>>;
      allow_shared(kernel, plan.shared_bytes);
      kernel<<<grid, kBlock, plan.shared_bytes, stream>>>(samples, call.n, call.count, rule, out,
                                                          d.levels.bins, plan.copies);
      XR_CUDA_CHECK_LAUNCH();
      return;
    }
    const auto kernel = kernels::histogram_replicated<T, kBlock, kMinBlocks, kUnroll<T>>;
    allow_shared(kernel, plan.shared_bytes);
    kernel<<<dim3(grid, plan.slices), kBlock, plan.shared_bytes, stream>>>(
        samples, call.n, call.count, rule, out, d.levels.bins, plan.slice_bins, plan.copies,
        plan.copy_stride);
    XR_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace xr::cuda::detail
