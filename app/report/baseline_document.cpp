#include "report/baseline_document.hpp"

#include <fmt/format.h>

#include "report/format.hpp"
#include "report/tables.hpp"

namespace xr::app {

std::string run_label(const RunIdentity& run) {
  return run.path.empty() ? std::string("this run") : printable(run.path);
}

std::string row_words(const ResultRow& row) {
  return fmt::format("{} {} {} n = {}", row.backend, row.variant, section_what(section_of(row)),
                     format_n(row.n));
}

namespace {

// The two runs: which file, which build, which command.
Table runs_table(const BaselineDiff& d) {
  struct Run {
    const char* role;
    const RunIdentity* id;
  };
  const auto L = Table::Align::left;
  return tabulate<Run>(
      {{"run", L, [](const Run& r) { return Table::Cell{r.role}; }},
       {"report", L, [](const Run& r) { return Table::Cell{run_label(*r.id)}; }},
       {"xreduce", L,
        [](const Run& r) { return Table::Cell{r.id->version.empty() ? "?" : r.id->version}; }},
       {"commit", L,
        [](const Run& r) { return Table::Cell{r.id->commit.empty() ? "unknown" : r.id->commit}; }},
       {"command", L, [](const Run& r) { return Table::Cell{r.id->command}; }}},
      {{"baseline", &d.old_run}, {"new", &d.new_run}});
}

std::string rule_line(const BaselineDiff& d) {
  return fmt::format(
      "verdicts: new/old median time beyond the noise band max({:g}%, {:g} µs / time, {:g} x "
      "(spread old + spread new)) is slower or faster, within it same; spread = MAD / median of "
      "a row's samples (docs/cli.md)",
      d.rule.floor * 100, d.rule.floor_us, d.rule.scale);
}

std::string counts_line(const BaselineDiff& d) {
  return fmt::format(
      "{} rows matched: {} slower, {} same, {} faster; {} not comparable (failed or unsupported "
      "in one); {} only in the baseline, {} only in {}{}",
      d.rows.size(), d.count(Verdict::slower), d.count(Verdict::same), d.count(Verdict::faster),
      d.not_comparable.size(), d.only_old.size(), d.only_new.size(), run_label(d.new_run),
      d.duplicates == 0 ? ""
      : d.duplicates == 1
          ? std::string("; 1 row repeats a key of its report and was left out")
          : fmt::format("; {} rows repeat a key of their report and were left out", d.duplicates));
}

std::string fail_above_line(const BaselineDiff& d) {
  const auto over = d.over_limit();
  if (over.empty())
    return fmt::format("no row is slower than the baseline by more than {:g}% beyond noise",
                       *d.fail_above_pct);
  return fmt::format(
      "{} row{} slower than the baseline by more than {:g}% beyond noise (marked !; exit 1)",
      over.size(), over.size() == 1 ? " is" : "s are", *d.fail_above_pct);
}

Table::Cell verdict_cell(const MatchedRow& m) {
  const std::string text = std::string(to_string(m.verdict)) + (m.over_limit ? " !" : "");
  switch (m.verdict) {
    case Verdict::slower:
      return {text, Table::Tone::bad};
    case Verdict::faster:
      return {text, Table::Tone::good};
    case Verdict::same:
      return {text, Table::Tone::dim};
  }
  return {};
}

Table summary_table(const BaselineDiff& d) {
  using S = DiffSummary;
  const auto R = Table::Align::right, L = Table::Align::left;
  return tabulate<S>(
      {{"backend", L, [](const S& s) { return Table::Cell{s.backend}; }},
       {"section", L, [](const S& s) { return Table::Cell{section_what(s.sec)}; }},
       {"rows", R, [](const S& s) { return Table::Cell{std::to_string(s.rows)}; }},
       {"slower", R,
        [](const S& s) {
          return Table::Cell{std::to_string(s.slower),
                             s.slower ? Table::Tone::bad : Table::Tone::plain};
        }},
       {"same", R, [](const S& s) { return Table::Cell{std::to_string(s.same)}; }},
       {"faster", R,
        [](const S& s) {
          return Table::Cell{std::to_string(s.faster),
                             s.faster ? Table::Tone::good : Table::Tone::plain};
        }},
       {"geomean new/old", R,
        [](const S& s) { return Table::Cell{fmt_time_ratio(s.geomean_ratio)}; }},
       {"worst new/old", R, [](const S& s) { return Table::Cell{fmt_time_ratio(s.worst_ratio)}; }}},
      d.summaries);
}

// Which row an item is about (backend, variant, section, n), then the item's own `columns`.
template <class Item, class RowOf>
std::vector<Column<Item>> keyed(RowOf row_of, std::vector<Column<Item>> columns) {
  const auto R = Table::Align::right, L = Table::Align::left;
  std::vector<Column<Item>> all = {
      {"backend", L, [=](const Item& x) { return Table::Cell{row_of(x).backend}; }},
      {"variant", L, [=](const Item& x) { return Table::Cell{row_of(x).variant}; }},
      {"section", L,
       [=](const Item& x) { return Table::Cell{section_what(section_of(row_of(x)))}; }},
      {"n", R, [=](const Item& x) { return Table::Cell{format_n(row_of(x).n)}; }}};
  all.insert(all.end(), columns.begin(), columns.end());
  return all;
}

// What changed in the row's compiled passes ("registers 64 -> 208 (pass 1)"); empty when
// nothing did or a report has none.
Table::Cell compiled_changes_cell(const MatchedRow& m) {
  std::string s;
  for (const FactDifference& d : m.compiled_changes) s += (s.empty() ? "" : "; ") + change_words(d);
  return {s};
}

Table rows_table(const BaselineDiff& d) {
  using M = MatchedRow;
  const auto R = Table::Align::right, L = Table::Align::left;
  return tabulate<M>(
      keyed<M>(
          [](const M& m) -> const ResultRow& { return m.new_row; },
          {{"old ms", R, [](const M& m) { return Table::Cell{format_ms(m.old_row.ms.median)}; }},
           {"new ms", R, [](const M& m) { return Table::Cell{format_ms(m.new_row.ms.median)}; }},
           {"new/old", R, [](const M& m) { return Table::Cell{fmt_time_ratio(m.ratio)}; }},
           {"change", R, [](const M& m) { return Table::Cell{fmt_change(m.change())}; }},
           {"noise", R, [](const M& m) { return Table::Cell{fmt_band(m.band)}; }},
           {"verdict", L, verdict_cell},
           {"compiled changes", L, compiled_changes_cell}}),
      d.rows);
}

Table statuses_table(const BaselineDiff& d) {
  using U = UnmatchedStatus;
  const auto L = Table::Align::left;
  return tabulate<U>(keyed<U>([](const U& u) -> const ResultRow& { return u.new_row; },
                              {{"old", L, [](const U& u) { return check_cell(u.old_row); }},
                               {"new", L, [](const U& u) { return check_cell(u.new_row); }}}),
                     d.not_comparable);
}

Table only_table(const std::vector<ResultRow>& rows) {
  using Row = ResultRow;
  const auto R = Table::Align::right, L = Table::Align::left;
  return tabulate<Row>(
      keyed<Row>([](const Row& r) -> const ResultRow& { return r; },
                 {{"median ms", R,
                   [](const Row& r) {
                     return Table::Cell{r.status == RowStatus::ok ? format_ms(r.ms.median) : ""};
                   }},
                  {"check", L, [](const Row& r) { return check_cell(r); }}}),
      rows);
}

void add_line(std::vector<Block>& body, std::string text) {
  add_text(body, Block::Kind::line, std::move(text));
}

// What the two runs were, and what differs between them.
void add_identity(const BaselineDiff& d, std::vector<Block>& body) {
  body.push_back({Block::Kind::table, {}, runs_table(d)});
  for (const auto& x : d.differences) add_line(body, "differs: " + x);
  for (const auto& c : d.devices)
    for (const auto& x : c.differences) add_line(body, fmt::format("differs: {} {}", c.backend, x));
}

}  // namespace

void add_baseline_blocks(const BaselineDiff& d, std::vector<Block>& body) {
  body.push_back({Block::Kind::heading, "against the baseline " + run_label(d.old_run), {}});
  add_identity(d, body);
  add_line(body, rule_line(d));
  add_line(body, counts_line(d));
  if (d.fail_above_pct) add_line(body, fail_above_line(d));
  add_table(body, "against the baseline · by backend and section", summary_table(d));
  add_table(body, "against the baseline · every matched row, worst first", rows_table(d));
  if (!d.not_comparable.empty())
    add_table(body, "against the baseline · not comparable (not a correct measurement in both)",
              statuses_table(d));
  if (!d.only_old.empty())
    add_table(body, "only in the baseline " + run_label(d.old_run), only_table(d.only_old));
  if (!d.only_new.empty())
    add_table(body, "only in " + run_label(d.new_run), only_table(d.only_new));
}

Document diff_document(const BaselineDiff& d, const std::string& command) {
  Document doc;
  doc.header.title = "xreduce diff";
  doc.header.command = command;
  doc.header.config =
      fmt::format("{} against the baseline {}", run_label(d.new_run), run_label(d.old_run));
  add_baseline_blocks(d, doc.body);
  return doc;
}

}  // namespace xr::app
