// compare --baseline and xreduce diff: the noise rule at its edges, the verdicts and --fail-above
// of a pair of runs with known differences (report_fixtures' baseline_pair), rows of one run
// only, and what the header says differs; a baseline with no row in common is bad input.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "report/baseline.hpp"
#include "report_fixtures.hpp"
#include "test_support.hpp"
#include "xreduce/error.hpp"

using xr::app::BaselineDiff;
using xr::app::CompareReport;
using xr::app::MatchedRow;
using xr::app::NoiseRule;
using xr::app::ResultRow;
using xr::app::Verdict;

namespace {

BaselineDiff diff(const CompareReport& old, const CompareReport& now,
                  std::optional<double> fail_above = std::nullopt) {
  return xr::app::diff_reports(old, {"old.json", old.version, old.commit, old.command}, now,
                               {"", now.version, now.commit, now.command}, "--baseline",
                               {fail_above});
}

// The matched row of `backend` `variant` at n (reduce sum i32) in `mode`.
const MatchedRow& matched(const BaselineDiff& d, const std::string& backend,
                          const std::string& variant, std::uint64_t n,
                          xr::TimingMode mode = xr::TimingMode::cold) {
  for (const auto& m : d.rows)
    if (m.new_row.backend == backend && m.new_row.variant == variant && m.new_row.n == n &&
        m.new_row.mode == mode && m.new_row.operation.primitive == xr::Primitive::reduce)
      return m;
  FAIL("no matched row " << backend << " " << variant << " " << n);
  throw std::logic_error("unreachable");
}

// A one-row report whose row has `median` ms and `spread`.
CompareReport one_row(double median, double spread) {
  CompareReport r;
  r.devices.push_back({});
  r.devices.back().backend = "cuda";
  ResultRow row;
  row.backend = "cuda";
  row.variant = "fast/single-pass";
  row.n = 1024;
  row.status = xr::app::RowStatus::ok;
  row.ms.median = median;
  row.ms.rel_spread = spread;
  r.rows.push_back(row);
  return r;
}

Verdict verdict(double old_ms, double new_ms, double old_spread = 0, double new_spread = 0) {
  return diff(one_row(old_ms, old_spread), one_row(new_ms, new_spread)).rows.at(0).verdict;
}

}  // namespace

TEST_CASE("the noise band: a floor, else the scaled sum of both spreads",
          "[unit][report][baseline]") {
  const NoiseRule rule{3.0, 0.02, 1.0};
  CHECK(rule.band(0, 0, 1.0, 1.0) == Approx(0.02));
  CHECK(rule.band(0.002, 0.003, 1.0, 1.0) == Approx(0.02));  // 1.5 % scaled: under the floor
  CHECK(rule.band(0.01, 0.02, 1.0, 1.0) == Approx(0.09));
  // 1 µs of a 10 µs row is 10 %; of the shorter of the two times.
  CHECK(rule.band(0, 0, 0.010, 0.020) == Approx(0.10));
  CHECK(rule.band(0, 0, 0.020, 0.010) == Approx(0.10));
  CHECK(rule.band(0.05, 0.05, 0.010, 0.010) == Approx(0.30));
  CHECK(xr::app::kNoiseRule.floor > 0);
  CHECK(xr::app::kNoiseRule.floor_us > 0);
  CHECK(xr::app::kNoiseRule.scale > 0);
}

TEST_CASE("a short row's band is its time floor: a 20 % change of 4 µs is noise, 60 % is not",
          "[unit][report][baseline]") {
  const double us = 1e-3, floor = xr::app::kNoiseRule.floor_us;  // in ms, in µs
  const double t = 4 * us;
  CHECK(verdict(t, t * (1 + 0.9 * floor / 4)) == Verdict::same);
  CHECK(verdict(t, t * (1 + 1.1 * floor / 4)) == Verdict::slower);
  CHECK(verdict(t, t * 1.2) == Verdict::same);
  CHECK(verdict(t, t * 1.6) == Verdict::slower);
  CHECK(verdict(t, t / 1.6) == Verdict::faster);
  // The same 20 % on a millisecond is a change.
  CHECK(verdict(1.0, 1.2) == Verdict::slower);
}

TEST_CASE("a verdict is same inside the band and faster or slower beyond it, symmetrically",
          "[unit][report][baseline]") {
  const double floor = xr::app::kNoiseRule.floor;
  CHECK(verdict(1.0, 1.0) == Verdict::same);
  CHECK(verdict(1.0, 1 + floor * 0.99) == Verdict::same);
  CHECK(verdict(1.0, 1 + floor * 1.01) == Verdict::slower);
  CHECK(verdict(1.0, 1 / (1 + floor * 0.99)) == Verdict::same);
  CHECK(verdict(1.0, 1 / (1 + floor * 1.01)) == Verdict::faster);
  // A 20 % change inside two noisy runs' band is not a change...
  const double spread = 0.25 / xr::app::kNoiseRule.scale;  // band 50 %
  CHECK(verdict(1.0, 1.2, spread, spread) == Verdict::same);
  CHECK(verdict(1.0, 1 / 1.2, spread, spread) == Verdict::same);
  // ...and a change is one whichever run was the noisy one.
  CHECK(verdict(1.0, 1.6, 2 * spread, 0) == Verdict::slower);
  CHECK(verdict(1.0, 1.6, 0, 2 * spread) == Verdict::slower);
}

