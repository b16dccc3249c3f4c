// A histogram of up to `count` samples into even bins, recorded into the caller's command buffer
// on the caller's device: xreduce's Vulkan histograms as a library (docs/library.md), as
// xr::cuda::Histogram and cub::DeviceHistogram::HistogramEven are. A sample's bin is core's rule
// (xreduce/histogram.hpp, EvenBins: CUB's arithmetic, bit for bit); a sample outside
// [lower, upper) and a NaN are counted nowhere. Every variant gives the same counts, exactly,
// whatever the order of its atomic adds.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <memory>
#include <string>

#include "xreduce/histogram.hpp"
#include "xreduce/histogram_desc.hpp"
#include "xreduce/state_ptr.hpp"
#include "xreduce/types.hpp"
#include "xreduce/vulkan/context.hpp"
#include "xreduce/vulkan/diagnostics.hpp"
#include "xreduce/vulkan/operand.hpp"

namespace xr::vulkan {

using HistogramDesc = xr::HistogramDesc;      // xreduce/histogram_desc.hpp
using HistogramOutput = xr::HistogramOutput;  // overwrite or accumulate

class Histogram {
 public:
  // Plans the passes and creates their pipelines. Throws xr::Error: usage (an unknown variant
  // id, levels the sample type does not hold, a count past u32 counters), unsupported (a sample
  // type no histogram takes, f64 samples without shaderFloat64, what the variant needs that the
  // device lacks, a device made without VK_KHR_push_descriptor).
  Histogram(const Context& context, const HistogramDesc& desc);

  const std::string& variant() const;
  // Bytes of scratch record() takes, from an offset aligned to Context::operand_alignment():
  // fast/replicated's copies of the bins in global memory where the bins pass the shared memory,
  // else one word (every call binds it). Needs no initialization: every call zeroes what it
  // reads.
  VkDeviceSize scratch_size() const;
  // The same bytes for a Histogram of `desc` not yet made: its plan alone, no pipeline created.
  // Throws what the constructor throws for `desc`.
  static VkDeviceSize scratch_size(const Context& context, const HistogramDesc& desc);
  // Records the histogram of the desc.count samples of `samples` (desc.dtype) into the
  // desc.levels.bins counters of `counts` (u32 or u64, desc.levels.counts) over `scratch`, and
  // nothing else: every access is a compute shader's, so the caller's barriers make the samples
  // (and accumulated counts) visible to compute shaders before and the counts visible to their
  // readers after, and order two records that share counts or scratch. `output`: overwrite sets
  // each bin to this call's count (the call zeroes the counts first, in a pass of its own),
  // accumulate adds it to what the bin holds (wrapping modulo the counter's width). The samples
  // are not written. Checked before anything is recorded (operand.hpp), Error(usage) otherwise:
  // no two operands overlap; `samples` holds count x sample bytes rounded up to whole 32-bit
  // words (u8 and u16 samples are read as the words that hold them), `counts` bins x 4 or 8,
  // `scratch` scratch_size(); every offset a multiple of Context::operand_alignment() (so the
  // samples' 16-byte loads are aligned); the counts and scratch buffers, the samples a buffer
  // (or, where they pass one storage-buffer binding or 2^31 samples, a device address; the
  // buffer then made with VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT). Host cost: a few push and
  // dispatch commands, no allocation. Thread-safe on distinct command buffers.
  void record(VkCommandBuffer cmd, const Operand& samples, const Operand& counts,
              const Operand& scratch, HistogramOutput output = HistogramOutput::overwrite) const;
  // The same for the first `count` samples, count <= desc.count: one Histogram for every size up
  // to the one it was made for, over the same scratch. `samples` need hold `count` samples;
  // Error(usage) past desc.count. Count 0 zeroes the counts (overwrite) or records nothing.
  void record(VkCommandBuffer cmd, std::uint64_t count, const Operand& samples,
              const Operand& counts, const Operand& scratch,
              HistogramOutput output = HistogramOutput::overwrite) const;
  // The same with the count read by the GPU when the histogram runs: the 32-bit word at `count`
  // (a buffer made with VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, its offset a multiple of
  // Context::operand_alignment()), written by the caller's earlier commands and made visible to
  // compute shaders by the caller's barrier, or by the host before the submit. A count past
  // desc.count counts desc.count samples. `samples` holds desc.count samples. Nothing is read
  // back: the whole call is recorded now, its grids desc.count's, the workgroups past the
  // count's samples returning at once.
  void record_indirect(VkCommandBuffer cmd, const Operand& count, const Operand& samples,
                       const Operand& counts, const Operand& scratch,
                       HistogramOutput output = HistogramOutput::overwrite) const;
  // The plan, for logs: the variant, its grid, where the bins are counted (shared memory, or
  // global memory past it), how subgroup/aggregated matches a bin's invocations, the scratch.
  std::string describe() const;
  // For measuring tools: the passes' compiled code, the tuning, and as ranking() the match of
  // subgroup/aggregated ("subgroup partition (subgroupPartitionNV)" or "subgroup ballots"; empty
  // for the others). Valid while this Histogram lives.
  Diagnostics diagnostics() const;

  struct State;

 private:
  StatePtr<State> state_;
};

}  // namespace xr::vulkan
