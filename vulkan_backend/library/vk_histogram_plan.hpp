// A histogram's plan in Vulkan, made once per desc: the bin rule's constants (EvenBins's, computed
// here by its formulas), where the bins are counted (a workgroup's shared memory, or global
// memory past it), the modules and specialization constants of its passes, the grids, and the
// scratch's layout. A call is up to three passes over that plan (histogram_call): an
// overwriting call's zero pass of the counts, the counting pass, and fast/replicated's sum of
// its copies of the bins in global memory (zeroed first, where the counts need no zeroing).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "vk_device_facts.hpp"
#include "vk_histogram_table.hpp"
#include "xreduce/histogram_desc.hpp"

namespace xr::vulkan {

namespace histogram {

// The push constants of every histogram pass (shaders/histogram_common.glsl), byte for byte.
struct Args {
  std::uint32_t n = 0, n_high = 0;  // the call's samples (the most, with a count on the device)
  std::uint32_t counted = 0;        // 1: the count word's samples, at most n
  std::uint32_t bins = 0;
  // Floats: lower, upper and scale as the sample type's bits; integers: lower's low 32 bits, the
  // width less one, the width.
  std::uint32_t lower_low = 0, lower_high = 0;
  std::uint32_t upper_low = 0, upper_high = 0;
  std::uint32_t scale_low = 0, scale_high = 0;
  std::uint32_t copies = 0, copy_stride = 0;
  std::uint32_t flags = 0;       // kAccumulate
  std::uint32_t words = 0;       // the zero pass's
  std::uint32_t slice_bins = 0;  // fast/replicated: the bins a grid row counts in shared memory
};
static_assert(sizeof(Args) == 60, "histogram::Args must match shaders/histogram_common.glsl");
// The same after the samples' device address (the XR_ADDRESS modules).
struct AddressPush {
  std::uint64_t samples = 0;
  Args args;
};
static_assert(offsetof(AddressPush, args) == 8, "AddressPush must match histogram_common.glsl");
inline constexpr std::uint32_t kAccumulate = 1;  // Args::flags: the sum pass adds to the counts

// How an integer sample's bin is computed from d = sample - lower: each path gives EvenBins's
// (u64)d * bins / width for every sample in range.
enum class IntegerPath : std::uint8_t {
  identity,  // width == bins: the bin is d
  narrow,    // width < 2^32 and (width - 1) * bins < 2^32: d * bins / width in 32 bits
  wide,      // otherwise: in 64 bits
};
std::string_view to_string(IntegerPath p);

// How subgroup/aggregated finds a subgroup's invocations of one bin: subgroupPartitionNV where
// the device has VK_NV_shader_subgroup_partitioned (and the knobs do not force ballots), else a
// ballot loop; `none` for the other variants.
enum class Match : std::uint8_t { none, partition, ballots };
std::string_view to_string(Match m);

// What the plan takes from the knobs (VulkanKnobs).
struct Knobs {
  bool force_address = false;         // XR_VK_ADDRESSING=address
  bool force_ballots = false;         // XR_VK_HISTOGRAM_MATCH=ballots
  Layout layout = Layout::automatic;  // XR_VK_HISTOGRAM_LAYOUT
};

// A pass's pipeline: its module (shaders/CMakeLists.txt's names) and specialization constants.
struct Pipeline {
  std::string module;
  std::uint32_t workgroup = 256;   // constant 0
  std::uint32_t items = 1;         // 1: vectors in flight an invocation
  std::uint32_t shared_words = 1;  // 7
  std::uint32_t mode = 0;          // 8 (histogram_common.glsl's bits)
};

enum class Stage : std::uint8_t { zero, count, sum };

struct Plan {
  Kernel kernel{};
  HistogramDesc desc{};  // checked; count 0: the zero pass alone
  Args rule{};           // the bin rule's constants, bins and copies, which every call pushes
  IntegerPath path = IntegerPath::identity;  // integer samples'
  Match match = Match::none;
  // The samples by device address (the modules' .addr forms, 64-bit indices): past one binding
  // (maxStorageBufferRange), 2^31 samples, or XR_VK_ADDRESSING=address.
  bool by_address = false;
  std::uint32_t vectors = 0;  // fast/replicated: 16-byte loads in flight an invocation
  std::uint32_t wave = 0;     // the counting grid's most workgroups (0: a sample each)
  std::uint32_t groups = 0;   // its workgroups at desc.count
  std::uint32_t copies = 0;   // sub-histograms a workgroup, or copies in global memory
  std::uint32_t slices = 1;   // fast/replicated: grid rows, each a slice of the bins
  // fast/replicated: the copies lane-banked, 32 counters a bin (copy_stride bins x 32).
  bool lane_banked = false;
  bool counters_in_global = false;  // the bins pass the shared memory (or atomic/global)
  std::uint32_t shared_bytes = 0;   // the counting pass's shared counters
  VkDeviceSize copies_bytes = 0;    // fast/replicated's copies in scratch (0: none)
  VkDeviceSize scratch_bytes = 16;  // what record() binds: at least a word
  Pipeline zero, count, sum;        // sum: where copies_bytes
  std::string note;                 // the path taken, for describe()
  std::string tuning;               // the policy, with its evidence
  std::string describe() const;
};

// One pass of a call: its stage, its push constants and workgroups; a zero pass clears the
// copies in scratch (zeroes_copies) or the counts.
struct Pass {
  Stage stage = Stage::count;
  bool zeroes_copies = false;
  Args args{};
  std::uint32_t groups = 1;
  std::uint32_t rows = 1;  // the grid's rows: the count pass's slices of the bins
};
// A call's passes, in order, held without allocation.
struct Call {
  std::array<Pass, 3> passes{};
  std::size_t size = 0;
  std::span<const Pass> view() const { return {passes.data(), size}; }
};

}  // namespace histogram

// The plan of `desc` (checked by check_histogram_desc) for `spec` on this device. Error
// (unsupported) where a workgroup would count 2^32 samples into its u32 counters (past
// maxComputeWorkGroupCount's workgroups of samples).
histogram::Plan histogram_plan(const histogram::Spec& spec, const DeviceFacts& facts,
                               const HistogramDesc& desc, const histogram::Knobs& knobs);
// The counting pass's workgroups for a call of n samples, 1 <= n <= plan.desc.count.
std::uint32_t histogram_count_groups(const histogram::Plan& plan, const DeviceFacts& facts,
                                     std::uint64_t n);
// The passes of a call of n samples (the capacity's grid where `counted`: the count on the
// device), overwriting or accumulating: an overwriting call zeroes the counts (or, where the
// copies are summed into them, the copies), a call of no samples (n 0, or a Histogram made for
// none) only that.
histogram::Call histogram_call(const histogram::Plan& plan, const DeviceFacts& facts,
                               std::uint64_t n, bool counted, HistogramOutput output);

}  // namespace xr::vulkan
