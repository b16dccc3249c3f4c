// compare --baseline and xreduce diff through the binary: two reports with known differences
// (synthetic JSON, and a real CPU run against a baseline edited to be faster), the verdicts in
// every format, --fail-above's exit code and the rows it names, and every bad baseline refused
// with one line and exit 2.
#include <string>
#include <vector>

#include "cli_support.hpp"

namespace {

using namespace clitest;
namespace fs = std::filesystem;
using json = nlohmann::json;

// A reduce sum i32 cold row of backend "cuda" on a made-up device.
json row(const std::string& variant, std::uint64_t n, double ms, double spread) {
  return {{"backend", "cuda"},
          {"variant", variant},
          {"primitive", "reduce"},
          {"scan", nullptr},
          {"op", "sum"},
          {"dtype", "i32"},
          {"n", n},
          {"mode", "cold"},
          {"status", "ok"},
          {"median_ms", ms},
          {"min_ms", ms},
          {"max_ms", ms * (1 + 2 * spread)},  // as wide as a spread of `spread` needs
          {"rel_spread", spread},
          {"reps", 9},
          {"timing", "device"}};
}

// A one-pass call's compiled facts (schema 4) with `registers` and its occupancy.
json compiled(int registers, double occupancy) {
  return {{"passes", json::array({{{"kernel", "fast_single_pass"},
                                   {"block", 256},
                                   {"grid", 1024},
                                   {"registers", registers},
                                   {"shared_bytes", 132},
                                   {"occupancy", occupancy}}})},
          {"note", ""}};
}

json report(const std::string& uuid, const std::string& commit, json rows) {
  return {{"schema_version", 2},
          {"xreduce_version", "0.1.0"},
          {"commit", commit},
          {"command", "xreduce compare --backend cuda"},
          {"devices", json::array({{{"backend", "cuda"},
                                    {"name", "Test GPU"},
                                    {"uuid", uuid},
                                    {"driver_version", "1.0"}}})},
          {"results", std::move(rows)}};
}

// The baseline, and a later run where single-pass is 1.5x slower at 1M, vectorized 1.3x faster,
// sequential 10 % slower inside its 5 % spreads' band, "retired" gone and "new" added.
struct Pair {
  TempDir dir;
  fs::path old_file = dir / "old.json", new_file = dir / "new.json";
  Pair() {
    json old_single = row("fast/single-pass", 1 << 20, 0.010, 0.002);
    json new_single = row("fast/single-pass", 1 << 20, 0.015, 0.002);
    old_single["compiled"] = compiled(32, 1.0);
    new_single["compiled"] = compiled(72, 0.375);
    const json old = report("00112233445566778899aabbccddeeff", "aaaa",
                            json::array({old_single, row("fast/vectorized", 1 << 20, 0.013, 0.002),
                                         row("smem/sequential", 1 << 20, 0.020, 0.05),
                                         row("smem/retired", 1 << 20, 0.050, 0.002)}));
    const json now = report("ffeeddccbbaa99887766554433221100", "bbbb",
                            json::array({new_single, row("fast/vectorized", 1 << 20, 0.010, 0.002),
                                         row("smem/sequential", 1 << 20, 0.022, 0.05),
                                         row("smem/new", 1 << 20, 0.030, 0.002)}));
    write_bytes(old_file, old.dump());
    write_bytes(new_file, now.dump());
  }
};

std::string verdict_of(const json& baseline, const std::string& variant) {
  for (const auto& r : baseline["rows"])
    if (r["variant"] == variant) return r["verdict"];
  return "(not matched)";
}

}  // namespace

