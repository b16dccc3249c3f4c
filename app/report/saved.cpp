#include "report/saved.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "report/compiled.hpp"
#include "xreduce/error.hpp"

namespace xr::app {
namespace {

using json = nlohmann::ordered_json;

// A saved report's field, or Error(usage) naming the flag, the file and the field.
struct ReportReader {
  std::string_view flag;
  const std::string& path;
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ErrorCategory::usage, fmt::format("{} '{}': {}", flag, printable(path), what));
  }
  const json& at(const json& j, const char* key, const std::string& where) const {
    if (!j.is_object() || !j.contains(key)) fail(fmt::format("{} has no \"{}\"", where, key));
    return j.at(key);
  }
  std::string str(const json& j, const char* key, const std::string& where) const {
    const json& v = at(j, key, where);
    if (!v.is_string()) fail(fmt::format("{}'s \"{}\" is not a string", where, key));
    return v.get<std::string>();
  }
  double num(const json& j, const char* key, const std::string& where) const {
    const json& v = at(j, key, where);
    if (!v.is_number()) fail(fmt::format("{}'s \"{}\" is not a number", where, key));
    return v.get<double>();
  }
  std::optional<double> opt_num(const json& j, const char* key) const {
    if (!j.contains(key) || !j.at(key).is_number()) return std::nullopt;
    return j.at(key).get<double>();
  }
  // A value parsed by one of the argument parsers, its error reworded with the field's name.
  template <class Parse>
  auto parsed(const json& j, const char* key, const std::string& where, Parse parse) const {
    const std::string text = str(j, key, where);
    try {
      return parse(text);
    } catch (const Error&) {
      fail(fmt::format("{}'s \"{}\" is '{}', which xreduce does not know", where, key,
                       printable(text)));
    }
  }
};

// Device `i` of the file; a backend named twice is refused as one already in the report.
DeviceRecord parse_device(const json& j, std::size_t i, const ReportReader& m,
                          const std::vector<DeviceRecord>& earlier) {
  const std::string where = fmt::format("device {}", i);
  DeviceRecord d;
  d.backend = m.str(j, "backend", where);
  for (const auto& have : earlier)
    if (have.backend == d.backend)
      m.fail(fmt::format("backend '{}' is already in this report", printable(d.backend)));
  d.info.name = m.str(j, "name", where);
  d.info.uuid = m.str(j, "uuid", where);
  if (j.contains("api_version") && j["api_version"].is_string())
    d.info.api_version = j["api_version"].get<std::string>();
  if (j.contains("driver_version") && j["driver_version"].is_string())
    d.info.driver_version = j["driver_version"].get<std::string>();
  d.read_peak_gbps = m.opt_num(j, "read_peak_gbps");
  d.copy_peak_gbps = m.opt_num(j, "copy_peak_gbps");
  if (j.contains("knobs") && j["knobs"].is_object())
    for (const auto& [name, value] : j["knobs"].items())
      if (value.is_string()) d.knobs.emplace_back(name, value.get<std::string>());
  d.reference_clock_mhz = m.opt_num(j, "reference_clock_mhz");
  if (j.contains("clock") && j["clock"].is_string()) d.clock = j["clock"].get<std::string>();
  return d;
}

// The times of a measured row: the median required, the rest where the file has them.
void parse_times(const json& x, const std::string& where, const ReportReader& m, ResultRow& row) {
  row.ms.median = m.num(x, "median_ms", where);
  row.ms.min = m.opt_num(x, "min_ms").value_or(row.ms.median);
  row.ms.max = m.opt_num(x, "max_ms").value_or(row.ms.median);
  row.ms.rel_spread = m.opt_num(x, "rel_spread").value_or(0);
  row.ms.count = static_cast<int>(m.opt_num(x, "reps").value_or(0));
  row.host_ms.median = m.opt_num(x, "host_median_ms").value_or(0);
  row.batch_calls = static_cast<int>(m.opt_num(x, "batch_calls").value_or(0));
  row.timing = x.contains("timing") && x["timing"].is_string() ? x["timing"].get<std::string>()
                                                               : std::string("device");
  for (auto [key, field] : {std::pair{"result", &row.result}, {"reference", &row.reference}})
    if (x.contains(key) && x[key].is_string()) *field = x[key].get<std::string>();
  // The clock (schema 3): absent from older reports, null where it was not measured.
  if (x.contains("clock_mhz") && x["clock_mhz"].is_object()) {
    row.clock_min_mhz = m.opt_num(x["clock_mhz"], "min");
    row.clock_median_mhz = m.opt_num(x["clock_mhz"], "median");
    if (!row.clock_min_mhz || !row.clock_median_mhz) row.clock_min_mhz = row.clock_median_mhz = {};
  }
  row.clock_retaken = static_cast<int>(m.opt_num(x, "clock_retaken").value_or(0));
  row.throttled =
      x.contains("throttled") && x["throttled"].is_boolean() && x["throttled"].get<bool>();
}

