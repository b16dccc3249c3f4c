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
// Sort, in the order measured on an H200 at 2^28 u32 keys (docs/results/H200/sort): radix/onesweep
// 5.10 ms, lib/cub 6.34, radix/reduce-then-scan 12.46, bitonic/smem 163.9; the other key types
// and pairs alike but u64 pairs (onesweep 20.32, lib/cub 20.19). Below 1M keys lib/cub is faster
// (onesweep 0.86x at 64K: CUB's one-block path).
constexpr std::string_view kSortPolicy[] = {"radix/onesweep", "lib/cub", "radix/reduce-then-scan",
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
