#include "report/saved.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "report/compiled.hpp"
#include "report/json_reader.hpp"
#include "xreduce/error.hpp"
#include "xreduce/io.hpp"

namespace xr::app {
namespace {

using json = nlohmann::ordered_json;

// The largest report read: far past the largest sweep written (2,000 rows, about 3 MB).
constexpr std::uint64_t kMaxReportBytes = std::uint64_t{256} << 20;
// A row's largest n: 2^53, the last count a double (a JSON number, its GB/s) holds exactly; no
// device holds a thousandth of it.
constexpr std::uint64_t kMaxRowElements = std::uint64_t{1} << 53;

// A value parsed by one of the argument parsers, its error reworded with the field's name.
template <class Parse>
auto parsed(const JsonReader& m, const json& j, const char* key, const std::string& where,
            Parse parse) {
  const std::string text = m.str(j, key, where);
  try {
    return parse(text);
  } catch (const Error&) {
    m.fail(fmt::format("{}'s \"{}\" is '{}', which xreduce does not know", where, key, text));
  }
}

// Device `i` of the file; a backend named twice is refused as one already in the report.
DeviceRecord parse_device(const json& j, std::size_t i, const JsonReader& m,
                          const std::vector<DeviceRecord>& earlier) {
  const std::string where = fmt::format("device {}", i);
  DeviceRecord d;
  d.backend = m.str(j, "backend", where);
  for (const auto& have : earlier)
    if (have.backend == d.backend)
      m.fail(fmt::format("backend '{}' is already in this report", d.backend));
  d.info.index =
      static_cast<int>(m.opt_count(j, "index", where, std::numeric_limits<int>::max()).value_or(0));
  d.info.name = m.str(j, "name", where);
  d.info.uuid = m.str(j, "uuid", where);
  d.info.api_version = m.opt_str(j, "api_version", where);
  d.info.driver_version = m.opt_str(j, "driver_version", where);
  d.info.memory_bytes = m.opt_count(j, "memory_bytes", where, UINT64_MAX).value_or(0);
  d.read_peak_gbps = m.opt_num(j, "read_peak_gbps", where, NumberRange::positive());
  d.copy_peak_gbps = m.opt_num(j, "copy_peak_gbps", where, NumberRange::positive());
  // Iterated, not looked up by name: a name may hold any byte, a NUL among them.
  if (const json* knobs = m.opt_object(j, "knobs", where))
    for (const auto& [name, value] : knobs->items()) {
      const std::string knob = printable(name);
      d.knobs.emplace_back(knob, m.str(value, fmt::format("{}'s knob \"{}\"", where, knob)));
    }
  d.reference_clock_mhz = m.opt_num(j, "reference_clock_mhz", where, NumberRange::positive());
  d.clock = m.opt_str(j, "clock", where);
  return d;
}

// The spread and repetitions of a measured row, consistent with its times: a median absolute
// deviation of positive samples is at most their median, and at most max - min where the file
// gives both.
void parse_spread(const json& x, const std::string& where, const JsonReader& m, ResultRow& row) {
  row.ms.rel_spread = m.opt_num(x, "rel_spread", where, NumberRange::fraction()).value_or(0);
  const bool range_given = x.contains("min_ms") && x.contains("max_ms") && !x["min_ms"].is_null() &&
                           !x["max_ms"].is_null();
  const double widest = row.ms.median > 0 ? (row.ms.max - row.ms.min) / row.ms.median : 0;
  if (range_given && row.ms.rel_spread > widest * (1 + 1e-9) + 1e-12)
    m.fail(
        fmt::format("{}'s \"rel_spread\" {} is wider than its times allow ((max - min) / "
                    "median = {})",
                    where, row.ms.rel_spread, widest));
  const std::uint64_t reps = m.opt_count(x, "reps", where, 1u << 30).value_or(0);
  if (row.status == RowStatus::ok && reps == 0 && x.contains("reps"))
    m.fail(fmt::format("{}'s \"reps\" is 0 for a row that was timed", where));
  row.ms.count = static_cast<int>(reps);
}

// The SM clock (schema 3): absent from older reports, null where it was not measured.
void parse_clock(const json& x, const std::string& where, const JsonReader& m, ResultRow& row) {
  if (const json* clock = m.opt_object(x, "clock_mhz", where)) {
    const std::string at = where + "'s \"clock_mhz\"";
    row.clock_min_mhz = m.num(*clock, "min", at, NumberRange::positive());
    row.clock_median_mhz = m.num(*clock, "median", at, NumberRange::positive());
    if (*row.clock_min_mhz > *row.clock_median_mhz)
      m.fail(fmt::format("{}: \"min\" is above \"median\"", at));
  }
  row.clock_retaken =
      static_cast<int>(m.opt_count(x, "clock_retaken", where, 1u << 30).value_or(0));
  row.throttled = m.opt_bool(x, "throttled", where).value_or(false);
}

// The times of a measured row: the median required, the rest where the file has them, each
// positive (a timed call takes time; a row that failed its check may hold none) and in order.
void parse_times(const json& x, const std::string& where, const JsonReader& m, ResultRow& row) {
  const bool timed = row.status == RowStatus::ok && row.n > 0;
  const NumberRange times = timed ? NumberRange::positive() : NumberRange::non_negative();
  row.ms.median = m.num(x, "median_ms", where, times);
  row.ms.min = m.opt_num(x, "min_ms", where, times).value_or(row.ms.median);
  row.ms.max = m.opt_num(x, "max_ms", where, times).value_or(row.ms.median);
  if (row.ms.min > row.ms.median || row.ms.median > row.ms.max)
    m.fail(
        fmt::format("{}'s times are out of order (min_ms {} <= median_ms {} <= max_ms {} "
                    "does not hold)",
                    where, row.ms.min, row.ms.median, row.ms.max));
  parse_spread(x, where, m, row);
  row.host_ms.median =
      m.opt_num(x, "host_median_ms", where, NumberRange::non_negative()).value_or(0);
  row.batch_calls = static_cast<int>(m.opt_count(x, "batch_calls", where, 1u << 30).value_or(0));
  row.timing = m.opt_str(x, "timing", where);
  if (row.timing.empty()) row.timing = "device";
  if (row.timing != "device" && row.timing != "host" && row.timing != "end-to-end")
    m.fail(
        fmt::format("{}'s \"timing\" is '{}', not device, host or end-to-end", where, row.timing));
  row.result = m.opt_str(x, "result", where);
  row.reference = m.opt_str(x, "reference", where);
  parse_clock(x, where, m, row);
}

// The numbers a row's file derived from its times (render_json's), checked where present although
// the report derives them again: a file holding others is not a report xreduce wrote.
void check_derived(const json& x, const std::string& where, const JsonReader& m) {
  for (const char* key : {"gbps", "gkeys_per_s", "pct_peak"})
    m.opt_num(x, key, where, NumberRange::non_negative());
  for (const char* key : {"step_speedup", "cumulative_speedup", "vs_cub"})
    m.opt_num(x, key, where, NumberRange::positive());
}

// The row's status, and its "ok" where the file has one: both must say the same.
RowStatus parse_status(const json& x, const std::string& where, const JsonReader& m) {
  const std::string status = m.str(x, "status", where);
  const std::optional<RowStatus> parsed_status = parse_row_status(status);
  if (!parsed_status) m.fail(fmt::format("{}'s status '{}' is unknown", where, status));
  if (const std::optional<bool> ok = m.opt_bool(x, "ok", where);
      ok && *ok != (*parsed_status == RowStatus::ok))
    m.fail(fmt::format("{}'s \"ok\" is {} but its status is '{}'", where, *ok, status));
  return *parsed_status;
}

// A sort row's order, values, bit range and count's place (render_json's "sort" object; a report
// from before the count's place has its counts on the host).
void parse_sort(const json& x, const std::string& where, const JsonReader& m, Operation& op) {
  const json& sort = m.at(x, "sort", where);
  if (!sort.is_object()) m.fail(fmt::format("{}'s \"sort\" is not an object", where));
  const std::string in = where + "'s sort";
  const std::string order = m.str(sort, "order", in);
  const std::string values = m.str(sort, "values", in);
  const std::string bits = m.str(sort, "bits", in);
  // Absent in reports from before the count's place; present, it must name one.
  const std::string count = m.find(sort, "count", in) ? m.str(sort, "count", in) : "host";
  const auto parsed_order = parse_sort_order(order);
  const auto parsed_bits =
      bits == "all" ? std::optional<BitRange>(BitRange{}) : parse_bit_range(bits);
  const auto parsed_values = parse_sort_values(values);
  if (!parsed_order || !parsed_values || !parsed_bits || (count != "host" && count != "device"))
    m.fail(fmt::format(
        "{} is not an order (asc, desc), values (none, u32, u64), bits (all, B:E) and count (host, "
        "device)",
        in));
  op.order = *parsed_order;
  op.values = *parsed_values;
  op.bits = *parsed_bits;
  op.count_on_device = count == "device";
}

// A histogram row's bins, range, counters and count's place (render_json's "histogram" object),
// each as the tool's flags take it.
void parse_histogram(const json& x, const std::string& where, const JsonReader& m, Operation& op) {
  const json& h = m.at(x, "histogram", where);
  if (!h.is_object()) m.fail(fmt::format("{}'s \"histogram\" is not an object", where));
  const std::string in = where + "'s histogram";
  const json& bins = m.at(h, "bins", in);
  const auto range = parse_histogram_range(m.str(h, "range", in));
  const auto counters = parse_histogram_counts(m.str(h, "counters", in));
  const std::string count = m.str(h, "count", in);
  if (!bins.is_number_unsigned() || bins.get<std::uint64_t>() < 1 ||
      bins.get<std::uint64_t>() > kMaxHistogramBins || !range || !counters ||
      (count != "host" && count != "device"))
    m.fail(
        fmt::format("{} is not bins (1 to {}), a range (LO:HI), counters (u32, u64) and a "
                    "count (host, device)",
                    in, kMaxHistogramBins));
  op.levels = {.bins = bins.get<std::uint32_t>(),
               .lower = range->first,
               .upper = range->second,
               .counts = *counters};
  op.count_on_device = count == "device";
}

// Error(usage) where a row carries a field its primitive has no use for with a value: a sort's
// "op" or "scan", another primitive's "sort" or "histogram" (render_json writes each as null).
void check_unused(const json& x, const std::string& where, const JsonReader& m, Primitive p,
                  std::initializer_list<const char*> keys) {
  for (const char* key : keys)
    if (const json* v = m.find(x, key, where); v && !v->is_null())
      m.fail(fmt::format("{} is a {} row, whose \"{}\" is null, not {}", where, to_string(p), key,
                         v->dump(-1, ' ', true, json::error_handler_t::replace)));
}

// A row's operation (its primitive and dtype read): a reduce's op, a scan's kind and op, a sort's
// order, values, bit range (within the key's bits, spelled as canonical_bits does) and count.
void parse_operation(const json& x, const std::string& where, const JsonReader& m, ResultRow& row) {
  Operation& op = row.operation;
  if (op.primitive == Primitive::sort) {
    check_unused(x, where, m, op.primitive, {"op", "scan", "histogram"});
    parse_sort(x, where, m, op);
    const BitRange bits = effective_bits(op.bits, row.dtype);
    if (bits.end > 8 * size_of(row.dtype))
      m.fail(fmt::format("{}'s sort bits {}:{} are not within the {} bits of its {} keys", where,
                         bits.begin, bits.end, 8 * size_of(row.dtype), to_string(row.dtype)));
    op.bits = canonical_bits(op.bits, row.dtype);
    return;
  }
  if (op.primitive == Primitive::histogram) {
    check_unused(x, where, m, op.primitive, {"op", "scan", "sort"});
    parse_histogram(x, where, m, op);
    return;
  }
  check_unused(x, where, m, op.primitive, {"sort", "histogram"});
  op.op = parsed(m, x, "op", where, parse_op_arg);
  if (op.primitive == Primitive::scan) op.scan = parsed(m, x, "scan", where, parse_scan_kind_arg);
}

// Result `i` of the file, whose backend must be one of the file's `devices`.
ResultRow parse_row(const json& x, std::size_t i, const JsonReader& m,
                    const std::vector<DeviceRecord>& devices) {
  const std::string where = fmt::format("result {}", i);
  ResultRow row;
  row.backend = m.str(x, "backend", where);
  if (std::none_of(devices.begin(), devices.end(),
                   [&](const DeviceRecord& d) { return d.backend == row.backend; }))
    m.fail(fmt::format("{}'s backend '{}' is not among the file's devices", where, row.backend));
  row.variant = m.str(x, "variant", where);
  row.operation.primitive = parsed(m, x, "primitive", where, parse_primitive_arg);
  row.dtype = parsed(m, x, "dtype", where, parse_dtype_arg);
  parse_operation(x, where, m, row);
  m.at(x, "n", where);
  row.n = *m.opt_count(x, "n", where, kMaxRowElements);
  row.mode = x.contains("mode") ? parsed(m, x, "mode", where, parse_timing_mode) : TimingMode::cold;
  row.status = parse_status(x, where, m);
  row.reason = m.opt_str(x, "reason", where);
  if (row.measured()) parse_times(x, where, m, row);
  check_derived(x, where, m);
  row.compiled = compiled_from_json(x, m, where);  // schema 4
  return row;
}

// "schema_version": 1 when absent (reports written before it existed); refused when newer than
// this build reads, since its fields may mean something else.
int schema_of(const json& j, const JsonReader& m) {
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
  const JsonReader m(flag, path);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    m.fail("is empty, not a compare report");
  const json j = m.parse(text);
  if (!j.is_object()) m.fail("not a compare report (expected a JSON object)");
  SavedReport saved{path, schema_of(j, m), {}};
  if (j.contains("baseline") && !j.contains("results"))
    m.fail("a diff, not a compare report (give the reports it compared)");
  const json* devices = m.opt_array(j, "devices", "the report");
  const json* results = m.opt_array(j, "results", "the report");
  if (!devices) m.fail("the report has no \"devices\"");
  if (!results) m.fail("the report has no \"results\"");
  CompareReport& r = saved.data;
  r.version = m.opt_str(j, "xreduce_version", "the report");
  r.command = m.opt_str(j, "command", "the report");
  r.commit = m.opt_str(j, "commit", "the report");
  for (std::size_t i = 0; i < devices->size(); ++i)
    r.devices.push_back(parse_device((*devices)[i], i, m, r.devices));
  for (std::size_t i = 0; i < results->size(); ++i)
    r.rows.push_back(parse_row((*results)[i], i, m, r.devices));
  return saved;
}

SavedReport read_saved_report(const std::string& path, std::string_view flag) {
  const std::string text = read_bounded(path, kMaxReportBytes, flag);
  return parse_saved_report(text, path, flag);
}

}  // namespace xr::app
