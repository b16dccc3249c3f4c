// A histogram of up to `count` samples into even bins, enqueued on the caller's in-order queue over
// the caller's buffers: xreduce's OpenCL histograms as a library (docs/library.md), as
// xr::cuda::Histogram and cub::DeviceHistogram::HistogramEven are. A sample's bin is core's rule
// (xreduce/histogram.hpp, EvenBins: CUB's arithmetic, bit for bit, never contracted into a
// multiply-add), a sample outside [lower, upper) and a NaN counted nowhere; every variant gives
// the same counts, exactly, whatever the order of its atomic adds.
#pragma once

#include <CL/cl.h>

#include <cstdint>
#include <span>
#include <string>

#include "xreduce/histogram.hpp"
#include "xreduce/histogram_desc.hpp"
#include "xreduce/opencl/context.hpp"
#include "xreduce/opencl/diagnostics.hpp"
#include "xreduce/state_ptr.hpp"

namespace xr::opencl {

using HistogramDesc = xr::HistogramDesc;      // xreduce/histogram_desc.hpp
using HistogramOutput = xr::HistogramOutput;  // overwrite or accumulate

// The caller's buffers of one call: the samples (desc.dtype), the desc.levels.bins counters (u32
// or u64, as desc.levels.counts says) and the scratch of scratch_size() bytes (null where that is
// 0).
struct HistogramBuffers {
  cl_mem samples = nullptr;
  cl_mem counts = nullptr;
  cl_mem scratch = nullptr;
};

class Histogram {
 public:
  // Plans the launches and builds their kernels. Throws xr::Error: usage (an unknown variant id,
  // levels the sample type does not hold, a count past u32 counters), unsupported (a sample type
  // no histogram takes, f64 samples on a device without cl_khr_fp64).
  Histogram(const Context& context, const HistogramDesc& desc);

  const std::string& variant() const;
  // Bytes of scratch enqueue() takes: fast/replicated's copies of the bins past the local memory;
  // 0 for most plans (the scratch may then be null). Needs no zeroing: every call initializes
  // what it reads.
  std::uint64_t scratch_size() const;
  // The same bytes for a Histogram of `desc` not yet made: its plan alone, no kernel built, so
  // that the scratch can be allocated first (as CUB's two-phase call gives its temporary
  // storage). Throws what the constructor throws for `desc`.
  static std::uint64_t scratch_size(const Context& context, const HistogramDesc& desc);
  // Enqueues the histogram of the desc.count samples into the counts. `output`: overwrite sets
  // each bin to this call's count (the counts are filled with zeros on the queue first, or the
  // last kernel writes every bin), accumulate adds it to what the bin holds (wrapping modulo the
  // counter's width). The samples are not written; calls that share a scratch run one after the
  // other (an in-order queue does). `first` and `last` receive the first and last commands'
  // events (retained: the caller releases them; a marker's where a call enqueues nothing else).
  // Error(usage), before anything is enqueued, for an out-of-order queue, a queue or buffer of
  // another cl_context, a null or short buffer (samples below count x the sample's bytes, counts
  // below bins x 4 or 8, scratch below scratch_size()), an input made write-only or an output
  // read-only, and two buffers (or sub-buffers of one) that overlap.
  void enqueue(cl_command_queue queue, const HistogramBuffers& buffers,
               HistogramOutput output = HistogramOutput::overwrite,
               std::span<const cl_event> wait = {}, cl_event* first = nullptr,
               cl_event* last = nullptr) const;
  // The same for the first `count` samples, count <= desc.count: one Histogram for every size up
  // to the one it was made for, over the same scratch. The samples need hold `count`; count 0
  // zeroes the counts (overwrite) or leaves them. Error(usage) past desc.count. Host cost: the
  // grid of `count`, no allocation.
  void enqueue(cl_command_queue queue, std::uint64_t count, const HistogramBuffers& buffers,
               HistogramOutput output = HistogramOutput::overwrite,
               std::span<const cl_event> wait = {}, cl_event* first = nullptr,
               cl_event* last = nullptr) const;
  // The same with the count read by the kernels when they run: the 32-bit word at byte
  // `count_offset` (a multiple of 4) of `count`, written by earlier commands of the queue (or
  // events in `wait`). A count past desc.count counts desc.count samples. The samples hold
  // desc.count; nothing is read back. The launches are desc.count's: the work-items past the
  // count return at once.
  void enqueue_indirect(cl_command_queue queue, cl_mem count, std::uint64_t count_offset,
                        const HistogramBuffers& buffers,
                        HistogramOutput output = HistogramOutput::overwrite,
                        std::span<const cl_event> wait = {}, cl_event* first = nullptr,
                        cl_event* last = nullptr) const;
  // The plan, for logs: the variant, its grid, sub-histograms, local memory and scratch.
  std::string describe() const;
  // For measuring tools, apart from what a renderer calls: the kernels' compiled code and the
  // plan's tuning rows (diagnostics.hpp; no look-back: no fallbacks). Valid while this Histogram
  // lives.
  Diagnostics diagnostics() const;

 private:
  struct State;
  StatePtr<State> state_;
};

}  // namespace xr::opencl
