// Two different measurements are never shown as one: a sort's count on the host and on the device,
// its values and bit range are part of a row's identity wherever rows are grouped (the tables'
// sections), matched and gated (diff, --baseline), exported (CSV) or drawn (--plot); a range over
// every bit of the key is the default's row; a saved report's sort rows are range-checked.
#include <functional>
#include <string>
#include <vector>

#include "cli_support.hpp"

namespace {

using namespace clitest;

// A radix/onesweep u32 sort row of backend "cuda" on a made-up device, its count on the host or
// the device.
json sort_row(const std::string& count, double ms) {
  return {{"backend", "cuda"},
          {"variant", "radix/onesweep"},
          {"primitive", "sort"},
          {"scan", nullptr},
          {"op", nullptr},
          {"sort", {{"order", "asc"}, {"values", "none"}, {"bits", "all"}, {"count", count}}},
          {"dtype", "u32"},
          {"n", 1 << 20},
          {"mode", "cold"},
          {"status", "ok"},
          {"median_ms", ms},
          {"min_ms", ms},
          {"max_ms", ms * 1.004},
          {"rel_spread", 0.002},
          {"reps", 9},
          {"timing", "device"}};
}

json report_of(json rows) {
  return {{"schema_version", 4},
          {"xreduce_version", "0.1.0"},
          {"commit", "aaaa"},
          {"command", "xreduce compare --primitive sort --count host,device"},
          {"devices", json::array({{{"backend", "cuda"},
                                    {"name", "Test GPU"},
                                    {"uuid", "00112233445566778899aabbccddeeff"},
                                    {"driver_version", "1.0"}}})},
          {"results", std::move(rows)}};
}

// A reduce row both reports below share, so that they have a row in common.
json reduce_row() {
  json row = sort_row("host", 0.5);
  row.erase("sort");
  row["variant"] = "fast/single-pass";
  row["primitive"] = "reduce";
  row["op"] = "sum";
  return row;
}

// Reports of the host count's row, the device count's (each beside one reduce row), and both.
struct CountReports {
  TempDir dir;
  fs::path host = dir / "host.json", device = dir / "device.json", both = dir / "both.json";
  CountReports() {
    write_bytes(host, report_of(json::array({sort_row("host", 3.607), reduce_row()})).dump());
    write_bytes(device, report_of(json::array({sort_row("device", 10.60), reduce_row()})).dump());
    write_bytes(
        both, report_of(json::array({sort_row("host", 3.607), sort_row("device", 10.60)})).dump());
  }
};

json diff_json(const std::vector<std::string>& args) {
  const Result r = xreduce(args);
  INFO(show(args) << "\n" << r.err);
  REQUIRE(r.code == 0);
  return json::parse(r.out)["baseline"];
}

}  // namespace

TEST_CASE("diff keeps the host count's rows and the device count's apart", "[cli][baseline]") {
  CountReports c;
  // A report against itself: both rows matched, none taken for a repeat of the other.
  const json self = diff_json({"diff", c.both.string(), c.both.string(), "--format", "json"});
  CHECK(self["counts"]["matched"] == 2);
  CHECK(self["counts"]["duplicates"] == 0);
  const Result text = xreduce({"diff", c.both.string(), c.both.string()});
  CHECK(text.out.find("repeat a key") == std::string::npos);

  // The host count's row against the device count's: no match, so no gate (a 2.9x "slowdown"
  // that is two different calls); a report of the one alone has no row in common with the other.
  const Result gated = xreduce(
      {"diff", c.host.string(), c.device.string(), "--fail-above", "5", "--format", "json"});
  INFO(gated.err);
  CHECK(gated.code == 0);
  const json apart = json::parse(gated.out)["baseline"];
  CHECK(apart["counts"]["matched"] == 1);  // the reduce row alone
  CHECK(apart["counts"]["only_old"] == 1);
  CHECK(apart["counts"]["only_new"] == 1);
  CHECK(apart["only_old"][0]["sort"]["count"] == "host");
  const TempDir alone;
  const json only_host = report_of(json::array({sort_row("host", 3.607)}));
  write_bytes(alone / "a.json", only_host.dump());
  write_bytes(alone / "b.json", report_of(json::array({sort_row("device", 10.60)})).dump());
  expect_error({"diff", (alone / "a.json").string(), (alone / "b.json").string()}, 2,
               "no row in common");

  // The CSV carries every field of a sort: its rows differ where the sorts do, and have no op.
  const Result csv = xreduce({"diff", c.both.string(), c.both.string(), "--format", "csv"});
  REQUIRE(csv.code == 0);
  std::istringstream lines(csv.out);
  std::string header, first, second;
  std::getline(lines, header);
  std::getline(lines, first);
  std::getline(lines, second);
  CHECK(header.find(",sort_order,sort_values,sort_bits,sort_count") != std::string::npos);
  CHECK(first.find("radix/onesweep,sort,,,u32,") != std::string::npos);
  CHECK(first != second);
  // The histogram's four columns follow, empty for a sort.
  CHECK((
      (first.ends_with(",asc,none,all,host,,,,") && second.ends_with(",asc,none,all,device,,,,")) ||
      (first.ends_with(",asc,none,all,device,,,,") && second.ends_with(",asc,none,all,host,,,,"))));
}

