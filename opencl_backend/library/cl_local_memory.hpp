// The local memory a work-group really gets. CL_DEVICE_LOCAL_MEM_SIZE is what the driver reports,
// and NVIDIA's reports 48 KiB where its kernels run with more (CUDA's opt-in shared memory, up to
// the SM's). A probe finds it: a kernel with the candidate's bytes of static __local, run in
// enough work-groups that several are resident on each compute unit at once, each writing a pattern
// of its own to every word of its array, holding it a while and reading it back through other
// work-items; it passes only where it builds, runs and every work-group found its own pattern
// (two work-groups given one memory cannot both pass). The answer is cached per device, driver and
// candidate in the kernel cache (xreduce/kernel_cache.hpp).
#pragma once

#include <CL/cl.h>

#include <cstdint>
#include <span>
#include <string>

#include "xreduce/kernel_cache.hpp"

namespace xr::opencl {

struct DeviceFacts;

// The candidates, largest first: a digit tile of CUDA's shape and more, so that two or three
// work-groups share a compute unit whose shared memory holds 228 KiB (compute capability 9.0).
inline constexpr std::uint64_t kLocalMemoryCandidates[] = {96 * 1024, 64 * 1024};

struct LocalMemoryProbe {
  bool works = false;
  std::string why;  // when it does not: the build, launch or pattern that failed
};

// Runs the probe of `bytes` on `f`'s device in a context of its own. Never throws: a failure of
// any step is the answer, with why.
LocalMemoryProbe probe_local_memory(const DeviceFacts& f, std::uint64_t bytes);

// What a sort's tiles may take: on a GPU the largest candidate above the reported size whose probe
// passes (cached in `cache`), else the reported size; a CPU device's reported size is its own.
// `note` says how it was found.
std::uint64_t working_local_memory(
    const DeviceFacts& f, const KernelCache& cache, std::string& note,
    std::span<const std::uint64_t> candidates = kLocalMemoryCandidates);

}  // namespace xr::opencl