TEST_CASE("a pair of runs with known differences gets the verdicts it was built with",
          "[unit][report][baseline]") {
  const auto pair = xrtest::baseline_pair();
  const BaselineDiff d = diff(pair.old_run, pair.new_run, 5.0);
  CHECK(matched(d, "cuda", "fast/single-pass", 1 << 20).verdict == Verdict::slower);
  CHECK(matched(d, "cuda", "fast/single-pass", 1 << 20).ratio == Approx(1.5));
  CHECK(matched(d, "vulkan", "fast/single-pass", 1 << 20).verdict == Verdict::faster);
  CHECK(matched(d, "vulkan", "fast/single-pass", 1 << 20).ratio == Approx(0.8));
  CHECK(matched(d, "cuda", "smem/sequential", 1 << 20).verdict == Verdict::same);
  const MatchedRow& noisy = matched(d, "vulkan", "smem/sequential", 1024);
  CHECK(noisy.verdict == Verdict::same);
  CHECK(noisy.ratio == Approx(1.10));
  CHECK(noisy.band == Approx(3 * (0.05 + 0.004)));
  const MatchedRow& small = matched(d, "cuda", "smem/sequential", 1024, xr::TimingMode::batch);
  CHECK(small.verdict == Verdict::slower);
  CHECK_FALSE(small.over_limit);  // 3 % is under --fail-above 5
  // Every other matched row is unchanged.
  CHECK(d.count(Verdict::slower) == 2);
  CHECK(d.count(Verdict::faster) == 1);
  CHECK(d.count(Verdict::same) == static_cast<int>(d.rows.size()) - 3);
  // Worst first.
  CHECK(std::is_sorted(d.rows.begin(), d.rows.end(),
                       [](const MatchedRow& a, const MatchedRow& b) { return a.ratio > b.ratio; }));
  CHECK(d.rows.front().ratio == Approx(1.5));
  // The slower row's kernel took more registers: the diff names the compiled facts that moved;
  // rows without facts in both runs name none.
  const auto& changes = matched(d, "cuda", "fast/single-pass", 1 << 20).compiled_changes;
  REQUIRE(changes.size() == 2);
  CHECK(xr::app::change_words(changes[0]) == "registers 32 -> 72 (pass 1)");
  CHECK(xr::app::change_words(changes[1]) == "occupancy 100% -> 37.5% (pass 1)");
  CHECK(matched(d, "vulkan", "fast/single-pass", 1 << 20).compiled_changes.empty());
}

TEST_CASE("fail-above names only rows slower beyond noise by more than its percentage",
          "[unit][report][baseline]") {
  const auto pair = xrtest::baseline_pair();
  const BaselineDiff d = diff(pair.old_run, pair.new_run, 5.0);
  const auto over = d.over_limit();
  REQUIRE(over.size() == 1);
  CHECK(over[0]->new_row.variant == "fast/single-pass");
  CHECK(diff(pair.old_run, pair.new_run, 2.5).over_limit().size() == 2);
  CHECK(diff(pair.old_run, pair.new_run, 50.0).over_limit().empty());
  CHECK(diff(pair.old_run, pair.new_run).over_limit().empty());
  // 10 % slower inside its band is not over a 5 % limit: noise is not a regression.
  CHECK(diff(one_row(1.0, 0.05), one_row(1.1, 0.05), 5.0).over_limit().empty());
  CHECK(diff(one_row(1.0, 0.0), one_row(1.1, 0.0), 5.0).over_limit().size() == 1);
}

TEST_CASE("rows of one run only, rows not comparable and repeated keys are listed, not dropped",
          "[unit][report][baseline]") {
  const auto pair = xrtest::baseline_pair();
  const BaselineDiff d = diff(pair.old_run, pair.new_run);
  REQUIRE(d.only_old.size() == 1);
  CHECK(d.only_old[0].variant == "smem/retired");
  REQUIRE(d.only_new.size() == 1);
  CHECK(d.only_new[0].backend == "vulkan");
  CHECK(d.only_new[0].variant == "fast/decoupled-lookback");
  REQUIRE(d.not_comparable.size() == 1);
  CHECK(d.not_comparable[0].old_row.status == xr::app::RowStatus::failed);
  CHECK(d.not_comparable[0].new_row.status == xr::app::RowStatus::ok);
  CHECK(d.duplicates == 1);
  CHECK(d.rows.size() + d.not_comparable.size() + d.only_new.size() == pair.new_run.rows.size());
}

