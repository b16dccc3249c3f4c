#include "library_policy.hpp"

#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "histogram_table.hpp"
#include "reduce_table.hpp"
#include "scan_table.hpp"
#include "sort_table.hpp"
#include "xreduce/choice_order.hpp"
#include "xreduce/error.hpp"
#include "xreduce/operand_spans.hpp"

namespace xr::cuda {
namespace {

// The device allocation that holds `p`, where the driver knows it (cudaMalloc, cudaMallocAsync,
// managed and virtual-memory mappings); empty for memory it does not track (system memory under
// HMM, a host allocation's device pointer) or without a current context: unchecked then.
struct Allocation {
  std::uintptr_t base;
  std::size_t bytes;
};
std::optional<Allocation> allocation_of(const void* p) {
  static const PFN_cuMemGetAddressRange_v3020 get_range = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &fn, 3020, cudaEnableDefault,
                                         &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      cudaGetLastError();  // the query's error is not the caller's
      fn = nullptr;
    }
    return reinterpret_cast<PFN_cuMemGetAddressRange_v3020>(fn);
  }();
  if (!get_range) return std::nullopt;
  CUdeviceptr base = 0;
  std::size_t bytes = 0;
  if (get_range(&base, &bytes, reinterpret_cast<CUdeviceptr>(p)) != CUDA_SUCCESS)
    return std::nullopt;
  return Allocation{static_cast<std::uintptr_t>(base), bytes};
}

// The library's choice, fastest first: each measured entry's place from the report its evidence
// names (i32 and f32 sums, 1K..256M, cold and batch; sorts at 2^28 keys); an entry without
// evidence follows its fast end, for devices that lack what that one needs.
constexpr LibraryChoice kReducePolicy[] = {
    {"fast/single-pass",
     "H200, 2^28 i32: 4279 GB/s, lib/cub 4268; fastest reduce from 1K (3.90 us cold, CUB 4.54); "
     "docs/results/H200/results.json"},
    {"fast/vectorized", ""}};
constexpr LibraryChoice kScanPolicy[] = {
    {"fast/decoupled-lookback",
     "H200, 2^28 i32: 0.643 ms, lib/cub 0.684; fastest scan at every size (one block up to 4K); "
     "docs/results/H200/results.json"},
    {"fast/reduce-then-scan", ""}};
constexpr LibraryChoice kSortPolicy[] = {
    {"radix/onesweep",
     "H200, 2^28 u32 keys: 5.10 ms, lib/cub 6.34; other key types and pairs alike but u64 pairs "
     "(20.32, lib/cub 20.19), and lib/cub below 1M keys (0.86x at 64K: CUB's one-block path); "
     "docs/results/H200/sort"},
    {"lib/cub", "H200, 2^28 u32 keys: 6.34 ms; docs/results/H200/sort"},
    {"radix/reduce-then-scan", "H200, 2^28 u32 keys: 12.46 ms; docs/results/H200/sort"},
    {"bitonic/smem", "H200, 2^28 u32 keys: 163.9 ms; docs/results/H200/sort"}};
// Histogram: unmeasured, the order the ladder's design predicts (fewer, less contended atomics
// and wider loads first); lib/cub last, as past 256 bins its temp storage holds a copy of the
// bins for each block of its grid (dispatch_histogram.cuh), gigabytes at 2^24 bins.
constexpr LibraryChoice kHistogramPolicy[] = {
    {"fast/replicated",
     "unmeasured: sub-histograms a lane in shared memory, 16-byte loads, a wave of blocks"},
    {"subgroup/aggregated", "unmeasured: a warp's equal bins added once"},
    {"atomic/aggregated", "unmeasured: a thread's runs of one bin added once"},
    {"atomic/coarsened", "unmeasured: a copy a block, merged once per resident block"},
    {"atomic/privatized", "unmeasured: a copy a block, merged once per 256 samples"},
    {"atomic/global", "unmeasured: one global atomic a sample"},
    {"lib/cub", "unmeasured: its temp storage grows with the bins past 256"}};

// A CUDA table row's id.
constexpr auto kRowId = [](const auto& row) { return std::string_view(row.id); };

}  // namespace

std::vector<std::string_view> library_order(Primitive primitive) {
  switch (primitive) {
    case Primitive::reduce:
      return choice_order(kReducePolicy, reduce_table(), kRowId);
    case Primitive::scan:
      return choice_order(kScanPolicy, scan_table(), kRowId);
    case Primitive::sort:
      return choice_order(kSortPolicy, sort_table(), kRowId);
    case Primitive::histogram:
      return choice_order(kHistogramPolicy, histogram_table(), kRowId);
  }
  return {};
}

namespace {

void check_now(std::string_view call, std::initializer_list<DeviceOperand> operands) {
  const CallName who("xreduce::cuda", call);
  OperandSpans spans;
  for (const DeviceOperand& o : operands) {
    if (!o.bytes) continue;
    const auto address = reinterpret_cast<std::uintptr_t>(o.p);
    if (!o.p || address % o.alignment)
      throw Error(ErrorCategory::usage,
                  std::string(std::string_view(who)) + ": `" + std::string(o.name) + "` " +
                      (o.p ? "is not " + std::to_string(o.alignment) + "-byte aligned"
                           : std::string("is null")));
    if (const auto range = allocation_of(o.p))
      require_holds(who, o.name, range->base + range->bytes - address, o.bytes,
                    " to the end of its allocation", o.why);
    spans.add(who, {.space = 0, .begin = address, .bytes = o.bytes, .name = o.name});
  }
  require_disjoint(who, spans);
}

}  // namespace

void check_operands(CheckedOperands& checked, std::string_view call,
                    std::initializer_list<DeviceOperand> operands) {
  // Each pointer and the bytes the call reaches from it: a call of another size over the same
  // pointers is checked again.
  std::array<std::uint64_t, 16> pointers{};
  std::size_t n = 0;
  for (const DeviceOperand& o : operands)
    if (n + 1 < pointers.size()) {
      pointers[n++] = o.bytes ? reinterpret_cast<std::uintptr_t>(o.p) : 0;
      pointers[n++] = o.bytes;
    }
  checked.check({pointers.data(), n}, [&] { check_now(call, operands); });
}

}  // namespace xr::cuda
