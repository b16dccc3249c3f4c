#include "report.hpp"

#include "report/format.hpp"

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

// ---- formatting ------------------------------------------------------------------------------

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

// The seed 000 table of one backend at one point, plus % of peak and the CUB ratio when known.
Table ladder_table(const AnalyzedReport& ar, const Ladder& ladder) {
  bool any_peak = false, any_cub = false;
  for (RowIndex i : ladder.rows) {
    any_peak |= ar.metrics(i).pct_peak.has_value();
    any_cub |= ar.metrics(i).vs_cub.has_value();
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
  for (RowIndex i : ladder.rows) {
    const ResultRow* r = &ar.row(i);
    const RowMetrics& m = ar.metrics(i);
    std::vector<Table::Cell> cells;
    if (r->measured()) {
      cells = {{r->variant},           {format_ms(r->ms.median)}, {format_ms(r->ms.min)},
               {format_ms(r->ms.max)}, {fmt_x(m.step_speedup)},   {fmt_x(m.cumulative_speedup)},
               {fmt_gbps(m.gbps)}};
    } else {
      cells = {{r->variant, Table::Tone::dim}, {}, {}, {}, {}, {}, {}};
    }
    if (any_peak) cells.push_back(pct_cell(*r, m));
    if (any_cub) cells.push_back({r->measured() ? fmt_x(m.vs_cub) : ""});
    cells.push_back(check_cell(*r));
    t.add_row(std::move(cells));
  }
  return t;
}

Table side_by_side_table(const AnalyzedReport& ar, const std::vector<SideBySide>& xs) {
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
               {format_ms(ar.row(x.cuda).ms.median)},
               {format_ms(ar.row(x.vulkan).ms.median)},
               {fmt_ratio(x.ratio)},
               {fmt_gbps(ar.metrics(x.cuda).gbps)},
               {fmt_gbps(ar.metrics(x.vulkan).gbps)}});
  return t;
}

