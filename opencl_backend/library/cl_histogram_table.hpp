// The OpenCL histogram variants as data: each id's kernel and what it asks of the device, in
// ladder order (the ids CUDA's library has, lib/cub aside). Every row runs on every device: the
// privatized rungs count in global memory past the local memory, subgroup/aggregated votes with
// NVIDIA's warps where the device has them and meets in local memory elsewhere, and u64 counters
// carry into their high word without cl_khr_int64_base_atomics (cl_histogram_plan.cpp).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "xreduce/catalog.hpp"
#include "xreduce/histogram.hpp"

namespace xr::opencl {

namespace histogram {
// One entry per OpenCL histogram variant, in ladder order.
enum class Kernel : std::uint8_t {
  atomic_global,        // atomic/global
  atomic_privatized,    // atomic/privatized
  atomic_coarsened,     // atomic/coarsened
  atomic_aggregated,    // atomic/aggregated
  subgroup_aggregated,  // subgroup/aggregated
  fast_replicated,      // fast/replicated
};

// A row as core's LibraryVariants reads it (id, needs, threads, group_bytes, max_bins,
// count_on_device), with its kernel.
struct Spec {
  std::string_view name;
  Kernel kernel = Kernel::atomic_global;
  std::uint32_t needs = 0;        // Need bits (cl_requirements.hpp)
  std::uint32_t threads = 256;    // the least work-group it runs in
  std::uint32_t group_bytes = 0;  // the least local memory it runs with
  std::uint32_t max_bins = kMaxHistogramBins;
  bool count_on_device = true;  // every row reads its count from a device word too
  std::string_view id() const { return name; }
};
}  // namespace histogram

std::span<const histogram::Spec> histogram_table();
inline const histogram::Spec* find_histogram(std::string_view id) {
  return find_row(histogram_table(), id);
}

}  // namespace xr::opencl
