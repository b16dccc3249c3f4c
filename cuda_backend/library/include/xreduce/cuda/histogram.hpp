// A histogram of up to `count` samples into even bins, enqueued on the caller's stream over the
// caller's device memory: xreduce's CUDA histograms as a library, the way
// cub::DeviceHistogram::HistogramEven is one (docs/library.md). A sample's bin is core's rule
// (xreduce/histogram.hpp, EvenBins: CUB's arithmetic, bit for bit), a sample outside
// [lower, upper) and a NaN counted nowhere; every variant, lib/cub included, gives the same
// counts.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "xreduce/error.hpp"
#include "xreduce/histogram.hpp"
#include "xreduce/histogram_desc.hpp"
#include "xreduce/state_ptr.hpp"
#include "xreduce/types.hpp"

namespace xr::cuda {

struct DeviceLimits;  // the library's view of a device (read once by the tool)
namespace histogram {
struct Tuning;  // the tool's knobs (XR_CUDA_HISTOGRAM_LAYOUT)
}

using HistogramDesc = xr::HistogramDesc;      // xreduce/histogram_desc.hpp
using HistogramOutput = xr::HistogramOutput;  // overwrite or accumulate

class Histogram {
 public:
  // Plans `desc` for the current device (cudaGetDevice): grids, shared memory, temporary
  // storage; no launch, no allocation. Throws xr::Error: usage (an unknown id, levels the sample
  // type does not hold, a count past u32 counters), unsupported (a sample type no histogram
  // takes, what the variant needs that the device lacks), unavailable (no device).
  explicit Histogram(const HistogramDesc& desc);
  // The same for a device whose limits were read already.
  Histogram(const HistogramDesc& desc, const DeviceLimits& device);
  // The same with the tool's knobs.
  Histogram(const HistogramDesc& desc, const DeviceLimits& device, const histogram::Tuning& tuning);

  const std::string& variant() const;
  // Bytes of device temporary storage enqueue() uses, from a 256-byte aligned address (CUB's
  // temp_storage_bytes): fast/replicated's copies of the bins past shared memory, lib/cub's and
  // an accumulating call's counts; 0 for most variants (temp may then be null). Needs no
  // zeroing: every call initializes what it reads.
  std::size_t temp_storage_bytes() const;
  // The same bytes for a Histogram of `desc` on the current device, before it is made (its plan,
  // which launches and allocates nothing). Throws what the constructor throws for `desc`.
  static std::size_t temp_storage_bytes(const HistogramDesc& desc);
  // Enqueues on `stream` the histogram of the desc.count samples at `samples` (desc.dtype,
  // aligned to one sample) into the desc.levels.bins counters at `counts` (u32 or u64, as
  // desc.levels.counts says; aligned to one counter), every launch checked. `output`: overwrite
  // sets each bin to this call's count (the counts are zeroed on the stream first), accumulate
  // adds it to what the bin holds (wrapping modulo the counter's width). The samples are not
  // written; no two of the arrays overlap; temp 256-byte aligned: Error(usage) otherwise. Calls
  // on one temp storage must be ordered (one stream). The counts of one call are exact, whatever
  // the order of its atomic adds.
  void enqueue(cudaStream_t stream, const void* samples, void* counts, void* temp,
               HistogramOutput output = HistogramOutput::overwrite);
  // The same for the first `count` samples, count <= desc.count: one Histogram for every size up
  // to the one it was made for, over the same temp storage. `samples` need hold `count` samples;
  // Error(usage) past desc.count. count 0 zeroes the counts (overwrite) or leaves them. Host
  // cost: grids from `count`, no allocation.
  void enqueue(cudaStream_t stream, std::uint64_t count, const void* samples, void* counts,
               void* temp, HistogramOutput output = HistogramOutput::overwrite);
  // The same with the count read by the kernels when they run: the 32-bit word at `count`
  // (device memory, 4-byte aligned), written by earlier work on the stream. A count past
  // desc.count counts desc.count samples. `samples` holds desc.count samples; nothing is read
  // back and nothing waits on the host, so the call can be captured in a CUDA graph and replayed
  // for any count. The launches are desc.count's: threads past the count return at once.
  // Error(unsupported) for lib/cub (cub::DeviceHistogram takes its count from the host).
  void enqueue_indirect(cudaStream_t stream, const std::uint32_t* count, const void* samples,
                        void* counts, void* temp,
                        HistogramOutput output = HistogramOutput::overwrite);
  // The plan, for logs: the variant, its grid, sub-histograms and temp storage.
  std::string describe() const;
  // The policy the plan used with how it was chosen (lib/cub: num_samples' width), for
  // `xreduce inspect`; empty for 0 samples.
  std::string tuning() const;

  struct State;

 private:
  StatePtr<State> state_;
};

// The histogram ids the current device runs over samples of `t` (empty for a type no histogram
// takes), the library's choice first, then the rest of the ladder from its fast end.
std::vector<std::string> histogram_variants(DType t);

}  // namespace xr::cuda