Table best_table(const AnalyzedReport& ar, const SectionSizes& s) {
  Table t;
  using A = Table::Align;
  t.add_column("n", A::right);
  for (const auto& d : ar.report.devices) {
    t.add_column(d.backend + " best", A::left);
    t.add_column("ms", A::right);
    t.add_column("GB/s", A::right);
  }
  for (std::uint64_t n : s.sizes) {
    std::vector<Table::Cell> cells{{format_count(n)}};
    for (const auto& d : ar.report.devices) {
      if (const Best* x = ar.analysis.best(s.sec, n, d.backend))
        cells.insert(cells.end(), {{ar.row(x->row).variant},
                                   {format_ms(ar.row(x->row).ms.median)},
                                   {fmt_gbps(ar.metrics(x->row).gbps)}});
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

std::string same_gpu_text(const SameGpu& g) {
  if (g.same)
    return fmt::format("same GPU: the cuda and vulkan devices share UUID {}", g.cuda_uuid);
  return fmt::format(
      "WARNING: cuda and vulkan measured DIFFERENT devices (cuda UUID {}, vulkan UUID {}); "
      "the side-by-side ratios compare two GPUs",
      g.cuda_uuid.empty() ? "?" : g.cuda_uuid, g.vulkan_uuid.empty() ? "?" : g.vulkan_uuid);
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
json share_json(const LinkShare& s) {
  return s.share ? json(*s.share) : json(nullptr);
}

json transfers_json(const std::optional<TransferTable>& t,
                    const std::vector<TransferShares>& shares) {
  if (!t) return nullptr;
  json rows = json::array();
  for (std::size_t i = 0; i < t->rows.size(); ++i) {
    const TransferRow& row = t->rows[i];
    rows.push_back({{"bytes", row.bytes},
                    {"upload_gbps", row.upload_gbps},
                    {"upload_over_link", share_json(shares[i].upload)},
                    {"readback_gbps", row.readback_gbps},
                    {"readback_over_link", share_json(shares[i].readback)},
                    {"samples", row.samples}});
  }
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

// Above this many sizes the per-size ladders give way to one GB/s-by-n matrix per backend, with
// the full ladder at the largest size only (every number is still in the JSON and CSV exports).
constexpr std::size_t kMaxLadderSizes = 4;

// `largest`: the backend's ladder at the section's largest size, whose variants are the rows.
Table matrix_table(const AnalyzedReport& ar, const SectionSizes& s, const Ladder& largest) {
  Table t;
  t.add_column("variant", Table::Align::left);
  for (std::uint64_t n : s.sizes) t.add_column(format_count(n), Table::Align::right);
  for (RowIndex first : largest.rows) {
    const std::string& variant = ar.row(first).variant;
    std::vector<Table::Cell> cells{{variant}};
    for (std::uint64_t n : s.sizes) {
      const auto i = ar.analysis.find_row(s.sec, n, largest.backend, variant, ar.report);
      if (!i || !ar.row(*i).measured())
        cells.push_back({"-", Table::Tone::dim});
      else
        cells.push_back({fmt_gbps(ar.metrics(*i).gbps), ar.row(*i).status == RowStatus::ok
                                                            ? Table::Tone::plain
                                                            : Table::Tone::bad});
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
                                      : Table::Cell{fmt_ratio(it->ratio)});
    }
    t.add_row(std::move(cells));
  }
  return t;
}

// xreduce's best on a GPU against each library at each size; "speedup" is the best library's time
// over xreduce's (at least 1: xreduce is as fast as the fastest library there).
Table libraries_table(const AnalyzedReport& ar, const std::vector<VersusLibraries>& vs) {
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
    const ResultRow& ours = ar.row(v.ours);
    std::vector<Table::Cell> cells{
        {format_count(v.n)}, {ours.backend + " " + ours.variant}, {format_ms(ours.ms.median)}};
    for (const auto& name : names) {
      auto it = std::find_if(v.libs.begin(), v.libs.end(),
                             [&](const auto& l) { return l.first == name; });
      cells.push_back(it == v.libs.end() ? Table::Cell{"-", Table::Tone::dim}
                                         : Table::Cell{format_ms(ar.row(it->second).ms.median)});
    }
    cells.push_back({v.best_library});
    cells.push_back(speedup_cell(v.speedup));
    t.add_row(std::move(cells));
  }
  return t;
}

// One line naming the results above their backend's measured peak in a section, or "".
std::string above_peak_text(const AnalyzedReport& ar, const AbovePeak& x) {
  const ResultRow& top = ar.row(x.top);
  return fmt::format(
      "{} result{} above the measured peak (marked !; highest {} {} at n = {}, {}): the "
      "probe missed this device's peak there, so its % peak is not a fraction of the "
      "hardware's{}",
      x.count, x.count > 1 ? "s" : "", top.backend, top.variant, format_count(top.n),
      fmt_pct(ar.metrics(x.top).pct_peak),
      x.sec.mode == TimingMode::batch
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
               {fmt_us(o.median_us)},
               {fmt_us(o.min_us)},
               {std::to_string(o.samples)},
               {o.note, Table::Tone::dim}});
  return t;
}

// compare --transfers for one backend: the link row (the anchor), then the backend's own path
// by size.
Table transfer_table(const TransferTable& t, const std::vector<TransferShares>& shares) {
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
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const TransferRow& row = t.rows[i];
    table.add_row({{format_bytes(static_cast<double>(row.bytes))},
                   {fmt_gbps(row.upload_gbps)},
                   share_cell(shares[i].upload),
                   {fmt_gbps(row.readback_gbps)},
                   share_cell(shares[i].readback),
                   {std::to_string(row.samples)},
                   {std::string(kTransferPath), Table::Tone::dim}});
  }
  return table;
}

// The transfer tables, after the overheads: what moving an array costs against the link.
template <class Heading, class EmitTable, class Line>
void render_transfers(const AnalyzedReport& ar, Heading heading, EmitTable table, Line line) {
  for (std::size_t i = 0; i < ar.report.devices.size(); ++i)
    if (const DeviceRecord& d = ar.report.devices[i]; d.transfers) {
      heading(fmt::format("transfers · {} · {}", d.backend, d.info.name));
      table(transfer_table(*d.transfers, ar.analysis.transfer_shares[i]));
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
void render_body(const AnalyzedReport& ar, Heading heading, EmitTable table, Line line) {
  const Analysis& a = ar.analysis;
  for (const SectionSizes& s : a.sections) {
    const Section& sec = s.sec;
    const auto& ns = s.sizes;
    const bool matrix = ns.size() > kMaxLadderSizes;
    const std::string what = section_what(sec);
    if (matrix) {
      for (const auto& d : ar.report.devices) {
        const Ladder* largest = a.ladder(sec, ns.back(), d.backend);
        if (!largest) continue;
        heading(fmt::format("{} · GB/s by n · {}", d.backend, what));
        table(matrix_table(ar, s, *largest));
      }
      bool any = std::any_of(a.side_by_side.begin(), a.side_by_side.end(),
                             [&](const SideBySide& x) { return x.sec == sec; });
      if (any) {
        heading(fmt::format("cuda vs vulkan · vulkan/cuda time ratio by n · {}", what));
        table(ratio_matrix(a.side_by_side, sec, ns));
      }
    }
    const std::vector<std::uint64_t> ladder_sizes =
        matrix ? std::vector<std::uint64_t>{ns.back()} : ns;
    for (std::uint64_t n : ladder_sizes) {
      for (const auto& d : ar.report.devices) {
        const Ladder* ladder = a.ladder(sec, n, d.backend);
        if (!ladder) continue;
        heading(fmt::format("{} · {}", d.backend, section_title(sec, n)));
        table(ladder_table(ar, *ladder));
      }
      std::vector<SideBySide> here;
      for (const auto& x : a.side_by_side)
        if (x.sec == sec && x.n == n) here.push_back(x);
      if (!here.empty()) {
        heading(fmt::format("cuda vs vulkan · {}", section_title(sec, n)));
        table(side_by_side_table(ar, here));
      }
    }
    if (ns.size() > 1 || ar.report.devices.size() > 1) {
      heading(fmt::format("best per size · {}", what));
      table(best_table(ar, s));
    }
    std::vector<VersusLibraries> here;
    for (auto& v : a.versus_libraries)
      if (v.sec == sec) here.push_back(v);
    if (!here.empty()) {
      heading(fmt::format("xreduce vs the libraries · {}", what));
      table(libraries_table(ar, here));
    }
    for (const auto& x : a.crossovers)
      if (x.sec == sec) line(crossover_text(x, ar.report));
    for (const auto& x : a.above_peak)
      if (x.sec == sec) line(above_peak_text(ar, x));
  }
}

}  // namespace

std::string render_text(const AnalyzedReport& ar, const Style& st) {
  const CompareReport& r = ar.report;
  std::string out = st.bold("xreduce compare") + " · " + config_line(r) + "\n";
  for (const auto& d : r.devices) out += fmt::format("  {:<7} {}\n", d.backend, device_line(d));
  if (const auto& g = ar.analysis.same_gpu) {
    std::string s = same_gpu_text(*g);
    out += "  " + (g->same ? st.good(s) : st.bad(s)) + "\n";
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
      ar, [&](const std::string& h) { out += fmt::format("\n{}\n", st.bold(h)); },
      [&](const Table& t) { out += t.text(st); },
      [&](const std::string& l) { out += st.dim(fmt::format("  note: {}", l)) + "\n"; });
  render_body(
      ar, [&](const std::string& h) { out += fmt::format("\n{}\n", st.bold(h)); },
      [&](const Table& t) { out += t.text(st); },
      [&](const std::string& l) { out += fmt::format("  {}\n", l); });
  return out;
}

std::string render_markdown(const AnalyzedReport& ar) {
  const CompareReport& r = ar.report;
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
  for (const auto& d : r.devices)
    dev.add_row({{d.backend},
                 {fmt::format("{}: {}", d.info.index, d.info.name)},
                 {d.info.api_version},
                 {d.info.driver_version},
                 {d.info.uuid},
                 {fmt_peak(d.read_peak_gbps)},
                 {fmt_peak(d.copy_peak_gbps)}});
  out += dev.markdown();
  if (has_scan(r))
    out += "\nA scan's GB/s counts bytes read + written; its % peak is against the copy peak.\n";
  if (const auto& g = ar.analysis.same_gpu)
    out += g->same ? fmt::format("\n{}\n", same_gpu_text(*g))
                   : fmt::format("\n**{}**\n", same_gpu_text(*g));
  for (const auto& [b, why] : r.skipped) out += fmt::format("\n_note: {} {}_\n", b, why);
  for (const auto& note : r.notes) out += fmt::format("\n**note: {}**\n", note);
  render_overheads(
      r, [&](const std::string& h) { out += fmt::format("\n### {}\n\n", h); },
      [&](const Table& t) { out += t.markdown(); });
  render_transfers(
      ar, [&](const std::string& h) { out += fmt::format("\n### {}\n\n", h); },
      [&](const Table& t) { out += t.markdown(); },
      [&](const std::string& l) { out += fmt::format("\n_note: {}_\n", l); });
  render_body(
      ar, [&](const std::string& h) { out += fmt::format("\n### {}\n\n", h); },
      [&](const Table& t) { out += t.markdown(); },
      [&](const std::string& l) { out += fmt::format("\n{}.\n", l); });
  return out;
}

std::string render_csv(const AnalyzedReport& ar) {
  const CompareReport& r = ar.report;
  auto field = [](const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  auto num = [](const std::optional<double>& v) { return v ? fmt_csv_number(*v) : std::string(); };
  std::map<std::string, const DeviceRecord*> dev;
  for (const auto& d : r.devices) dev[d.backend] = &d;
  std::string out =
      "backend,device,device_uuid,variant,primitive,scan,op,dtype,n,status,median_ms,min_ms,"
      "max_ms,"
      "host_median_ms,reps,rel_spread,gbps,pct_peak,step_speedup,cumulative_speedup,vs_cub,ok,"
      "timing,reason,mode,batch_calls,above_peak\n";
  for (RowIndex i = 0; i < r.rows.size(); ++i) {
    const ResultRow& row = ar.row(i);
    const RowMetrics& rm = ar.metrics(i);
    const DeviceRecord* d = dev[row.backend];
    const bool m = row.measured();
    auto mnum = [&](double v) { return m ? fmt_csv_number(v) : std::string(); };
    const bool scan = row.operation.primitive == Primitive::scan;
    out += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
        field(row.backend), field(d ? d->info.name : ""), d ? d->info.uuid : "", field(row.variant),
        to_string(row.operation.primitive), scan ? to_string(row.operation.scan) : "",
        to_string(row.operation.op), to_string(row.dtype), row.n, to_string(row.status),
        mnum(row.ms.median), mnum(row.ms.min), mnum(row.ms.max), mnum(row.host_ms.median),
        m ? std::to_string(row.ms.count) : "", mnum(row.ms.rel_spread), mnum(rm.gbps),
        num(rm.pct_peak), num(rm.step_speedup), num(rm.cumulative_speedup), num(rm.vs_cub),
        m ? (row.status == RowStatus::ok ? "true" : "false") : "", row.timing, field(row.reason),
        to_string(row.mode), row.batch_calls ? std::to_string(row.batch_calls) : "",
        m && rm.pct_peak ? (rm.above_peak ? "true" : "false") : "");
  }
  return out;
}

std::string render_json(const AnalyzedReport& ar) {
  const CompareReport& r = ar.report;
  const Analysis& a = ar.analysis;
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
  for (std::size_t i = 0; i < r.devices.size(); ++i) {
    const DeviceRecord& d = r.devices[i];
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
         {"transfers", transfers_json(d.transfers, a.transfer_shares[i])},
         {"merged_from", d.merged_from.empty() ? json(nullptr) : json(d.merged_from)}});
  }
  j["devices"] = devices;
  j["same_gpu"] = a.same_gpu ? json(a.same_gpu->same) : json(nullptr);
  json skipped = json::array();
  for (const auto& [b, why] : r.skipped) skipped.push_back({{"backend", b}, {"reason", why}});
  j["skipped"] = skipped;
  j["notes"] = r.notes;

  json results = json::array();
  for (RowIndex i = 0; i < r.rows.size(); ++i) {
    const ResultRow& row = ar.row(i);
    const RowMetrics& rm = ar.metrics(i);
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
                       {"gbps", mnum(rm.gbps)},
                       {"pct_peak", opt_json(rm.pct_peak)},
                       {"above_peak", rm.pct_peak ? json(rm.above_peak) : json(nullptr)},
                       {"step_speedup", opt_json(rm.step_speedup)},
                       {"cumulative_speedup", opt_json(rm.cumulative_speedup)},
                       {"vs_cub", opt_json(rm.vs_cub)},
                       {"ok", m ? json(row.status == RowStatus::ok) : json(nullptr)},
                       {"timing", m ? json(row.timing) : json(nullptr)},
                       {"result", m ? json(row.result) : json(nullptr)},
                       {"reference", m ? json(row.reference) : json(nullptr)},
                       {"reason", row.reason},
                       {"diagnostics", row.diagnostics}});
  }
  j["results"] = results;

  json sbs = json::array();
  for (const auto& x : a.side_by_side)
    sbs.push_back({{"primitive", to_string(x.sec.primitive())},
                   {"scan", scan_json(x.sec.operation)},
                   {"op", to_string(x.sec.operation.op)},
                   {"dtype", to_string(x.sec.dtype)},
                   {"mode", to_string(x.sec.mode)},
                   {"n", x.n},
                   {"variant", x.variant},
                   {"cuda_ms", ar.row(x.cuda).ms.median},
                   {"vulkan_ms", ar.row(x.vulkan).ms.median},
                   {"vulkan_over_cuda", x.ratio}});
  j["side_by_side"] = sbs;
  json best = json::array();
  for (const auto& b : a.bests)
    best.push_back({{"primitive", to_string(b.sec.primitive())},
                    {"scan", scan_json(b.sec.operation)},
                    {"op", to_string(b.sec.operation.op)},
                    {"dtype", to_string(b.sec.dtype)},
                    {"mode", to_string(b.sec.mode)},
                    {"n", b.n},
                    {"backend", b.backend},
                    {"variant", ar.row(b.row).variant},
                    {"median_ms", ar.row(b.row).ms.median},
                    {"gbps", ar.metrics(b.row).gbps}});
  j["best"] = best;
  json cross = json::array();
  for (const auto& x : a.crossovers)
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
  for (const auto& v : a.versus_libraries) {
    json libs = json::object();
    for (const auto& [name, row] : v.libs) libs[name] = ar.row(row).ms.median;
    vl.push_back({{"primitive", to_string(v.sec.primitive())},
                  {"scan", scan_json(v.sec.operation)},
                  {"op", to_string(v.sec.operation.op)},
                  {"dtype", to_string(v.sec.dtype)},
                  {"mode", to_string(v.sec.mode)},
                  {"n", v.n},
                  {"xreduce_backend", ar.row(v.ours).backend},
                  {"xreduce_variant", ar.row(v.ours).variant},
                  {"xreduce_ms", ar.row(v.ours).ms.median},
                  {"libraries_ms", libs},
                  {"best_library", v.best_library},
                  {"best_library_ms", ar.row(v.best_lib).ms.median},
                  {"speedup", v.speedup}});
  }
  j["versus_libraries"] = vl;
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace xr::app
