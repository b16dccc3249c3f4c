// Every number of compare's report as it is printed, one formatter per kind of number, shared by
// the tables, the lines and the CSV; and the cells whose tone says what a number means. The
// tool's generic formatters (format_ms, format_bytes, format_n) are in common.hpp.
#pragma once

#include <optional>
#include <string>

#include "common.hpp"
#include "report/analysis.hpp"
#include "report/model.hpp"
#include "report/section.hpp"

namespace xr::app {

std::string fmt_x(const std::optional<double>& v);     // "1.25x"; "" when absent
std::string fmt_gbps(double v);                        // "2251", "19.8", "4.54"
std::string fmt_peak(const std::optional<double>& v);  // fmt_gbps, or "not measured"
std::string fmt_pct(const std::optional<double>& v);   // "42.1%"; "" when absent
std::string fmt_ratio(double v);                       // "0.97": the vulkan/cuda time ratio
std::string fmt_us(double v);                          // "2.12": an overhead in microseconds
std::string fmt_csv_number(double v);
// A CSV field by RFC 4180: quoted where it holds a comma, a quote or a newline, quotes doubled.
std::string csv_field(const std::string& s);  // six significant digits, as %g
std::string fmt_time_ratio(double v);         // "1.012": new/old time against a baseline
std::string fmt_change(double v);             // "+12.3%", "-4.5%": a ratio minus 1
std::string fmt_band(double v);               // "±2.0%": a noise band's half-width

// The clock a device's rows were measured at: "measured at 1980 MHz, every sample >= 97 % of the
// 1980 MHz reference clock", or how it was not ("clock not measured: the CPU backend").
std::string clock_words(const DeviceRecord& d, const DeviceClock& clock);

// A sort's bit range as reports spell it: "all", or "B:E".
std::string sort_bits_text(const Operation& op);
// "GKeys/s" of a sort's row: "41.9"; "" when absent.
std::string fmt_gkeys(const std::optional<double>& v);

// "sum i32 · cold", "inclusive scan sum i32 · batch": a section in words.
std::string section_what(const Section& sec);

// "% peak" of a row: flagged with '!' above 100 % (never silently); empty when not measured.
Table::Cell pct_cell(const ResultRow& row, const RowMetrics& metrics);
// "ok", "FAIL: why", "unsupported: why" (on one line), toned good, bad or warn.
Table::Cell check_cell(const ResultRow& row);
// xreduce's best over the best library's: good at 1x and above, warn below.
Table::Cell speedup_cell(double speedup);
// A share of the host link, good or warn against the link's bar (kLinkShareTarget) where it
// applies.
Table::Cell share_cell(const LinkShare& share);

}  // namespace xr::app
