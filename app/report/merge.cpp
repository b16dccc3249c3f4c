#include "report/merge.hpp"

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
#include "xreduce/error.hpp"

namespace xr::app {
namespace {

using json = nlohmann::ordered_json;

// A --merge report's field, or Error(usage) naming the file and the field.
struct MergeReader {
  const std::string& path;
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ErrorCategory::usage, fmt::format("--merge '{}': {}", printable(path), what));
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
DeviceRecord parse_device(const json& j, std::size_t i, const MergeReader& m,
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
  d.merged_from = m.path;
  return d;
}

// The times of a measured row: the median required, the rest where the file has them.
void parse_times(const json& x, const std::string& where, const MergeReader& m, ResultRow& row) {
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
}

// Result `i` of the file, whose backend must be one of the file's `devices`.
ResultRow parse_row(const json& x, std::size_t i, const MergeReader& m,
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
  return row;
}

}  // namespace

MergedReport parse_merged_report(const std::string& text, const std::string& path) {
  const MergeReader m{path};
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {  // its what() quotes file bytes: give the offset only
    m.fail(fmt::format("not JSON (a syntax error at byte {})", e.byte));
  }
  if (!j.is_object()) m.fail("not a compare report (expected a JSON object)");
  const json& devices = m.at(j, "devices", "the report");
  const json& results = m.at(j, "results", "the report");
  if (!devices.is_array() || !results.is_array())
    m.fail("\"devices\" and \"results\" must be arrays");
  MergedReport merged{path, {}, {}};
  for (std::size_t i = 0; i < devices.size(); ++i)
    merged.devices.push_back(parse_device(devices[i], i, m, merged.devices));
  for (std::size_t i = 0; i < results.size(); ++i)
    merged.rows.push_back(parse_row(results[i], i, m, merged.devices));
  return merged;
}

MergedReport read_merged_report(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(ErrorCategory::usage,
                fmt::format("--merge '{}': cannot read it: {}", path, std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_merged_report(text.str(), path);
}

void fold_merged(CompareReport& r, const MergedReport& merged) {
  const MergeReader m{merged.path};
  const std::string& path = merged.path;
  for (const auto& d : merged.devices) {
    for (const auto& have : r.devices)
      if (have.backend == d.backend)
        m.fail(fmt::format("backend '{}' is already in this report", printable(d.backend)));
    r.devices.push_back(d);
  }
  for (const auto& row : merged.rows) {
    if (std::find(r.modes.begin(), r.modes.end(), row.mode) == r.modes.end())
      r.notes.push_back(
          fmt::format("{} rows of {} were measured in {} mode, which this run did "
                      "not measure",
                      printable(row.backend), printable(path), to_string(row.mode)));
    r.rows.push_back(row);
  }
  // The same GPU, proven as for CUDA and Vulkan: by UUID.
  std::string cuda_uuid;
  for (const auto& d : r.devices)
    if (d.backend == "cuda") cuda_uuid = d.info.uuid;
  for (const auto& d : merged.devices) {
    if (cuda_uuid.empty()) break;
    if (d.info.uuid != cuda_uuid)
      r.notes.push_back(
          fmt::format("{} (merged from {}) measured the device with UUID '{}', not "
                      "the cuda device {}: its rows compare another GPU",
                      printable(d.backend), printable(path), printable(d.info.uuid), cuda_uuid));
  }
  // One note per (backend, mode) is enough.
  std::sort(r.notes.begin(), r.notes.end());
  r.notes.erase(std::unique(r.notes.begin(), r.notes.end()), r.notes.end());
}

}  // namespace xr::app
