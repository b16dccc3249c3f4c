#include "report/render.hpp"

#include <fmt/format.h>

#include "report/baseline.hpp"
#include "report/compiled.hpp"
#include "report/format.hpp"

namespace xr::app {
namespace {

// The header of the CSV export: one column per field of a row and its metrics.
constexpr std::string_view kCsvHeader =
    "backend,device,device_uuid,variant,primitive,scan,op,dtype,n,status,median_ms,min_ms,max_ms,"
    "host_median_ms,reps,rel_spread,gbps,pct_peak,step_speedup,cumulative_speedup,vs_cub,ok,"
    "timing,reason,mode,batch_calls,above_peak,clock_min_mhz,clock_median_mhz,clock_retaken,"
    "throttled,sort_order,sort_values,sort_bits,gkeys_per_s,sort_count,histogram_bins,"
    "histogram_range,histogram_counters,histogram_count\n";

std::string field(const std::string& s) {
  return csv_field(s);
}

std::string number(const std::optional<double>& v) {
  return v ? fmt_csv_number(*v) : std::string();
}

// A row's operator: a reduce's or scan's; a sort and a histogram have none.
std::string_view op_field(const Operation& op) {
  const bool has_op = op.primitive == Primitive::reduce || op.primitive == Primitive::scan;
  return has_op ? to_string(op.op) : "";
}

// A histogram's columns of a row (its levels and count's place); empty for the others.
struct HistogramColumns {
  std::string bins, range, counters, count;
};
HistogramColumns histogram_columns(const Operation& op) {
  if (op.primitive != Primitive::histogram) return {};
  return {std::to_string(op.levels.bins), range_text(op.levels),
          std::string(to_string(op.levels.counts)), op.count_on_device ? "device" : "host"};
}

// The sort's columns of a row: every field of its operation that the key's own columns do not
// hold, so two different sorts never print as one; empty for reduce and scan.
struct SortColumns {
  std::string order, values, bits, count;
};
SortColumns sort_columns(const Operation& op) {
  if (op.primitive != Primitive::sort) return {};
  return {std::string(to_string(op.order)), std::string(to_string(op.values)), sort_bits_text(op),
          op.count_on_device ? "device" : "host"};
}

std::string csv_line(const ResultRow& row, const RowMetrics& rm, const DeviceRecord* d) {
  const bool m = row.measured();
  auto mnum = [&](double v) { return m ? fmt_csv_number(v) : std::string(); };
  const bool scan = row.operation.primitive == Primitive::scan;
  const SortColumns sorted = sort_columns(row.operation);
  const HistogramColumns histogram = histogram_columns(row.operation);
  return fmt::format(
      "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},"
      "{},{},{},{},{},{},{},{},{},{}\n",
      field(row.backend), field(d ? d->info.name : ""), d ? d->info.uuid : "", field(row.variant),
      to_string(row.operation.primitive), scan ? to_string(row.operation.scan) : "",
      op_field(row.operation), to_string(row.dtype), row.n, to_string(row.status),
      mnum(row.ms.median), mnum(row.ms.min), mnum(row.ms.max), mnum(row.host_ms.median),
      m ? std::to_string(row.ms.count) : "", mnum(row.ms.rel_spread), mnum(rm.gbps),
      number(rm.pct_peak), number(rm.step_speedup), number(rm.cumulative_speedup),
      number(rm.vs_cub), m ? (row.status == RowStatus::ok ? "true" : "false") : "", row.timing,
      field(row.reason), to_string(row.mode),
      row.batch_calls ? std::to_string(row.batch_calls) : "",
      m && rm.pct_peak ? (rm.above_peak ? "true" : "false") : "", number(row.clock_min_mhz),
      number(row.clock_median_mhz), row.clock_median_mhz ? std::to_string(row.clock_retaken) : "",
      row.clock_median_mhz ? (row.throttled ? "true" : "false") : "", sorted.order, sorted.values,
      sorted.bits, number(rm.gkeys_per_s), sorted.count, histogram.bins, field(histogram.range),
      histogram.counters, histogram.count);
}

// ---- a diff against a baseline ------------------------------------------------------------------

constexpr std::string_view kDiffCsvHeader =
    "backend,variant,primitive,scan,op,dtype,n,mode,verdict,old_median_ms,new_median_ms,ratio,"
    "band,old_rel_spread,new_rel_spread,over_limit,old_status,new_status,compiled_changes,"
    "sort_order,sort_values,sort_bits,sort_count,histogram_bins,histogram_range,histogram_counters,"
    "histogram_count\n";

// The key and verdict of a diff row, then its numbers (empty where the row has none).
std::string diff_line(const ResultRow& key, std::string_view verdict, const ResultRow* old_row,
                      const ResultRow* new_row, const MatchedRow* m) {
  auto median = [](const ResultRow* r) {
    return r && r->measured() ? fmt_csv_number(r->ms.median) : std::string();
  };
  auto spread = [](const ResultRow* r) {
    return r && r->measured() ? fmt_csv_number(r->ms.rel_spread) : std::string();
  };
  std::string changes;  // "registers 64 -> 208 (pass 1); ..."
  if (m)
    for (const FactDifference& d : m->compiled_changes)
      changes += (changes.empty() ? "" : "; ") + change_words(d);
  const bool scan = key.operation.primitive == Primitive::scan;
  const SortColumns sorted = sort_columns(key.operation);
  const HistogramColumns histogram = histogram_columns(key.operation);
  return fmt::format(
      "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
      field(key.backend), field(key.variant), to_string(key.operation.primitive),
      scan ? to_string(key.operation.scan) : "", op_field(key.operation), to_string(key.dtype),
      key.n, to_string(key.mode), verdict, median(old_row), median(new_row),
      m ? fmt_csv_number(m->ratio) : "", m ? fmt_csv_number(m->band) : "", spread(old_row),
      spread(new_row), m ? (m->over_limit ? "true" : "false") : "",
      old_row ? to_string(old_row->status) : "", new_row ? to_string(new_row->status) : "",
      field(changes), sorted.order, sorted.values, sorted.bits, sorted.count, histogram.bins,
      field(histogram.range), histogram.counters, histogram.count);
}

}  // namespace

std::string render_diff_csv(const BaselineDiff& d) {
  std::string out(kDiffCsvHeader);
  for (const auto& m : d.rows)
    out += diff_line(m.new_row, to_string(m.verdict), &m.old_row, &m.new_row, &m);
  for (const auto& u : d.not_comparable)
    out += diff_line(u.new_row, "not_comparable", &u.old_row, &u.new_row, nullptr);
  for (const auto& row : d.only_old) out += diff_line(row, "only_old", &row, nullptr, nullptr);
  for (const auto& row : d.only_new) out += diff_line(row, "only_new", nullptr, &row, nullptr);
  return out;
}

std::string render_csv(const AnalyzedReport& ar) {
  if (ar.baseline) return render_diff_csv(*ar.baseline);
  std::string out(kCsvHeader);
  for (RowIndex i = 0; i < ar.report.rows.size(); ++i) {
    const DeviceRecord* device = nullptr;
    for (const auto& d : ar.report.devices)
      if (d.backend == ar.row(i).backend) device = &d;
    out += csv_line(ar.row(i), ar.metrics(i), device);
  }
  return out;
}

}  // namespace xr::app