// Result `i` of the file, whose backend must be one of the file's `devices`.
ResultRow parse_row(const json& x, std::size_t i, const ReportReader& m,
                    const std::vector<DeviceRecord>& devices) {
  const std::string where = fmt::format("result {}", i);
  ResultRow row;
  row.backend = m.str(x, "backend", where);
  if (std::none_of(devices.begin(), devices.end(),
                   [&](const DeviceRecord& d) { return d.backend == row.backend; }))
    m.fail(fmt::format("{}'s backend '{}' is not among the file's devices", where,
                       printable(row.backend)));
  row.variant = m.str(x, "variant", where);
  row.operation.primitive = m.parsed(x, "primitive", where, parse_primitive_arg);
  row.operation.op = m.parsed(x, "op", where, parse_op_arg);
  if (row.operation.primitive == Primitive::scan)
    row.operation.scan = m.parsed(x, "scan", where, parse_scan_kind_arg);
  row.dtype = m.parsed(x, "dtype", where, parse_dtype_arg);
  const double n = m.num(x, "n", where);
  if (n < 0 || n != std::floor(n)) m.fail(fmt::format("{}'s \"n\" is not a count", where));
  row.n = static_cast<std::uint64_t>(n);
  row.mode = x.contains("mode") ? m.parsed(x, "mode", where, parse_timing_mode) : TimingMode::cold;
  const std::string status = m.str(x, "status", where);
  const std::optional<RowStatus> parsed_status = parse_row_status(status);
  if (!parsed_status) m.fail(fmt::format("{}'s status '{}' is unknown", where, printable(status)));
  row.status = *parsed_status;
  if (x.contains("reason") && x["reason"].is_string()) row.reason = x["reason"].get<std::string>();
  if (row.measured()) parse_times(x, where, m, row);
  if (x.contains("compiled")) row.compiled = compiled_from_json(x["compiled"]);  // schema 4
  return row;
}

// "schema_version": 1 when absent (reports written before it existed); refused when newer than
// this build reads, since its fields may mean something else.
int schema_of(const json& j, const ReportReader& m) {
  if (!j.contains("schema_version")) return 1;
  const json& v = j["schema_version"];
  if (!v.is_number_integer() || v.get<long long>() < 1)
    m.fail("\"schema_version\" is not a version number");
  if (v.get<long long>() > kReportSchema)
    m.fail(
        fmt::format("schema version {} is newer than this xreduce reads (up to {}): the report "
                    "was written by a later xreduce",
                    v.get<long long>(), kReportSchema));
  return static_cast<int>(v.get<long long>());
}

}  // namespace

SavedReport parse_saved_report(const std::string& text, const std::string& path,
                               std::string_view flag) {
  const ReportReader m{flag, path};
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {  // its what() quotes file bytes: give the offset only
    m.fail(fmt::format("not JSON (a syntax error at byte {})", e.byte));
  }
  if (!j.is_object()) m.fail("not a compare report (expected a JSON object)");
  SavedReport saved{path, schema_of(j, m), {}};
  if (j.contains("baseline") && !j.contains("results"))
    m.fail("a diff, not a compare report (give the reports it compared)");
  const json& devices = m.at(j, "devices", "the report");
  const json& results = m.at(j, "results", "the report");
  if (!devices.is_array() || !results.is_array())
    m.fail("\"devices\" and \"results\" must be arrays");
  CompareReport& r = saved.data;
  for (auto [key, field] :
       {std::pair{"xreduce_version", &r.version}, {"command", &r.command}, {"commit", &r.commit}})
    if (j.contains(key) && j[key].is_string()) *field = j[key].get<std::string>();
  for (std::size_t i = 0; i < devices.size(); ++i)
    r.devices.push_back(parse_device(devices[i], i, m, r.devices));
  for (std::size_t i = 0; i < results.size(); ++i)
    r.rows.push_back(parse_row(results[i], i, m, r.devices));
  return saved;
}

SavedReport read_saved_report(const std::string& path, std::string_view flag) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(ErrorCategory::usage, fmt::format("{} '{}': cannot read it: {}", flag,
                                                  printable(path), std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_saved_report(text.str(), path, flag);
}

}  // namespace xr::app
