// The tables of compare's text and markdown reports, each built from the report and its analysis
// by declaring its columns once (a header, an alignment and the cell each item shows).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common.hpp"
#include "report/analysis.hpp"
#include "report/model.hpp"

namespace xr::app {

// One column of a table: its header, its alignment and the cell it shows for an item.
template <class Item>
struct Column {
  std::string header;
  Table::Align align;
  std::function<Table::Cell(const Item&)> cell;
};

// A table of `items`, one row each, in the `columns` declared.
template <class Item>
Table tabulate(const std::vector<Column<Item>>& columns, const std::vector<Item>& items) {
  Table t;
  for (const auto& c : columns) t.add_column(c.header, c.align);
  for (const auto& item : items) {
    std::vector<Table::Cell> cells;
    cells.reserve(columns.size());
    for (const auto& c : columns) cells.push_back(c.cell(item));
    t.add_row(std::move(cells));
  }
  return t;
}

// Each backend's device, API, driver, UUID and peaks (markdown's header).
Table devices_table(const std::vector<DeviceRecord>& devices,
                    const std::vector<DeviceClock>& clocks);
// The costs around the kernels (Backend::measure_overheads) of one backend.
Table overhead_table(const std::vector<Overhead>& overheads);
// compare --transfers for one backend: the link row (the anchor), then its own path by size.
Table transfer_table(const TransferTable& t, const std::vector<TransferShares>& shares);

// The ladder table (the classic reduction kernels' rows in ladder order) of one backend at one
// point, plus % of peak and the CUB ratio when known.
Table ladder_table(const AnalyzedReport& ar, const Ladder& ladder);
// The variants measured on CUDA and another GPU API at one point: CUDA's time and GB/s, and each
// other API's (those of partner_apis(here)) with its time over CUDA's.
Table side_by_side_table(const AnalyzedReport& ar, const std::vector<SideBySide>& here);
// The compiled facts of those variants (where CUDA's rows and another API's carry them):
// registers, shared memory and occupancy side by side beside the time ratios, and which facts
// differ from CUDA's.
Table compiled_table(const AnalyzedReport& ar, const std::vector<SideBySide>& here);
// The fastest correct variant of each backend at each size of a section.
Table best_table(const AnalyzedReport& ar, const SectionSizes& s);
// xreduce's best on a GPU against each library at each size; "speedup" is the best library's
// time over xreduce's (at least 1: xreduce is as fast as the fastest library there).
Table libraries_table(const AnalyzedReport& ar, const std::vector<VersusLibraries>& here);

// GB/s of one backend's variants (those of `largest`, its ladder at the section's largest size)
// by size: the form of a section with many sizes.
Table matrix_table(const AnalyzedReport& ar, const SectionSizes& s, const Ladder& largest);
// The `api`/cuda time ratio of each variant measured on both, by size.
Table ratio_matrix(const AnalyzedReport& ar, const SectionSizes& s, const std::string& api);

}  // namespace xr::app
