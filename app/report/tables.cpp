#include "report/tables.hpp"

#include <algorithm>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "report/compiled.hpp"
#include "report/format.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/size.hpp"

namespace xr::app {
namespace {

using Cell = Table::Cell;
using Tone = Table::Tone;
constexpr Table::Align kLeft = Table::Align::left;
constexpr Table::Align kRight = Table::Align::right;

// One line of a transfer table: the link (no share: it is the anchor) or one size of the path.
struct TransferLine {
  std::uint64_t bytes = 0;
  double upload_gbps = 0, readback_gbps = 0;
  TransferShares shares;
  int samples = 0;
  Cell path;
};

// The cell of `api`'s row beside CUDA's; "-" where it did not measure the variant there.
template <class F>
std::function<Cell(const SideBySide&)> partner_cell(const std::string& api, F cell) {
  return [api, cell](const SideBySide& x) -> Cell {
    const Partner* p = x.partner(api);
    return p ? cell(*p) : Cell{"-", Tone::dim};
  };
}

// As partner_cell, and "-" where the two rows do not both carry their compiled facts.
template <class F>
std::function<Cell(const SideBySide&)> compiled_cell(const std::string& api, F cell) {
  return partner_cell(api, [cell](const Partner& p) -> Cell {
    return p.compiled_differences ? cell(p) : Cell{"-", Tone::dim};
  });
}

// The compiled table's facts, each shown for CUDA then for each other API: header, fact.
constexpr std::pair<std::string_view, const char*> kCompiledFacts[] = {
    {"regs", "registers"}, {"smem B", "shared"}, {"occupancy", "occupancy"}};

// The facts that differ from CUDA's, each named once; "none".
Cell differs(const Partner& p) {
  std::string s;
  for (const FactDifference& d : *p.compiled_differences)
    if (s.find(d.fact) == std::string::npos) s += (s.empty() ? "" : ", ") + d.fact;
  return {s.empty() ? "none" : s};
}

}  // namespace

Table devices_table(const std::vector<DeviceRecord>& devices,
                    const std::vector<DeviceClock>& clocks) {
  using D = DeviceRecord;
  const auto clock_of = [&](const D& d) -> const DeviceClock& {
    return clocks[static_cast<std::size_t>(&d - devices.data())];
  };
  return tabulate<D>(
      {{"backend", kLeft, [](const D& d) -> Cell { return {d.backend}; }},
       {"device", kLeft,
        [](const D& d) -> Cell { return {fmt::format("{}: {}", d.info.index, d.info.name)}; }},
       {"api", kLeft, [](const D& d) -> Cell { return {d.info.api_version}; }},
       {"driver", kLeft, [](const D& d) -> Cell { return {d.info.driver_version}; }},
       {"uuid", kLeft, [](const D& d) -> Cell { return {d.info.uuid}; }},
       {"read peak GB/s", kRight, [](const D& d) -> Cell { return {fmt_peak(d.read_peak_gbps)}; }},
       {"copy peak GB/s", kRight, [](const D& d) -> Cell { return {fmt_peak(d.copy_peak_gbps)}; }},
       {"SM clock", kLeft, [&](const D& d) -> Cell { return {clock_words(d, clock_of(d))}; }}},
      devices);
}

Table overhead_table(const std::vector<Overhead>& overheads) {
  using O = Overhead;
  return tabulate<O>(
      {{"cost", kLeft, [](const O& o) -> Cell { return {o.what}; }},
       {"path", kLeft, [](const O& o) -> Cell { return {o.path}; }},
       {"median us", kRight, [](const O& o) -> Cell { return {fmt_us(o.median_us)}; }},
       {"min us", kRight, [](const O& o) -> Cell { return {fmt_us(o.min_us)}; }},
       {"samples", kRight, [](const O& o) -> Cell { return {std::to_string(o.samples)}; }},
       {"what it holds", kLeft,
        [](const O& o) -> Cell {
          return {o.note, Tone::dim};
        }}},
      overheads);
}

Table transfer_table(const TransferTable& t, const std::vector<TransferShares>& shares) {
  const LinkRate& link = t.link;
  std::vector<TransferLine> lines{{link.bytes,
                                   link.upload_gbps,
                                   link.readback_gbps,
                                   {},
                                   link.samples,
                                   {"link: " + link.how, Tone::dim}}};
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const TransferRow& row = t.rows[i];
    lines.push_back({row.bytes,
                     row.upload_gbps,
                     row.readback_gbps,
                     shares[i],
                     row.samples,
                     {std::string(kTransferPath), Tone::dim}});
  }
  using L = TransferLine;
  return tabulate<L>(
      {{"size", kRight,
        [](const L& l) -> Cell { return {format_bytes(static_cast<double>(l.bytes))}; }},
       {"upload GB/s", kRight, [](const L& l) -> Cell { return {fmt_gbps(l.upload_gbps)}; }},
       {"upload / link", kRight, [](const L& l) { return share_cell(l.shares.upload); }},
       {"readback GB/s", kRight, [](const L& l) -> Cell { return {fmt_gbps(l.readback_gbps)}; }},
       {"readback / link", kRight, [](const L& l) { return share_cell(l.shares.readback); }},
       {"samples", kRight, [](const L& l) -> Cell { return {std::to_string(l.samples)}; }},
       {"path", kLeft, [](const L& l) { return l.path; }}},
      lines);
}

