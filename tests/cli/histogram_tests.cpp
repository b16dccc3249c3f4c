// The tool's histogram: run, compare and inspect with --bins, --range, --counters and a
// histogram's --dist; its counts saved as .npy and its samples read from one; its reports' fields
// read back by diff; and every mistake in its flags one line with its exit code.
#include "cli_support.hpp"
#include "xreduce/histogram_reference.hpp"
#include "xreduce/io.hpp"

using namespace clitest;

namespace {

const std::vector<std::string> kCpuHistogram = {"run",       "--backend",    "cpu",
                                                "--variant", "cpu/parallel", "--primitive",
                                                "histogram", "--reps",       "1"};

std::vector<std::string> plus(std::vector<std::string> base, const std::vector<std::string>& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

}  // namespace

TEST_CASE("run --primitive histogram: u8 samples, 256 bins over 0:256 by default, checked",
          "[cli][histogram]") {
  const Result text = xreduce(plus(kCpuHistogram, {"--n", "100000"}));
  INFO(text.err);
  REQUIRE(text.code == 0);
  CHECK(text.out.find("n = 100000 u8, seed 42, uniform distribution") != std::string::npos);
  CHECK(text.out.find("operation  histogram of 256 bins over 0:256") != std::string::npos);
  CHECK(text.out.find("counted    100000") != std::string::npos);
  CHECK(text.out.find("GB/s (samples read)") != std::string::npos);

  const Result r = xreduce(
      plus(kCpuHistogram, {"--n", "5000", "--dtype", "f32", "--range", "-2.5:23.2", "--bins", "257",
                           "--counters", "u64", "--dist", "part-out", "--format", "json"}));
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j["primitive"] == "histogram");
  CHECK(j["bins"] == 257);
  CHECK(j["range"] == "-2.5:23.2");
  CHECK(j["counters"] == "u64");
  CHECK(j["dist"] == "part-out");
  CHECK(j["op"].is_null());
  CHECK(j["ok"] == true);
  // About half of part-out's samples fall outside the range: fewer are counted than drawn.
  CHECK(j["result"].get<std::uint64_t>() < 5000);
  CHECK(j["result"] == j["reference"]);
}

TEST_CASE("run --primitive histogram reads its samples from .npy and saves its counts as .npy",
          "[cli][histogram][npy]") {
  TempDir dir;
  const fs::path in = dir / "pixels.npy", out = dir / "counts.npy";
  xr::HostArray pixels(xr::DType::u8, 1000);
  auto p = pixels.as<std::uint8_t>();
  for (std::size_t i = 0; i < p.size(); ++i)
    p[i] = static_cast<std::uint8_t>(i % 10 == 0 ? 7 : 200);
  xr::write_npy(in, pixels.view());
  const Result r = xreduce(
      plus(kCpuHistogram, {"--input", in.string(), "--bins", "16", "--output", out.string()}));
  INFO(r.err);
  REQUIRE(r.code == 0);
  const xr::HostArray counts = xr::read_npy(out, xr::DType::u32);
  REQUIRE(counts.size() == 16);
  // 16 bins over 0:256 are 16 values wide: 7 in bin 0, 200 in bin 12.
  const auto c = counts.as<std::uint32_t>();
  CHECK(c[0] == 100);
  CHECK(c[12] == 900);
  CHECK(std::accumulate(c.begin(), c.end(), std::uint64_t{0}) == 1000);
  // The counts of u64 counters are u64 in the file.
  const Result wide = xreduce(
      plus(kCpuHistogram, {"--input", in.string(), "--counters", "u64", "--output", out.string()}));
  REQUIRE(wide.code == 0);
  CHECK(xr::read_npy(out, xr::DType::u64).size() == 256);
}