TEST_CASE("diff --plot draws the host count's rows and the device count's as two sections",
          "[cli][baseline][plot]") {
  if (std::system("python3 -c 'import matplotlib' >/dev/null 2>&1") != 0 &&
      std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") != 0)
    skip("python3 with matplotlib is not installed");
  CountReports c;
  const fs::path svg = c.dir / "ratio.svg";
  const Result r =
      xreduce({"diff", c.both.string(), c.both.string(), "--plot", svg.string(), "--quiet"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::string drawn = slurp(svg);
  CHECK(drawn.find("count on the device") != std::string::npos);
}

TEST_CASE("compare's tables give the host count's sorts and the device count's a section each",
          "[cli][compare][sort]") {
  require_vulkan_or_skip();
  const Result r = xreduce({"compare", "--backend", "vulkan", "--primitive", "sort", "--variant",
                            "radix/onesweep,bitonic/smem", "--count", "device,host", "--n", "1000",
                            "--reps", "1", "--quiet"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::string host_title = "vulkan · asc sort i32 · cold · n = 1000";
  const std::string device_title = "vulkan · asc sort, count on the device i32 · cold · n = 1000";
  const std::size_t host = r.out.find(host_title), device = r.out.find(device_title);
  REQUIRE(host != std::string::npos);
  REQUIRE(device != std::string::npos);
  // Each section's ladder holds its own rows: the first measured row of each is its ladder's
  // first (1.00x cumulative), never a step from the other count's rows.
  for (std::size_t at : {host, device}) {
    const std::size_t end = r.out.find("\n\n", at);
    const std::string section = r.out.substr(at, end - at);
    INFO(section);
    CHECK(section.find("radix/onesweep") != std::string::npos);
    CHECK(section.find("1.00x") != std::string::npos);
  }
}

TEST_CASE("a sort over every bit of its keys (--bits 0:32 of i32) is the default's operation",
          "[cli][sort]") {
  TempDir dir;
  const std::vector<std::string> sort = {
      "compare", "--backend", "cpu",    "--variant", "cpu/radix", "--primitive", "sort",
      "--n",     "1000",      "--reps", "2",         "--quiet",   "--dtype",     "i32,u64"};
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> args = sort;
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  const fs::path every = dir / "every.json", plain = dir / "plain.json";
  // 0:32 is every bit of an i32 key, not of a u64 one: the u64 rows stay a range.
  REQUIRE(xreduce(with({"--bits", "0:32", "--save-json", every.string()})).code == 0);
  REQUIRE(xreduce(with({"--save-json", plain.string()})).code == 0);
  const json saved = json::parse(slurp(every));
  for (const auto& row : saved["results"])
    CHECK(row["sort"]["bits"] == (row["dtype"] == "i32" ? "all" : "0:32"));
  const json d = diff_json({"diff", plain.string(), every.string(), "--format", "json"});
  CHECK(d["counts"]["matched"] == 1);
  CHECK(d["counts"]["only_old"] == 1);
  CHECK(d["counts"]["only_new"] == 1);
}

TEST_CASE("a saved report's sort rows are range-checked", "[cli][baseline][usage]") {
  TempDir dir;
  auto forged = [&](const std::string& name, const std::function<void(json&)>& edit) {
    json row = sort_row("host", 1.0);
    edit(row);
    const fs::path p = dir / name;
    write_bytes(p, report_of(json::array({row})).dump());
    return p.string();
  };
  const std::string good = forged("good.json", [](json&) {});
  const std::string wide = forged("bits.json", [](json& r) { r["sort"]["bits"] = "0:65"; });
  expect_error({"diff", good, wide}, 2,
               "sort bits 0:65 are not within the 32 bits of its u32 keys");
  const std::string empty = forged("count.json", [](json& r) { r["sort"]["count"] = ""; });
  expect_error({"diff", good, empty}, 2, "count (host, device)");
  const std::string op = forged("op.json", [](json& r) { r["op"] = "bogus"; });
  expect_error({"diff", good, op}, 2,
               "result 0 is a sort row, whose \"op\" is null, not \"bogus\"");
  const std::string scan = forged("scan.json", [](json& r) { r["scan"] = "inclusive"; });
  expect_error({"diff", good, scan}, 2, "whose \"scan\" is null");
  // A report from before the count's place: its sorts counted on the host.
  const std::string older = forged("older.json", [](json& r) { r["sort"].erase("count"); });
  CHECK(diff_json({"diff", good, older, "--format", "json"})["counts"]["matched"] == 1);
}