TEST_CASE("rows match by every part of what they measured", "[unit][report][baseline]") {
  const CompareReport old = one_row(1.0, 0);
  for (int part = 0; part < 6; ++part) {
    CompareReport now = one_row(1.0, 0);
    ResultRow& row = now.rows[0];
    switch (part) {
      case 0:
        row.variant = "fast/vectorized";
        break;
      case 1:
        row.n = 2048;
        break;
      case 2:
        row.mode = xr::TimingMode::batch;
        break;
      case 3:
        row.dtype = xr::DType::f32;
        break;
      case 4:
        row.operation.op = xr::Op::max;
        break;
      case 5:
        row.operation = {xr::Primitive::scan, xr::Op::sum, xr::ScanKind::exclusive};
        break;
    }
    now.rows.push_back(old.rows[0]);  // the one row in common
    const BaselineDiff d = diff(old, now);
    CHECK(d.rows.size() == 1);
    CHECK(d.only_new.size() == 1);
  }
  // A reduce row's scan kind is no part of it.
  CompareReport now = one_row(1.0, 0);
  now.rows[0].operation.scan = xr::ScanKind::exclusive;
  CHECK(diff(old, now).rows.size() == 1);
}

TEST_CASE("a baseline with no row in common is bad input", "[unit][report][baseline]") {
  CompareReport now = one_row(1.0, 0);
  now.rows[0].backend = "vulkan";
  xrtest::require_error([&] { diff(one_row(1.0, 0), now); }, xr::ErrorCategory::usage,
                        "--baseline 'old.json': no row in common with this run (1 rows against "
                        "1; rows match by backend, variant, primitive, scan kind, op, dtype, n, "
                        "mode and a sort's order, values, bits and count)");
  xrtest::require_error([&] { diff(CompareReport{}, CompareReport{}); }, xr::ErrorCategory::usage,
                        "no row in common");
}

TEST_CASE("what differs between the runs is stated: commit, driver, knobs, another device",
          "[unit][report][baseline]") {
  auto pair = xrtest::baseline_pair();
  pair.new_run.devices[1].info.uuid = "fedcba9876543210fedcba9876543210";
  pair.new_run.devices[1].info.name = "NVIDIA H100 80GB HBM3";
  const BaselineDiff d = diff(pair.old_run, pair.new_run);
  REQUIRE(d.differences.size() == 1);
  CHECK(d.differences[0] ==
        "commit feedfacefeedfacefeedfacefeedfacefeedface -> "
        "0123abcd0123abcd0123abcd0123abcd0123abcd");
  REQUIRE(d.devices.size() == 2);
  CHECK(d.devices[0].differences == std::vector<std::string>{"driver 565.57.01 -> 570.86.15"});
  CHECK(d.devices[1].differences ==
        std::vector<std::string>{
            "another device: NVIDIA H100 80GB HBM3 (UUID fedcba9876543210fedcba9876543210) "
            "against NVIDIA H200 (UUID 0123456789abcdef0123456789abcdef) in the baseline",
            "knobs none -> XR_VK_LOOKBACK_POLLS=8"});
  // A diff of one backend's rows (diff --backend) says nothing of the other backend's device.
  xr::app::VerdictOptions only_cuda;
  only_cuda.filter.backends = {"cuda"};
  const BaselineDiff filtered =
      xr::app::diff_reports(pair.old_run, {"old.json", "", "", ""}, pair.new_run, {"", "", "", ""},
                            "--baseline", only_cuda);
  REQUIRE(filtered.devices.size() == 1);
  CHECK(filtered.devices[0].backend == "cuda");
  // The same run against itself: nothing differs but the commit's being the same is not news.
  const BaselineDiff self = diff(pair.new_run, pair.new_run);
  CHECK(self.differences.empty());
  CHECK(self.devices[0].differences.empty());
  CHECK(self.count(Verdict::same) == static_cast<int>(self.rows.size()));
}

// The clock a backend's rows were measured at is stated as the driver is: a run at idle clock
// against one at the working clock is not a slower kernel.
TEST_CASE("a clock that differs between the runs is stated", "[unit][report][baseline][clock]") {
  CompareReport old = one_row(1.0, 0), now = one_row(4.4, 0);
  old.devices[0].reference_clock_mhz = now.devices[0].reference_clock_mhz = 1980;
  old.rows[0].clock_min_mhz = 1965;
  old.rows[0].clock_median_mhz = 1980;
  now.rows[0].clock_min_mhz = 345;
  now.rows[0].clock_median_mhz = 450;
  CHECK(diff(old, now).devices[0].differences ==
        std::vector<std::string>{"clock 1980 MHz (every sample ≥ 99 % of 1980) -> 450 MHz (every "
                                 "sample ≥ 17 % of 1980)"});
  // Within the probe's 1 %, and above the threshold in both: nothing to say.
  now.rows[0].clock_min_mhz = 1970;
  now.rows[0].clock_median_mhz = 1975;
  CHECK(diff(old, now).devices[0].differences.empty());
  // Measured in one run only (a report of an xreduce before the clock was measured).
  now.rows[0].clock_min_mhz = now.rows[0].clock_median_mhz = std::nullopt;
  CHECK(diff(old, now).devices[0].differences ==
        std::vector<std::string>{"clock 1980 MHz (every sample ≥ 99 % of 1980) -> not measured"});
}
