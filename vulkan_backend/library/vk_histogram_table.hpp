// The Vulkan histogram variants as data: each id's kernel (the plan's, vk_histogram_plan.hpp),
// what it needs of the device and the least workgroup and shared memory it runs with, in ladder
// order. Every rung falls back to global atomics where its bins pass the shared memory, so each
// counts core's most bins, and each takes its count from a device word. The library's Histogram
// reads it; core's LibraryVariants answers for it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "vk_requirements.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/histogram.hpp"

namespace xr::vulkan {

namespace histogram {
// One entry per Vulkan histogram variant, in ladder order.
enum class Kernel : std::uint8_t {
  atomic_global,        // atomic/global
  atomic_privatized,    // atomic/privatized
  atomic_coarsened,     // atomic/coarsened
  atomic_aggregated,    // atomic/aggregated
  subgroup_aggregated,  // subgroup/aggregated
  fast_replicated,      // fast/replicated
};

struct Spec {
  std::string_view name;
  Kernel kernel{};
  std::uint32_t needs = 0;        // Need bits (vk_requirements.hpp)
  std::uint32_t threads = 256;    // the fewest invocations a workgroup it runs with
  std::uint32_t group_bytes = 0;  // the least shared memory it needs
  std::uint32_t max_bins = kMaxHistogramBins;
  bool count_on_device = true;  // record_indirect
  std::string_view id() const { return name; }
};
}  // namespace histogram

std::span<const histogram::Spec> histogram_table();
inline const histogram::Spec* find_histogram(std::string_view id) {
  return find_row(histogram_table(), id);
}

}  // namespace xr::vulkan
