// A compare report against a baseline (compare --baseline, xreduce diff): rows matched by what
// they measured, each with its time ratio and a verdict decided from both runs' own spread; the
// rows found in one report only; and what differs between the two runs (device, driver, commit,
// knobs). Derived once here; the renderings only print it.
#pragma once

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "report/compiled.hpp"
#include "report/model.hpp"
#include "report/section.hpp"

namespace xr::app {

// When a change of the median is a change and not noise (docs/cli.md, "Against a baseline").
// A row's own noise is its relative spread (MAD / median of its samples): `scale` times the sum
// of the two rows' spreads. Two runs also differ by what one run's samples cannot see (a whole
// process a few percent faster, where the buffers landed): at least `floor` of the time, and at
// least `floor_us` of it, the run-to-run jitter of the shortest rows.
struct NoiseRule {
  double scale = 0;
  double floor = 0;     // a fraction of the time
  double floor_us = 0;  // microseconds
  // The half-width of the band, as a fraction: new/old within [1/(1+band), 1+band] is `same`.
  double band(double old_spread, double new_spread, double old_ms, double new_ms) const;
};

// Chosen on runs of one binary where nothing changed (docs/results/noise-calibration/, made by
// bench/noise-calibration and scored by bench/noise_calibration.py): between two processes the
// run-to-run scatter of a short call far exceeds the rows' own spreads, so the band is the
// larger of 3x the spreads, a relative floor and an absolute floor in microseconds; the floors
// are the smallest that keep false alarms near 1 % on unchanged rows while a change of about
// twice the floor is still found. The false-alarm tables are in that report.
inline constexpr NoiseRule kNoiseRule{3.0, 0.02, 1.25};

enum class Verdict { faster, same, slower };
std::string_view to_string(Verdict v);  // "faster", "same", "slower"

// What a row measured, the key rows are matched by: backend, variant, primitive, scan kind
// (inclusive for reduce), op, dtype, n and mode.
struct RowKey {
  std::string backend, variant;
  Section sec;
  std::uint64_t n = 0;
  auto tie() const { return std::tuple(backend, variant, sec.key(), n); }
  bool operator<(const RowKey& o) const { return tie() < o.tie(); }
  bool operator==(const RowKey& o) const { return tie() == o.tie(); }
};
RowKey key_of(const ResultRow& row);

// A row measured correctly in both reports.
struct MatchedRow {
  ResultRow old_row, new_row;
  double ratio = 1;  // new median / old median: above 1 is slower
  double band = 0;   // NoiseRule::band of the two spreads
  Verdict verdict = Verdict::same;
  bool over_limit = false;  // slower by more than --fail-above PCT
  // The compiled facts that changed between the two rows, where both carry them (schema 4).
  std::vector<FactDifference> compiled_changes;
  double change() const { return ratio - 1; }
};

// A row in both reports that is not a correct measurement in one of them (failed its check,
// unsupported): listed with both statuses, not timed against each other.
struct UnmatchedStatus {
  ResultRow old_row, new_row;
};

// The matched rows of one backend and section: how many of each verdict and the geometric mean
// of their ratios (the one number a GPU-against-GPU comparison reads first).
struct DiffSummary {
  std::string backend;
  Section sec;
  int rows = 0, slower = 0, same = 0, faster = 0;
  double geomean_ratio = 1;
  double worst_ratio = 1;  // the largest ratio (the slowest change)
};

// What the header says about the two runs: one entry per backend in either report.
struct DeviceChange {
  std::string backend;
  std::optional<DeviceRecord> old_device, new_device;
  std::vector<std::string> differences;  // "another device (UUID ...)", "driver A -> B", knobs
};

struct RunIdentity {
  std::string path;  // the file; "" for the run compare just measured
  std::string version, commit, command;
};

struct BaselineDiff {
  RunIdentity old_run, new_run;
  std::vector<std::string> differences;  // the runs' commit or version, when they differ
  std::vector<DeviceChange> devices;
  NoiseRule rule = kNoiseRule;
  std::optional<double> fail_above_pct;
  std::vector<MatchedRow> rows;  // worst first: by ratio, descending
  std::vector<UnmatchedStatus> not_comparable;
  std::vector<ResultRow> only_old, only_new;  // in report order
  std::vector<DiffSummary> summaries;         // by backend, then section
  int duplicates = 0;                         // rows whose key an earlier row of its report had

  int count(Verdict v) const;
  std::vector<const MatchedRow*> over_limit() const;
};

// The rows a diff compares (diff --backend, --variant, --dtype, --mode): those that every filter
// given keeps; an empty filter keeps every row.
struct RowFilter {
  std::vector<std::string> backends;
  std::vector<std::string> variant_globs;
  std::vector<DType> dtypes;
  std::vector<TimingMode> modes;
  bool keeps(const ResultRow& row) const;
  bool empty() const {
    return backends.empty() && variant_globs.empty() && dtypes.empty() && modes.empty();
  }
};

struct VerdictOptions {
  std::optional<double> fail_above_pct;
  NoiseRule rule = kNoiseRule;
  RowFilter filter{};
};

// `now` against `old`. Error(usage) "<flag> 'PATH': no row in common with ..." when no row of one
// matches a row of the other: then it is no baseline of this run.
BaselineDiff diff_reports(const CompareReport& old, const RunIdentity& old_run,
                          const CompareReport& now, const RunIdentity& new_run,
                          const std::string& flag, const VerdictOptions& options);

}  // namespace xr::app
