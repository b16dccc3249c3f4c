// The four renderings of compare's report (text, markdown, CSV, JSON), and the text with its
// colours, against golden files in tests/unit/golden/, byte for byte. The goldens were written by
// the renderers of report.cpp at 410135f, before the report was split into app/report/ (issue
// 20): the split must not move a byte. XR_UPDATE_GOLDEN=1 rewrites them; only do that for an
// intended change of the report.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "report/analysis.hpp"
#include "report/baseline.hpp"
#include "report/baseline_document.hpp"
#include "report/merge.hpp"
#include "report/render.hpp"
#include "report_fixtures.hpp"

using xr::app::CompareReport;

namespace {

struct Rendering {
  std::string extension;
  std::string bytes;
};

std::string render_json(const CompareReport& r) {
  const xr::app::Analysis a = xr::app::analyze(r);
  return xr::app::render_json({r, a});
}

std::string render_styled_text(const CompareReport& r) {
  const xr::app::Analysis a = xr::app::analyze(r);
  return xr::app::render_text(xr::app::build_document({r, a}), xr::app::Style{true});
}

std::vector<Rendering> renderings(const CompareReport& r) {
  const xr::app::Analysis a = xr::app::analyze(r);
  const xr::app::Document doc = xr::app::build_document({r, a});
  return {{"txt", xr::app::render_text(doc, xr::app::Style{})},
          {"md", xr::app::render_markdown(doc)},
          {"csv", xr::app::render_csv({r, a})},
          {"json", xr::app::render_json({r, a})}};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The first differing line with three lines of context, as a unified diff shows it.
std::string first_difference(const std::string& expected, const std::string& actual,
                             const std::string& name) {
  const auto want = lines_of(expected), got = lines_of(actual);
  std::size_t i = 0;
  while (i < want.size() && i < got.size() && want[i] == got[i]) ++i;
  std::ostringstream out;
  out << "--- golden/" << name << "\n+++ rendered\n@@ line " << i + 1 << " @@\n";
  for (std::size_t c = i >= 3 ? i - 3 : 0; c < i; ++c) out << " " << want[c] << "\n";
  for (std::size_t c = i; c < std::min(i + 3, want.size()); ++c) out << "-" << want[c] << "\n";
  if (i >= want.size()) out << "-(end of file)\n";
  for (std::size_t c = i; c < std::min(i + 3, got.size()); ++c) out << "+" << got[c] << "\n";
  if (i >= got.size()) out << "+(end of file)\n";
  if (want == got) out << "(the lines agree: the files differ in their final newline)\n";
  return out.str();
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void check_golden(const std::string& name, const std::string& actual) {
  const std::filesystem::path path = std::filesystem::path(XR_GOLDEN_DIR) / name;
  if (std::getenv("XR_UPDATE_GOLDEN")) {
    std::ofstream(path, std::ios::binary) << actual;
    WARN("rewrote " << path.string());
  }
  if (!std::filesystem::exists(path)) {
    FAIL_CHECK("no golden file " << path.string());
    return;
  }
  const std::string expected = read_file(path);
  if (expected != actual)
    FAIL_CHECK(first_difference(expected, actual, name));  // and on to the next format
  else
    SUCCEED(name);
}

void check_report(const std::string& name, const CompareReport& report) {
  for (const auto& r : renderings(report)) check_golden(name + "." + r.extension, r.bytes);
}

}  // namespace

TEST_CASE("compare report golden: per-size ladders, both modes, reduce and scan, merged peers",
          "[unit][report][golden]") {
  CompareReport r = xrtest::ladders_report();
  xrtest::merge(r, xrtest::peers_json(), xrtest::kPeersPath);
  check_report("ladders", r);
}

TEST_CASE("compare report golden: GB/s-by-n matrices on two different GPUs",
          "[unit][report][golden]") {
  check_report("matrix", xrtest::matrix_report());
}

TEST_CASE("compare report golden: end to end, with peers measured in a mode this run did not",
          "[unit][report][golden]") {
  CompareReport r = xrtest::end_to_end_report();
  xrtest::merge(r, xrtest::peers_json(), xrtest::kPeersPath);
  check_report("end_to_end", r);
}

TEST_CASE("compare report golden: a single point of one backend", "[unit][report][golden]") {
  check_report("single_point", xrtest::single_point_report());
}

// A report's own JSON merges back: every measured row returns with the same numbers.
TEST_CASE("compare report golden: a report's JSON merged into another run",
          "[unit][report][golden]") {
  CompareReport earlier = xrtest::single_point_report();
  earlier.devices.front().backend = "cpu-earlier";
  for (auto& row : earlier.rows) row.backend = "cpu-earlier";
  CompareReport r = xrtest::single_point_report();
  xrtest::merge(r, render_json(earlier), "earlier/report.json");
  check_report("remerged", r);
}

// Colours pin the tone of every cell and line (good, bad, warn, dim), which plain text cannot.
TEST_CASE("compare report golden: styled text", "[unit][report][golden]") {
  CompareReport ladders = xrtest::ladders_report();
  xrtest::merge(ladders, xrtest::peers_json(), xrtest::kPeersPath);
  check_golden("ladders.styled.txt", render_styled_text(ladders));
  check_golden("matrix.styled.txt", render_styled_text(xrtest::matrix_report()));
}

// The diff of xrtest::baseline_pair() as `xreduce diff` renders it, and appended to the compare
// report of the later run as compare --baseline does (markdown and JSON carry every part).
TEST_CASE("compare report golden: a run against its baseline", "[unit][report][golden]") {
  const xrtest::BaselinePair pair = xrtest::baseline_pair();
  const xr::app::BaselineDiff d = xr::app::diff_reports(
      pair.old_run,
      {"runs/old.json", pair.old_run.version, pair.old_run.commit, pair.old_run.command},
      pair.new_run,
      {"runs/new.json", pair.new_run.version, pair.new_run.commit, pair.new_run.command}, "diff",
      {5.0});
  const std::string command = "xreduce diff runs/old.json runs/new.json --fail-above 5";
  const xr::app::Document doc = xr::app::diff_document(d, command);
  check_golden("diff.txt", xr::app::render_text(doc, xr::app::Style{}));
  check_golden("diff.styled.txt", xr::app::render_text(doc, xr::app::Style{true}));
  check_golden("diff.md", xr::app::render_markdown(doc));
  check_golden("diff.csv", xr::app::render_diff_csv(d));
  check_golden("diff.json", xr::app::render_diff_json(d, "0.9.0-golden", "", command));

  const xr::app::BaselineDiff here = xr::app::diff_reports(
      pair.old_run,
      {"runs/old.json", pair.old_run.version, pair.old_run.commit, pair.old_run.command},
      pair.new_run, {"", pair.new_run.version, pair.new_run.commit, pair.new_run.command},
      "--baseline", {});
  const xr::app::Analysis a = xr::app::analyze(pair.new_run);
  const xr::app::AnalyzedReport ar{pair.new_run, a, &here};
  check_golden("baselined.md", xr::app::render_markdown(xr::app::build_document(ar)));
  check_golden("baselined.json", xr::app::render_json(ar));
}
