#include "cub_sort_count.hpp"

#include <algorithm>
#include <iterator>

namespace xr::cuda {
namespace {

// Each entry: the faster width for 2^28 keys uniform over every bit pattern, cold, the two widths
// measured side by side (XR_CUB_SORT_COUNT=32 and 64); docs/results/H100/sort/cub-count holds
// the runs. Entries within noise keep the measured faster width all the same.
constexpr CubCountEntry kTable[] = {
    {90, DType::u32, false, CubCount::bits64,
     "H100 SXM, 2^28 u32 keys: 64-bit 5.512 ms, 32-bit 6.397"},
    {90, DType::u32, true, CubCount::bits32,
     "H100 SXM, 2^28 u32 pairs: 32-bit 9.057 ms, 64-bit 9.239"},
    {90, DType::i32, false, CubCount::bits32,
     "H100 SXM, 2^28 i32 keys: 32-bit 5.399 ms, 64-bit 5.510"},
    {90, DType::i32, true, CubCount::bits32,
     "H100 SXM, 2^28 i32 pairs: 32-bit 8.901 ms, 64-bit 9.278"},
    {90, DType::f32, false, CubCount::bits32,
     "H100 SXM, 2^28 f32 keys: 32-bit 5.708 ms, 64-bit 5.788"},
    {90, DType::f32, true, CubCount::bits32,
     "H100 SXM, 2^28 f32 pairs: 32-bit 8.308 ms, 64-bit 9.072"},
    {90, DType::u64, false, CubCount::bits64,
     "H100 SXM, 2^28 u64 keys: 64-bit 16.850 ms, 32-bit 16.883"},
    {90, DType::u64, true, CubCount::bits32,
     "H100 SXM, 2^28 u64 pairs: 32-bit 24.767 ms, 64-bit 24.828"},
};

}  // namespace

std::string_view to_string(CubCount c) {
  return c == CubCount::bits64 ? "64-bit" : "32-bit";
}

std::optional<CubCount> parse_cub_count(std::string_view text) {
  if (text == "32") return CubCount::bits32;
  if (text == "64") return CubCount::bits64;
  return std::nullopt;
}

std::span<const CubCountEntry> cub_count_table() {
  return kTable;
}

CubCountChoice choose_cub_count(const DeviceLimits& device, DType key, bool pairs, std::uint64_t n,
                                std::optional<CubCount> forced) {
  if (n > 0xffffffffu) return {CubCount::bits64, "n needs a 64-bit count"};
  if (forced) return {*forced, "XR_CUB_SORT_COUNT"};
  const int cc = device.cc_major * 10 + device.cc_minor;
  const auto* e = std::find_if(std::begin(kTable), std::end(kTable), [&](const CubCountEntry& x) {
    return x.cc == cc && x.key == key && x.pairs == pairs;
  });
  if (e != std::end(kTable)) return {e->count, "tuning: " + std::string(e->evidence)};
  return {CubCount::bits32, "no entry for " + std::string(to_string(key)) +
                                (pairs ? " pairs" : " keys") + " on sm_" + std::to_string(cc) +
                                ": the 32-bit count most callers pass"};
}

}  // namespace xr::cuda
