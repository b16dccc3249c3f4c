#include "report/inspect.hpp"

#include <climits>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "report/format.hpp"
#include "report/json_opt.hpp"
#include "report/operation_json.hpp"

namespace xr::app {
namespace {

using json = nlohmann::ordered_json;

constexpr const char* kNotReported = "-";

template <class T>
std::string opt(const std::optional<T>& v) {
  return v ? fmt::format("{}", *v) : kNotReported;
}

// Elements per thread of a pass at the call's n: n / (grid x block), what the variant's
// items-per-thread and grid stride come to.
std::string per_thread(std::uint64_t n, const CompiledPass& p) {
  const double threads = double(p.grid) * p.block;
  return threads > 0 ? fmt::format("{:.1f}", double(n) / threads) : kNotReported;
}

std::string occupancy_text(const std::optional<Occupancy>& o) {
  if (!o) return kNotReported;
  return fmt::format("{} x {}w = {:.0f}%", o->blocks_per_sm,
                     o->warps_per_sm / std::max(1, o->blocks_per_sm), 100 * o->fraction);
}

std::string row_title(const InspectRow& r) {
  return fmt::format("{} {} {}", r.operation.describe(), to_string(r.dtype), format_n(r.n));
}

Table pass_table(const InspectReport& r, std::string_view backend) {
  Table t;
  using A = Table::Align;
  for (auto [h, a] : {std::pair{"variant", A::left},
                      {"call", A::left},
                      {"pass", A::right},
                      {"block", A::right},
                      {"grid", A::right},
                      {"n/thread", A::right},
                      {"regs", A::right},
                      {"smem B", A::right},
                      {"dyn B", A::right},
                      {"local B", A::right},
                      {"stack B", A::right},
                      {"binary B", A::right},
                      {"blocks/SM x warps", A::right},
                      {"binds", A::left},
                      {"API blocks/SM", A::right},
                      {"kernel", A::left}})
    t.add_column(h, a);
  for (const InspectRow& row : r.rows) {
    if (row.backend != backend) continue;
    if (row.passes.empty()) {
      t.add_row({{row.variant},
                 {row_title(row)},
                 {""},
                 {""},
                 {""},
                 {""},
                 {""},
                 {""},
                 {""},
                 {""},
                 {""},
                 {""},
                 {""},
                 {""},
                 {""},
                 {row.note, Table::Tone::dim}});
      continue;
    }
    for (std::size_t i = 0; i < row.passes.size(); ++i) {
      const CompiledPass& p = row.passes[i].pass;
      const auto& o = row.passes[i].occupancy;
      const bool spills = p.local_bytes && *p.local_bytes > 0;
      t.add_row({{i == 0 ? row.variant : ""},
                 {i == 0 ? row_title(row) : ""},
                 {std::to_string(i + 1)},
                 {std::to_string(p.block)},
                 {std::to_string(p.grid)},
                 {per_thread(row.n, p)},
                 {opt(p.registers)},
                 {opt(p.static_shared)},
                 {std::to_string(p.dynamic_shared)},
                 {opt(p.local_bytes), spills ? Table::Tone::warn : Table::Tone::plain},
                 {opt(p.stack_bytes)},
                 {opt(p.binary_bytes)},
                 {occupancy_text(o)},
                 {o ? binding_words(*o) : ""},
                 {opt(p.api_blocks_per_sm)},
                 {p.kernel}});
    }
  }
  return t;
}

// The backends in the order their rows come.
std::vector<std::string> backends_of(const InspectReport& r) {
  std::vector<std::string> out;
  for (const LimitsSource& l : r.limits) out.push_back(l.backend);
  return out;
}

std::string limits_line(const LimitsSource& l) {
  if (!l.limits) return "occupancy " + l.from;
  const SmLimits& s = *l.limits;
  return fmt::format(
      "occupancy against {} per SM: {} threads, {} blocks, {} registers, {} B shared memory "
      "({} B reserved per block); from {}",
      s.device, s.max_threads_per_sm, s.max_blocks_per_sm, s.registers_per_sm, s.shared_per_sm,
      s.reserved_shared_per_block, l.from);
}

// The reasons some statistics are missing, once per backend.
std::vector<std::string> not_reported(const InspectReport& r, std::string_view backend) {
  std::vector<std::string> out;
  for (const InspectRow& row : r.rows)
    for (const InspectedPass& p : row.passes)
      if (row.backend == backend && !p.pass.not_reported.empty() &&
          std::find(out.begin(), out.end(), p.pass.not_reported) == out.end())
        out.push_back(p.pass.not_reported);
  return out;
}

constexpr const char* kLegend =
    "block: threads per block (invocations per workgroup); grid: blocks (workgroups) of this call; "
    "n/thread: n / (grid x block); regs: registers per thread; smem B: the kernel's own shared "
    "memory per block; dyn B: given at launch; local B: local memory per thread (spills); "
    "blocks/SM x warps: resident blocks per SM x warps per block = resident warps of the SM's "
    "maximum; binds: the limits that bind it; API blocks/SM: the API's own occupancy answer; "
    "- : not reported";

json limit_json(int v) {
  return v == INT_MAX ? json(nullptr) : json(v);
}

json occupancy_json(const std::optional<Occupancy>& o) {
  if (!o) return nullptr;
  json b = json::array();
  for (OccupancyLimit l : o->binding) b.push_back(std::string(to_string(l)));
  return {{"blocks_per_sm", o->blocks_per_sm},
          {"warps_per_sm", o->warps_per_sm},
          {"fraction", o->fraction},
          {"binding", b},
          {"blocks_by_registers", limit_json(o->by_registers)},
          {"blocks_by_shared_memory", limit_json(o->by_shared)},
          {"blocks_by_threads", limit_json(o->by_threads)},
          {"blocks_by_block_limit", limit_json(o->by_blocks)},
          {"shared_bytes_allocated_per_block", o->shared_per_block}};
}

json pass_json(const InspectedPass& ip, std::uint64_t n) {
  const CompiledPass& p = ip.pass;
  json stats = json::array();
  for (const DriverStatistic& s : p.statistics)
    stats.push_back({{"name", s.name}, {"value", s.value}, {"description", s.description}});
  const double threads = double(p.grid) * p.block;
  return {{"kernel", p.kernel},
          {"block", p.block},
          {"grid", p.grid},
          {"elements_per_thread", threads > 0 ? json(double(n) / threads) : json(nullptr)},
          {"registers", opt_json(p.registers)},
          {"static_shared_bytes", opt_json(p.static_shared)},
          {"dynamic_shared_bytes", p.dynamic_shared},
          {"local_bytes", opt_json(p.local_bytes)},
          {"stack_bytes", opt_json(p.stack_bytes)},
          {"binary_bytes", opt_json(p.binary_bytes)},
          {"constant_bytes", opt_json(p.constant_bytes)},
          {"subgroup_size", opt_json(p.subgroup_size)},
          {"max_threads", opt_json(p.max_threads)},
          {"binary", p.binary},
          {"api_blocks_per_sm", opt_json(p.api_blocks_per_sm)},
          {"instructions", opt_json(p.instructions)},
          {"occupancy", occupancy_json(ip.occupancy)},
          {"not_reported", p.not_reported},
          {"statistics", stats}};
}

json limits_json(const LimitsSource& l) {
  json j = {{"backend", l.backend}, {"from", l.from}, {"limits", nullptr}};
  if (!l.limits) return j;
  const SmLimits& s = *l.limits;
  j["limits"] = {{"device", s.device},
                 {"warp_size", s.warp_size},
                 {"max_threads_per_sm", s.max_threads_per_sm},
                 {"max_threads_per_block", s.max_threads_per_block},
                 {"max_blocks_per_sm", s.max_blocks_per_sm},
                 {"registers_per_sm", s.registers_per_sm},
                 {"registers_per_block", s.registers_per_block},
                 {"register_alloc_unit", s.register_alloc_unit},
                 {"shared_per_sm", s.shared_per_sm},
                 {"shared_per_block", s.shared_per_block},
                 {"shared_per_block_optin", s.shared_per_block_optin},
                 {"reserved_shared_per_block", s.reserved_shared_per_block},
                 {"shared_alloc_unit", s.shared_alloc_unit}};
  return j;
}

// "tuning: <variant> <call>: <entry>" for each row of `backend` whose plan names its tuning.
std::vector<std::string> tuning_lines(const InspectReport& r, std::string_view backend) {
  std::vector<std::string> lines;
  for (const InspectRow& row : r.rows)
    if (row.backend == backend && !row.tuning.empty())
      lines.push_back(fmt::format("tuning: {} {}: {}", row.variant, row_title(row), row.tuning));
  return lines;
}

}  // namespace

std::string inspect_text(const InspectReport& r, bool color) {
  const Style st{color};
  std::string out;
  for (const LimitsSource& l : r.limits) {
    out += fmt::format("{} · compiled, one call each\n", st.bold(l.backend));
    out += "  " + limits_line(l) + "\n";
    for (const std::string& why : not_reported(r, l.backend)) out += "  " + st.dim(why) + "\n";
    out += pass_table(r, l.backend).text(st) + "\n";
    for (const std::string& line : tuning_lines(r, l.backend)) out += "  " + line + "\n";
  }
  return out + st.dim(kLegend) + "\n";
}

std::string inspect_markdown(const InspectReport& r) {
  std::string out = "# xreduce inspect: what each variant compiled into\n\n";
  for (const std::string& b : backends_of(r)) {
    const auto l = std::find_if(r.limits.begin(), r.limits.end(),
                                [&](const LimitsSource& s) { return s.backend == b; });
    out += fmt::format("## {}\n\n{}\n\n", b, limits_line(*l));
    for (const std::string& why : not_reported(r, b)) out += "*" + why + "*\n\n";
    out += pass_table(r, b).markdown() + "\n";
    for (const std::string& line : tuning_lines(r, b)) out += "- " + line + "\n";
  }
  return out + kLegend + "\n";
}

std::string inspect_csv(const InspectReport& r) {
  std::string out =
      "backend,device,variant,primitive,scan,op,dtype,n,pass,kernel,block,grid,"
      "elements_per_thread,registers,static_shared_bytes,dynamic_shared_bytes,local_bytes,"
      "stack_bytes,binary_bytes,subgroup_size,blocks_per_sm,warps_per_sm,occupancy,binding,"
      "api_blocks_per_sm,not_reported,note\n";
  for (const InspectRow& row : r.rows) {
    const std::string head =
        fmt::format("{},{},{},{},{},{},{},{}", csv_field(row.backend), csv_field(row.device),
                    csv_field(row.variant), to_string(row.operation.primitive),
                    row.operation.primitive == Primitive::scan ? to_string(row.operation.scan) : "",
                    to_string(row.operation.op), to_string(row.dtype), row.n);
    if (row.passes.empty()) out += head + ",,,,,,,,,,,,,,,,,,," + csv_field(row.note) + "\n";
    for (std::size_t i = 0; i < row.passes.size(); ++i) {
      const CompiledPass& p = row.passes[i].pass;
      const auto& o = row.passes[i].occupancy;
      const auto v = [](const auto& x) { return x ? fmt::format("{}", *x) : std::string(); };
      out += fmt::format(
          "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", head, i + 1,
          csv_field(p.kernel), p.block, p.grid,
          p.grid > 0 && p.block > 0 ? per_thread(row.n, p) : "", v(p.registers), v(p.static_shared),
          p.dynamic_shared, v(p.local_bytes), v(p.stack_bytes), v(p.binary_bytes),
          v(p.subgroup_size), o ? std::to_string(o->blocks_per_sm) : "",
          o ? std::to_string(o->warps_per_sm) : "", o ? fmt_csv_number(o->fraction) : "",
          o ? csv_field(binding_words(*o)) : "", v(p.api_blocks_per_sm), csv_field(p.not_reported),
          csv_field(row.note));
    }
  }
  return out;
}

std::string inspect_json(const InspectReport& r) {
  json limits = json::array(), rows = json::array();
  for (const LimitsSource& l : r.limits) limits.push_back(limits_json(l));
  for (const InspectRow& row : r.rows) {
    json passes = json::array();
    for (const InspectedPass& p : row.passes) passes.push_back(pass_json(p, row.n));
    rows.push_back({{"backend", row.backend},
                    {"device", row.device},
                    {"variant", row.variant},
                    {"primitive", to_string(row.operation.primitive)},
                    {"scan", scan_json(row.operation)},
                    {"sort", sort_json(row.operation)},
                    {"histogram", histogram_json(row.operation)},
                    {"op", op_json(row.operation)},
                    {"dtype", to_string(row.dtype)},
                    {"n", row.n},
                    {"note", row.note},
                    {"tuning", row.tuning},
                    {"passes", passes}});
  }
  return json{{"schema", 1}, {"limits", limits}, {"rows", rows}}.dump(2) + "\n";
}

}  // namespace xr::app
