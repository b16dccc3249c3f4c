#include "report/format.hpp"

#include <fmt/format.h>

namespace xr::app {

std::string fmt_x(const std::optional<double>& v) {
  return v ? fmt::format("{:.2f}x", *v) : std::string();
}

std::string fmt_gbps(double v) {
  if (v >= 100) return fmt::format("{:.0f}", v);
  if (v >= 10) return fmt::format("{:.1f}", v);
  return fmt::format("{:.2f}", v);
}

std::string fmt_peak(const std::optional<double>& v) {
  return v ? fmt_gbps(*v) : std::string("not measured");
}

std::string fmt_pct(const std::optional<double>& v) {
  return v ? fmt::format("{:.1f}%", *v) : std::string();
}

std::string fmt_ratio(double v) {
  return fmt::format("{:.2f}", v);
}

std::string fmt_us(double v) {
  return fmt::format("{:.2f}", v);
}

std::string fmt_time_ratio(double v) {
  return fmt::format("{:.3f}", v);
}

std::string fmt_change(double v) {
  return fmt::format("{:+.1f}%", v * 100);
}

std::string fmt_band(double v) {
  return fmt::format("±{:.1f}%", v * 100);
}

std::string section_what(const Section& sec) {
  return fmt::format("{} {} · {}", sec.operation.describe(), to_string(sec.dtype),
                     to_string(sec.mode));
}

std::string fmt_csv_number(double v) {
  return fmt::format("{:.6g}", v);
}

std::string clock_words(const DeviceRecord& d, const DeviceClock& c) {
  if (!c.median_mhz)
    return d.clock.empty() ? std::string("clock not measured") : "clock " + d.clock;
  std::string s = fmt::format("measured at {:.0f} MHz", *c.median_mhz);
  if (c.floor && d.reference_clock_mhz)
    s += fmt::format(", every sample ≥ {:.0f} % of the {:.0f} MHz reference clock",
                     std::floor(100 * *c.floor), *d.reference_clock_mhz);
  return s;
}

Table::Cell pct_cell(const ResultRow& row, const RowMetrics& metrics) {
  if (!row.measured()) return {};
  if (metrics.above_peak) return {fmt_pct(metrics.pct_peak) + " !", Table::Tone::warn};
  return {fmt_pct(metrics.pct_peak)};
}

Table::Cell check_cell(const ResultRow& row) {
  switch (row.status) {
    case RowStatus::ok:
      // Measured under the clock threshold: right, but its time is not the working clock's.
      if (row.throttled) return {"ok, THROTTLED", Table::Tone::warn};
      return {"ok", Table::Tone::good};
    case RowStatus::failed:
      return {"FAIL: " + one_line(row.reason), Table::Tone::bad};
    case RowStatus::unsupported:
      return {"unsupported: " + one_line(row.reason), Table::Tone::warn};
  }
  return {};
}

Table::Cell speedup_cell(double speedup) {
  return {fmt_x(speedup), speedup >= 1.0 ? Table::Tone::good : Table::Tone::warn};
}

Table::Cell share_cell(const LinkShare& s) {
  if (!s.share) return {};
  const Table::Tone tone = !s.meets_bar   ? Table::Tone::plain
                           : *s.meets_bar ? Table::Tone::good
                                          : Table::Tone::warn;
  return {fmt_x(s.share), tone};
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string sort_bits_text(const Operation& op) {
  return op.bits.all() ? std::string("all")
                       : std::to_string(op.bits.begin) + ":" + std::to_string(op.bits.end);
}

std::string fmt_gkeys(const std::optional<double>& v) {
  return v ? fmt::format("{:.3g}", *v) : std::string();
}

}  // namespace xr::app
