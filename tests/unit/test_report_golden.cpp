// The four renderings of compare's report (text, markdown, CSV, JSON), and the text with its
// colours, against golden files in tests/unit/golden/, byte for byte: a change to the renderers'
// code must not move a byte of their output. XR_UPDATE_GOLDEN=1 rewrites them; only do that for
// an intended change of the report.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

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

// Three GPU APIs on one GPU: each other API beside CUDA (a "-" where it lacks the variant), its
// compiled facts, its ratio by n and its JSON keys; a variant without a CUDA row stays in its
// ladders only. Its goldens came with the third API (XR_UPDATE_GOLDEN=1, then read line by line);
// the two-API goldens did not move.
TEST_CASE("compare report golden: cuda, vulkan and opencl on one GPU", "[unit][report][golden]") {
  using Catch::Matchers::Contains;
  const CompareReport r = xrtest::three_apis_report();
  check_report("three_apis", r);
  const xr::app::Analysis a = xr::app::analyze(r);
  const std::string md = xr::app::render_markdown(xr::app::build_document({r, a}));
  CHECK_THAT(md, Contains("same GPU: the cuda, vulkan and opencl devices share UUID "
                          "0123456789abcdef0123456789abcdef"));
  CHECK_THAT(md, Contains("### cuda vs vulkan vs opencl · sum i32 · cold · n = 1K"));
  CHECK_THAT(md, Contains("| variant | cuda ms | vulkan ms | vulkan/cuda | opencl ms | opencl/cuda "
                          "| cuda GB/s | vulkan GB/s | opencl GB/s |"));
  CHECK_THAT(md, Contains("| variant | vulkan/cuda | opencl/cuda | cuda regs | vulkan regs | "
                          "opencl regs | cuda smem B | vulkan smem B | opencl smem B | "
                          "cuda occupancy | vulkan occupancy | opencl occupancy | vulkan differs "
                          "| opencl differs |"));
  CHECK_THAT(md, Contains("### cuda vs opencl · opencl/cuda time ratio by n · max f32 · cold"));
  CHECK_THAT(md, Contains("opencl overtakes cpu"));
  for (const auto& x : a.side_by_side) CHECK(x.variant != "subgroup/arithmetic");
  // OpenCL is one of xreduce's APIs, not a library: its single pass is xreduce's best at 16M.
  CHECK_THAT(md, Contains("| 16M | opencl fast/single-pass |"));

  const auto j = nlohmann::ordered_json::parse(render_json(r));
  CHECK(j["same_gpu"] == true);
  int first_add = 0;
  for (const auto& x : j["side_by_side"]) {
    CHECK(x.contains("vulkan_ms"));
    CHECK(x.contains("opencl_over_cuda"));
    if (x["variant"] == "smem/first-add") {
      ++first_add;
      CHECK(x["vulkan_ms"].is_null());
      CHECK(x["opencl_ms"].is_number());
    }
  }
  CHECK(first_add == 2);
}

// The same-GPU line with three APIs: each UUID named when one differs ("?" for an unknown one);
// without CUDA, the other two still prove (or not) one GPU, with nothing set side by side.
TEST_CASE("compare report: the same-GPU line of three APIs", "[unit][report]") {
  using Catch::Matchers::Contains;
  CompareReport r = xrtest::three_apis_report();
  r.devices[2].info.uuid = "fedcba9876543210fedcba9876543210";
  r.devices[3].info.uuid = "";
  auto text = [](const CompareReport& report) {
    const xr::app::Analysis a = xr::app::analyze(report);
    return xr::app::render_text(xr::app::build_document({report, a}), xr::app::Style{});
  };
  CHECK_THAT(text(r), Contains("WARNING: cuda, vulkan and opencl measured DIFFERENT devices (cuda "
                               "UUID 0123456789abcdef0123456789abcdef, vulkan UUID "
                               "fedcba9876543210fedcba9876543210, opencl UUID ?); the "
                               "side-by-side ratios compare different GPUs"));
  // A device without a UUID (pocl's) proves neither: not "DIFFERENT", not the same.
  r.devices[2].info.uuid = r.devices[1].info.uuid;
  CHECK_THAT(text(r), Contains("WARNING: cuda, vulkan and opencl are not proven to share one "
                               "device (cuda UUID 0123456789abcdef0123456789abcdef, vulkan UUID "
                               "0123456789abcdef0123456789abcdef, opencl UUID ?: opencl reports no "
                               "UUID); the side-by-side ratios may compare different devices"));

  CompareReport no_cuda = xrtest::three_apis_report();
  std::erase_if(no_cuda.devices, [](const auto& d) { return d.backend == "cuda"; });
  std::erase_if(no_cuda.rows, [](const auto& row) { return row.backend == "cuda"; });
  const xr::app::Analysis a = xr::app::analyze(no_cuda);
  CHECK(a.side_by_side.empty());
  REQUIRE(a.same_gpu);
  CHECK(a.same_gpu->same);
  const std::string t = text(no_cuda);
  CHECK_THAT(t, Contains("same GPU: the vulkan and opencl devices share UUID "));
  CHECK_THAT(t, Contains("opencl · sum i32 · cold · n = 16M"));
  CHECK_THAT(t, !Contains(" vs "));
  no_cuda.devices[2].info.uuid = "fedcba9876543210fedcba9876543210";
  CHECK_THAT(text(no_cuda), Contains("WARNING: vulkan and opencl measured DIFFERENT devices "
                                     "(vulkan UUID 0123456789abcdef0123456789abcdef, opencl UUID "
                                     "fedcba9876543210fedcba9876543210); their ladders compare "
                                     "two GPUs"));
}