Table ladder_table(const AnalyzedReport& ar, const Ladder& ladder) {
  bool any_peak = false, any_cub = false, any_sort = false;
  for (RowIndex i : ladder.rows) {
    any_peak |= ar.metrics(i).pct_peak.has_value();
    any_cub |= ar.metrics(i).vs_cub.has_value();
    any_sort |= ar.metrics(i).gkeys_per_s.has_value();
  }
  // A row the variant could not run shows its name (dimmed) and its reason only.
  auto measured = [&ar](auto cell) {
    return [&ar, cell](RowIndex i) { return ar.row(i).measured() ? cell(i) : Cell{}; };
  };
  auto ms = [&ar](double Stats::*field) {
    return [&ar, field](RowIndex i) -> Cell { return {format_ms(ar.row(i).ms.*field)}; };
  };
  std::vector<Column<RowIndex>> columns{
      {"variant", kLeft,
       [&ar](RowIndex i) -> Cell {
         return {ar.row(i).variant, ar.row(i).measured() ? Tone::plain : Tone::dim};
       }},
      {"median ms", kRight, measured(ms(&Stats::median))},
      {"min ms", kRight, measured(ms(&Stats::min))},
      {"max ms", kRight, measured(ms(&Stats::max))},
      {"step", kRight,
       measured([&ar](RowIndex i) -> Cell { return {fmt_x(ar.metrics(i).step_speedup)}; })},
      {"cumulative", kRight,
       measured([&ar](RowIndex i) -> Cell { return {fmt_x(ar.metrics(i).cumulative_speedup)}; })},
      {"GB/s", kRight,
       measured([&ar](RowIndex i) -> Cell { return {fmt_gbps(ar.metrics(i).gbps)}; })}};
  if (any_sort)
    columns.push_back({"GKeys/s", kRight, measured([&ar](RowIndex i) -> Cell {
                         return {fmt_gkeys(ar.metrics(i).gkeys_per_s)};
                       })});
  if (any_peak)
    columns.push_back(
        {"% peak", kRight, [&ar](RowIndex i) { return pct_cell(ar.row(i), ar.metrics(i)); }});
  if (any_cub)
    columns.push_back({"vs cub", kRight, measured([&ar](RowIndex i) -> Cell {
                         return {fmt_x(ar.metrics(i).vs_cub)};
                       })});
  columns.push_back({"check", kLeft, [&ar](RowIndex i) { return check_cell(ar.row(i)); }});
  return tabulate(columns, ladder.rows);
}

Table side_by_side_table(const AnalyzedReport& ar, const std::vector<SideBySide>& here) {
  using X = SideBySide;
  const std::vector<std::string> apis = partner_apis(here);
  std::vector<Column<X>> columns{{"variant", kLeft, [](const X& x) -> Cell { return {x.variant}; }},
                                 {"cuda ms", kRight, [&ar](const X& x) -> Cell {
                                    return {format_ms(ar.row(x.cuda).ms.median)};
                                  }}};
  for (const std::string& api : apis) {
    columns.push_back({api + " ms", kRight, partner_cell(api, [&ar](const Partner& p) -> Cell {
                         return {format_ms(ar.row(p.row).ms.median)};
                       })});
    columns.push_back({api + "/cuda", kRight, partner_cell(api, [](const Partner& p) -> Cell {
                         return {fmt_ratio(p.ratio)};
                       })});
  }
  columns.push_back({"cuda GB/s", kRight,
                     [&ar](const X& x) -> Cell { return {fmt_gbps(ar.metrics(x.cuda).gbps)}; }});
  for (const std::string& api : apis)
    columns.push_back({api + " GB/s", kRight, partner_cell(api, [&ar](const Partner& p) -> Cell {
                         return {fmt_gbps(ar.metrics(p.row).gbps)};
                       })});
  return tabulate(columns, here);
}

Table compiled_table(const AnalyzedReport& ar, const std::vector<SideBySide>& here) {
  using X = SideBySide;
  std::vector<X> known;  // the variants with compiled facts on CUDA and another API
  for (const X& x : here)
    if (std::any_of(x.partners.begin(), x.partners.end(),
                    [](const Partner& p) { return p.compiled_differences.has_value(); }))
      known.push_back(x);
  const std::vector<std::string> apis = partner_apis(known, true);
  std::vector<Column<X>> columns{
      {"variant", kLeft, [](const X& x) -> Cell { return {x.variant}; }}};
  for (const std::string& api : apis)
    columns.push_back({api + "/cuda", kRight, partner_cell(api, [](const Partner& p) -> Cell {
                         return {fmt_ratio(p.ratio)};
                       })});
  for (const auto& [label, name] : kCompiledFacts) {
    const char* fact = name;  // a lambda captures a variable, not a binding (Clang < 16)
    columns.push_back({fmt::format("cuda {}", label), kRight, [&ar, fact](const X& x) -> Cell {
                         return {per_pass(*ar.row(x.cuda).compiled, fact)};
                       }});
    for (const std::string& api : apis)
      columns.push_back({fmt::format("{} {}", api, label), kRight,
                         compiled_cell(api, [&ar, fact](const Partner& p) -> Cell {
                           return {per_pass(*ar.row(p.row).compiled, fact)};
                         })});
  }
  for (const std::string& api : apis)
    columns.push_back(
        {apis.size() == 1 ? "differs" : api + " differs", kLeft, compiled_cell(api, differs)});
  return tabulate(columns, known);
}

