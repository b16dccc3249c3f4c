// A GPU library's variants as its reduce and scan tables list them, answered one way on every
// API: whether it has an id, the id's VariantInfo, all of them, and why a device cannot run one.
// `Api` says only what its API does differently:
//   Api::reduces(), Api::scans()       the tables (rows with id(), needs, schedule, group_bytes
//                                      for scans; a reduce's is core's reduce_group_memory_bytes)
//   Api::dtypes()                      the element types the API runs
//   Api::words(needs)                  a row's requirement bits in words
//   Api::missing(needs, threads, group_bytes, facts)
//                                      what the device lacks for them, "" when nothing
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "xreduce/call_check.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/reduce_plan.hpp"

namespace xr {

template <class Api>
struct LibraryVariants {
  static bool has(Primitive primitive, std::string_view id) {
    if (primitive == Primitive::sort) return false;  // no table of sorts yet
    return primitive == Primitive::scan ? find_row(Api::scans(), id) != nullptr
                                        : find_row(Api::reduces(), id) != nullptr;
  }

  // The VariantInfo of an id the library has.
  static VariantInfo info(Primitive primitive, std::string_view id) {
    if (primitive == Primitive::reduce)
      return table_variant(primitive, id, Api::dtypes(),
                           Api::words(find_row(Api::reduces(), id)->needs));
    const auto& scan = *find_row(Api::scans(), id);
    return table_variant(primitive, id, Api::dtypes(), Api::words(scan.needs),
                         scan.schedule.deterministic);
  }

  // Every variant, reduces then scans.
  static std::vector<VariantInfo> all() {
    std::vector<VariantInfo> out;
    for (const auto& row : Api::reduces()) out.push_back(info(Primitive::reduce, row.id()));
    for (const auto& row : Api::scans()) out.push_back(info(Primitive::scan, row.id()));
    return out;
  }

  // Why `facts`' device cannot run `id` ("unknown variant '<id>'" for one the library lacks),
  // "" when it can; a scan's row as `scan_row` plans it (the API's look-back policy applied).
  template <class Facts, class ScanRow>
  static std::string unsupported_reason(Primitive primitive, std::string_view id,
                                        const Facts& facts, ScanRow&& scan_row) {
    if (primitive == Primitive::reduce) {
      const auto* row = find_row(Api::reduces(), id);
      if (!row) return unknown_variant(id);
      return Api::missing(row->needs, row->schedule.threads,
                          reduce_group_memory_bytes(row->schedule), facts);
    }
    const auto* found = primitive == Primitive::scan ? find_row(Api::scans(), id) : nullptr;
    if (!found) return unknown_variant(id);
    const auto row = scan_row(*found);
    return Api::missing(row.needs, row.schedule.threads, row.group_bytes, facts);
  }
};

}  // namespace xr