TEST_CASE("diff gives each matched row its verdict and lists the rows of one report",
          "[cli][baseline]") {
  Pair p;
  const Result r = xreduce({"diff", p.old_file.string(), p.new_file.string(), "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j["schema_version"] == 4);
  const json& b = j["baseline"];
  CHECK(verdict_of(b, "fast/single-pass") == "slower");
  CHECK(verdict_of(b, "fast/vectorized") == "faster");
  CHECK(verdict_of(b, "smem/sequential") == "same");
  CHECK(b["rows"][0]["variant"] == "fast/single-pass");  // worst first
  CHECK(b["rows"][0]["ratio"].get<double>() == Approx(1.5));
  // Its kernel took more registers and lost occupancy: the diff says which facts moved.
  const json& changes = b["rows"][0]["compiled_changes"];
  REQUIRE(changes.size() == 2);
  CHECK(changes[0] == json{{"fact", "registers"}, {"pass", 1}, {"old", "32"}, {"new", "72"}});
  CHECK(changes[1]["fact"] == "occupancy");
  CHECK(b["rows"][1]["compiled_changes"].empty());
  CHECK(b["counts"]["matched"] == 3);
  REQUIRE(b["only_old"].size() == 1);
  CHECK(b["only_old"][0]["variant"] == "smem/retired");
  REQUIRE(b["only_new"].size() == 1);
  CHECK(b["only_new"][0]["variant"] == "smem/new");
  CHECK(b["old"]["commit"] == "aaaa");
  CHECK(b["devices"][0]["differences"][0].get<std::string>().find("another device") == 0);

  const Result text = xreduce({"diff", p.old_file.string(), p.new_file.string()});
  REQUIRE(text.code == 0);
  CHECK(text.out.find("differs: commit aaaa -> bbbb") != std::string::npos);
  CHECK(text.out.find("differs: cuda another device: Test GPU (UUID "
                      "ffeeddccbbaa99887766554433221100)") != std::string::npos);
  CHECK(text.out.find("3 rows matched: 1 slower, 1 same, 1 faster") != std::string::npos);
  CHECK(text.out.find("registers 32 -> 72 (pass 1); occupancy 100% -> 37.5% (pass 1)") !=
        std::string::npos);
  CHECK(text.out.find("only in the baseline") != std::string::npos);
  // Worst first in the table too: single-pass's line before vectorized's.
  CHECK(text.out.find("fast/single-pass") < text.out.find("fast/vectorized"));

  const Result csv = xreduce({"diff", p.old_file.string(), p.new_file.string(), "--format", "csv"});
  REQUIRE(csv.code == 0);
  CHECK(csv.out.rfind("backend,variant,primitive,scan,op,dtype,n,mode,verdict,", 0) == 0);
  CHECK(csv.out.find("cuda,fast/single-pass,reduce,,sum,i32,1048576,cold,slower,0.01,0.015,1.5,") !=
        std::string::npos);
  CHECK(csv.out.find(",only_old,") != std::string::npos);
  CHECK(csv.out.find(",only_new,") != std::string::npos);

  const Result md = xreduce({"diff", p.old_file.string(), p.new_file.string(), "--format", "md"});
  REQUIRE(md.code == 0);
  CHECK(md.out.rfind("# xreduce diff", 0) == 0);
  CHECK(md.out.find("| cuda | fast/single-pass | sum i32 · cold | 1M (1048576) |") !=
        std::string::npos);
}

TEST_CASE("diff --fail-above exits 1 naming the rows slower beyond noise by more than PCT",
          "[cli][baseline]") {
  Pair p;
  const std::vector<std::string> diff = {"diff", p.old_file.string(), p.new_file.string()};
  auto with = [&](std::vector<std::string> more) {
    auto args = diff;
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  const Result over = xreduce(with({"--fail-above", "20"}));
  CHECK(over.code == 1);
  CHECK(std::count(over.err.begin(), over.err.end(), '\n') == 1);
  CHECK(over.err.find("slower than the baseline by more than 20% beyond noise: cuda "
                      "fast/single-pass sum i32 · cold n = 1M") != std::string::npos);
  CHECK(over.out.find("1 row is slower than the baseline by more than 20%") != std::string::npos);
  // 10 % slower inside the noise is never over the limit, however low.
  const Result low = xreduce(with({"--fail-above", "0"}));
  CHECK(low.code == 1);
  CHECK(low.err.find("smem/sequential") == std::string::npos);
  CHECK(xreduce(with({"--fail-above", "60"})).code == 0);
  CHECK(xreduce(diff).code == 0);  // without --fail-above a slower row is a result, not a failure
  expect_error(with({"--fail-above", "abc"}), 2, "--fail-above must be a percentage");
  expect_error(with({"--fail-above", "-5"}), 2, "--fail-above must be a percentage");
}

TEST_CASE("diff --backend, --variant, --dtype, --mode keep only the rows they name",
          "[cli][baseline]") {
  Pair p;
  const std::vector<std::string> diff = {"diff", p.old_file.string(), p.new_file.string(),
                                         "--format", "json"};
  auto with = [&](std::vector<std::string> more) {
    auto args = diff;
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  const Result r = xreduce(with(
      {"--variant", "fast/*,smem/ret*", "--backend", "cuda", "--dtype", "i32", "--mode", "cold"}));
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json b = json::parse(r.out)["baseline"];
  CHECK(b["counts"]["matched"] == 2);
  CHECK(b["only_old"].size() == 1);  // smem/retired
  CHECK(b["only_new"].empty());      // smem/new is filtered out
  expect_error(with({"--mode", "batch"}), 2, "no row in common");
  expect_error(with({"--dtype", "f32"}), 2, "among the rows the filters keep");
  expect_error(with({"--dtype", "i33"}), 2, "i33");
  expect_error(with({"--mode", "hot"}), 2, "unknown --mode 'hot'");
}

TEST_CASE("bad baselines are bad input: one line, exit 2", "[cli][baseline][usage]") {
  Pair p;
  TempDir dir;
  const auto bad = dir / "bad.json";
  auto refused = [&](const std::string& bytes, std::string_view needle) {
    write_bytes(bad, bytes);
    expect_error({"diff", bad.string(), p.new_file.string()}, 2, needle);
    expect_error({"compare", "--backend", "cpu", "--n", "1K", "--baseline", bad.string()}, 2,
                 needle);
  };
  refused("{\"devices\": [\x1b[31m", "not JSON");
  refused("[1, 2, 3]", "not a compare report");
  refused(R"({"rows": []})", "the report has no \"devices\"");
  json future = json::parse(slurp(p.old_file));
  future["schema_version"] = 99;
  refused(future.dump(), "schema version 99 is newer than this xreduce reads");
  // Another machine's rows only: nothing to compare.
  json elsewhere = json::parse(slurp(p.old_file));
  for (auto& r : elsewhere["results"]) r["backend"] = "cupy";
  elsewhere["devices"][0]["backend"] = "cupy";
  write_bytes(bad, elsewhere.dump());
  expect_error({"diff", bad.string(), p.new_file.string()}, 2, "no row in common");
  // A diff's own output is no report to diff against.
  const Result d = xreduce({"diff", p.old_file.string(), p.new_file.string(), "--format", "json"});
  write_bytes(bad, d.out);
  expect_error({"diff", bad.string(), p.new_file.string()}, 2, "a diff, not a compare report");
  expect_error({"diff", (dir / "missing.json").string(), p.new_file.string()}, 2, "cannot read");
  expect_error({"diff", p.old_file.string()}, 2, "new");
  expect_error({"diff", p.old_file.string(), p.new_file.string(), "--format", "xml"}, 2,
               "unknown --format 'xml' for diff");
  expect_error({"compare", "--backend", "cpu", "--n", "1K", "--fail-above", "5"}, 2,
               "--fail-above needs --baseline");
  CHECK(dir.entries() == 1);  // nothing but the fixture: no output left behind
}

TEST_CASE("compare --baseline: a real run against a baseline made faster on purpose",
          "[cli][baseline][compare]") {
  TempDir dir;
  const auto first = dir / "first.json", baseline = dir / "baseline.json";
  // 64K: cpu/sequential takes some 20 us there, so a thousandth of it is past the noise floor
  // (1.25 us of the shorter time) in every run; at 4K it took about 1.4 us, and a run that took
  // under 1.25 us was called "same".
  const std::vector<std::string> run = {"compare", "--backend", "cpu", "--n",
                                        "1K,64K",  "--reps",    "3",   "--quiet"};
  auto with = [&](std::vector<std::string> more) {
    auto args = run;
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  const Result saved = xreduce(with({"--save-json", first.string(), "--format", "csv"}));
  REQUIRE(saved.code == 0);
  // The baseline claims cpu/sequential at 64K took a thousandth of its time, with no spread, and
  // holds a variant this run does not measure.
  json j = json::parse(slurp(first));
  REQUIRE(j["schema_version"] == 4);
  // The commit built from: 40 hex digits (and a word on uncommitted changes), or null outside git.
  if (!j["commit"].is_null()) {
    const std::string commit = j["commit"];
    CHECK(commit.size() >= 40);
    CHECK(commit.find_first_not_of("0123456789abcdef") >= 40);
  }
  bool edited = false;
  for (auto& r : j["results"])
    if (r["variant"] == "cpu/sequential" && r["n"] == 65536) {
      for (const char* time : {"median_ms", "min_ms", "max_ms"})
        r[time] = r[time].get<double>() / 1000;
      r["rel_spread"] = 0.0;
      edited = true;
    }
  REQUIRE(edited);
  json gone = j["results"][0];
  gone["variant"] = "cpu/retired";
  j["results"].push_back(gone);
  write_bytes(baseline, j.dump());

  const Result r =
      xreduce(with({"--baseline", baseline.string(), "--fail-above", "50", "--format", "json"}));
  INFO(r.err);
  CHECK(r.code == 1);
  CHECK(r.err.find("cpu cpu/sequential sum i32 · cold n = 64K") != std::string::npos);
  const json out = json::parse(r.out);
  REQUIRE(out.contains("baseline"));
  CHECK(out["results"].size() == j["results"].size() - 1);  // the run's own rows, all of them
  CHECK(verdict_of(out["baseline"], "cpu/sequential") == "slower");
  CHECK(out["baseline"]["rows"][0]["variant"] == "cpu/sequential");
  CHECK(out["baseline"]["rows"][0]["over_limit"] == true);
  CHECK(out["baseline"]["only_old"][0]["variant"] == "cpu/retired");
  CHECK(out["baseline"]["old"]["path"] == baseline.string());
  CHECK(out["baseline"]["new"]["path"].is_null());

  // The text report ends with the comparison; CSV is the diff's.
  const Result text = xreduce(with({"--baseline", baseline.string()}));
  CHECK(text.code == 0);
  CHECK(text.out.find("against the baseline " + baseline.string()) != std::string::npos);
  CHECK(text.out.find("only in the baseline") != std::string::npos);
  const Result csv = xreduce(with({"--baseline", baseline.string(), "--format", "csv"}));
  CHECK(csv.code == 0);
  CHECK(csv.out.find("cpu,cpu/sequential,reduce,,sum,i32,65536,cold,slower,") != std::string::npos);
}

TEST_CASE("diff --plot draws the new/old ratio per variant", "[cli][baseline][plot]") {
  if (std::system("python3 -c 'import matplotlib' >/dev/null 2>&1") != 0 &&
      std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") != 0)
    skip("python3 with matplotlib is not installed");
  Pair p;
  TempDir dir;
  const auto svg = dir / "ratio.svg";
  const Result r = xreduce(
      {"diff", p.old_file.string(), p.new_file.string(), "--plot", svg.string(), "--quiet"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::string drawn = slurp(svg);
  CHECK(drawn.find("<svg") != std::string::npos);
  CHECK(drawn.find("new / old time") != std::string::npos);
  CHECK(dir.entries() == 1);

  // compare --baseline --plot draws the comparison, not the time plot.
  const auto run = dir / "run.json", ratio = dir / "compare.svg";
  REQUIRE(xreduce({"compare", "--backend", "cpu", "--n", "1K,4K", "--reps", "2", "--quiet",
                   "--save-json", run.string(), "--format", "csv"})
              .code == 0);
  const Result c = xreduce({"compare", "--backend", "cpu", "--n", "1K,4K", "--reps", "2", "--quiet",
                            "--baseline", run.string(), "--plot", ratio.string()});
  INFO(c.err);
  REQUIRE(c.code == 0);
  CHECK(slurp(ratio).find("new / old time") != std::string::npos);
}
