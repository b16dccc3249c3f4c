// A saved report is untrusted input (--merge, --baseline, `xreduce diff`): its strings reach every
// rendering escaped, each field read is checked for its type and range, and no file — a real
// report truncated or mutated at random — gets anything but a report or one usage error.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "report/analysis.hpp"
#include "report/baseline.hpp"
#include "report/baseline_document.hpp"
#include "report/document.hpp"
#include "report/render.hpp"
#include "report/saved.hpp"
#include "report_fixtures.hpp"
#include "test_support.hpp"
#include "xreduce/error.hpp"
#include "xreduce/printable.hpp"

using json = nlohmann::ordered_json;
using xr::ErrorCategory;
using xr::app::CompareReport;
using xr::app::SavedReport;
using xrtest::require_error;

namespace {

// A real report's JSON: every backend, both primitives, compiled facts, clocks.
std::string report_text() {
  const CompareReport r = xrtest::ladders_report();
  const xr::app::Analysis a = xr::app::analyze(r);
  return xr::app::render_json({r, a});
}

SavedReport parse(const std::string& text) {
  return xr::app::parse_saved_report(text, "r.json", "diff");
}

// Whether `text` holds a byte a terminal would act on: a C0 control but the newline, DEL, a C1
// control or a byte that is not valid UTF-8 (printable() changes every such line).
bool has_raw_control(const std::string& text) {
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line(text.data() + at, end - at);
    if (xr::printable(line) != line) return true;
    at = end + 1;
  }
  return false;
}

// Every rendering of `now` against `old` (diff) and of `now` alone (--merge's report).
std::vector<std::string> renderings(const CompareReport& old, const CompareReport& now) {
  std::vector<std::string> out;
  try {
    const xr::app::BaselineDiff d =
        xr::app::diff_reports(old, {"a.json", old.version, old.commit, old.command}, now,
                              {"b.json", now.version, now.commit, now.command}, "diff", {});
    const xr::app::Document doc = xr::app::diff_document(d, "xreduce diff a.json b.json");
    out.push_back(xr::app::render_text(doc, xr::app::Style{}));
    out.push_back(xr::app::render_markdown(doc));
    out.push_back(xr::app::render_diff_csv(d));
    out.push_back(xr::app::render_diff_json(d, "0", "c", "xreduce diff a.json b.json"));
  } catch (const xr::Error& e) {
    CHECK(e.category() == ErrorCategory::usage);  // no row in common
  }
  const xr::app::Analysis a = xr::app::analyze(now);
  const xr::app::Document doc = xr::app::build_document({now, a});
  out.push_back(xr::app::render_text(doc, xr::app::Style{}));
  out.push_back(xr::app::render_markdown(doc));
  out.push_back(xr::app::render_csv({now, a}));
  out.push_back(xr::app::render_json({now, a}));
  return out;
}

}  // namespace

TEST_CASE("report reader: a report's strings reach every rendering escaped",
          "[unit][report][hostile]") {
  json j = json::parse(report_text());
  const std::string hostile =
      "\x1b[2J\x1b[31mPWNED\x07\x1b]0;title\x07\xc2\x9b"
      "1m\x7f";
  j["command"] = "xreduce " + hostile;
  j["xreduce_version"] = hostile;
  j["devices"][0]["name"] = "GPU" + hostile;
  j["devices"][0]["knobs"] = {{"XR_" + hostile, hostile}};
  j["results"][0]["variant"] = "smem/" + hostile;
  j["results"][0]["reason"] = hostile;
  j["results"][1]["result"] = hostile;
  const SavedReport old = parse(report_text());
  const SavedReport now = parse(j.dump());
  CHECK(now.data.command.find("\\x1b[2J") != std::string::npos);
  CHECK(now.data.devices[0].knobs.at(0).second == xr::printable(hostile));
  for (const std::string& out : renderings(old.data, now.data)) {
    CHECK_FALSE(has_raw_control(out));
    CHECK(out.find("PWNED") != std::string::npos);
  }
  // JSON output escapes the escapes again: what it reads back is what it wrote.
  const SavedReport again = parse(xr::app::render_json({now.data, xr::app::analyze(now.data)}));
  CHECK(again.data.command == now.data.command);
}

