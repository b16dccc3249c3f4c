#include "report/baseline.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "common.hpp"
#include "xreduce/error.hpp"

namespace xr::app {

double NoiseRule::band(double old_spread, double new_spread, double old_ms, double new_ms) const {
  const double shorter_us = std::min(old_ms, new_ms) * 1e3;
  return std::max({floor, floor_us / shorter_us, scale * (old_spread + new_spread)});
}

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::faster:
      return "faster";
    case Verdict::same:
      return "same";
    case Verdict::slower:
      return "slower";
  }
  return "";
}

bool RowFilter::keeps(const ResultRow& row) const {
  auto any = [](const auto& list, auto&& match) {
    return list.empty() || std::any_of(list.begin(), list.end(), match);
  };
  return any(backends, [&](const std::string& b) { return b == row.backend; }) &&
         any(variant_globs, [&](const std::string& g) { return glob_match(g, row.variant); }) &&
         any(dtypes, [&](DType t) { return t == row.dtype; }) &&
         any(modes, [&](TimingMode m) { return m == row.mode; });
}

RowKey key_of(const ResultRow& row) {
  return {row.backend, row.variant, section_of(row), row.n};
}

int BaselineDiff::count(Verdict v) const {
  return static_cast<int>(
      std::count_if(rows.begin(), rows.end(), [&](const MatchedRow& r) { return r.verdict == v; }));
}

std::vector<const MatchedRow*> BaselineDiff::over_limit() const {
  std::vector<const MatchedRow*> out;
  for (const auto& r : rows)
    if (r.over_limit) out.push_back(&r);
  return out;
}

namespace {

// A band is symmetric in the ratio's logarithm: 1.05x slower and 1/1.05x faster are as far
// from 1.
Verdict verdict_of(double ratio, double band) {
  if (ratio > 1 + band) return Verdict::slower;
  if (ratio < 1 / (1 + band)) return Verdict::faster;
  return Verdict::same;
}

bool timed(const ResultRow& row) {
  return row.status == RowStatus::ok && row.ms.median > 0;
}

MatchedRow match(const ResultRow& old_row, const ResultRow& new_row, const VerdictOptions& o) {
  MatchedRow m;
  m.old_row = old_row;
  m.new_row = new_row;
  m.ratio = new_row.ms.median / old_row.ms.median;
  m.band = o.rule.band(old_row.ms.rel_spread, new_row.ms.rel_spread, old_row.ms.median,
                       new_row.ms.median);
  m.verdict = verdict_of(m.ratio, m.band);
  m.over_limit =
      m.verdict == Verdict::slower && o.fail_above_pct && m.change() * 100 > *o.fail_above_pct;
  if (old_row.compiled && new_row.compiled)
    m.compiled_changes = differing_facts(*old_row.compiled, *new_row.compiled);
  return m;
}

// The rows of both reports, paired by key: each key's first row in a report is the one compared.
void pair_rows(const CompareReport& old, const CompareReport& now, const VerdictOptions& o,
               BaselineDiff& d) {
  std::map<RowKey, std::size_t> old_index;
  std::vector<bool> unmatched(old.rows.size(), false);  // the first of its key, not yet paired
  for (std::size_t i = 0; i < old.rows.size(); ++i)
    if (o.filter.keeps(old.rows[i])) {
      unmatched[i] = old_index.emplace(key_of(old.rows[i]), i).second;
      d.duplicates += !unmatched[i];
    }
  std::set<RowKey> seen_new;
  for (const ResultRow& row : now.rows) {
    if (!o.filter.keeps(row)) continue;
    const RowKey key = key_of(row);
    if (!seen_new.insert(key).second) {
      ++d.duplicates;
      continue;
    }
    const auto it = old_index.find(key);
    if (it == old_index.end()) {
      d.only_new.push_back(row);
      continue;
    }
    unmatched[it->second] = false;
    const ResultRow& before = old.rows[it->second];
    if (timed(before) && timed(row))
      d.rows.push_back(match(before, row, o));
    else
      d.not_comparable.push_back({before, row});
  }
  for (std::size_t i = 0; i < old.rows.size(); ++i)
    if (unmatched[i]) d.only_old.push_back(old.rows[i]);
  std::stable_sort(d.rows.begin(), d.rows.end(),
                   [](const MatchedRow& a, const MatchedRow& b) { return a.ratio > b.ratio; });
}

void summarize(BaselineDiff& d) {
  struct Sums {
    DiffSummary s;
    double log_sum = 0;
  };
  std::map<std::pair<std::string, Section>, Sums> by;
  for (const MatchedRow& m : d.rows) {
    Sums& x = by[{m.new_row.backend, section_of(m.new_row)}];
    x.s.backend = m.new_row.backend;
    x.s.sec = section_of(m.new_row);
    ++x.s.rows;
    ++(m.verdict == Verdict::slower   ? x.s.slower
       : m.verdict == Verdict::faster ? x.s.faster
                                      : x.s.same);
    x.log_sum += std::log(m.ratio);
    x.s.worst_ratio = x.s.rows == 1 ? m.ratio : std::max(x.s.worst_ratio, m.ratio);
  }
  for (auto& [key, x] : by) {
    x.s.geomean_ratio = std::exp(x.log_sum / x.s.rows);
    d.summaries.push_back(x.s);
  }
}

std::string or_unknown(const std::string& s) {
  return s.empty() ? "unknown" : s;
}

std::string knobs_words(const DeviceRecord& d) {
  std::string s;
  for (const auto& [name, value] : d.knobs)
    s += fmt::format("{}{}={}", s.empty() ? "" : " ", name, value);
  return s.empty() ? "none" : s;
}

// What differs between a backend's device in the baseline and in the new run.
std::vector<std::string> device_differences(const DeviceRecord& a, const DeviceRecord& b) {
  std::vector<std::string> out;
  if (a.info.uuid != b.info.uuid || a.info.name != b.info.name)
    out.push_back(fmt::format("another device: {} (UUID {}) against {} (UUID {}) in the baseline",
                              b.info.name, or_unknown(b.info.uuid), a.info.name,
                              or_unknown(a.info.uuid)));
  if (a.info.driver_version != b.info.driver_version)
    out.push_back(fmt::format("driver {} -> {}", or_unknown(a.info.driver_version),
                              or_unknown(b.info.driver_version)));
  if (a.info.api_version != b.info.api_version)
    out.push_back(fmt::format("API {} -> {}", or_unknown(a.info.api_version),
                              or_unknown(b.info.api_version)));
  if (a.knobs != b.knobs)
    out.push_back(fmt::format("knobs {} -> {}", knobs_words(a), knobs_words(b)));
  return out;
}

// "clock 1980 MHz -> 1755 MHz": the clocks two reports' rows of one backend were measured at,
// where they differ by more than the probe's 1 %, or where one report has none.
std::optional<std::string> clock_difference(const DeviceRecord& a, const DeviceClock& ca,
                                            const DeviceRecord& b, const DeviceClock& cb) {
  const auto words = [](const DeviceRecord& d, const DeviceClock& c) {
    if (!c.median_mhz) return std::string("not measured");
    std::string s = fmt::format("{:.0f} MHz", *c.median_mhz);
    if (c.floor)
      s += fmt::format(" (every sample ≥ {:.0f} % of {:.0f})", std::floor(100 * *c.floor),
                       d.reference_clock_mhz.value_or(0));
    return s;
  };
  if (!ca.median_mhz && !cb.median_mhz) return std::nullopt;
  if (ca.median_mhz && cb.median_mhz &&
      std::fabs(*cb.median_mhz - *ca.median_mhz) <= 0.01 * *ca.median_mhz &&
      ca.floor.value_or(1) >= kThrottleThreshold && cb.floor.value_or(1) >= kThrottleThreshold)
    return std::nullopt;
  return "clock " + words(a, ca) + " -> " + words(b, cb);
}

// The devices of both reports, each backend once; only the filter's backends where it names some
// (a diff of one backend's rows says nothing of the others' devices).
void compare_devices(const CompareReport& old, const CompareReport& now, const RowFilter& filter,
                     BaselineDiff& d) {
  const auto kept = [&](const std::string& backend) {
    return filter.backends.empty() || std::find(filter.backends.begin(), filter.backends.end(),
                                                backend) != filter.backends.end();
  };
  auto find = [](const CompareReport& r, const std::string& backend) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < r.devices.size(); ++i)
      if (r.devices[i].backend == backend) return i;
    return std::nullopt;
  };
  const std::vector<DeviceClock> old_clocks = device_clocks(old), now_clocks = device_clocks(now);
  for (std::size_t i = 0; i < now.devices.size(); ++i) {
    const DeviceRecord& dev = now.devices[i];
    if (!kept(dev.backend)) continue;
    DeviceChange c{dev.backend, std::nullopt, dev, {}};
    if (const std::optional<std::size_t> j = find(old, dev.backend)) {
      const DeviceRecord& before = old.devices[*j];
      c.old_device = before;
      c.differences = device_differences(before, dev);
      if (auto clock = clock_difference(before, old_clocks[*j], dev, now_clocks[i]))
        c.differences.push_back(std::move(*clock));
    } else {
      c.differences.push_back("not in the baseline");
    }
    d.devices.push_back(std::move(c));
  }
  for (const auto& dev : old.devices)
    if (kept(dev.backend) && !find(now, dev.backend).has_value())
      d.devices.push_back({dev.backend, dev, std::nullopt, {"in the baseline only"}});
}