TEST_CASE("a histogram's flags: each mistake is one line with its exit code", "[cli][histogram]") {
  const auto run = [](const std::vector<std::string>& more) {
    return plus(kCpuHistogram, plus({"--n", "100"}, more));
  };
  expect_error(run({"--bins", "0"}), 2, "--bins '0': expected a whole number from 1 to 16777216");
  expect_error(run({"--bins", "16777217"}), 2, "expected a whole number from 1 to 16777216");
  expect_error(run({"--bins", "12x"}), 2, "--bins '12x'");
  expect_error(run({"--range", "5:1"}), 2, "--range '5:1': expected LO:HI");
  expect_error(run({"--range", "0:inf"}), 2, "--range '0:inf'");
  expect_error(run({"--range", "0:300"}), 2,
               "the range 0:300 is not within the samples' values 0:256 for u8 samples");
  expect_error(run({"--range", "0.5:200"}), 2, "not an integer, for integer samples");
  expect_error(run({"--counters", "u16"}), 2, "unknown --counters 'u16' (expected u32 or u64)");
  expect_error(run({"--dist", "small"}), 2, "unknown --dist 'small' for a histogram");
  expect_error(run({"--op", "max"}), 2, "--op applies to reduce and scan, not histogram");
  expect_error(run({"--scan", "inclusive"}), 2, "--scan applies to --primitive scan");
  expect_error(run({"--order", "desc"}), 2, "apply to --primitive sort");
  expect_error(run({"--dtype", "i64"}), 3, "does not support dtype i64");
  expect_error(
      {"run", "--backend", "cpu", "--variant", "cpu/sequential", "--n", "10", "--bins", "4"}, 2,
      "--bins, --range and --counters apply to --primitive histogram");
  expect_error(
      {"run", "--backend", "cpu", "--variant", "cpu/sequential", "--n", "10", "--dist", "one-bin"},
      2, "unknown --dist 'one-bin' for a reduce");
  expect_error({"compare", "--backend", "cpu", "--primitive", "reduce,histogram", "--n", "10",
                "--dist", "uniform"},
               2, "unknown --dist 'uniform' for a reduce");
  expect_error(
      {"compare", "--backend", "cpu", "--primitive", "histogram", "--n", "10", "--bins", ""}, 2,
      "--bins is empty");
}

TEST_CASE(
    "compare --primitive histogram: one section a bins, its fields in JSON and CSV, diff "
    "keeps them apart",
    "[cli][histogram][compare]") {
  TempDir dir;
  const std::string saved = (dir / "h.json").string();
  const std::vector<std::string> args = {
      "compare", "--backend", "cpu",    "--primitive", "histogram", "--bins",
      "2,257",   "--n",       "3000",   "--dtype",     "u16,f32",   "--range",
      "0:4096",  "--dist",    "skewed", "--reps",      "1",         "--quiet"};
  const Result r = xreduce(plus(args, {"--format", "json", "--save-json", saved}));
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  REQUIRE(j["results"].size() == 2 * 2 * 2);  // variants x bins x dtypes
  std::set<std::uint64_t> bins;
  for (const auto& row : j["results"]) {
    CHECK(row["ok"] == true);
    CHECK(row["op"].is_null());
    CHECK(row["sort"].is_null());
    CHECK(row["histogram"]["range"] == "0:4096");
    CHECK(row["histogram"]["counters"] == "u32");
    CHECK(row["histogram"]["count"] == "host");
    bins.insert(row["histogram"]["bins"].get<std::uint64_t>());
    // GB/s counts the samples read.
    const double bytes = row["dtype"] == "u16" ? 2.0 : 4.0;
    CHECK(row["gbps"].get<double>() ==
          Approx(bytes * 3000 / (row["median_ms"].get<double>() * 1e6)));
  }
  CHECK(bins == std::set<std::uint64_t>{2, 257});
  const Result csv = xreduce(plus(args, {"--format", "csv"}));
  REQUIRE(csv.code == 0);
  CHECK(csv.out.find(",histogram_bins,histogram_range,histogram_counters,histogram_count\n") !=
        std::string::npos);
  CHECK(csv.out.find(",257,0:4096,u32,host\n") != std::string::npos);
  // diff reads the report back: every row matches itself, none of the two bins with the other.
  const Result d = xreduce({"diff", saved, saved, "--format", "json"});
  INFO(d.err);
  REQUIRE(d.code == 0);
  const json dj = json::parse(d.out)["baseline"];
  CHECK(dj["counts"]["matched"] == 8);
  CHECK(dj["counts"]["only_old"] == 0);
  CHECK(dj["counts"]["only_new"] == 0);
  for (const auto& row : dj["rows"]) CHECK(row["histogram"]["range"] == "0:4096");
}

TEST_CASE("inspect --primitive histogram: the cpu compiles nothing for each bins",
          "[cli][histogram][inspect]") {
  const Result r =
      xreduce({"inspect", "--backend", "cpu", "--primitive", "histogram", "--variant",
               "cpu/sequential", "--bins", "256,65536", "--n", "1K", "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  REQUIRE(j["rows"].size() == 2);
  for (const auto& row : j["rows"]) {
    CHECK(row["dtype"] == "u8");  // a histogram's default samples
    CHECK(row["histogram"]["range"] == "0:256");
  }
}
