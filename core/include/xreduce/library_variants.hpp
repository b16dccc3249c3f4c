// A GPU library's variants as its reduce and scan tables list them, answered one way on every
// API: whether it has an id, the id's VariantInfo, all of them, and why a device cannot run one.
// The API says only what it does differently, as the functions it passes:
//   Reduces(), Scans(), Sorts(), Histograms()
//                                      the tables (rows with id(), needs, schedule, group_bytes
//                                      for scans; a reduce's is core's reduce_group_memory_bytes;
//                                      a sort's family, threads and group_bytes; a histogram's
//                                      threads, group_bytes, max_bins and count_on_device); Sorts
//                                      and Histograms nullptr for an API without them
//   Dtypes()                           the element types the API runs
//   Words(needs)                       a row's requirement bits in words
//   Missing(needs, threads, group_bytes, facts)
//                                      what the device lacks for them, "" when nothing
#pragma once

#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "xreduce/call_check.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/reduce_plan.hpp"
#include "xreduce/sort_passes.hpp"

namespace xr {

template <auto Reduces, auto Scans, auto Dtypes, auto Words, auto Missing, auto Sorts = nullptr,
          auto Histograms = nullptr>
struct LibraryVariants {
  static constexpr bool kSorts = !std::is_same_v<decltype(Sorts), std::nullptr_t>;
  static constexpr bool kHistograms = !std::is_same_v<decltype(Histograms), std::nullptr_t>;

  static bool has(Primitive primitive, std::string_view id) {
    if (primitive == Primitive::histogram) {
      if constexpr (kHistograms)
        return find_row(Histograms(), id) != nullptr;
      else
        return false;
    }
    if (primitive == Primitive::sort) {
      if constexpr (kSorts)
        return find_row(Sorts(), id) != nullptr;
      else
        return false;
    }
    return primitive == Primitive::scan ? find_row(Scans(), id) != nullptr
                                        : find_row(Reduces(), id) != nullptr;
  }

  // The VariantInfo of an id the library has.
  static VariantInfo info(Primitive primitive, std::string_view id) {
    if (primitive == Primitive::reduce)
      return table_variant(primitive, id, Dtypes(), Words(find_row(Reduces(), id)->needs));
    if constexpr (kSorts)
      if (primitive == Primitive::sort) {
        const auto& row = *find_row(Sorts(), id);
        VariantInfo v = table_variant(primitive, id, Dtypes(), Words(row.needs));
        v.max_elements = sort_plan_max_keys(row.family);  // core's plans' 32-bit indices
        v.count_on_device = true;
        return v;
      }
    if constexpr (kHistograms)
      if (primitive == Primitive::histogram) {
        const auto& row = *find_row(Histograms(), id);
        VariantInfo v = table_variant(
            primitive, id, {std::begin(kHistogramSampleDTypes), std::end(kHistogramSampleDTypes)},
            sample_words(Words(row.needs)));
        v.max_bins = row.max_bins;
        v.count_on_device = row.count_on_device;
        return v;
      }
    const auto& scan = *find_row(Scans(), id);
    return table_variant(primitive, id, Dtypes(), Words(scan.needs), scan.schedule.deterministic);
  }

  // A histogram's requirements in words: the API's, but for those of element types no histogram
  // takes ("f16/bf16: ...", "i64/u64: ...").
  static std::vector<std::string> sample_words(std::vector<std::string> words) {
    std::erase_if(words, [](const std::string& w) {
      return w.starts_with("f16/bf16:") || w.starts_with("i64/u64:");
    });
    return words;
  }

  // Every variant, reduces, scans, sorts, then histograms.
  static std::vector<VariantInfo> all() {
    std::vector<VariantInfo> out;
    for (const auto& row : Reduces()) out.push_back(info(Primitive::reduce, row.id()));
    for (const auto& row : Scans()) out.push_back(info(Primitive::scan, row.id()));
    if constexpr (kSorts)
      for (const auto& row : Sorts()) out.push_back(info(Primitive::sort, row.id()));
    if constexpr (kHistograms)
      for (const auto& row : Histograms()) out.push_back(info(Primitive::histogram, row.id()));
    return out;
  }

  // Why `facts`' device cannot run `id` ("unknown variant '<id>'" for one the library lacks),
  // "" when it can; a scan's row as `scan_row` plans it (the API's look-back policy applied).
  template <class Facts, class ScanRow>
  static std::string unsupported_reason(Primitive primitive, std::string_view id,
                                        const Facts& facts, ScanRow&& scan_row) {
    if (primitive == Primitive::reduce) {
      const auto* row = find_row(Reduces(), id);
      if (!row) return unknown_variant(id);
      return Missing(row->needs, row->schedule.threads, reduce_group_memory_bytes(row->schedule),
                     facts);
    }
    if constexpr (kSorts)
      if (primitive == Primitive::sort) {
        const auto* row = find_row(Sorts(), id);
        if (!row) return unknown_variant(id);
        return Missing(row->needs, row->threads, row->group_bytes, facts);
      }
    if constexpr (kHistograms)
      if (primitive == Primitive::histogram) {
        const auto* row = find_row(Histograms(), id);
        if (!row) return unknown_variant(id);
        return Missing(row->needs, row->threads, row->group_bytes, facts);
      }
    if (primitive == Primitive::histogram) return unknown_variant(id);
    const auto* found = primitive == Primitive::scan ? find_row(Scans(), id) : nullptr;
    if (!found) return unknown_variant(id);
    const auto row = scan_row(*found);
    return Missing(row.needs, row.schedule.threads, row.group_bytes, facts);
  }
};

}  // namespace xr
