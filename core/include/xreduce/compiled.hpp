// What a variant compiled into and how one call launches it (`xreduce inspect`): per pass its
// block and grid, the resources the driver gave its kernel (registers, shared memory,
// local memory, stack, binary size), in the driver's own words beside, and its occupancy on the
// device's multiprocessors by the rules of NVIDIA's occupancy calculator (cuda_occupancy.h,
// compute capability 7.0 and later). CUDA's facts come from the runtime (cudaFuncGetAttributes of
// each kernel of a captured call); Vulkan's from VK_KHR_pipeline_executable_properties, where the
// driver reports them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace xr {

// One statistic as the driver reported it: its name, its value in its own unit, its description.
struct DriverStatistic {
  std::string name;   // "Register Count", "Shared Memory Size", ...
  std::string value;  // as reported: an integer, a float or "true"/"false"
  std::string description;
};

// One kernel launch (CUDA) or dispatch (Vulkan) of one call, in the order they run. A resource the
// API does not report is empty, never zero.
struct CompiledPass {
  std::string kernel;       // the kernel's name (CUDA, demangled) or the SPIR-V module (Vulkan)
  std::uint32_t block = 0;  // threads per block / invocations per workgroup
  std::uint64_t grid = 0;   // blocks / workgroups of this call at its n
  std::optional<int> registers;                 // per thread
  std::optional<std::uint64_t> static_shared;   // bytes per block the kernel declares
  std::uint64_t dynamic_shared = 0;             // bytes per block given at launch
  std::optional<std::uint64_t> local_bytes;     // per thread: spills and local arrays
  std::optional<std::uint64_t> stack_bytes;     // per thread
  std::optional<std::uint64_t> binary_bytes;    // the compiled code
  std::optional<std::uint64_t> constant_bytes;  // the kernel's constant memory
  std::optional<int> subgroup_size;             // the warp/subgroup the kernel was compiled for
  std::optional<int> max_threads;               // the block size its registers and bounds allow
  std::string binary;                           // "sm_90 (PTX 9.0)", "SPIR-V, NVIDIA 580.159.04"
  // The API's own answer for resident blocks per multiprocessor (CUDA's
  // cudaOccupancyMaxActiveBlocksPerMultiprocessor), beside the one occupancy() computes.
  std::optional<int> api_blocks_per_sm;
  std::optional<int> instructions;          // SASS instructions (nvdisasm), where it was run
  std::vector<DriverStatistic> statistics;  // everything the driver said, verbatim
  std::string not_reported;  // why resources are empty ("not reported by this driver")
};

// One call of a variant on n elements, as compiled for the selected device.
struct CompiledCall {
  std::vector<CompiledPass> passes;
  std::string note;  // why there are no passes (the CPU runs host code), else empty
  // The tuning entry the call's plan used (a tile, a count type) with the measurement that chose
  // it, where the variant has one.
  std::string tuning = {};
};

// The per-multiprocessor limits that bound residency (cudaDeviceProp's names), with the
// allocation rules of compute capability 7.0 and later.
struct SmLimits {
  std::string device;  // whose limits, "<device name> (sm_90)"
  int warp_size = 32;
  int max_threads_per_sm = 0;
  int max_threads_per_block = 0;
  int max_blocks_per_sm = 0;
  int registers_per_sm = 0;
  int registers_per_block = 0;
  int max_registers_per_thread = 255;
  int register_alloc_unit = 256;  // registers are given to warps in these units
  int sub_partitions = 4;         // registers are split between the SM's partitions
  std::uint64_t shared_per_sm = 0;
  std::uint64_t shared_per_block = 0;        // without opting in
  std::uint64_t shared_per_block_optin = 0;  // the most a kernel may opt in to
  std::uint64_t reserved_shared_per_block = 0;
  std::uint64_t shared_alloc_unit = 128;
};

// What binds residency; several can bind at once.
enum class OccupancyLimit : std::uint8_t { registers, shared_memory, threads, blocks };
std::string_view to_string(OccupancyLimit l);

struct Occupancy {
  int blocks_per_sm = 0;  // resident blocks per multiprocessor; 0: the block cannot launch
  int warps_per_sm = 0;
  double fraction = 0;  // resident warps over the multiprocessor's maximum
  // Blocks per SM each limit alone allows (INT_MAX where a limit does not apply).
  int by_registers = 0, by_shared = 0, by_threads = 0, by_blocks = 0;
  std::vector<OccupancyLimit> binding;  // the limits equal to blocks_per_sm
  std::uint64_t shared_per_block = 0;   // allocated: declared + dynamic + reserved, rounded
};

// The limits that bind, as words: "registers, threads" ("" when none is known).
std::string binding_words(const Occupancy& o);

// The occupancy of blocks of `pass.block` threads with `pass`'s registers and shared memory on a
// multiprocessor of `sm`; nullopt when the pass's registers or static shared memory are unknown.
std::optional<Occupancy> occupancy(const SmLimits& sm, const CompiledPass& pass);

}  // namespace xr
