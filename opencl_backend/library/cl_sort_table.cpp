#include "cl_sort_table.hpp"

namespace xr::opencl {
namespace {

// A tile of 256 x 4 keys and its counters (cl_sort_plan.cpp shrinks tiles to the device).
constexpr std::uint32_t kLeastSortBytes = 256 * 4 * 4 + 2 * 1024;

constexpr sort::Spec kSorts[] = {
    {"radix/reduce-then-scan", sort::Family::reduce_then_scan, 0, 256, kLeastSortBytes},
    {"radix/onesweep", sort::Family::onesweep, 0, 256, kLeastSortBytes},
    // A tile of 512 items of 8 bytes and more; halved to the device (cl_sort_plan.cpp).
    {"bitonic/smem", sort::Family::bitonic, 0, 256, 16 * 1024},
};

}  // namespace

std::span<const sort::Spec> sort_table() {
  return kSorts;
}

}  // namespace xr::opencl