TEST_CASE("report reader: each field read is checked for its type and range",
          "[unit][report][hostile]") {
  const json good = json::parse(report_text());
  CHECK_NOTHROW(parse(good.dump()));
  const auto refused = [&](auto change, std::string_view needle) {
    json j = good;
    change(j["results"][0]);
    INFO(j["results"][0].dump());
    require_error([&] { parse(j.dump()); }, ErrorCategory::usage, needle);
  };
  refused([](json& r) { r["ok"] = "yes"; }, "result 0's \"ok\" is not true or false");
  refused([](json& r) { r["ok"] = false; }, "result 0's \"ok\" is false but its status is 'ok'");
  refused([](json& r) { r["rel_spread"] = "x"; }, "result 0's \"rel_spread\" is not a number");
  refused([](json& r) { r["rel_spread"] = 1e6; },
          "\"rel_spread\" is 1000000.0, not a number from 0 to 1");
  refused([](json& r) { r["rel_spread"] = 0.9; }, "is wider than its times allow");
  refused([](json& r) { r["reps"] = "x"; }, "result 0's \"reps\" is not a number");
  refused([](json& r) { r["reps"] = 2.5; }, "\"reps\" is 2.5, not a whole number");
  refused([](json& r) { r["median_ms"] = -1.0; }, "\"median_ms\" is -1.0, not a positive number");
  refused([](json& r) { r["median_ms"] = 0; }, "\"median_ms\" is 0, not a positive number");
  refused([](json& r) { r["min_ms"] = 1e9; }, "result 0's times are out of order");
  refused([](json& r) { r["n"] = -5; }, "result 0's \"n\" is -5, not a whole number");
  refused([](json& r) { r["timing"] = "wall"; }, "result 0's \"timing\" is 'wall'");
  refused(
      [](json& r) {
        r["clock_mhz"] = {{"min", 2000}, {"median", 1900}};
      },
      "\"min\" is above \"median\"");
  refused([](json& r) { r["throttled"] = 1; }, "\"throttled\" is not true or false");
  refused([](json& r) { r["n"] = UINT64_MAX; },
          "result 0's \"n\" is 18446744073709551615, not a whole number from 0 to "
          "9007199254740992");
  refused([](json& r) { r["min_ms"] = "fast"; }, "result 0's \"min_ms\" is not a number");
  refused([](json& r) { r["max_ms"] = -2.0; }, "\"max_ms\" is -2.0, not a positive number");
  // The numbers derived from a row's times are derived again, but must be numbers in range.
  refused([](json& r) { r["gbps"] = "fast"; }, "result 0's \"gbps\" is not a number");
  refused([](json& r) { r["gbps"] = -1.0; }, "\"gbps\" is -1.0, not a number of at least 0");
  refused([](json& r) { r["pct_peak"] = -5; }, "\"pct_peak\" is -5, not a number of at least 0");
  refused([](json& r) { r["step_speedup"] = 0; }, "\"step_speedup\" is 0, not a positive number");
  refused([](json& r) { r["vs_cub"] = true; }, "result 0's \"vs_cub\" is not a number");
  json device = good;
  device["devices"][0]["read_peak_gbps"] = -3;
  require_error([&] { parse(device.dump()); }, ErrorCategory::usage,
                "device 0's \"read_peak_gbps\" is -3, not a positive number");
  device = good;
  device["devices"][0]["knobs"] = {{"XR_X", 3}};
  require_error([&] { parse(device.dump()); }, ErrorCategory::usage,
                "device 0's knob \"XR_X\" is not a string");
  device = good;
  device["devices"][0]["index"] = -1;
  require_error([&] { parse(device.dump()); }, ErrorCategory::usage,
                "device 0's \"index\" is -1, not a whole number from 0 to 2147483647");
  device["devices"][0]["index"] = 0;
  device["devices"][0]["memory_bytes"] = "80 GB";
  require_error([&] { parse(device.dump()); }, ErrorCategory::usage,
                "device 0's \"memory_bytes\" is not a number");
  // Read as the file has them, for a merged device's line.
  device["devices"][0]["index"] = 3;
  device["devices"][0]["memory_bytes"] = std::uint64_t{80} << 30;
  const SavedReport kept = parse(device.dump());
  CHECK(kept.data.devices[0].info.index == 3);
  CHECK(kept.data.devices[0].info.memory_bytes == std::uint64_t{80} << 30);
  // A number past a double's range, named by its field (the parser would say only "overflow").
  std::string text = good.dump();
  const std::size_t at = text.find("\"median_ms\":") + 12;
  text.replace(at, text.find(',', at) - at, "1e400");
  require_error([&] { parse(text); }, ErrorCategory::usage,
                "diff 'r.json': result 0's \"median_ms\" is a number past the range of a double");
}

TEST_CASE("report reader: truncated and mutated reports are a report or one usage error",
          "[unit][report][hostile]") {
  const std::string text = report_text();
  const SavedReport old = parse(text);
  std::mt19937_64 random(20261126);
  const std::vector<std::string> replacements = {
      "1e400", "-1",        "\"x\"",       "null",
      "true",  "1e308",     "0",           "\"\\u001b[2J\"",
      "[]",    "{}",        "\"\\u009b\"", "18446744073709551616",
      "-0",    "4294967296"};
  int parsed = 0, refused = 0;
  for (int i = 0; i < 600; ++i) {
    std::string mutated = text;
    const std::size_t at = random() % mutated.size();
    switch (i % 4) {
      case 0:  // truncated
        mutated.resize(at);
        break;
      case 1:  // one byte changed to any other
        mutated[at] = static_cast<char>(random() % 256);
        break;
      case 2: {  // a value replaced by another of any type
        const std::size_t colon = mutated.find(':', at);
        if (colon == std::string::npos) break;
        const std::size_t end = mutated.find_first_of(",}", colon);
        mutated.replace(colon + 1, end - colon - 1, replacements[random() % replacements.size()]);
        break;
      }
      case 3:  // an escape sequence inside whatever string is there
        mutated.insert(at, "\\u001b]0;x\\u0007");
        break;
    }
    CAPTURE(i, at);
    try {
      const SavedReport now = parse(mutated);
      ++parsed;
      for (const std::string& out : renderings(old.data, now.data))
        CHECK_FALSE(has_raw_control(out));
    } catch (const xr::Error& e) {
      ++refused;
      CHECK(e.category() == ErrorCategory::usage);
      CHECK(std::string(e.what()).rfind("diff 'r.json': ", 0) == 0);
      CHECK_FALSE(has_raw_control(e.what()));
    }
  }
  CHECK(parsed > 50);
  CHECK(refused > 50);
}
