#include "library_policy.hpp"

#include <algorithm>

#include "reduce_table.hpp"
#include "scan_table.hpp"
#include "sort_table.hpp"
#include "xreduce/error.hpp"

namespace xr::cuda {
namespace {

// The library's choice, from the H200 report (docs/results/H200/results.json, i32 and f32 sums,
// 1K..256M, cold and batch, commit 8ef547b): fast/single-pass streams 4279 GB/s at 2^28 i32
// (lib/cub 4268) and is the fastest reduce from 1K (3.90 us cold, CUB 4.54); fast/decoupled-
// lookback the fastest scan at every size (0.643 ms at 2^28 i32 against CUB's 0.684, its
// one-block path up to 4K).
constexpr std::string_view kReducePolicy[] = {"fast/single-pass", "fast/vectorized"};
constexpr std::string_view kScanPolicy[] = {"fast/decoupled-lookback", "fast/reduce-then-scan"};
// Sort: not yet measured; the order the algorithms' memory traffic predicts. Onesweep reads and
// writes the keys once per 8-bit digit after one read for every digit's histogram
// (Adinets & Merrill 2022), reduce-then-scan reads them twice per digit (Merrill & Grimshaw
// 2011); lib/cub, CUB's own, after the library's; the bitonic network's O(n log^2 n) steps come
// last.
constexpr std::string_view kSortPolicy[] = {"radix/onesweep", "radix/reduce-then-scan", "lib/cub",
                                            "bitonic/smem"};

template <class Table, std::size_t N>
std::vector<std::string_view> order(const std::string_view (&policy)[N], const Table& table) {
  std::vector<std::string_view> ids(std::begin(policy), std::end(policy));
  for (auto it = table.rbegin(); it != table.rend(); ++it)
    if (std::find(ids.begin(), ids.end(), it->id) == ids.end()) ids.push_back(it->id);
  return ids;
}

}  // namespace

std::vector<std::string_view> library_order(Primitive primitive) {
  switch (primitive) {
    case Primitive::reduce:
      return order(kReducePolicy, reduce_table());
    case Primitive::scan:
      return order(kScanPolicy, scan_table());
    case Primitive::sort:
      return order(kSortPolicy, sort_table());
  }
  return {};
}

void check_operand(const void* p, std::uintptr_t alignment, std::string_view what,
                   std::string_view call) {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  if (!p || address % alignment)
    throw Error(
        ErrorCategory::usage,
        "xreduce::cuda: " + std::string(call) + ": `" + std::string(what) + "` " +
            (p ? "is not " + std::to_string(alignment) + "-byte aligned" : std::string("is null")));
}

}  // namespace xr::cuda