Table best_table(const AnalyzedReport& ar, const SectionSizes& s) {
  using N = std::uint64_t;
  std::vector<Column<N>> columns{{"n", kRight, [](N n) -> Cell { return {format_count(n)}; }}};
  for (const auto& d : ar.report.devices) {
    const std::string b = d.backend;
    auto best = [&ar, &s, b](N n) { return ar.analysis.best(s.sec, n, b); };
    columns.push_back({b + " best", kLeft, [&ar, best](N n) -> Cell {
                         const Best* x = best(n);
                         return {x ? ar.row(x->row).variant : "-"};
                       }});
    columns.push_back({"ms", kRight, [&ar, best](N n) -> Cell {
                         const Best* x = best(n);
                         return x ? Cell{format_ms(ar.row(x->row).ms.median)} : Cell{};
                       }});
    columns.push_back({"GB/s", kRight, [&ar, best](N n) -> Cell {
                         const Best* x = best(n);
                         return x ? Cell{fmt_gbps(ar.metrics(x->row).gbps)} : Cell{};
                       }});
  }
  return tabulate(columns, s.sizes);
}

Table libraries_table(const AnalyzedReport& ar, const std::vector<VersusLibraries>& here) {
  std::vector<std::string> names;  // every library of the section, in report order
  for (const auto& v : here)
    for (const auto& [name, row] : v.libs)
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  using V = VersusLibraries;
  std::vector<Column<V>> columns{
      {"n", kRight, [](const V& v) -> Cell { return {format_count(v.n)}; }},
      {"xreduce best", kLeft,
       [&ar](const V& v) -> Cell {
         return {ar.row(v.ours).backend + " " + ar.row(v.ours).variant};
       }},
      {"ms", kRight, [&ar](const V& v) -> Cell { return {format_ms(ar.row(v.ours).ms.median)}; }}};
  for (const auto& name : names)
    columns.push_back({name + " ms", kRight, [&ar, name](const V& v) -> Cell {
                         for (const auto& [lib, row] : v.libs)
                           if (lib == name) return {format_ms(ar.row(row).ms.median)};
                         return {"-", Tone::dim};
                       }});
  columns.push_back({"best library", kLeft, [](const V& v) -> Cell { return {v.best_library}; }});
  columns.push_back({"speedup", kRight, [](const V& v) { return speedup_cell(v.speedup); }});
  return tabulate(columns, here);
}

Table matrix_table(const AnalyzedReport& ar, const SectionSizes& s, const Ladder& largest) {
  std::vector<Column<RowIndex>> columns{
      {"variant", kLeft, [&ar](RowIndex i) -> Cell { return {ar.row(i).variant}; }}};
  for (std::uint64_t n : s.sizes)
    columns.push_back({format_count(n), kRight, [&ar, &s, &largest, n](RowIndex first) -> Cell {
                         const auto i =
                             ar.find_row(s.sec, n, largest.backend, ar.row(first).variant);
                         if (!i || !ar.row(*i).measured()) return {"-", Tone::dim};
                         return {fmt_gbps(ar.metrics(*i).gbps),
                                 ar.row(*i).status == RowStatus::ok ? Tone::plain : Tone::bad};
                       }});
  return tabulate(columns, largest.rows);
}

Table ratio_matrix(const AnalyzedReport& ar, const SectionSizes& s, const std::string& api) {
  const std::vector<SideBySide>& sbs = ar.analysis.side_by_side;
  std::vector<std::string> ids;  // the variants on both, in ladder order
  for (const auto& x : sbs)
    if (x.sec == s.sec && x.partner(api) &&
        std::find(ids.begin(), ids.end(), x.variant) == ids.end())
      ids.push_back(x.variant);
  std::stable_sort(ids.begin(), ids.end(), [&](const std::string& a, const std::string& b) {
    return ladder_position(s.sec.primitive(), a) < ladder_position(s.sec.primitive(), b);
  });
  using Id = std::string;
  std::vector<Column<Id>> columns{{"variant", kLeft, [](const Id& id) -> Cell { return {id}; }}};
  for (std::uint64_t n : s.sizes)
    columns.push_back({format_count(n), kRight, [&sbs, &s, &api, n](const Id& id) -> Cell {
                         for (const auto& x : sbs)
                           if (const Partner* p = x.partner(api);
                               p && x.sec == s.sec && x.n == n && x.variant == id)
                             return {fmt_ratio(p->ratio)};
                         return {"-", Tone::dim};
                       }});
  return tabulate(columns, ids);
}

}  // namespace xr::app
