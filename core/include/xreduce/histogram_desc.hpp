// What every GPU library's Histogram is made for (xr::cuda::Histogram, xr::vulkan::Histogram,
// xr::opencl::Histogram): the samples' type and count, the levels (bins, range, counter width)
// and the variant.
#pragma once

#include <cstdint>
#include <string>

#include "xreduce/histogram.hpp"
#include "xreduce/types.hpp"

namespace xr {

struct HistogramDesc {
  DType dtype = DType::u8;   // the samples': one of kHistogramSampleDTypes
  std::uint64_t count = 0;   // samples; 0: a call only zeroes the counts (or adds nothing)
  HistogramLevels levels{};  // bins, [lower, upper), the counters' width
  std::string variant{};     // empty: the library's choice for the device
  bool operator==(const HistogramDesc&) const = default;
};

// How a call writes the counts: `overwrite` sets every bin to this call's count (CUB's
// HistogramEven), `accumulate` adds this call's counts to what the bins hold (frames summed on
// the device).
enum class HistogramOutput : std::uint8_t { overwrite, accumulate };

// The one check of a desc, whoever made it (the tool's HistogramRequest, each library's
// Histogram): Error(unsupported) "a histogram does not take <dtype> samples" for another type;
// Error(usage) with histogram_levels_error's line for levels the samples do not suit, and
// "<count> samples may pass a u32 counter: use u64 counts" where count exceeds 2^32 - 1 with
// u32 counters.
void check_histogram_desc(const HistogramDesc& desc);

// Bytes of the counts: bins counters of the desc's width.
std::uint64_t histogram_counts_bytes(const HistogramLevels& levels);

}  // namespace xr