void compare_runs(BaselineDiff& d) {
  const RunIdentity &a = d.old_run, &b = d.new_run;
  if (a.commit != b.commit || a.commit.empty())
    d.differences.push_back(
        a.commit == b.commit
            ? "commit unknown in both reports"
            : fmt::format("commit {} -> {}", or_unknown(a.commit), or_unknown(b.commit)));
  if (a.version != b.version)
    d.differences.push_back(
        fmt::format("xreduce {} -> {}", or_unknown(a.version), or_unknown(b.version)));
}

}  // namespace

BaselineDiff diff_reports(const CompareReport& old, const RunIdentity& old_run,
                          const CompareReport& now, const RunIdentity& new_run,
                          const std::string& flag, const VerdictOptions& options) {
  BaselineDiff d;
  d.old_run = old_run;
  d.new_run = new_run;
  d.rule = options.rule;
  d.fail_above_pct = options.fail_above_pct;
  pair_rows(old, now, options, d);
  if (d.rows.empty() && d.not_comparable.empty())
    throw Error(
        ErrorCategory::usage,
        fmt::format(
            "{} '{}': no row in common with {} ({} rows against {}; rows match by "
            "backend, variant, primitive, scan kind, op, dtype, n, mode and a sort's "
            "order, values, bits and count){}",
            flag, printable(old_run.path),
            new_run.path.empty() ? std::string("this run") : "'" + printable(new_run.path) + "'",
            old.rows.size(), now.rows.size(),
            options.filter.empty() ? "" : " among the rows the filters keep"));
  summarize(d);
  compare_devices(old, now, options.filter, d);
  compare_runs(d);
  return d;
}

}  // namespace xr::app
