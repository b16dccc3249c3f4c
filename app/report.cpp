#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "xreduce/catalog.hpp"
#include "xreduce/error.hpp"
#include "xreduce/primitive.hpp"
#include "xreduce/size.hpp"

namespace xr::app {
namespace {

using json = nlohmann::ordered_json;

// ---- grouping --------------------------------------------------------------------------------

// One table of the report: one operation (primitive, scan kind, op) and dtype (a "section"), one
// size, one backend. Reduce sections come first, then scan's, each by dtype and op.
struct Section {
  Operation operation;  // a reduce's scan kind is always inclusive (see section_of)
  DType dtype;
  TimingMode mode = TimingMode::cold;
  Primitive primitive() const { return operation.primitive; }
  std::tuple<Primitive, ScanKind, DType, Op, TimingMode> key() const {
    return {operation.primitive, operation.scan, dtype, operation.op, mode};
  }
  bool operator<(const Section& o) const { return key() < o.key(); }
  bool operator==(const Section& o) const { return key() == o.key(); }
};

Section section_of(const ResultRow& row) {
  Section sec{row.operation, row.dtype, row.mode};
  if (sec.operation.primitive == Primitive::reduce) sec.operation.scan = ScanKind::inclusive;
  return sec;
}

std::vector<Section> sections(const CompareReport& r) {
  std::set<Section> s;
  for (const auto& row : r.rows) s.insert(section_of(row));
  return {s.begin(), s.end()};
}

std::vector<std::uint64_t> sizes(const CompareReport& r, Section sec) {
  std::set<std::uint64_t> s;
  for (const auto& row : r.rows)
    if (section_of(row) == sec) s.insert(row.n);
  return {s.begin(), s.end()};
}

std::vector<std::string> backends_in(const CompareReport& r) {
  std::vector<std::string> out;
  for (const auto& d : r.devices) out.push_back(d.backend);
  return out;
}

// The rows of one table in ladder order.
std::vector<const ResultRow*> group(const CompareReport& r, Section sec, std::uint64_t n,
                                    const std::string& backend) {
  std::vector<const ResultRow*> out;
  for (const auto& row : r.rows)
    if (section_of(row) == sec && row.n == n && row.backend == backend) out.push_back(&row);
  std::stable_sort(out.begin(), out.end(), [&](const ResultRow* a, const ResultRow* b) {
    return ladder_position(sec.primitive(), a->variant) <
           ladder_position(sec.primitive(), b->variant);
  });
  return out;
}

const ResultRow* find_row(const CompareReport& r, Section sec, std::uint64_t n,
                          const std::string& backend, const std::string& variant) {
  for (const auto& row : r.rows)
    if (section_of(row) == sec && row.n == n && row.backend == backend && row.variant == variant)
      return &row;
  return nullptr;
}

// ---- summaries -------------------------------------------------------------------------------

struct SideBySide {
  Section sec;
  std::uint64_t n;
  std::string variant;
  const ResultRow* cuda;
  const ResultRow* vulkan;
  double ratio;  // vulkan time / cuda time
};

// Every variant measured on both CUDA and Vulkan at the same point (the bridge of the ladder).
std::vector<SideBySide> side_by_side(const CompareReport& r) {
  std::vector<SideBySide> out;
  for (Section sec : sections(r))
    for (std::uint64_t n : sizes(r, sec))
      for (const ResultRow* c : group(r, sec, n, "cuda")) {
        if (!c->measured()) continue;
        const ResultRow* v = find_row(r, sec, n, "vulkan", c->variant);
        if (!v || !v->measured()) continue;
        out.push_back(
            {sec, n, c->variant, c, v, c->ms.median > 0 ? v->ms.median / c->ms.median : 0});
      }
  return out;
}

struct Best {
  Section sec;
  std::uint64_t n;
  std::string backend;
  const ResultRow* row;
};

// The fastest correct variant of each backend at each point.
std::vector<Best> best_per_size(const CompareReport& r) {
  std::vector<Best> out;
  for (Section sec : sections(r))
    for (std::uint64_t n : sizes(r, sec))
      for (const auto& b : backends_in(r)) {
        const ResultRow* best = nullptr;
        for (const ResultRow* row : group(r, sec, n, b))
          if (row->status == RowStatus::ok && (!best || row->ms.median < best->ms.median))
            best = row;
        if (best) out.push_back({sec, n, b, best});
      }
  return out;
}

const Best* best_of(const std::vector<Best>& bests, Section sec, std::uint64_t n,
                    const std::string& backend) {
  for (const auto& b : bests)
    if (b.sec == sec && b.n == n && b.backend == backend) return &b;
  return nullptr;
}

struct Crossover {
  Section sec;
  std::string backend;             // the GPU backend compared with the CPU
  std::optional<std::uint64_t> n;  // smallest size from which it stays faster; nullopt: never
  bool everywhere = false;         // faster at every measured size
  std::uint64_t cpu_until = 0;     // the largest size where the CPU is still faster
  std::uint64_t largest = 0;
};

// Where each GPU backend's best overtakes the CPU's best for good (needs two or more sizes).
std::vector<Crossover> crossovers(const CompareReport& r, const std::vector<Best>& bests) {
  std::vector<Crossover> out;
  const auto all = backends_in(r);
  if (std::find(all.begin(), all.end(), "cpu") == all.end()) return out;
  for (Section sec : sections(r)) {
    const auto ns = sizes(r, sec);
    if (ns.size() < 2) continue;
    for (const auto& b : all) {
      if (b != "cuda" && b != "vulkan") continue;  // xreduce's GPU backends, not merged peers
      std::vector<std::pair<std::uint64_t, bool>> faster;  // n, gpu faster than cpu
      for (std::uint64_t n : ns) {
        const Best* g = best_of(bests, sec, n, b);
        const Best* c = best_of(bests, sec, n, "cpu");
        if (g && c) faster.emplace_back(n, g->row->ms.median < c->row->ms.median);
      }
      if (faster.size() < 2) continue;
      Crossover x{sec, b, std::nullopt, false, 0, faster.back().first};
      std::size_t i = faster.size();
      while (i > 0 && faster[i - 1].second) --i;
      if (i < faster.size()) x.n = faster[i].first;
      x.everywhere = i == 0;
      if (i > 0) x.cpu_until = faster[i - 1].first;
      out.push_back(x);
    }
  }
  return out;
}

// The libraries a user would pick instead of xreduce: CUB (the CUDA backend's lib/*) and the
// peers merged from bench/peers.py (every backend that is not one of xreduce's).
bool is_library(const ResultRow& row) {
  return row.variant.rfind("lib/", 0) == 0 ||
         (row.backend != "cpu" && row.backend != "cuda" && row.backend != "vulkan");
}
bool is_ours_on_gpu(const ResultRow& row) {
  return (row.backend == "cuda" || row.backend == "vulkan") && !is_library(row);
}
std::string library_name(const ResultRow& row) {
  return row.variant.rfind("lib/", 0) == 0 ? row.variant.substr(4) : row.variant;
}

struct VersusLibraries {
  Section sec;
  std::uint64_t n;
  const ResultRow* ours;                                       // xreduce's fastest on a GPU
  std::vector<std::pair<std::string, const ResultRow*>> libs;  // each library's row, in order
  const ResultRow* best_lib;
  double speedup;  // best library time / xreduce's best time: >= 1 means xreduce is as fast
};

// At each point with xreduce GPU rows and library rows, all correct: the best of each side.
std::vector<VersusLibraries> versus_libraries(const CompareReport& r) {
  std::vector<std::string> names;  // libraries in report order
  for (const auto& row : r.rows)
    if (is_library(row) && std::find(names.begin(), names.end(), library_name(row)) == names.end())
      names.push_back(library_name(row));
  std::vector<VersusLibraries> out;
  for (Section sec : sections(r))
    for (std::uint64_t n : sizes(r, sec)) {
      VersusLibraries v{sec, n, nullptr, {}, nullptr, 0};
      for (const auto& row : r.rows) {
        if (section_of(row) != sec || row.n != n || row.status != RowStatus::ok ||
            row.ms.median <= 0)
          continue;
        if (is_ours_on_gpu(row) && (!v.ours || row.ms.median < v.ours->ms.median)) v.ours = &row;
        if (is_library(row)) {
          v.libs.emplace_back(library_name(row), &row);
          if (!v.best_lib || row.ms.median < v.best_lib->ms.median) v.best_lib = &row;
        }
      }
      if (!v.ours || !v.best_lib) continue;
      std::stable_sort(v.libs.begin(), v.libs.end(), [&](const auto& a, const auto& b) {
        return std::find(names.begin(), names.end(), a.first) <
               std::find(names.begin(), names.end(), b.first);
      });
      v.speedup = v.best_lib->ms.median / v.ours->ms.median;
      out.push_back(std::move(v));
    }
  return out;
}

// ---- formatting ------------------------------------------------------------------------------

std::string fmt_x(const std::optional<double>& v) {
  return v ? fmt::format("{:.2f}x", *v) : std::string();
}
std::string fmt_gbps(double v) {
  if (v >= 100) return fmt::format("{:.0f}", v);
  if (v >= 10) return fmt::format("{:.1f}", v);
  return fmt::format("{:.2f}", v);
}
std::string fmt_pct(const std::optional<double>& v) {
  return v ? fmt::format("{:.1f}%", *v) : std::string();
}
// "% peak" of a row: flagged with '!' above 100 % (never silently).
Table::Cell pct_cell(const ResultRow& r) {
  if (!r.measured()) return {};
  if (r.above_peak) return {fmt_pct(r.pct_peak) + " !", Table::Tone::warn};
  return {fmt_pct(r.pct_peak)};
}
std::string timing_words(const CompareReport& r) {
  if (r.include_transfer) return "end to end (upload + run + readback, host-timed)";
  std::string modes;
  for (TimingMode m : r.modes) modes += (modes.empty() ? "" : " and ") + std::string(to_string(m));
  return fmt::format(
      "device time by each API's own timer, {} mode{} (cold: one call, no launch "
      "gap in the interval; batch: calls back to back, time per call)",
      modes.empty() ? "cold" : modes, r.modes.size() > 1 ? "s" : "");
}
// "sum i32 · cold", "inclusive scan sum i32 · batch".
std::string section_what(Section sec) {
  return fmt::format("{} {} · {}", sec.operation.describe(), to_string(sec.dtype),
                     to_string(sec.mode));
}
std::string section_title(Section sec, std::uint64_t n) {
  return fmt::format("{} · n = {}", section_what(sec), format_n(n));
}
bool has_scan(const CompareReport& r) {
  return std::find(r.primitives.begin(), r.primitives.end(), Primitive::scan) != r.primitives.end();
}

std::string check_text(const ResultRow& row) {
  switch (row.status) {
    case RowStatus::ok:
      return "ok";
    case RowStatus::failed:
      return "FAIL: " + one_line(row.reason);
    case RowStatus::unsupported:
      return "unsupported: " + one_line(row.reason);
  }
  return "";
}

// The seed 000 table of one backend at one point, plus % of peak and the CUB ratio when known.
Table ladder_table(const std::vector<const ResultRow*>& rows) {
  bool any_peak = false, any_cub = false;
  for (const ResultRow* r : rows) {
    any_peak |= r->pct_peak.has_value();
    any_cub |= r->vs_cub.has_value();
  }
  Table t;
  using A = Table::Align;
  t.add_column("variant", A::left);
  t.add_column("median ms", A::right);
  t.add_column("min ms", A::right);
  t.add_column("max ms", A::right);
  t.add_column("step", A::right);
  t.add_column("cumulative", A::right);
  t.add_column("GB/s", A::right);
  if (any_peak) t.add_column("% peak", A::right);
  if (any_cub) t.add_column("vs cub", A::right);
  t.add_column("check", A::left);
  for (const ResultRow* r : rows) {
    std::vector<Table::Cell> cells;
    if (r->measured()) {
      cells = {{r->variant},           {format_ms(r->ms.median)}, {format_ms(r->ms.min)},
               {format_ms(r->ms.max)}, {fmt_x(r->step_speedup)},  {fmt_x(r->cumulative_speedup)},
               {fmt_gbps(r->gbps)}};
    } else {
      cells = {{r->variant, Table::Tone::dim}, {}, {}, {}, {}, {}, {}};
    }
    if (any_peak) cells.push_back(pct_cell(*r));
    if (any_cub) cells.push_back({r->measured() ? fmt_x(r->vs_cub) : ""});
    const Table::Tone tone = r->status == RowStatus::ok       ? Table::Tone::good
                             : r->status == RowStatus::failed ? Table::Tone::bad
                                                              : Table::Tone::warn;
    cells.push_back({check_text(*r), tone});
    t.add_row(std::move(cells));
  }
  return t;
}

Table side_by_side_table(const std::vector<SideBySide>& xs) {
  Table t;
  using A = Table::Align;
  t.add_column("variant", A::left);
  t.add_column("cuda ms", A::right);
  t.add_column("vulkan ms", A::right);
  t.add_column("vulkan/cuda", A::right);
  t.add_column("cuda GB/s", A::right);
  t.add_column("vulkan GB/s", A::right);
  for (const auto& x : xs)
    t.add_row({{x.variant},
               {format_ms(x.cuda->ms.median)},
               {format_ms(x.vulkan->ms.median)},
               {fmt::format("{:.2f}", x.ratio)},
               {fmt_gbps(x.cuda->gbps)},
               {fmt_gbps(x.vulkan->gbps)}});
  return t;
}

Table best_table(const CompareReport& r, Section sec, const std::vector<Best>& bests) {
  Table t;
  using A = Table::Align;
  t.add_column("n", A::right);
  const auto bs = backends_in(r);
  for (const auto& b : bs) {
    t.add_column(b + " best", A::left);
    t.add_column("ms", A::right);
    t.add_column("GB/s", A::right);
  }
  for (std::uint64_t n : sizes(r, sec)) {
    std::vector<Table::Cell> cells{{format_count(n)}};
    for (const auto& b : bs) {
      if (const Best* x = best_of(bests, sec, n, b))
        cells.insert(cells.end(),
                     {{x->row->variant}, {format_ms(x->row->ms.median)}, {fmt_gbps(x->row->gbps)}});
      else
        cells.insert(cells.end(), {{"-"}, {}, {}});
    }
    t.add_row(std::move(cells));
  }
  return t;
}

std::string crossover_text(const Crossover& x, const CompareReport& r) {
  std::string s;
  if (x.everywhere)
    s = fmt::format("{} is faster than cpu at every measured size", x.backend);
  else if (!x.n)
    s = fmt::format("cpu stays faster than {} up to the largest size measured ({})", x.backend,
                    format_count(x.largest));
  else
    s = fmt::format("{} overtakes cpu at n = {} (cpu is faster at {} and below)", x.backend,
                    format_count(*x.n), format_count(x.cpu_until));
  if (!r.include_transfer)
    s += "; kernel time only, --include-transfer gives the end-to-end crossover";
  return s;
}

std::string device_line(const DeviceRecord& d) {
  std::string s = fmt::format("device {}: {}", d.info.index, d.info.name);
  if (!d.info.api_version.empty()) s += " · " + d.info.api_version;
  if (!d.info.driver_version.empty() && d.info.driver_version != "-")
    s += " · driver " + d.info.driver_version;
  if (!d.info.uuid.empty()) s += " · uuid " + d.info.uuid;
  if (d.info.memory_bytes) s += " · " + format_bytes(static_cast<double>(d.info.memory_bytes));
  s += d.read_peak_gbps ? fmt::format(" · read peak {} GB/s", fmt_gbps(*d.read_peak_gbps))
                        : std::string(" · read peak not measured");
  if (d.copy_peak_gbps) s += fmt::format(" · copy peak {} GB/s", fmt_gbps(*d.copy_peak_gbps));
  if (!d.merged_from.empty()) s += " · merged from " + d.merged_from;
  return s;
}

std::string same_gpu_text(const CompareReport& r) {
  if (!r.same_gpu) return {};
  std::string cu, vk;
  for (const auto& d : r.devices) {
    if (d.backend == "cuda") cu = d.info.uuid;
    if (d.backend == "vulkan") vk = d.info.uuid;
  }
  if (*r.same_gpu) return fmt::format("same GPU: the cuda and vulkan devices share UUID {}", cu);
  return fmt::format(
      "WARNING: cuda and vulkan measured DIFFERENT devices (cuda UUID {}, vulkan UUID {}); "
      "the side-by-side ratios compare two GPUs",
      cu.empty() ? "?" : cu, vk.empty() ? "?" : vk);
}

std::string config_line(const CompareReport& r) {
  return fmt::format("{}, {} L2 in cold mode, {}, seed {} ({} data)", timing_words(r),
                     r.cold ? "flushed" : "hot", r.stats, r.seed, r.dist);
}

json opt_json(const std::optional<double>& v) {
  return v ? json(*v) : json(nullptr);
}

json modes_json(const std::vector<TimingMode>& modes) {
  json a = json::array();
  for (TimingMode m : modes) a.push_back(to_string(m));
  return a;
}

json overheads_json(const std::vector<Overhead>& os) {
  json a = json::array();
  for (const auto& o : os)
    a.push_back({{"what", o.what},
                 {"path", o.path},
                 {"median_us", o.median_us},
                 {"min_us", o.min_us},
                 {"samples", o.samples},
                 {"note", o.note}});
  return a;
}

// What the rows of a transfer table time (measure_transfers), in words.
constexpr std::string_view kTransferPath = "DeviceArray::write / read_into, host clock";

// The user path's share of the host link in one direction; null without a link rate.
json share_json(double gbps, double link_gbps) {
  return link_gbps > 0 ? json(gbps / link_gbps) : json(nullptr);
}

json transfers_json(const std::optional<TransferTable>& t) {
  if (!t) return nullptr;
  json rows = json::array();
  for (const auto& row : t->rows)
    rows.push_back({{"bytes", row.bytes},
                    {"upload_gbps", row.upload_gbps},
                    {"upload_over_link", share_json(row.upload_gbps, t->link.upload_gbps)},
                    {"readback_gbps", row.readback_gbps},
                    {"readback_over_link", share_json(row.readback_gbps, t->link.readback_gbps)},
                    {"samples", row.samples}});
  return {{"link",
           {{"bytes", t->link.bytes},
            {"upload_gbps", t->link.upload_gbps},
            {"readback_gbps", t->link.readback_gbps},
            {"samples", t->link.samples},
            {"how", t->link.how}}},
          {"path", kTransferPath},
          {"rows", rows},
          {"notes", t->notes}};
}

// A scan's kind; null for reduce.
json scan_json(const Operation& op) {
  return op.primitive == Primitive::scan ? json(to_string(op.scan)) : json(nullptr);
}

}  // namespace

namespace {

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

}  // namespace

void merge_json(CompareReport& r, const std::string& text, const std::string& path) {
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
  std::vector<std::string> added;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const std::string where = fmt::format("device {}", i);
    DeviceRecord d;
    d.backend = m.str(devices[i], "backend", where);
    for (const auto& have : r.devices)
      if (have.backend == d.backend)
        m.fail(fmt::format("backend '{}' is already in this report", printable(d.backend)));
    d.info.name = m.str(devices[i], "name", where);
    d.info.uuid = m.str(devices[i], "uuid", where);
    if (devices[i].contains("api_version") && devices[i]["api_version"].is_string())
      d.info.api_version = devices[i]["api_version"].get<std::string>();
    if (devices[i].contains("driver_version") && devices[i]["driver_version"].is_string())
      d.info.driver_version = devices[i]["driver_version"].get<std::string>();
    d.read_peak_gbps = m.opt_num(devices[i], "read_peak_gbps");
    d.copy_peak_gbps = m.opt_num(devices[i], "copy_peak_gbps");
    d.merged_from = path;
    added.push_back(d.backend);
    r.devices.push_back(std::move(d));
  }
  for (std::size_t i = 0; i < results.size(); ++i) {
    const json& x = results[i];
    const std::string where = fmt::format("result {}", i);
    ResultRow row;
    row.backend = m.str(x, "backend", where);
    if (std::find(added.begin(), added.end(), row.backend) == added.end())
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
    row.mode =
        x.contains("mode") ? m.parsed(x, "mode", where, parse_timing_mode) : TimingMode::cold;
    const std::string status = m.str(x, "status", where);
    const std::optional<RowStatus> parsed_status = parse_row_status(status);
    if (!parsed_status)
      m.fail(fmt::format("{}'s status '{}' is unknown", where, printable(status)));
    row.status = *parsed_status;
    if (x.contains("reason") && x["reason"].is_string())
      row.reason = x["reason"].get<std::string>();
    if (row.measured()) {
      row.ms.median = m.num(x, "median_ms", where);
      row.ms.min = m.opt_num(x, "min_ms").value_or(row.ms.median);
      row.ms.max = m.opt_num(x, "max_ms").value_or(row.ms.median);
      row.ms.rel_spread = m.opt_num(x, "rel_spread").value_or(0);
      row.ms.count = static_cast<int>(m.opt_num(x, "reps").value_or(0));
      row.host_ms.median = m.opt_num(x, "host_median_ms").value_or(0);
      row.batch_calls = static_cast<int>(m.opt_num(x, "batch_calls").value_or(0));
      row.gbps = gbps(bytes_moved(row.operation.primitive, row.n, row.dtype), row.ms.median);
      row.timing = x.contains("timing") && x["timing"].is_string() ? x["timing"].get<std::string>()
                                                                   : std::string("device");
      for (auto [key, field] : {std::pair{"result", &row.result}, {"reference", &row.reference}})
        if (x.contains(key) && x[key].is_string()) *field = x[key].get<std::string>();
    }
    if (std::find(r.modes.begin(), r.modes.end(), row.mode) == r.modes.end())
      r.notes.push_back(
          fmt::format("{} rows of {} were measured in {} mode, which this run did "
                      "not measure",
                      printable(row.backend), printable(path), to_string(row.mode)));
    r.rows.push_back(std::move(row));
  }
  // The same GPU, proven as for CUDA and Vulkan: by UUID.
  std::string cuda_uuid;
  for (const auto& d : r.devices)
    if (d.backend == "cuda") cuda_uuid = d.info.uuid;
  for (const auto& d : r.devices) {
    if (d.merged_from != path || cuda_uuid.empty()) continue;
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

void derive(CompareReport& r) {
  std::map<std::string, const DeviceRecord*> device;
  for (const auto& d : r.devices) device[d.backend] = &d;
  for (Section sec : sections(r))
    for (std::uint64_t n : sizes(r, sec)) {
      const ResultRow* cub = find_row(r, sec, n, "cuda", "lib/cub");
      if (cub && !cub->measured()) cub = nullptr;
      for (const auto& b : backends_in(r)) {
        const ResultRow* first = nullptr;
        const ResultRow* prev = nullptr;
        for (const ResultRow* cr : group(r, sec, n, b)) {
          auto* row = const_cast<ResultRow*>(cr);
          if (!row->measured() || row->ms.median <= 0) continue;
          if (!first) first = row;
          row->cumulative_speedup = first->ms.median / row->ms.median;
          if (prev) row->step_speedup = prev->ms.median / row->ms.median;
          prev = row;
          const std::optional<double> peak =
              device[b] ? device[b]->peak_for(sec.primitive()) : std::nullopt;
          if (peak && *peak > 0 && row->timing != "end-to-end") {
            row->pct_peak = 100.0 * row->gbps / *peak;
            row->above_peak = *row->pct_peak > 100.0;
          }
          // The vendor anchor is a GPU yardstick; beside the CPU it says nothing useful.
          if (cub && cub->ms.median > 0 && b != "cpu")
            row->vs_cub = cub->ms.median / row->ms.median;
        }
      }
    }
  const DeviceRecord* cu = nullptr;
  const DeviceRecord* vk = nullptr;
  for (const auto& d : r.devices) {
    if (d.backend == "cuda") cu = &d;
    if (d.backend == "vulkan") vk = &d;
  }
  if (cu && vk) r.same_gpu = !cu->info.uuid.empty() && cu->info.uuid == vk->info.uuid;
}

namespace {

// Above this many sizes the per-size ladders give way to one GB/s-by-n matrix per backend, with
// the full ladder at the largest size only (every number is still in the JSON and CSV exports).
constexpr std::size_t kMaxLadderSizes = 4;

Table matrix_table(const CompareReport& r, Section sec, const std::string& backend,
                   const std::vector<std::uint64_t>& ns) {
  Table t;
  t.add_column("variant", Table::Align::left);
  for (std::uint64_t n : ns) t.add_column(format_count(n), Table::Align::right);
  for (const ResultRow* first : group(r, sec, ns.back(), backend)) {
    std::vector<Table::Cell> cells{{first->variant}};
    for (std::uint64_t n : ns) {
      const ResultRow* row = find_row(r, sec, n, backend, first->variant);
      if (!row || !row->measured())
        cells.push_back({"-", Table::Tone::dim});
      else
        cells.push_back({fmt_gbps(row->gbps),
                         row->status == RowStatus::ok ? Table::Tone::plain : Table::Tone::bad});
    }
    t.add_row(std::move(cells));
  }
  return t;
}

Table ratio_matrix(const std::vector<SideBySide>& sbs, Section sec,
                   const std::vector<std::uint64_t>& ns) {
  Table t;
  t.add_column("variant", Table::Align::left);
  for (std::uint64_t n : ns) t.add_column(format_count(n), Table::Align::right);
  std::vector<std::string> ids;
  for (const auto& x : sbs)
    if (x.sec == sec && std::find(ids.begin(), ids.end(), x.variant) == ids.end())
      ids.push_back(x.variant);
  std::stable_sort(ids.begin(), ids.end(), [&](const std::string& a, const std::string& b) {
    return ladder_position(sec.primitive(), a) < ladder_position(sec.primitive(), b);
  });
  for (const auto& id : ids) {
    std::vector<Table::Cell> cells{{id}};
    for (std::uint64_t n : ns) {
      auto it = std::find_if(sbs.begin(), sbs.end(), [&](const SideBySide& x) {
        return x.sec == sec && x.n == n && x.variant == id;
      });
      cells.push_back(it == sbs.end() ? Table::Cell{"-", Table::Tone::dim}
                                      : Table::Cell{fmt::format("{:.2f}", it->ratio)});
    }
    t.add_row(std::move(cells));
  }
  return t;
}

// xreduce's best on a GPU against each library at each size; "speedup" is the best library's time
// over xreduce's (at least 1: xreduce is as fast as the fastest library there).
Table libraries_table(const std::vector<VersusLibraries>& vs) {
  std::vector<std::string> names;
  for (const auto& v : vs)
    for (const auto& [name, row] : v.libs)
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  Table t;
  using A = Table::Align;
  t.add_column("n", A::right);
  t.add_column("xreduce best", A::left);
  t.add_column("ms", A::right);
  for (const auto& name : names) t.add_column(name + " ms", A::right);
  t.add_column("best library", A::left);
  t.add_column("speedup", A::right);
  for (const auto& v : vs) {
    std::vector<Table::Cell> cells{{format_count(v.n)},
                                   {v.ours->backend + " " + v.ours->variant},
                                   {format_ms(v.ours->ms.median)}};
    for (const auto& name : names) {
      auto it = std::find_if(v.libs.begin(), v.libs.end(),
                             [&](const auto& l) { return l.first == name; });
      cells.push_back(it == v.libs.end() ? Table::Cell{"-", Table::Tone::dim}
                                         : Table::Cell{format_ms(it->second->ms.median)});
    }
    cells.push_back({library_name(*v.best_lib)});
    cells.push_back({fmt::format("{:.2f}x", v.speedup),
                     v.speedup >= 1.0 ? Table::Tone::good : Table::Tone::warn});
    t.add_row(std::move(cells));
  }
  return t;
}

// One line naming the results above their backend's measured peak in a section, or "".
std::string above_peak_text(const CompareReport& r, Section sec) {
  int count = 0;
  const ResultRow* top = nullptr;
  for (const auto& row : r.rows)
    if (section_of(row) == sec && row.above_peak) {
      ++count;
      if (!top || *row.pct_peak > *top->pct_peak) top = &row;
    }
  if (!top) return {};
  return fmt::format(
      "{} result{} above the measured peak (marked !; highest {} {} at n = {}, {:.1f}%): the "
      "probe missed this device's peak there, so its % peak is not a fraction of the "
      "hardware's{}",
      count, count > 1 ? "s" : "", top->backend, top->variant, format_count(top->n), *top->pct_peak,
      sec.mode == TimingMode::batch
          ? " (batch mode is hot: back-to-back calls find part of the array still in the L2, "
            "which the cold probe flushes)"
          : "");
}

// The costs around the kernels (Backend::measure_overheads), one table per backend.
Table overhead_table(const std::vector<Overhead>& os) {
  Table t;
  using A = Table::Align;
  t.add_column("cost", A::left);
  t.add_column("path", A::left);
  t.add_column("median us", A::right);
  t.add_column("min us", A::right);
  t.add_column("samples", A::right);
  t.add_column("what it holds", A::left);
  for (const auto& o : os)
    t.add_row({{o.what},
               {o.path},
               {fmt::format("{:.2f}", o.median_us)},
               {fmt::format("{:.2f}", o.min_us)},
               {std::to_string(o.samples)},
               {o.note, Table::Tone::dim}});
  return t;
}

// Issue 11's bar: uploads and read-backs of 64 MiB and more reach 0.8x the host link. Shares
// from that size on are marked against it; smaller transfers carry fixed costs it does not ask
// to hide.
constexpr double kLinkShareTarget = 0.8;
constexpr std::uint64_t kLinkShareFrom = std::uint64_t{64} << 20;

Table::Cell share_cell(double gbps, double link_gbps, std::uint64_t bytes) {
  if (!(link_gbps > 0)) return {};
  const double share = gbps / link_gbps;
  const Table::Tone tone = bytes < kLinkShareFrom      ? Table::Tone::plain
                           : share >= kLinkShareTarget ? Table::Tone::good
                                                       : Table::Tone::warn;
  return {fmt::format("{:.2f}x", share), tone};
}

// compare --transfers for one backend: the link row (the anchor), then the backend's own path
// by size.
Table transfer_table(const TransferTable& t) {
  Table table;
  using A = Table::Align;
  table.add_column("size", A::right);
  table.add_column("upload GB/s", A::right);
  table.add_column("upload / link", A::right);
  table.add_column("readback GB/s", A::right);
  table.add_column("readback / link", A::right);
  table.add_column("samples", A::right);
  table.add_column("path", A::left);
  const LinkRate& link = t.link;
  table.add_row({{format_bytes(static_cast<double>(link.bytes))},
                 {fmt_gbps(link.upload_gbps)},
                 {},
                 {fmt_gbps(link.readback_gbps)},
                 {},
                 {std::to_string(link.samples)},
                 {"link: " + link.how, Table::Tone::dim}});
  for (const auto& row : t.rows)
    table.add_row({{format_bytes(static_cast<double>(row.bytes))},
                   {fmt_gbps(row.upload_gbps)},
                   share_cell(row.upload_gbps, link.upload_gbps, row.bytes),
                   {fmt_gbps(row.readback_gbps)},
                   share_cell(row.readback_gbps, link.readback_gbps, row.bytes),
                   {std::to_string(row.samples)},
                   {std::string(kTransferPath), Table::Tone::dim}});
  return table;
}

// The transfer tables, after the overheads: what moving an array costs against the link.
template <class Heading, class EmitTable, class Line>
void render_transfers(const CompareReport& r, Heading heading, EmitTable table, Line line) {
  for (const auto& d : r.devices)
    if (d.transfers) {
      heading(fmt::format("transfers · {} · {}", d.backend, d.info.name));
      table(transfer_table(*d.transfers));
      for (const auto& note : d.transfers->notes) line(note);
    }
}

// The overhead tables, before the ladders: the floor every small-n number stands on.
template <class Heading, class EmitTable>
void render_overheads(const CompareReport& r, Heading heading, EmitTable table) {
  for (const auto& d : r.devices)
    if (!d.overheads.empty()) {
      heading(fmt::format("overheads · {} · {}", d.backend, d.info.name));
      table(overhead_table(d.overheads));
    }
}

// The body shared by text and markdown: headings, tables and lines, in report order.
template <class Heading, class EmitTable, class Line>
void render_body(const CompareReport& r, Heading heading, EmitTable table, Line line) {
  const auto sbs = side_by_side(r);
  const auto bests = best_per_size(r);
  const auto vls = versus_libraries(r);
  for (Section sec : sections(r)) {
    const auto ns = sizes(r, sec);
    const bool matrix = ns.size() > kMaxLadderSizes;
    const std::string what = section_what(sec);
    if (matrix) {
      for (const auto& b : backends_in(r)) {
        if (group(r, sec, ns.back(), b).empty()) continue;
        heading(fmt::format("{} · GB/s by n · {}", b, what));
        table(matrix_table(r, sec, b, ns));
      }
      bool any =
          std::any_of(sbs.begin(), sbs.end(), [&](const SideBySide& x) { return x.sec == sec; });
      if (any) {
        heading(fmt::format("cuda vs vulkan · vulkan/cuda time ratio by n · {}", what));
        table(ratio_matrix(sbs, sec, ns));
      }
    }
    const std::vector<std::uint64_t> ladder_sizes =
        matrix ? std::vector<std::uint64_t>{ns.back()} : ns;
    for (std::uint64_t n : ladder_sizes) {
      for (const auto& b : backends_in(r)) {
        auto rows = group(r, sec, n, b);
        if (rows.empty()) continue;
        heading(fmt::format("{} · {}", b, section_title(sec, n)));
        table(ladder_table(rows));
      }
      std::vector<SideBySide> here;
      for (const auto& x : sbs)
        if (x.sec == sec && x.n == n) here.push_back(x);
      if (!here.empty()) {
        heading(fmt::format("cuda vs vulkan · {}", section_title(sec, n)));
        table(side_by_side_table(here));
      }
    }
    if (ns.size() > 1 || r.devices.size() > 1) {
      heading(fmt::format("best per size · {}", what));
      table(best_table(r, sec, bests));
    }
    std::vector<VersusLibraries> here;
    for (auto& v : vls)
      if (v.sec == sec) here.push_back(v);
    if (!here.empty()) {
      heading(fmt::format("xreduce vs the libraries · {}", what));
      table(libraries_table(here));
    }
    for (const auto& x : crossovers(r, bests))
      if (x.sec == sec) line(crossover_text(x, r));
    if (std::string s = above_peak_text(r, sec); !s.empty()) line(s);
  }
}

}  // namespace

std::string render_text(const CompareReport& r, const Style& st) {
  std::string out = st.bold("xreduce compare") + " · " + config_line(r) + "\n";
  for (const auto& d : r.devices) out += fmt::format("  {:<7} {}\n", d.backend, device_line(d));
  if (r.same_gpu) {
    std::string s = same_gpu_text(r);
    out += "  " + (*r.same_gpu ? st.good(s) : st.bad(s)) + "\n";
  }
  for (const auto& [b, why] : r.skipped) out += st.dim(fmt::format("  note: {} {}", b, why)) + "\n";
  for (const auto& note : r.notes) out += st.warn("  note: " + note) + "\n";
  if (has_scan(r))
    out += st.dim(
               "  note: a scan's GB/s counts bytes read + written, its % peak is against the "
               "copy peak") +
           "\n";
  render_overheads(
      r, [&](const std::string& h) { out += fmt::format("\n{}\n", st.bold(h)); },
      [&](const Table& t) { out += t.text(st); });
  render_transfers(
      r, [&](const std::string& h) { out += fmt::format("\n{}\n", st.bold(h)); },
      [&](const Table& t) { out += t.text(st); },
      [&](const std::string& l) { out += st.dim(fmt::format("  note: {}", l)) + "\n"; });
  render_body(
      r, [&](const std::string& h) { out += fmt::format("\n{}\n", st.bold(h)); },
      [&](const Table& t) { out += t.text(st); },
      [&](const std::string& l) { out += fmt::format("  {}\n", l); });
  return out;
}

std::string render_markdown(const CompareReport& r) {
  std::string out = "# xreduce compare\n\n";
  out += fmt::format("`{}`\n\n{}.\n\n", r.command, config_line(r));
  Table dev;
  dev.add_column("backend", Table::Align::left);
  dev.add_column("device", Table::Align::left);
  dev.add_column("api", Table::Align::left);
  dev.add_column("driver", Table::Align::left);
  dev.add_column("uuid", Table::Align::left);
  dev.add_column("read peak GB/s", Table::Align::right);
  dev.add_column("copy peak GB/s", Table::Align::right);
  auto peak = [](const std::optional<double>& p) {
    return p ? fmt_gbps(*p) : std::string("not measured");
  };
  for (const auto& d : r.devices)
    dev.add_row({{d.backend},
                 {fmt::format("{}: {}", d.info.index, d.info.name)},
                 {d.info.api_version},
                 {d.info.driver_version},
                 {d.info.uuid},
                 {peak(d.read_peak_gbps)},
                 {peak(d.copy_peak_gbps)}});
  out += dev.markdown();
  if (has_scan(r))
    out += "\nA scan's GB/s counts bytes read + written; its % peak is against the copy peak.\n";
  if (r.same_gpu)
    out += *r.same_gpu ? fmt::format("\n{}\n", same_gpu_text(r))
                       : fmt::format("\n**{}**\n", same_gpu_text(r));
  for (const auto& [b, why] : r.skipped) out += fmt::format("\n_note: {} {}_\n", b, why);
  for (const auto& note : r.notes) out += fmt::format("\n**note: {}**\n", note);
  render_overheads(
      r, [&](const std::string& h) { out += fmt::format("\n### {}\n\n", h); },
      [&](const Table& t) { out += t.markdown(); });
  render_transfers(
      r, [&](const std::string& h) { out += fmt::format("\n### {}\n\n", h); },
      [&](const Table& t) { out += t.markdown(); },
      [&](const std::string& l) { out += fmt::format("\n_note: {}_\n", l); });
  render_body(
      r, [&](const std::string& h) { out += fmt::format("\n### {}\n\n", h); },
      [&](const Table& t) { out += t.markdown(); },
      [&](const std::string& l) { out += fmt::format("\n{}.\n", l); });
  return out;
}

std::string render_csv(const CompareReport& r) {
  auto field = [](const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  auto num = [](const std::optional<double>& v) {
    return v ? fmt::format("{:.6g}", *v) : std::string();
  };
  std::map<std::string, const DeviceRecord*> dev;
  for (const auto& d : r.devices) dev[d.backend] = &d;
  std::string out =
      "backend,device,device_uuid,variant,primitive,scan,op,dtype,n,status,median_ms,min_ms,"
      "max_ms,"
      "host_median_ms,reps,rel_spread,gbps,pct_peak,step_speedup,cumulative_speedup,vs_cub,ok,"
      "timing,reason,mode,batch_calls,above_peak\n";
  for (const auto& row : r.rows) {
    const DeviceRecord* d = dev[row.backend];
    const bool m = row.measured();
    auto mnum = [&](double v) { return m ? fmt::format("{:.6g}", v) : std::string(); };
    const bool scan = row.operation.primitive == Primitive::scan;
    out += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
        field(row.backend), field(d ? d->info.name : ""), d ? d->info.uuid : "", field(row.variant),
        to_string(row.operation.primitive), scan ? to_string(row.operation.scan) : "",
        to_string(row.operation.op), to_string(row.dtype), row.n, to_string(row.status),
        mnum(row.ms.median), mnum(row.ms.min), mnum(row.ms.max), mnum(row.host_ms.median),
        m ? std::to_string(row.ms.count) : "", mnum(row.ms.rel_spread), mnum(row.gbps),
        num(row.pct_peak), num(row.step_speedup), num(row.cumulative_speedup), num(row.vs_cub),
        m ? (row.status == RowStatus::ok ? "true" : "false") : "", row.timing, field(row.reason),
        to_string(row.mode), row.batch_calls ? std::to_string(row.batch_calls) : "",
        m && row.pct_peak ? (row.above_peak ? "true" : "false") : "");
  }
  return out;
}

std::string render_json(const CompareReport& r) {
  json j;
  j["xreduce_version"] = r.version;
  j["command"] = r.command;
  j["config"] = {{"timing", r.include_transfer ? "end-to-end" : "device"},
                 {"cache", r.cold ? "cold" : "hot"},
                 {"statistics", r.stats},
                 {"include_transfer", r.include_transfer},
                 {"seed", r.seed},
                 {"dist", r.dist},
                 {"modes", modes_json(r.modes)}};
  json devices = json::array();
  for (const auto& d : r.devices) {
    json props = json::object();
    for (const auto& [k, v] : d.info.properties) props[k] = v;
    devices.push_back(
        {{"backend", d.backend},
         {"index", d.info.index},
         {"name", d.info.name},
         {"uuid", d.info.uuid},
         {"api_version", d.info.api_version},
         {"driver_version", d.info.driver_version},
         {"memory_bytes", d.info.memory_bytes},
         {"read_peak_gbps", opt_json(d.read_peak_gbps)},
         {"copy_peak_gbps", opt_json(d.copy_peak_gbps)},
         {"properties", props},
         {"overheads", overheads_json(d.overheads)},
         {"transfers", transfers_json(d.transfers)},
         {"merged_from", d.merged_from.empty() ? json(nullptr) : json(d.merged_from)}});
  }
  j["devices"] = devices;
  j["same_gpu"] = r.same_gpu ? json(*r.same_gpu) : json(nullptr);
  json skipped = json::array();
  for (const auto& [b, why] : r.skipped) skipped.push_back({{"backend", b}, {"reason", why}});
  j["skipped"] = skipped;
  j["notes"] = r.notes;

  json results = json::array();
  for (const auto& row : r.rows) {
    const bool m = row.measured();
    auto mnum = [&](double v) { return m ? json(v) : json(nullptr); };
    results.push_back({{"backend", row.backend},
                       {"variant", row.variant},
                       {"primitive", to_string(row.operation.primitive)},
                       {"scan", scan_json(row.operation)},
                       {"op", to_string(row.operation.op)},
                       {"dtype", to_string(row.dtype)},
                       {"n", row.n},
                       {"mode", to_string(row.mode)},
                       {"batch_calls", row.batch_calls ? json(row.batch_calls) : json(nullptr)},
                       {"status", to_string(row.status)},
                       {"median_ms", mnum(row.ms.median)},
                       {"min_ms", mnum(row.ms.min)},
                       {"max_ms", mnum(row.ms.max)},
                       {"host_median_ms", mnum(row.host_ms.median)},
                       {"reps", m ? json(row.ms.count) : json(nullptr)},
                       {"rel_spread", mnum(row.ms.rel_spread)},
                       {"gbps", mnum(row.gbps)},
                       {"pct_peak", opt_json(row.pct_peak)},
                       {"above_peak", row.pct_peak ? json(row.above_peak) : json(nullptr)},
                       {"step_speedup", opt_json(row.step_speedup)},
                       {"cumulative_speedup", opt_json(row.cumulative_speedup)},
                       {"vs_cub", opt_json(row.vs_cub)},
                       {"ok", m ? json(row.status == RowStatus::ok) : json(nullptr)},
                       {"timing", m ? json(row.timing) : json(nullptr)},
                       {"result", m ? json(row.result) : json(nullptr)},
                       {"reference", m ? json(row.reference) : json(nullptr)},
                       {"reason", row.reason},
                       {"diagnostics", row.diagnostics}});
  }
  j["results"] = results;

  json sbs = json::array();
  for (const auto& x : side_by_side(r))
    sbs.push_back({{"primitive", to_string(x.sec.primitive())},
                   {"scan", scan_json(x.sec.operation)},
                   {"op", to_string(x.sec.operation.op)},
                   {"dtype", to_string(x.sec.dtype)},
                   {"mode", to_string(x.sec.mode)},
                   {"n", x.n},
                   {"variant", x.variant},
                   {"cuda_ms", x.cuda->ms.median},
                   {"vulkan_ms", x.vulkan->ms.median},
                   {"vulkan_over_cuda", x.ratio}});
  j["side_by_side"] = sbs;
  const auto bests = best_per_size(r);
  json best = json::array();
  for (const auto& b : bests)
    best.push_back({{"primitive", to_string(b.sec.primitive())},
                    {"scan", scan_json(b.sec.operation)},
                    {"op", to_string(b.sec.operation.op)},
                    {"dtype", to_string(b.sec.dtype)},
                    {"mode", to_string(b.sec.mode)},
                    {"n", b.n},
                    {"backend", b.backend},
                    {"variant", b.row->variant},
                    {"median_ms", b.row->ms.median},
                    {"gbps", b.row->gbps}});
  j["best"] = best;
  json cross = json::array();
  for (const auto& x : crossovers(r, bests))
    cross.push_back({{"primitive", to_string(x.sec.primitive())},
                     {"scan", scan_json(x.sec.operation)},
                     {"op", to_string(x.sec.operation.op)},
                     {"dtype", to_string(x.sec.dtype)},
                     {"mode", to_string(x.sec.mode)},
                     {"backend", x.backend},
                     {"versus", "cpu"},
                     {"n", x.n ? json(*x.n) : json(nullptr)},
                     {"faster_everywhere", x.everywhere},
                     {"timing", r.include_transfer ? "end-to-end" : "device"}});
  j["crossovers"] = cross;
  json vl = json::array();
  for (const auto& v : versus_libraries(r)) {
    json libs = json::object();
    for (const auto& [name, row] : v.libs) libs[name] = row->ms.median;
    vl.push_back({{"primitive", to_string(v.sec.primitive())},
                  {"scan", scan_json(v.sec.operation)},
                  {"op", to_string(v.sec.operation.op)},
                  {"dtype", to_string(v.sec.dtype)},
                  {"mode", to_string(v.sec.mode)},
                  {"n", v.n},
                  {"xreduce_backend", v.ours->backend},
                  {"xreduce_variant", v.ours->variant},
                  {"xreduce_ms", v.ours->ms.median},
                  {"libraries_ms", libs},
                  {"best_library", library_name(*v.best_lib)},
                  {"best_library_ms", v.best_lib->ms.median},
                  {"speedup", v.speedup}});
  }
  j["versus_libraries"] = vl;
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace xr::app