// CUDA and OpenCL without Vulkan: OpenCL alone beside CUDA, with the two-API forms.
TEST_CASE("compare report: cuda and opencl without vulkan", "[unit][report]") {
  using Catch::Matchers::Contains;
  CompareReport r = xrtest::three_apis_report();
  std::erase_if(r.devices, [](const auto& d) { return d.backend == "vulkan"; });
  std::erase_if(r.rows, [](const auto& row) { return row.backend == "vulkan"; });
  const xr::app::Analysis a = xr::app::analyze(r);
  const std::string md = xr::app::render_markdown(xr::app::build_document({r, a}));
  CHECK_THAT(md, Contains("same GPU: the cuda and opencl devices share UUID "));
  CHECK_THAT(md, Contains("### cuda vs opencl · sum i32 · cold · n = 1K"));
  CHECK_THAT(md,
             Contains("| variant | cuda ms | opencl ms | opencl/cuda | cuda GB/s | opencl GB/s |"));
  CHECK_THAT(md, Contains("| variant | opencl/cuda | cuda regs | opencl regs | cuda smem B | "
                          "opencl smem B | cuda occupancy | opencl occupancy | differs |"));
  CHECK_THAT(md, !Contains("vulkan"));
  const auto j = nlohmann::ordered_json::parse(render_json(r));
  REQUIRE_FALSE(j["side_by_side"].empty());
  for (const auto& x : j["side_by_side"]) {
    CHECK_FALSE(x.contains("vulkan_ms"));
    CHECK_FALSE(x.contains("compiled_differences"));
    CHECK(x.contains("opencl_compiled_differences"));
  }
}

// "% peak" against the best probe of any API on one GPU: an API whose own probe runs slower is
// held against the faster one, and says whose; a device of another UUID keeps its own.
TEST_CASE("compare report: % peak against the best probe of any API on one GPU", "[unit][report]") {
  using Catch::Matchers::Contains;
  CompareReport r = xrtest::three_apis_report();
  REQUIRE(r.devices[2].backend == "vulkan");
  REQUIRE(r.devices[3].backend == "opencl");
  r.devices[2].read_peak_gbps = 3200;
  r.devices[3].read_peak_gbps = 5000;
  const xr::app::Analysis a = xr::app::analyze(r);
  for (std::size_t d : {1, 2, 3}) {
    CAPTURE(d);
    CHECK(a.device_peaks[d].read.gbps == 5000);
    CHECK(a.device_peaks[d].read.backend == "opencl");
  }
  CHECK_FALSE(a.device_peaks[0].read.backend == "opencl");  // the CPU has no UUID
  for (std::size_t i = 0; i < r.rows.size(); ++i)
    if (r.rows[i].backend == "vulkan" && r.rows[i].measured() && a.metrics[i].pct_peak) {
      CHECK(*a.metrics[i].pct_peak == Approx(100.0 * a.metrics[i].gbps / 5000));
    }
  const std::string text = xr::app::render_text(xr::app::build_document({r, a}), xr::app::Style{});
  CHECK_THAT(text, Contains("vulkan's % peak is against opencl's read peak (5000 GB/s): the "
                            "fastest probe of any API on its GPU"));
  CHECK_THAT(text, !Contains("opencl's % peak is against"));

  r.devices[2].info.uuid = "fedcba9876543210fedcba9876543210";
  const xr::app::Analysis apart = xr::app::analyze(r);
  CHECK(apart.device_peaks[2].read.gbps == 3200);
  CHECK(apart.device_peaks[2].read.backend == "vulkan");
  CHECK(apart.device_peaks[1].read.gbps == 5000);
}
