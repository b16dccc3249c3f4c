// A histogram's plan in OpenCL, made once per desc outside any call: the bin rule's constants
// (EvenBins's formulas, computed once on the host), each kernel's build, work-group, grid and
// local memory, the sub-histograms and the scratch's layout, all from the device's limits and
// the tuning rows of cl_histogram_plan.cpp. enqueue_histogram() only fills what the call
// overwrites and launches: the grids of a call's count, or the plan's with the count on the
// device.
#pragma once

#include <CL/cl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cl_device_facts.hpp"
#include "cl_histogram_table.hpp"
#include "cl_knobs.hpp"
#include "cl_passes.hpp"
#include "cl_programs.hpp"
#include "xreduce/histogram_desc.hpp"

namespace xr::opencl {

namespace histogram {
// kernels/histogram_common.cl's HistArgs, field for field: the rule's constants and the launch's
// shape, set by the plan; a call sets n, counted and accumulate.
struct Args {
  std::uint32_t n_lo = 0, n_hi = 0;
  std::uint32_t counted = 0;
  std::uint32_t wide = 0;
  std::uint32_t bins = 0;
  std::uint32_t privatized = 0;
  std::uint32_t copies = 1;
  std::uint32_t stride = 0;
  std::uint32_t accumulate = 0;
  std::uint32_t bin_bits = 0;
  std::uint32_t offset = 0;
  std::uint32_t last = 0;
  std::uint32_t width_lo = 0, width_hi = 0;
  std::uint32_t path = 0;
  std::uint32_t lower_lo = 0, lower_hi = 0, upper_lo = 0, upper_hi = 0, scale_lo = 0, scale_hi = 0;
  std::uint32_t unused = 0;
};

// How an integer sample's bin is computed from d = sample - lower (CUDA's histogram::IntegerPath):
// each gives EvenBins's (u64)d * bins / width for every sample in range.
enum class IntegerPath : std::uint8_t {
  identity,  // width == bins: the bin is d
  narrow,    // width < 2^32 and (width - 1) * bins < 2^32: in 32 bits
  wide,      // otherwise: in 64 bits
};
std::string_view to_string(IntegerPath p);

struct Plan {
  Kernel kernel{};
  HistogramDesc desc{};  // count > 0, checked (check_histogram_desc)
  Args args{};
  IntegerPath path = IntegerPath::wide;  // integer samples'
  KernelKey main;                        // kernels/histogram_atomic.cl or histogram_replicated.cl
  std::optional<KernelKey> merge;        // kernels/histogram_merge.cl: copies in scratch
  std::uint64_t groups = 0;              // the main kernel's work-groups at desc.count
  std::uint64_t merge_groups = 0;
  std::uint64_t wave = 0;           // work-groups resident at once, where the grid is a wave
  std::uint64_t group_samples = 0;  // fast/replicated: samples a work-group takes an iteration
  std::uint64_t local_bytes = 0;    // the main kernel's __local argument
  bool counters_in_global = false;  // the bins pass the local memory: counted in global memory
  bool lane_banked = false;         // fast/replicated: 32 counters a bin, a lane's in its bank
  std::uint64_t scratch_bytes = 0;  // fast/replicated's copies past the local memory
  std::string note;                 // the path the plan took, for describe()
  std::string tuning;               // the rows it used, with their evidence
  std::string describe() const;
};

// One call: `n` samples (1 to desc.count), or desc.count with the count in a device word;
// overwritten or added to.
struct Call {
  std::uint64_t n = 0;
  bool counted = false;
  HistogramOutput output = HistogramOutput::overwrite;
};

// The caller's buffers of one call and the count's word (a counted call's: buffer and byte
// offset, a multiple of 4).
struct CallBuffers {
  cl_mem samples = nullptr;
  cl_mem counts = nullptr;
  cl_mem scratch = nullptr;
  cl_mem count = nullptr;
  std::uint64_t count_offset = 0;
};

// The plan's kernels, built (owned by the Programs cache).
struct Kernels {
  cl_kernel main = nullptr;
  cl_kernel merge = nullptr;
};
}  // namespace histogram

// The plan of `spec` for `desc` (checked, count > 0) on `facts`' device: no kernel is built.
histogram::Plan histogram_launches(const histogram::Spec& spec, const DeviceFacts& facts,
                                   const HistogramDesc& desc,
                                   HistogramLayout layout = HistogramLayout::automatic);

// The plan's kernels, built now.
histogram::Kernels build_histogram_kernels(Programs& programs, const histogram::Plan& plan);

// Enqueues `call` of `plan` on an in-order queue: the fills an overwrite or the copies need, the
// main kernel, the merge. `events.first` and `.last` get the first and last command's events.
void enqueue_histogram(cl_command_queue queue, const histogram::Plan& plan,
                       const histogram::Kernels& kernels, const histogram::Call& call,
                       const histogram::CallBuffers& buffers, const EnqueueEvents& events);

// A call of no samples (a Histogram made for none, or a count of 0): the counts filled with zeros
// where overwritten, else a marker, so that `events` still wait and receive an event.
void enqueue_no_samples(cl_command_queue queue, const HistogramLevels& levels, cl_mem counts,
                        HistogramOutput output, const EnqueueEvents& events);

}  // namespace xr::opencl
