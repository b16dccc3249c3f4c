// compare --merge: every way a peer file can be wrong is refused with Error(usage) and one exact
// line naming the file and the field, as the CLI prints it; a backend the run measured is refused.
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "report/merge.hpp"
#include "report_fixtures.hpp"
#include "test_support.hpp"
#include "xreduce/error.hpp"

using json = nlohmann::ordered_json;
using xr::app::CompareReport;

namespace {

// The message of the Error(usage) that merging `text` into `into` throws; "" when none.
std::string merge_error(const std::string& text, CompareReport into = {},
                        const std::string& path = "p.json") {
  try {
    xrtest::merge(into, text, path);
  } catch (const xr::Error& e) {
    CHECK(e.category() == xr::ErrorCategory::usage);
    return e.what();
  }
  return "";
}

json peers() {
  return json::parse(xrtest::peers_json());
}

// peers() with `field` of its first result set to `value` (null: removed).
std::string with_result_field(const std::string& field, const json& value) {
  json j = peers();
  if (value.is_null())
    j["results"][0].erase(field);
  else
    j["results"][0][field] = value;
  return j.dump();
}

}  // namespace

TEST_CASE("merge refuses text that is not a compare report", "[unit][report][merge]") {
  CHECK(merge_error("{\"devices\": [") == "--merge 'p.json': not JSON (a syntax error at byte 14)");
  CHECK(merge_error("[1, 2]") == "--merge 'p.json': not a compare report (expected a JSON object)");
  CHECK(merge_error("{\"results\": []}") == "--merge 'p.json': the report has no \"devices\"");
  CHECK(merge_error("{\"devices\": {}, \"results\": []}") ==
        "--merge 'p.json': the report's \"devices\" is not an array");
  CHECK(merge_error("{}", {}, "a\x1b[2J.json") ==
        "--merge 'a\\x1b[2J.json': the report has no \"devices\"");
}

TEST_CASE("merge refuses a device without its fields or twice", "[unit][report][merge]") {
  CHECK(merge_error(R"({"devices": [{"name": "x"}], "results": []})") ==
        "--merge 'p.json': device 0 has no \"backend\"");
  CHECK(merge_error(R"({"devices": [{"backend": 7}], "results": []})") ==
        "--merge 'p.json': device 0's \"backend\" is not a string");
  CHECK(merge_error(R"({"devices": [{"backend": "torch"}], "results": []})") ==
        "--merge 'p.json': device 0 has no \"name\"");
  json twice = peers();
  twice["devices"][1]["backend"] = "torch";
  CHECK(merge_error(twice.dump()) == "--merge 'p.json': backend 'torch' is already in this report");
  CompareReport measured;
  measured.devices.push_back({});
  measured.devices.back().backend = "cupy";
  CHECK(merge_error(peers().dump(), measured) ==
        "--merge 'p.json': backend 'cupy' is already in this report");
}

TEST_CASE("merge refuses a result with a field missing, mistyped or unknown",
          "[unit][report][merge]") {
  CHECK(merge_error(with_result_field("backend", "jax")) ==
        "--merge 'p.json': result 0's backend 'jax' is not among the file's devices");
  CHECK(merge_error(with_result_field("variant", nullptr)) ==
        "--merge 'p.json': result 0 has no \"variant\"");
  CHECK(merge_error(with_result_field("dtype", "i3\x1b")) ==
        "--merge 'p.json': result 0's \"dtype\" is 'i3\\x1b', which xreduce does not know");
  CHECK(merge_error(with_result_field("op", 3)) ==
        "--merge 'p.json': result 0's \"op\" is not a string");
  CHECK(merge_error(with_result_field("primitive", "scan")) ==
        "--merge 'p.json': result 0 has no \"scan\"");
  CHECK(merge_error(with_result_field("mode", "warm")) ==
        "--merge 'p.json': result 0's \"mode\" is 'warm', which xreduce does not know");
  CHECK(merge_error(with_result_field("n", 1.5)) ==
        "--merge 'p.json': result 0's \"n\" is 1.5, not a whole number from 0 to "
        "9007199254740992");
  CHECK(merge_error(with_result_field("n", -1)) ==
        "--merge 'p.json': result 0's \"n\" is -1, not a whole number from 0 to "
        "9007199254740992");
  CHECK(merge_error(with_result_field("n", "1K")) ==
        "--merge 'p.json': result 0's \"n\" is not a number");
  CHECK(merge_error(with_result_field("status", "maybe")) ==
        "--merge 'p.json': result 0's status 'maybe' is unknown");
  CHECK(merge_error(with_result_field("median_ms", nullptr)) ==
        "--merge 'p.json': result 0 has no \"median_ms\"");
}

TEST_CASE("merge names a file it cannot read", "[unit][report][merge]") {
  xrtest::require_error([] { xr::app::read_saved_report("/nonexistent/peers.json", "--merge"); },
                        xr::ErrorCategory::usage,
                        "--merge '/nonexistent/peers.json': cannot read it: No such file");
  xrtest::TempDir dir;
  xrtest::write_bytes(dir / "peers.json", xrtest::peers_json());
  const auto merged = xr::app::read_saved_report((dir / "peers.json").string(), "--merge");
  CHECK(merged.data.devices.size() == 2);
  CHECK(merged.data.rows.size() == 8);
  CHECK(merged.path == (dir / "peers.json").string());
  CompareReport r;
  xr::app::fold_merged(r, merged);
  CHECK(r.devices[0].merged_from == (dir / "peers.json").string());
}

TEST_CASE("a saved report's schema version: absent is 1, newer than this build is refused",
          "[unit][report][merge]") {
  json j = peers();
  CHECK(xr::app::parse_saved_report(j.dump(), "p.json", "--merge").schema == 1);
  j["schema_version"] = xr::app::kReportSchema;
  CHECK(xr::app::parse_saved_report(j.dump(), "p.json", "--merge").schema ==
        xr::app::kReportSchema);
  j["schema_version"] = xr::app::kReportSchema + 1;
  CHECK(merge_error(j.dump()) ==
        "--merge 'p.json': schema version 5 is newer than this xreduce reads (up to 4): the "
        "report was written by a later xreduce");
  j["schema_version"] = "2";
  CHECK(merge_error(j.dump()) == "--merge 'p.json': \"schema_version\" is not a version number");
  CHECK(merge_error(R"({"baseline": {}})") ==
        "--merge 'p.json': a diff, not a compare report (give the reports it compared)");
}

TEST_CASE("merge accepts a well-formed peers file and notes what differs",
          "[unit][report][merge]") {
  CHECK(merge_error(peers().dump()).empty());
  CHECK(merge_error(R"({"devices": [], "results": []})").empty());
  CompareReport r = xrtest::end_to_end_report();
  xrtest::merge(r, xrtest::peers_json(), xrtest::kPeersPath);
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0] ==
        "torch rows of bench/out/peers.json were measured in batch mode, which this run did not "
        "measure");
}
