// End-to-end tests of the built `xreduce` binary: every bad input (flags, sizes, files) is refused
// with the documented exit code and exactly one line on stderr; the happy paths print what they
// promise in every format. Fixtures (.npy/.bin, good and broken) are written at run time into a
// temporary directory; nothing binary is committed.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "xreduce/generate.hpp"
#include "xreduce/io.hpp"
#include "xreduce/reference.hpp"
#include "xreduce/sort_reference.hpp"

#include "cli_support.hpp"

namespace {

using namespace clitest;
namespace fs = std::filesystem;
using json = nlohmann::json;

// A small, valid i32 .npy, and its exact sum.
std::int64_t write_good_npy(const fs::path& p, std::size_t n = 1000) {
  xr::HostArray a = xr::generate(xr::DType::i32, n, 7);
  xr::write_npy(p, a.view());
  return xr::reference_reduce(a.view(), xr::Op::sum).value.get<std::int32_t>();
}

// The first backend the build has but this machine cannot use, if any.
std::optional<std::string> unavailable_backend() {
  const Result r = xreduce({"list", "--format", "json"});
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  for (const auto& b : j["backends"])
    if (!b["available"].get<bool>()) return b["name"].get<std::string>();
  return std::nullopt;
}

const std::vector<std::string> kCpuRun = {"run", "--backend", "cpu", "--variant", "cpu/sequential"};
std::vector<std::string> cpu_run(std::vector<std::string> more) {
  auto args = kCpuRun;
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

}  // namespace

// ---- usage errors: exit 2 --------------------------------------------------------------------

TEST_CASE("no command, unknown command, unknown option", "[cli][usage]") {
  expect_error({}, 2, "command");
  expect_error({"frobnicate"}, 2, "unknown command 'frobnicate'");
  expect_error({"list", "--bogus"}, 2, "--bogus");
  expect_error({"compare", "--bogus"}, 2, "--bogus");
  expect_error({"run", "--variant", "cpu/sequential", "--n", "10"}, 2, "--backend");
}

TEST_CASE("unknown backend, variant, op, dtype, format, dist", "[cli][usage]") {
  expect_error({"run", "--backend", "gpu", "--variant", "cpu/sequential", "--n", "10"}, 2,
               "unknown backend 'gpu'");
  expect_error({"run", "--backend", "cpu", "--variant", "nope/x", "--n", "10"}, 2,
               "unknown variant 'nope/x'");
  expect_error(cpu_run({"--n", "10", "--op", "mul"}), 2, "unknown op 'mul'");
  expect_error(cpu_run({"--n", "10", "--dtype", "f128"}), 2, "unknown dtype 'f128'");
  expect_error(cpu_run({"--n", "10", "--format", "xml"}), 2, "--format");
  expect_error(cpu_run({"--n", "10", "--dist", "gauss"}), 2, "--dist");
  expect_error({"list", "--format", "yaml"}, 2, "--format");
  expect_error({"compare", "--backend", "cpu", "--format", "xml"}, 2, "--format");
  expect_error({"compare", "--backend", "cpu", "--op", "mul"}, 2, "unknown op");
  expect_error({"compare", "--backend", "nope"}, 2, "unknown backend 'nope'");
  expect_error({"compare", "--backend", "cpu", "--variant", "zzz*"}, 2,
               "matches no reduce variant");
}

TEST_CASE("bad primitive, scan kind and --output", "[cli][usage][scan]") {
  TempDir dir;
  expect_error(cpu_run({"--n", "10", "--primitive", "map"}), 2, "unknown primitive 'map'");
  expect_error(cpu_run({"--n", "10", "--primitive", "scan", "--scan", "sideways"}), 2,
               "unknown --scan 'sideways'");
  expect_error(cpu_run({"--n", "10", "--scan", "exclusive"}), 2, "--scan applies to");
  expect_error(cpu_run({"--n", "10", "--output", (dir / "x.npy").string()}), 2,
               "--output saves a scan's output");
  expect_error(cpu_run({"--n", "10", "--primitive", "scan", "--output", (dir / "x.txt").string()}),
               2, "expected a .npy or .bin file name");
  expect_error(cpu_run({"--n", "10", "--primitive", "scan", "--dtype", "bf16", "--output",
                        (dir / "x.npy").string()}),
               2, "bf16 has no NumPy type; use a .bin file name");
  expect_error(cpu_run({"--n", "10", "--primitive", "scan", "--output",
                        (dir / "no-such-dir" / "x.npy").string()}),
               2, "does not exist");
  expect_error(
      {"run", "--backend", "cpu", "--variant", "cpu/recursive", "--primitive", "scan", "--n", "10"},
      2, "unknown scan variant 'cpu/recursive'");
  expect_error({"compare", "--backend", "cpu", "--scan", "exclusive"}, 2, "--scan applies to");
  expect_error({"compare", "--backend", "cpu", "--primitive", "map"}, 2, "unknown primitive");
  expect_error({"compare", "--backend", "cpu", "--primitive", "scan", "--scan", "both"}, 2,
               "unknown --scan 'both'");
  CHECK(dir.entries() == 0);  // nothing written by any refused run
}

TEST_CASE("bad element counts", "[cli][usage]") {
  expect_error(cpu_run({"--n", "-5"}), 2, "negative");
  expect_error(cpu_run({"--n=-5"}), 2, "negative");
  expect_error(cpu_run({"--n", "abc"}), 2, "invalid element count 'abc'");
  expect_error(cpu_run({"--n", "12Q"}), 2, "invalid element count");
  expect_error(cpu_run({"--n", "99999999999999999999999"}), 2, "too large");
  expect_error(cpu_run({}), 2, "--n");
  expect_error(cpu_run({"--n", "10", "--reps", "0"}), 2, "--reps");
  expect_error(cpu_run({"--n", "10", "--reps", "many"}), 2, "--reps");
  expect_error({"compare", "--backend", "cpu", "--n", "1K,x"}, 2, "invalid element count 'x'");
}

TEST_CASE("bad transfer sizes", "[cli][usage][transfers]") {
  expect_error({"compare", "--backend", "cpu", "--transfer-sizes", "1M"}, 2,
               "--transfer-sizes requires --transfers");
  expect_error({"compare", "--backend", "cpu", "--transfers", "--transfer-sizes", "1002"}, 2,
               "1002 bytes is not a whole number of u32 elements");
  expect_error({"compare", "--backend", "cpu", "--transfers", "--transfer-sizes", "0"}, 2,
               "0 bytes");
  expect_error({"compare", "--backend", "cpu", "--transfers", "--transfer-sizes", "1M,x"}, 2,
               "--transfer-sizes '1M,x'");
}

TEST_CASE("bad sweeps", "[cli][usage]") {
  expect_error({"compare", "--backend", "cpu", "--sweep", "1M:1K"}, 2, "larger than HI");
  expect_error({"compare", "--backend", "cpu", "--sweep", "1K"}, 2, "LO:HI");
  expect_error({"compare", "--backend", "cpu", "--sweep", "1K:2K:0"}, 2, "STEP");
  expect_error({"compare", "--backend", "cpu", "--sweep", "1K:4K", "--n", "1K"}, 2, "excludes");
}

TEST_CASE("bad input files", "[cli][usage][npy]") {
  TempDir dir;
  const auto good = dir / "good.npy";
  write_good_npy(good);
  const std::string bytes = slurp(good);

  write_bytes(dir / "truncated.npy", bytes.substr(0, bytes.size() - 100));
  write_bytes(dir / "short.npy", bytes.substr(0, 7));
  std::string bad_magic = bytes;
  bad_magic[1] = 'X';
  write_bytes(dir / "magic.npy", bad_magic);
  std::string bad_header = bytes;
  bad_header.replace(bad_header.find("'descr'"), 7, "'DESCR'");
  write_bytes(dir / "header.npy", bad_header);
  std::string c64 = bytes;
  c64.replace(c64.find("<i4"), 3, "<c8");
  write_bytes(dir / "c64.npy", c64);
  std::string big_endian = bytes;
  big_endian.replace(big_endian.find("<i4"), 3, ">i4");
  write_bytes(dir / "be.npy", big_endian);
  write_bytes(dir / "odd.bin", std::string(10, '\1'));
  write_bytes(dir / "data.txt", "1 2 3\n");

  auto in = [&](const std::string& name, std::vector<std::string> more = {}) {
    auto args = cpu_run({"--input", (dir / name).string()});
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  expect_error(in("missing.npy"), 2, "no such file");
  expect_error(in("truncated.npy"), 2, "truncated");
  expect_error(in("short.npy"), 2, "truncated");
  expect_error(in("magic.npy"), 2, "not a .npy file");
  expect_error(in("header.npy"), 2, "corrupt .npy header");
  expect_error(in("c64.npy"), 2, "unsupported .npy dtype");
  expect_error(in("be.npy"), 2, "unsupported .npy dtype");
  expect_error(in("good.npy", {"--dtype", "f32"}), 2, "--dtype is f32");
  expect_error(in("odd.bin", {"--dtype", "i32"}), 2, "not a multiple");
  expect_error(in("odd.bin"), 2, "needs --dtype");
  expect_error(in("data.txt"), 2, "unknown input format");
  expect_error(cpu_run({"--input", dir.path().string() + "/good.npy", "--n", "10"}), 2, "excludes");
}

// ---- unavailable / unsupported: exit 3 -------------------------------------------------------

TEST_CASE("8- and 16-bit integers are a histogram's samples: reduce, scan and sort refuse them",
          "[cli][unsupported][npy]") {
  expect_error(cpu_run({"--n", "10", "--dtype", "u8"}), 3,
               "cpu variant 'cpu/sequential' does not support dtype u8 (it supports: i32");
  expect_error(cpu_run({"--n", "10", "--dtype", "u16", "--primitive", "scan"}), 3,
               "does not support dtype u16");
  // A NumPy uint16 file is read by its dtype, then refused the same way.
  TempDir dir;
  const auto pixels = dir / "pixels.npy";
  xr::write_npy(pixels, xr::generate(xr::DType::u16, 100, 7).view());
  expect_error({"run", "--backend", "cpu", "--variant", "cpu/radix", "--primitive", "sort",
                "--input", pixels.string()},
               3, "cpu variant 'cpu/radix' does not support dtype u16");
}

TEST_CASE("a variant the backend does not implement", "[cli][unsupported]") {
  expect_error({"run", "--backend", "cpu", "--variant", "smem/sequential", "--n", "10"}, 3,
               "not implemented by backend 'cpu'");
  expect_error({"compare", "--backend", "cpu", "--variant", "smem/*"}, 3,
               "matches no reduce variant");
  expect_error(
      {"run", "--backend", "cpu", "--variant", "bit/smem", "--primitive", "scan", "--n", "10"}, 3,
      "scan variant 'bit/smem' is not implemented by backend 'cpu'");
  expect_error({"compare", "--backend", "cpu", "--primitive", "scan", "--variant", "bit/*"}, 3,
               "matches no scan variant");
}

TEST_CASE("a backend that is unavailable or not built", "[cli][unavailable]") {
  auto name = unavailable_backend();
  if (!name) skip("every backend of this build is available here");
  expect_error({"run", "--backend", *name, "--variant", "fast/vectorized", "--n", "10"}, 3, *name);
  expect_error({"compare", "--backend", "cpu," + *name, "--n", "1K"}, 3, *name);
}

TEST_CASE("a device selector that matches nothing", "[cli][usage]") {
  expect_error(cpu_run({"--n", "10", "--device", "7"}), 2, "'7'");
}

// ---- out of memory: exit 4, before allocating --------------------------------------------------

TEST_CASE("n larger than the device can hold", "[cli][oom]") {
  expect_error(cpu_run({"--n", "2^50"}), 4, "needs");
  expect_error(cpu_run({"--n", "2^50", "--primitive", "scan"}), 4, "(2 arrays)");
  expect_error({"compare", "--backend", "cpu", "--n", "1K,2^50"}, 4,
               "the cpu device holds at most");
}

// ---- --out is all or nothing -----------------------------------------------------------------

TEST_CASE("a failed compare leaves no --out file", "[cli][out]") {
  TempDir dir;
  const auto out = dir / "report.json";
  expect_error({"compare", "--backend", "cpu", "--n", "2^50", "--out", out.string()}, 4);
  CHECK_FALSE(fs::exists(out));
  expect_error({"compare", "--backend", "cpu", "--variant", "nope", "--out", out.string()}, 2);
  CHECK_FALSE(fs::exists(out));
  CHECK(dir.entries() == 0);  // no temporary left behind either
  expect_error({"compare", "--backend", "cpu", "--n", "1K", "--out",
                (dir / "no-such-dir" / "r.json").string()},
               2, "does not exist");
}

TEST_CASE("compare --out writes the report atomically and nothing to stdout", "[cli][out]") {
  TempDir dir;
  const auto out = dir / "report.json";
  const Result r = xreduce({"compare", "--backend", "cpu", "--n", "4K", "--reps", "2", "--format",
                            "json", "--quiet", "--out", out.string()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.empty());
  REQUIRE(fs::exists(out));
  const json j = json::parse(slurp(out));
  CHECK(j["results"].size() == 3);
  CHECK(dir.entries() == 1);
  // Overwriting an existing report replaces it whole.
  const Result again = xreduce({"compare", "--backend", "cpu", "--n", "8K", "--reps", "2",
                                "--format", "csv", "--quiet", "--out", out.string()});
  REQUIRE(again.code == 0);
  CHECK(slurp(out).rfind("backend,", 0) == 0);
  CHECK(dir.entries() == 1);
}

// ---- help and version ------------------------------------------------------------------------

TEST_CASE("help prints the exit codes and exits 0", "[cli][help]") {
  Result r = xreduce({"--help"});
  CHECK(r.code == 0);
  CHECK(r.out.find("Exit codes") != std::string::npos);
  CHECK(r.err.empty());
  r = xreduce({"compare", "--help"});
  CHECK(r.code == 0);
  CHECK(r.out.find("--sweep") != std::string::npos);
  r = xreduce({"--version"});
  CHECK(r.code == 0);
  CHECK(r.out.find("xreduce") != std::string::npos);
}

// ---- happy paths -----------------------------------------------------------------------------

TEST_CASE("sort: its flags, its files, its refusals", "[cli][sort]") {
  TempDir dir;
  const std::string keys = (dir / "keys.npy").string(), values = (dir / "values.npy").string();
  Result r = xreduce(
      {"run",  "--backend", "cpu",  "--variant", "cpu/radix", "--primitive",     "sort", "--n",
       "3000", "--dtype",   "f32",  "--dist",    "top-digit", "--order",         "desc", "--values",
       "u32",  "--bits",    "3:29", "--output",  keys,        "--values-output", values, "--reps",
       "2",    "--format",  "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j["ok"] == true);
  CHECK(j["order"] == "desc");
  CHECK(j["values"] == "u32");
  CHECK(j["bits"] == "3:29");
  CHECK(j["op"].is_null());
  CHECK(j["gkeys_per_s"].get<double>() > 0);
  const xr::HostArray sorted = xr::read_input(keys, std::nullopt);
  const xr::HostArray positions = xr::read_input(values, std::nullopt);
  CHECK(sorted.dtype() == xr::DType::f32);
  CHECK(sorted.size() == 3000);
  CHECK(positions.dtype() == xr::DType::u32);
  // The keys are the generated ones in the sort's order: the values are their input positions.
  const xr::HostArray input = xr::generate(xr::DType::f32, 3000, j["seed"].get<std::uint64_t>(),
                                           xr::Distribution::top_digit);
  const xr::SortReference ref(input.view(), xr::SortOrder::descending, {3, 29});
  CHECK(ref.validate(sorted.view(), &positions).ok);
  // u64 values: the position in the low 32 bits, its complement in the high 32.
  r = xreduce({"run",       "--backend", "cpu",  "--variant",       "cpu/std-sort", "--primitive",
               "sort",      "--n",       "3000", "--dtype",         "f32",          "--dist",
               "top-digit", "--values",  "u64",  "--values-output", values,         "--reps",
               "1",         "--format",  "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json wide = json::parse(r.out);
  CHECK(wide["ok"] == true);
  CHECK(wide["values"] == "u64");
  const xr::HostArray wide_values = xr::read_input(values, std::nullopt);
  REQUIRE(wide_values.dtype() == xr::DType::u64);
  REQUIRE(wide_values.size() == 3000);
  const std::uint64_t first = wide_values.as<std::uint64_t>()[0];
  CHECK(first >> 32 == (~first & 0xffffffffu));

  expect_error(cpu_run({"--n", "10", "--primitive", "sort", "--op", "max"}), 2,
               "--op applies to reduce and scan");
  expect_error(cpu_run({"--n", "10", "--order", "desc"}), 2, "apply to --primitive sort");
  expect_error({"run", "--backend", "cpu", "--variant", "cpu/radix", "--primitive", "sort", "--n",
                "10", "--bits", "0:33"},
               2, "bits 0:33 are not within the 32 bits");
  expect_error({"run", "--backend", "cpu", "--variant", "cpu/radix", "--primitive", "sort", "--n",
                "10", "--bits", "9:3"},
               2, "expected B:E");
  expect_error({"run", "--backend", "cpu", "--variant", "cpu/radix", "--primitive", "sort", "--n",
                "10", "--values", "u16"},
               2, "unknown --values 'u16' (expected none, u32 or u64)");
  expect_error({"run", "--backend", "cpu", "--variant", "cpu/radix", "--primitive", "sort", "--n",
                "10", "--values-output", values},
               2, "--values-output needs --values u32");
  expect_error(cpu_run({"--n", "10", "--dist", "reversed"}), 2, "generates keys for a sort");
  expect_error({"compare", "--backend", "cpu", "--order", "desc"}, 2, "apply to --primitive sort");
  // run and compare refuse a bad --order, --values or --bits in the same words.
  for (const char* command : {"run", "compare"}) {
    const std::vector<std::string> sort = {
        command, "--backend", "cpu", "--variant", "cpu/radix", "--primitive", "sort", "--n", "10"};
    auto with = [&](std::string flag, std::string value) {
      auto args = sort;
      args.insert(args.end(), {flag, value});
      return args;
    };
    expect_error(with("--order", "up"), 2, "unknown --order 'up' (expected asc or desc)");
    expect_error(with("--values", "i64"), 2, "unknown --values 'i64' (expected none, u32 or u64)");
    expect_error(with("--bits", "8"), 2, "--bits '8': expected B:E with 0 <= B < E");
  }
}

TEST_CASE("list shows the cpu backend in text and JSON", "[cli][list]") {
  Result r = xreduce({"list"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("cpu/recursive") != std::string::npos);
  r = xreduce({"list", "--format", "json"});
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  const json& cpu = j["backends"][0];
  CHECK(cpu["name"] == "cpu");
  CHECK(cpu["available"] == true);
  CHECK(cpu["reason"] == "");
  REQUIRE(cpu["devices"].size() == 1);
  for (const char* key : {"index", "name", "uuid", "api_version", "driver_version", "memory_bytes"})
    CHECK(cpu["devices"][0].contains(key));
  REQUIRE(cpu["variants"].size() == 10);  // 3 reduce + 2 scan + 3 sort
  std::size_t scans = 0;
  for (const auto& v : cpu["variants"]) {
    for (const char* key : {"id", "primitive", "mirrors", "dtypes", "ops", "scan_kinds",
                            "writes_input", "deterministic", "requirements"})
      CHECK(v.contains(key));
    scans += v["primitive"] == "scan";
    CHECK(v["scan_kinds"].empty() == (v["primitive"] != "scan"));
    CHECK(v["ops"].empty() == (v["primitive"] == "sort" || v["primitive"] == "histogram"));
  }
  CHECK(scans == 2);
  CHECK(cpu["variants"][0]["primitive"] == "reduce");  // reduce's ladder first
  CHECK(cpu["variants"][4]["primitive"] == "scan");
  CHECK(cpu["variants"][7]["primitive"] == "sort");
  for (const auto& b : j["backends"])
    if (!b["available"].get<bool>()) CHECK_FALSE(b["reason"].get<std::string>().empty());
}

TEST_CASE("run checks one variant and reports it", "[cli][run]") {
  Result r = xreduce(cpu_run({"--n", "64K", "--reps", "3"}));
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("ok") != std::string::npos);

  r = xreduce(
      cpu_run({"--n", "1000", "--dtype", "f32", "--op", "max", "--reps", "2", "--format", "json"}));
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  for (const char* key : {"backend", "variant", "device", "op", "dtype", "n", "result", "reference",
                          "ok", "device_ms", "host_ms", "min_ms", "max_ms", "gbps"})
    CHECK(j.contains(key));
  CHECK(j["ok"] == true);
  CHECK(j["result"] == j["reference"]);
  CHECK(j["dtype"] == "f32");
  CHECK(j["op"] == "max");
  CHECK(j["n"] == 1000);
  CHECK(j["reps"] == 2);

  r = xreduce(cpu_run({"--n", "0", "--op", "min", "--format", "json", "--reps", "1"}));
  REQUIRE(r.code == 0);
  CHECK(json::parse(r.out)["result"] == 2147483647);  // the identity of min on i32
}

TEST_CASE("run --primitive scan checks every element and saves the output", "[cli][run][scan]") {
  TempDir dir;
  const auto in = dir / "in.npy";
  const xr::HostArray data = xr::generate(xr::DType::f32, 70001, 5, xr::Distribution::full);
  xr::write_npy(in, data.view());
  for (const char* variant : {"cpu/sequential", "cpu/parallel"})
    for (xr::ScanKind kind : xr::kAllScanKinds) {
      const auto out = dir / (std::string(xr::to_string(kind)) + ".npy");
      const std::vector<std::string> args = {
          "run",       "--backend", "cpu",
          "--variant", variant,     "--primitive",
          "scan",      "--scan",    std::string(xr::to_string(kind)),
          "--input",   in.string(), "--reps",
          "1",         "--format",  "json",
          "--output",  out.string()};
      const Result r = xreduce(args);
      INFO(show(args) << "\n" << r.err);
      REQUIRE(r.code == 0);
      const json j = json::parse(r.out);
      CHECK(j["primitive"] == "scan");
      CHECK(j["scan"] == xr::to_string(kind));
      CHECK(j["ok"] == true);
      CHECK(j["result"] == j["reference"]);  // the last element
      CHECK(j["output"] == out.string());
      const xr::HostArray saved = xr::read_npy(out, xr::DType::f32);
      REQUIRE(saved.size() == data.size());
      CHECK(xr::validate_scan(data.view(), saved.view(), xr::Op::sum, kind).ok);
      // The CPU accumulates in double, as the reference: every element is exact.
      const xr::HostArray want = xr::reference_scan(data.view(), xr::Op::sum, kind);
      CHECK(std::memcmp(saved.data(), want.data(), want.bytes()) == 0);
    }
  CHECK(dir.entries() == 3);  // the input and the two outputs: no temporary left
  const Result text = xreduce({"run", "--backend", "cpu", "--variant", "cpu/parallel",
                               "--primitive", "scan", "--op", "max", "--n", "1000", "--reps", "1"});
  REQUIRE(text.code == 0);
  CHECK(text.out.find("inclusive scan max") != std::string::npos);
  CHECK(text.out.find("checked    every element") != std::string::npos);
  CHECK(text.out.find("(read + write)") != std::string::npos);
}

TEST_CASE("run reads .npy and .bin input", "[cli][run][npy]") {
  TempDir dir;
  const auto npy = dir / "x.npy";
  const std::int64_t sum = write_good_npy(npy, 5000);
  Result r = xreduce(cpu_run({"--input", npy.string(), "--format", "json", "--reps", "1"}));
  INFO(r.err);
  REQUIRE(r.code == 0);
  json j = json::parse(r.out);
  CHECK(j["dtype"] == "i32");
  CHECK(j["n"] == 5000);
  CHECK(j["result"] == sum);

  const std::string bytes = slurp(npy);
  const auto bin = dir / "x.bin";
  write_bytes(bin, bytes.substr(bytes.size() - 5000 * 4));
  r = xreduce(
      cpu_run({"--input", bin.string(), "--dtype", "i32", "--format", "json", "--reps", "1"}));
  REQUIRE(r.code == 0);
  CHECK(json::parse(r.out)["result"] == sum);
}

TEST_CASE("compare --backend cpu prints the ladder table", "[cli][compare]") {
  const Result r = xreduce({"compare", "--backend", "cpu", "--n", "64K", "--reps", "3"});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  for (const char* s : {"variant", "median ms", "step", "cumulative", "GB/s", "check", "1.00x"})
    CHECK(r.out.find(s) != std::string::npos);
  // Ladder order.
  const auto a = r.out.find("cpu/recursive"), b = r.out.find("cpu/sequential"),
             c = r.out.find("cpu/parallel");
  REQUIRE(a != std::string::npos);
  REQUIRE(b != std::string::npos);
  REQUIRE(c != std::string::npos);
  CHECK(a < b);
  CHECK(b < c);
  CHECK(r.out.find("\x1b[") == std::string::npos);  // no colours when not a terminal
}

TEST_CASE("compare in every format", "[cli][compare]") {
  const std::vector<std::string> base = {"compare", "--backend", "cpu",     "--n",
                                         "1K,3000", "--dtype",   "i32,f32", "--op",
                                         "sum,min", "--reps",    "2"};
  auto with = [&](const char* format) {
    auto args = base;
    args.insert(args.end(), {"--format", format});
    Result r = xreduce(args);
    INFO(r.err);
    REQUIRE(r.code == 0);
    return r.out;
  };
  const std::size_t rows = 3 * 2 * 2 * 2;  // variants x sizes x dtypes x ops

  const json j = json::parse(with("json"));
  REQUIRE(j["results"].size() == rows);
  REQUIRE(j["devices"].size() == 1);
  CHECK(j["devices"][0]["backend"] == "cpu");
  for (const auto& row : j["results"]) {
    for (const char* key :
         {"backend", "variant", "op", "dtype", "n", "median_ms", "min_ms", "max_ms", "gbps",
          "pct_peak", "step_speedup", "cumulative_speedup", "ok"})
      CHECK(row.contains(key));
    CHECK(row["ok"] == true);
    CHECK(row["min_ms"].get<double>() <= row["median_ms"].get<double>());
    CHECK(row["median_ms"].get<double>() <= row["max_ms"].get<double>());
    if (row["variant"] == "cpu/recursive") CHECK(row["cumulative_speedup"] == 1.0);
  }

  const std::string csv = with("csv");
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);
  const auto columns = std::count(line.begin(), line.end(), ',');
  CHECK(line.rfind("backend,", 0) == 0);
  std::size_t count = 0;
  while (std::getline(lines, line)) {
    CHECK(std::count(line.begin(), line.end(), ',') == columns);
    ++count;
  }
  CHECK(count == rows);

  const std::string md = with("md");
  CHECK(md.find("| variant |") != std::string::npos);
  CHECK(md.find("### cpu · sum f32 · cold · n = 3000") != std::string::npos);

  const std::string text = with("text");
  CHECK(text.find("cpu · min i32 · cold · n = 1K (1024)") != std::string::npos);
  CHECK(text.find("best per size") != std::string::npos);
}

TEST_CASE("compare and run take every dtype: rows, values and files", "[cli][compare][dtype]") {
  const Result r =
      xreduce({"compare", "--backend", "cpu", "--primitive", "all", "--n", "5000", "--dtype",
               "i64,u64,f64,f16,bf16", "--op", "sum,max", "--reps", "2", "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  // reduce: 3 variants, scan: 2; x 5 dtypes x 2 ops; sort (no op): 3 variants x 5 dtypes;
  // histogram (no op): 2 variants x 5 dtypes, of which f64 alone is a histogram's samples.
  REQUIRE(j["results"].size() == (3 + 2) * 5 * 2 + 3 * 5 + 2 * 5);
  std::set<std::string> dtypes;
  for (const auto& row : j["results"]) {
    if (row["primitive"] == "histogram" && row["dtype"] != "f64") {
      CHECK(row["status"] == "unsupported");
      CHECK_THAT(row["reason"].get<std::string>(), Catch::Contains("dtype"));
      continue;
    }
    CHECK(row["ok"] == true);
    dtypes.insert(row["dtype"].get<std::string>());
  }
  CHECK(dtypes == std::set<std::string>{"i64", "u64", "f64", "f16", "bf16"});

  // A 16-bit sum is rounded once from the float accumulator: 4096 halves of 0.5 give 2048
  // exactly, where a 16-bit running sum would stick at 1024 (1024 + 0.5 rounds back to even).
  TempDir dir;
  const std::vector<std::uint16_t> halves(4096, 0x3800);  // f16 0.5
  const auto bin = dir / "h.bin";
  write_bytes(bin, std::string(reinterpret_cast<const char*>(halves.data()), halves.size() * 2));
  Result one = xreduce(
      cpu_run({"--input", bin.string(), "--dtype", "f16", "--format", "json", "--reps", "1"}));
  INFO(one.err);
  REQUIRE(one.code == 0);
  CHECK(json::parse(one.out)["result"] == 2048.0);
  // u64 sums wrap modulo 2^64 and print exactly.
  const std::vector<std::uint64_t> big{UINT64_MAX, 3};
  const auto u = dir / "u.bin";
  write_bytes(u, std::string(reinterpret_cast<const char*>(big.data()), big.size() * 8));
  one = xreduce(
      cpu_run({"--input", u.string(), "--dtype", "u64", "--format", "json", "--reps", "1"}));
  REQUIRE(one.code == 0);
  CHECK(json::parse(one.out)["result"].get<std::uint64_t>() == 2u);
  // A bf16 scan's output as raw .bin: inclusive sum of 1, 1, 1 -> 1, 2, 3.
  const std::vector<std::uint16_t> ones(3, 0x3f80);  // bf16 1.0
  const auto b = dir / "b.bin", out = dir / "out.bin";
  write_bytes(b, std::string(reinterpret_cast<const char*>(ones.data()), ones.size() * 2));
  one = xreduce(cpu_run({"--input", b.string(), "--dtype", "bf16", "--primitive", "scan",
                         "--output", out.string(), "--reps", "1"}));
  INFO(one.err);
  REQUIRE(one.code == 0);
  CHECK(slurp(out) == std::string("\x80\x3f\x00\x40\x40\x40", 6));  // 1, 2, 3 in bf16
}

TEST_CASE("compare --primitive scan and all: the same tables, rows carry the primitive",
          "[cli][compare][scan]") {
  const std::vector<std::string> base = {"compare", "--backend", "cpu",  "--n",    "1K,3000",
                                         "--reps",  "1",         "--op", "sum,max"};
  auto with = [&](std::vector<std::string> more) {
    auto args = base;
    args.insert(args.end(), more.begin(), more.end());
    Result r = xreduce(args);
    INFO(show(args) << "\n" << r.err);
    REQUIRE(r.code == 0);
    return r.out;
  };
  const json scan = json::parse(
      with({"--primitive", "scan", "--scan", "inclusive,exclusive", "--format", "json"}));
  REQUIRE(scan["results"].size() == 2 * 2 * 2 * 2);  // variants x sizes x kinds x ops
  for (const auto& row : scan["results"]) {
    CHECK(row["primitive"] == "scan");
    CHECK((row["scan"] == "inclusive" || row["scan"] == "exclusive"));
    CHECK(row["ok"] == true);
    // GB/s counts bytes read and written: 2 * n * 4 bytes.
    CHECK(row["gbps"].get<double>() ==
          Approx(8.0 * row["n"].get<double>() / (row["median_ms"].get<double>() * 1e6)));
  }
  CHECK(scan["devices"][0].contains("copy_peak_gbps"));
  const json all = json::parse(with({"--primitive", "all", "--format", "json"}));
  std::size_t reduce_rows = 0, scan_rows = 0;
  for (const auto& row : all["results"]) {
    reduce_rows += row["primitive"] == "reduce";
    scan_rows += row["primitive"] == "scan";
    if (row["primitive"] == "reduce") CHECK(row["scan"].is_null());
  }
  CHECK(reduce_rows == 3 * 2 * 2);
  CHECK(scan_rows == 2 * 2 * 2);
  const std::string text = with({"--primitive", "all"});
  CHECK(text.find("cpu · max i32 · cold · n = 1K (1024)") != std::string::npos);
  CHECK(text.find("cpu · inclusive scan sum i32 · cold · n = 3000") != std::string::npos);
  CHECK(text.find("best per size · inclusive scan max i32") != std::string::npos);
  CHECK(text.find("a scan's GB/s counts bytes read + written") != std::string::npos);
  // Scan's ladder order: cpu/sequential before cpu/parallel.
  const auto at = text.find("inclusive scan sum i32 · cold · n = 1K");
  CHECK(text.find("cpu/sequential", at) < text.find("cpu/parallel", at));
  const std::string csv = with({"--primitive", "scan", "--format", "csv"});
  CHECK(csv.rfind("backend,device,device_uuid,variant,primitive,scan,op,", 0) == 0);
  CHECK(csv.find(",cpu/parallel,scan,inclusive,sum,i32,1024,ok,") != std::string::npos);
  CHECK(with({"--primitive", "scan", "--format", "md"}).find("### cpu · inclusive scan max i32") !=
        std::string::npos);
}

TEST_CASE("compare --primitive sort: keys per second and the bytes model in every format",
          "[cli][compare][sort]") {
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> args = {"compare",  "--backend",    "cpu",     "--primitive", "sort",
                                     "--values", "none,u32,u64", "--n",     "3000",        "--reps",
                                     "1",        "--order",      "asc,desc"};
    args.insert(args.end(), more.begin(), more.end());
    Result r = xreduce(args);
    INFO(show(args) << "\n" << r.err);
    REQUIRE(r.code == 0);
    return r.out;
  };
  const json j = json::parse(with({"--format", "json"}));
  REQUIRE(j["results"].size() == 3 * 3 * 2);  // variants x values x orders
  for (const auto& row : j["results"]) {
    CHECK(row["op"].is_null());
    const double keys = row["n"].get<double>(), ms = row["median_ms"].get<double>();
    CHECK(row["gkeys_per_s"].get<double>() == Approx(keys / (ms * 1e6)));
    // i32 keys: 36 bytes a key, 68 with a u32 value, 100 with a u64 (four 8-bit digits).
    const double bytes = row["sort"]["values"] == "u64"   ? 100.0
                         : row["sort"]["values"] == "u32" ? 68.0
                                                          : 36.0;
    CHECK(row["gbps"].get<double>() == Approx(bytes * keys / (ms * 1e6)));
  }
  const std::string csv = with({"--format", "csv"});
  CHECK(csv.find(",throttled,sort_order,sort_values,sort_bits,gkeys_per_s,sort_count,") !=
        std::string::npos);
  CHECK(csv.find(",cpu/radix,sort,,,i32,3000,ok,") != std::string::npos);  // no scan, no op
  CHECK(csv.find(",desc,u32,all,") != std::string::npos);
  CHECK(csv.find(",asc,u64,all,") != std::string::npos);
  const std::string md = with({"--format", "md"});
  CHECK(md.find("| GKeys/s |") != std::string::npos);
  CHECK(md.find("36 bytes a u32 key, 68 with a u32 value, 100 with a u64") != std::string::npos);
  CHECK(with({}).find("note: a sort's GB/s counts the radix sort's bytes") != std::string::npos);
}

TEST_CASE("compare --backend all reports what it skipped", "[cli][compare]") {
  const Result r =
      xreduce({"compare", "--n", "1K", "--reps", "1", "--format", "json", "--variant", "cpu/*"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  auto name = unavailable_backend();
  if (name) {
    bool listed = false;
    for (const auto& s : j["skipped"]) listed |= s["backend"] == *name;
    CHECK(listed);
  }
}

TEST_CASE("compare --sweep and --include-transfer", "[cli][compare]") {
  const Result r = xreduce({"compare", "--backend", "cpu", "--sweep", "1K:8K", "--reps", "1",
                            "--include-transfer", "--variant", "cpu/seq*", "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  REQUIRE(j["results"].size() == 4);  // 1K 2K 4K 8K
  CHECK(j["results"][3]["n"] == 8192);
  CHECK(j["config"]["include_transfer"] == true);
}

TEST_CASE("compare --plot draws an SVG with matplotlib", "[cli][plot]") {
  // The tool tries python3 on PATH, then Debian's /usr/bin/python3 (see bench/plot.py).
  if (std::system("python3 -c 'import matplotlib' >/dev/null 2>&1") != 0 &&
      std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") != 0)
    skip("python3 with matplotlib is not installed");
  TempDir dir;
  const auto svg = dir / "bw.svg";
  const Result r = xreduce({"compare", "--backend", "cpu", "--n", "1K,64K", "--reps", "1",
                            "--quiet", "--plot", svg.string()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  REQUIRE(fs::exists(svg));
  CHECK(slurp(svg).find("<svg") != std::string::npos);
  CHECK(dir.entries() == 1);
  expect_error({"compare", "--backend", "cpu", "--n", "1K", "--plot", (dir / "x.gif").string()}, 2,
               ".svg");
  // A sort's sections are titled by order and values, not by an operator it has none of.
  const auto sort_svg = dir / "sort.svg";
  const Result s = xreduce({"compare", "--backend", "cpu", "--primitive", "sort", "--values", "u32",
                            "--n", "1K,4K", "--reps", "1", "--quiet", "--plot", sort_svg.string()});
  INFO(s.err);
  REQUIRE(s.code == 0);
  const std::string drawn = slurp(sort_svg);
  CHECK(drawn.find("sort (asc, pairs)") != std::string::npos);
  CHECK(drawn.find("None") == std::string::npos);
}

// Compare across the CPU and Vulkan (lavapipe in CI) in all four formats and with --plot. Skipped
// where Vulkan is not available, unless XR_TEST_REQUIRE_BACKENDS names vulkan (CI), where that is a
// failure.
TEST_CASE("compare across cpu and vulkan in every format and with --plot",
          "[cli][compare][vulkan]") {
  require_vulkan_or_skip();
  const std::vector<std::string> base = {
      "compare", "--backend", "cpu,vulkan",
      "--n",     "1000,64K",  "--dtype",
      "i32",     "--variant", "cpu/sequential,smem/sequential,fast/*",
      "--reps",  "2",         "--quiet"};
  auto with = [&](std::vector<std::string> more) {
    auto args = base;
    args.insert(args.end(), more.begin(), more.end());
    Result r = xreduce(args);
    INFO("command: " << show(args) << "\nstderr: " << r.err);
    REQUIRE(r.code == 0);
    return r.out;
  };

  const json j = json::parse(with({"--format", "json"}));
  std::size_t vulkan_rows = 0;
  for (const auto& row : j["results"]) {
    CHECK(row["ok"] == true);
    vulkan_rows += row["backend"] == "vulkan";
  }
  CHECK(vulkan_rows == 3 * 2);  // smem/sequential, fast/vectorized, fast/single-pass x 2 sizes
  CHECK(j["results"].size() == vulkan_rows + 2);
  const std::string csv = with({"--format", "csv"});
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 1 + 8);  // header + rows
  CHECK(csv.find("\nvulkan,") != std::string::npos);
  CHECK(with({"--format", "md"}).find("### vulkan · sum i32 · cold · n = 64K") !=
        std::string::npos);
  CHECK(with({"--format", "text"}).find("vulkan · sum i32 · cold · n = 1000") != std::string::npos);

  // Scan through the same pipeline: the Vulkan ladder beside the CPU's, both kinds, every row
  // checked; the look-back's rows say how often it fell back.
  const Result scan =
      xreduce({"compare", "--backend", "cpu,vulkan", "--primitive", "scan", "--variant",
               "cpu/parallel,subgroup/*,fast/*", "--scan", "inclusive,exclusive", "--n",
               "1000,70000", "--reps", "1", "--format", "json", "--quiet"});
  INFO(scan.err);
  REQUIRE(scan.code == 0);
  const json sj = json::parse(scan.out);
  REQUIRE(sj["devices"].size() == 2);
  CHECK(sj["skipped"].empty());
  std::size_t vulkan_scans = 0, look_back = 0;
  for (const auto& row : sj["results"]) {
    CHECK(row["ok"] == true);
    CHECK(row["primitive"] == "scan");
    vulkan_scans += row["backend"] == "vulkan";
    if (row["variant"] == "fast/decoupled-lookback") {
      ++look_back;
      CHECK_THAT(row["diagnostics"].get<std::string>(), Catch::Contains("look-back fallbacks: "));
    }
  }
  // subgroup/shuffle-up, subgroup/arithmetic, fast/reduce-then-scan, fast/decoupled-lookback x
  // 2 sizes x 2 kinds; plus cpu/parallel's 4 rows.
  CHECK(vulkan_scans == 4 * 2 * 2);
  CHECK(look_back == 2 * 2);
  CHECK(sj["results"].size() == vulkan_scans + 4);

  if (std::system("python3 -c 'import matplotlib' >/dev/null 2>&1") != 0 &&
      std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") != 0)
    skip("python3 with matplotlib is not installed");
  TempDir dir;
  const auto png = dir / "bw.png";
  with({"--plot", png.string()});
  REQUIRE(fs::exists(png));
  CHECK(slurp(png).rfind("\x89PNG", 0) == 0);
}

// Measurement modes: every row says its mode; batch rows say how many calls a sample holds; bad
// modes are usage errors.
TEST_CASE("compare --mode measures cold and batch rows, each labelled", "[cli][compare][mode]") {
  const Result r = xreduce({"compare", "--backend", "cpu", "--n", "1K,64K", "--mode", "all",
                            "--reps", "3", "--format", "json", "--quiet"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j["config"]["modes"] == json::array({"cold", "batch"}));
  std::size_t cold = 0, batch = 0;
  for (const auto& row : j["results"]) {
    CHECK(row["ok"] == true);
    if (row["mode"] == "cold") {
      ++cold;
      CHECK(row["batch_calls"].is_null());
    } else {
      REQUIRE(row["mode"] == "batch");
      ++batch;
      CHECK(row["batch_calls"].get<int>() >= 1);
      CHECK(row["batch_calls"].get<int>() <= 1000);
    }
  }
  CHECK(cold > 0);
  CHECK(cold == batch);
  const Result text = xreduce(
      {"compare", "--backend", "cpu", "--n", "1K", "--mode", "batch", "--reps", "2", "--quiet"});
  REQUIRE(text.code == 0);
  CHECK(text.out.find("cpu · sum i32 · batch · n = 1K") != std::string::npos);
  CHECK(text.out.find("· cold ·") == std::string::npos);

  expect_error({"compare", "--backend", "cpu", "--n", "1K", "--mode", "warm"}, 2, "--mode 'warm'");
  expect_error(
      {"run", "--backend", "cpu", "--variant", "cpu/sequential", "--n", "1K", "--mode", "all"}, 2,
      "one --mode");
  expect_error(
      {"compare", "--backend", "cpu", "--n", "1K", "--mode", "batch", "--include-transfer"}, 2,
      "--mode cold only");
  const Result run = xreduce({"run", "--backend", "cpu", "--variant", "cpu/sequential", "--n", "1K",
                              "--mode", "batch", "--reps", "2", "--format", "json"});
  REQUIRE(run.code == 0);
  const json rj = json::parse(run.out);
  CHECK(rj["mode"] == "batch");
  CHECK(rj["batch_calls"].get<int>() >= 1);
}

// Peers (bench/peers.py's rows) fold into the tables; a bad file is one clean line.
TEST_CASE("compare --merge folds another report's rows in and compares with the libraries",
          "[cli][compare][merge]") {
  TempDir dir;
  // A peer 100x faster than anything the CPU does at 1K, on a made-up device.
  const json peers = {{"devices", json::array({{{"backend", "torch"},
                                                {"name", "Test GPU"},
                                                {"uuid", "00112233445566778899aabbccddeeff"},
                                                {"api_version", "PyTorch test"}}})},
                      {"results", json::array({{{"backend", "torch"},
                                                {"variant", "torch.sum"},
                                                {"primitive", "reduce"},
                                                {"scan", nullptr},
                                                {"op", "sum"},
                                                {"dtype", "i32"},
                                                {"n", 1024},
                                                {"mode", "cold"},
                                                {"status", "ok"},
                                                {"median_ms", 1e-6},
                                                {"min_ms", 1e-6},
                                                {"max_ms", 1e-6},
                                                {"timing", "device"}}})}};
  const auto file = dir / "peers.json";
  write_bytes(file, peers.dump());
  const Result r = xreduce({"compare", "--backend", "cpu", "--n", "1K", "--reps", "2", "--merge",
                            file.string(), "--format", "json", "--quiet"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  REQUIRE(j["devices"].size() == 2);
  CHECK(j["devices"][1]["backend"] == "torch");
  CHECK(j["devices"][1]["merged_from"] == file.string());
  bool merged = false;
  for (const auto& row : j["results"])
    merged |= row["backend"] == "torch" && row["variant"] == "torch.sum" && row["ok"] == true;
  CHECK(merged);
  // xreduce's GPU backends are not compared here, so there is no "xreduce vs libraries" row.
  CHECK(j["versus_libraries"].empty());
  const Result text = xreduce({"compare", "--backend", "cpu", "--n", "1K", "--reps", "2", "--merge",
                               file.string(), "--quiet"});
  REQUIRE(text.code == 0);
  CHECK(text.out.find("torch · sum i32 · cold · n = 1K") != std::string::npos);

  // Not JSON, a wrong field, a backend twice, a missing file: one clean line each, exit 2. The
  // bad bytes (an escape sequence, invalid UTF-8) never reach the terminal raw.
  const auto bad = dir / "bad.json";
  write_bytes(bad, "{\"devices\": [\x1b[31m");
  expect_error({"compare", "--backend", "cpu", "--n", "1K", "--merge", bad.string()}, 2,
               "not JSON");
  json evil = peers;
  evil["results"][0]["dtype"] = "i3\x1b[2J\xff";
  write_bytes(bad, evil.dump(-1, ' ', false, json::error_handler_t::replace));
  const Result e = xreduce({"compare", "--backend", "cpu", "--n", "1K", "--merge", bad.string()});
  CHECK(e.code == 2);
  CHECK(e.err.find('\x1b') == std::string::npos);
  CHECK(e.err.find("\\x1b[2J") != std::string::npos);
  expect_error({"compare", "--backend", "cpu", "--n", "1K", "--merge", file.string(), "--merge",
                file.string()},
               2, "already in this report");
  expect_error({"compare", "--backend", "cpu", "--n", "1K", "--merge", (dir / "no").string()}, 2,
               "cannot read");
}

// Bytes from the command line or a file reach stderr printable or escaped (\xNN), never raw.
TEST_CASE("error lines escape control characters and invalid UTF-8", "[cli][errors]") {
  const std::string hostile = "a\x1b]0;owned\x07\x9b\xc3\x28z";
  const Result r = xreduce({"compare", "--backend", "cpu", "--variant", hostile});
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK(r.err.rfind("xreduce: error: ", 0) == 0);
  for (unsigned char c : r.err) CHECK((c == '\n' || (c >= 0x20 && c < 0x7f) || c >= 0x80));
  CHECK(r.err.find("a\\x1b]0;owned\\x07\\x9b\\xc3(z") != std::string::npos);
  // Valid UTF-8 passes unchanged.
  const Result u = xreduce({"compare", "--backend", "cpu", "--variant", "größe"});
  CHECK(u.err.find("größe") != std::string::npos);

  TempDir dir;
  const auto npy = dir / "evil.npy";
  std::string header = "{'descr': '<i4\x1b[2J\xbd', 'fortran_order': False, 'shape': (4,), }";
  header.resize(118, ' ');
  header += '\n';
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8) + char(header.size()) + '\0' + header;
  bytes += std::string(16, '\0');
  write_bytes(npy, bytes);
  const Result n =
      xreduce({"run", "--backend", "cpu", "--variant", "cpu/sequential", "--input", npy.string()});
  INFO(n.err);
  CHECK(n.code == 2);
  CHECK(n.err.find('\x1b') == std::string::npos);
  CHECK(n.err.find("\\xbd") != std::string::npos);
}

// On lavapipe: both modes and the overhead table, and a % peak above 100 is never silent. How fast
// a CPU device runs depends on what else the host does (lavapipe rows reached 119-126 % of the
// probe with ctest's jobs sharing two cores), so the promise tested is the flag: every row above
// its peak carries above_peak and the text says why, and no row below carries it. Skipped without
// Vulkan unless XR_TEST_REQUIRE_BACKENDS names it.
TEST_CASE("compare --mode all across cpu and vulkan: % peak above 100 is never silent",
          "[cli][compare][vulkan][mode]") {
  require_vulkan_or_skip();
  TempDir dir;
  const auto saved = dir / "report.json";
  const Result r =
      xreduce({"compare", "--backend", "cpu,vulkan", "--mode", "all", "--primitive", "all",
               "--variant", "cpu/parallel,smem/sequential,subgroup/arithmetic,fast/*", "--n",
               "1000,64K,1M", "--max-time", "0.3", "--overheads", "--format", "text", "--save-json",
               saved.string(), "--quiet"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(slurp(saved));
  std::size_t rows = 0, batch = 0, above = 0;
  for (const auto& row : j["results"]) {
    if (row["backend"] != "vulkan") continue;
    ++rows;
    INFO(row.dump());
    CHECK(row["ok"] == true);
    batch += row["mode"] == "batch";
    REQUIRE(row["pct_peak"].is_number());
    const bool over = row["pct_peak"].get<double>() > 100.0;
    CHECK(row["above_peak"] == over);
    above += over;
  }
  INFO("rows above their peak: " << above << "\n" << r.out);
  CHECK((r.out.find("above the measured peak (marked !") != std::string::npos) == (above > 0));
  CHECK((r.out.find("% !") != std::string::npos) == (above > 0));
  CHECK(rows > 0);
  CHECK(batch * 2 == rows);
  const json* vk = nullptr;
  for (const auto& d : j["devices"])
    if (d["backend"] == "vulkan") vk = &d;
  REQUIRE(vk);
  REQUIRE((*vk)["overheads"].size() >= 5);
  for (const auto& o : (*vk)["overheads"]) {
    INFO(o.dump());
    CHECK(o["median_us"].get<double>() > 0);
    CHECK(o["samples"].get<int>() > 0);
  }
}

// The transfers on lavapipe: each GPU backend's host link (the anchor) and its own uploads and
// read-backs at each size, in JSON and in markdown; the cpu has no link and no table. Skipped
// without Vulkan unless XR_TEST_REQUIRE_BACKENDS names it.
TEST_CASE("compare --transfers: the host link and the user path of each GPU backend",
          "[cli][compare][vulkan][transfers]") {
  require_vulkan_or_skip();
  TempDir dir;
  const auto saved = dir / "report.json";
  const Result r =
      xreduce({"compare", "--backend", "cpu,vulkan", "--variant", "cpu/sequential,fast/single-pass",
               "--n", "1000", "--reps", "1", "--transfers", "--transfer-sizes", "4M,1M", "--format",
               "md", "--save-json", saved.string(), "--quiet"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("### transfers · vulkan · ") != std::string::npos);
  CHECK(r.out.find("| size | upload GB/s | upload / link | readback GB/s | readback / link |") !=
        std::string::npos);
  CHECK(r.out.find("transfers · cpu") == std::string::npos);

  const json j = json::parse(slurp(saved));
  const json* vk = nullptr;
  for (const auto& d : j["devices"]) {
    if (d["backend"] == "cpu") CHECK(d["transfers"].is_null());
    if (d["backend"] == "vulkan") vk = &d;
  }
  REQUIRE(vk);
  const json& t = (*vk)["transfers"];
  INFO(t.dump());
  REQUIRE(t.is_object());
  const json& link = t["link"];
  CHECK(link["bytes"] == 4 << 20);  // the largest size
  CHECK(link["upload_gbps"].get<double>() > 0);
  CHECK(link["readback_gbps"].get<double>() > 0);
  CHECK(link["samples"].get<int>() > 0);
  CHECK(link["how"].get<std::string>().find("vkCmdCopyBuffer") != std::string::npos);
  CHECK(t["path"].get<std::string>().find("DeviceArray::write") != std::string::npos);
  CHECK(t["notes"].empty());
  REQUIRE(t["rows"].size() == 2);
  const std::uint64_t sizes[] = {1 << 20, 4 << 20};  // ascending, whatever the flag's order
  for (std::size_t i = 0; i < 2; ++i) {
    const json& row = t["rows"][i];
    CHECK(row["bytes"] == sizes[i]);
    CHECK(row["samples"].get<int>() > 0);
    for (const char* way : {"upload", "readback"}) {
      const double gbps = row[std::string(way) + "_gbps"].get<double>();
      CHECK(gbps > 0);
      CHECK(row[std::string(way) + "_over_link"].get<double>() ==
            Approx(gbps / link[std::string(way) + "_gbps"].get<double>()));
    }
  }
}

namespace {

// A `compare --format json` run that exits 0 with every row ok: its "primitive variant" ids and
// its rows.
struct OkRows {
  std::set<std::string> ids;
  std::size_t rows = 0;
};
OkRows every_row_ok(const Result& r) {
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  OkRows out;
  for (const auto& row : j["results"]) {
    INFO(row.dump());
    CHECK(row["ok"] == true);
    out.ids.insert(row["primitive"].get<std::string>() + " " + row["variant"].get<std::string>());
    ++out.rows;
  }
  return out;
}

}  // namespace

// The modules by device address, which Vulkan runs for arrays past one binding, forced at small n
// on lavapipe for every variant of the three primitives, sorts of keys and of pairs (the binding/
// conformance cases run them at 2^26 + 5 for reduce only, being slow there); and a bad value of
// the knob leaves Vulkan unavailable with one line saying why.
TEST_CASE("XR_VK_ADDRESSING=address: every Vulkan variant by device address",
          "[cli][compare][vulkan][address]") {
  require_vulkan_or_skip();
  setenv("XR_VK_ADDRESSING", "address", 1);
  const Result r = xreduce({"compare",
                            "--backend",
                            "vulkan",
                            "--primitive",
                            "all",
                            "--scan",
                            "inclusive,exclusive",
                            "--op",
                            "sum,max",
                            "--values",
                            "none,u32",
                            "--dtype",
                            "u32,f32",
                            "--n",
                            "1000,70001",
                            "--reps",
                            "1",
                            "--warmup",
                            "0",
                            "--format",
                            "json",
                            "--quiet"});
  const std::set<std::string> ids = every_row_ok(r).ids;
  CHECK(ids.size() >= 23);  // 12 reduce, 10 scan and 3 sort variants on lavapipe
  for (const char* sort : {"sort radix/onesweep", "sort radix/reduce-then-scan"})
    CHECK(ids.count(sort) == 1);

  setenv("XR_VK_ADDRESSING", "sideways", 1);
  expect_error({"run", "--backend", "vulkan", "--variant", "fast/vectorized", "--n", "1000"}, 3,
               "XR_VK_ADDRESSING must be auto or address");
  unsetenv("XR_VK_ADDRESSING");
}

// The OpenCL radix sorts' wide form (64-bit indices and counts, which they take past 2^32 - 2^16
// keys) forced at small n on pocl, keys and pairs, a 64-bit key among them; a bad value refuses
// every OpenCL call with one line.
TEST_CASE("XR_CL_SORT_WIDE=1: the OpenCL radix sorts in core's wide form",
          "[cli][compare][opencl][sort]") {
  require_backend_or_skip("opencl");
  setenv("XR_CL_SORT_WIDE", "1", 1);
  const Result r =
      xreduce({"compare",     "--backend", "opencl",     "--primitive", "sort",     "--variant",
               "radix/*",     "--values",  "none,u32",   "--order",     "asc,desc", "--dtype",
               "u32,f32,i64", "--n",       "1000,70001", "--reps",      "1",        "--warmup",
               "0",           "--format",  "json",       "--quiet"});
  const OkRows ok = every_row_ok(r);
  CHECK(ok.ids == std::set<std::string>{"sort radix/onesweep", "sort radix/reduce-then-scan"});
  CHECK(ok.rows == 2u * 2 * 2 * 3 * 2);  // variants x values x orders x dtypes x n

  setenv("XR_CL_SORT_WIDE", "yes", 1);
  expect_error({"run", "--backend", "opencl", "--primitive", "sort", "--variant", "radix/onesweep",
                "--n", "1000"},
               2, "XR_CL_SORT_WIDE must be 0 or 1");
  unsetenv("XR_CL_SORT_WIDE");
}

// XR_CL_SORT_MODE over the device's policy: `argument` (pocl's default too) sorts and is echoed
// among the knobs; a bad value refuses every OpenCL call with one line. (`built` on any device:
// conformance's opencl/sort/modes-built.)
TEST_CASE("XR_CL_SORT_MODE: the OpenCL sorts built per key kind and order or per width",
          "[cli][run][opencl][sort]") {
  require_backend_or_skip("opencl");
  setenv("XR_CL_SORT_MODE", "argument", 1);
  const Result r = xreduce({"run", "--backend", "opencl", "--primitive", "sort", "--variant",
                            "radix/onesweep", "--dtype", "f32", "--order", "desc", "--dist", "full",
                            "--n", "1000", "--reps", "1"});
  CHECK(r.code == 0);
  CHECK(r.out.find("XR_CL_SORT_MODE=argument") != std::string::npos);
  CHECK(r.out.find("checked    every element") != std::string::npos);

  setenv("XR_CL_SORT_MODE", "sometimes", 1);
  expect_error({"run", "--backend", "opencl", "--primitive", "sort", "--variant", "radix/onesweep",
                "--n", "1000"},
               2, "XR_CL_SORT_MODE must be auto, built or argument");
  unsetenv("XR_CL_SORT_MODE");
}

// ---- users' kernels (--kernel): bad kernels are bad input --------------------------------------

namespace {

// A GLSL reduce kernel of the ABI (docs/kernels.md) at 64 invocations; `body` replaces its line
// that combines two partials, `extra` goes after the buffers.
std::string glsl_kernel(
    std::string_view combine = "sdata[tid] = XR_OP(sdata[tid], sdata[tid + s]);",
    std::string_view extra = "",
    std::string_view header = "// xreduce: primitive=reduce dtypes=i32,f32 ops=sum,max") {
  return "#version 450\n" + std::string(header) +
         "\nlayout(local_size_x = 64) in;\n"
         "layout(std430, binding = 0) readonly buffer In { XR_T xs[]; };\n"
         "layout(std430, binding = 1) writeonly buffer Out { XR_ACC partials[]; };\n" +
         std::string(extra) +
         "\nshared XR_ACC sdata[64];\n"
         "void main() {\n"
         "  const uint tid = gl_LocalInvocationID.x;\n"
         "  sdata[tid] = XR_TO_ACC(xs[gl_GlobalInvocationID.x]);\n"
         "  barrier();\n"
         "  for (uint s = 32; s > 0; s >>= 1) {\n"
         "    if (tid < s) " +
         std::string(combine) +
         "\n    barrier();\n"
         "  }\n"
         "  if (tid == 0) partials[gl_WorkGroupID.x] = sdata[0];\n"
         "}\n";
}

void require_vulkan() {
  const Result r = xreduce({"list", "--format", "json"});
  REQUIRE(r.code == 0);
  const json list = json::parse(r.out);
  for (const auto& b : list["backends"])
    if (b["name"] == "vulkan" && b["available"].get<bool>()) return;
  skip("no usable Vulkan device");
}

}  // namespace

TEST_CASE("kernel files that cannot be read or declared", "[cli][usage][kernel]") {
  TempDir dir;
  expect_error({"run", "--kernel", (dir / "absent.comp").string(), "--n", "10"}, 2, "no such file");
  write_bytes(dir / "k.txt", "nothing");
  expect_error({"run", "--kernel", (dir / "k.txt").string(), "--n", "10"}, 2,
               "unknown extension '.txt'");
  write_bytes(dir / "typo.comp", glsl_kernel("", "", "// xreduce: blok=64"));
  expect_error({"check", "--kernel", (dir / "typo.comp").string()}, 2,
               "typo.comp:2: unknown declaration 'blok=64'");
  write_bytes(dir / "dt.comp", glsl_kernel("", "", "// xreduce: dtypes=i32,f128"));
  expect_error({"check", "--kernel", (dir / "dt.comp").string()}, 2, "unknown 'f128'");
  expect_error({"check", "--kernel-spec", "dtypes=f32"}, 2, "apply to a --kernel FILE");
  write_bytes(dir / "a.comp", glsl_kernel());
  expect_error(
      {"check", "--kernel", (dir / "a.comp").string(), "--kernel", (dir / "a.comp").string()}, 2,
      "give one another id");
}

TEST_CASE("kernels that do not compile or do not fit the ABI", "[cli][usage][kernel]") {
  require_vulkan();
  TempDir dir;
  auto path = [&](std::string_view name, const std::string& text) {
    write_bytes(dir / name, text);
    return (dir / name).string();
  };
  // The compiler's message, with the user's file and line (line 13: the combining line).
  expect_error({"check", "--kernel", path("syntax.comp", glsl_kernel("sdata[tid] = ;"))}, 2,
               "syntax.comp:13: error");
  expect_error({"check", "--kernel",
                path("hlsl.hlsl",
                     "// xreduce: dtypes=f32\n[numthreads(64,1,1)]\nvoid main() { "
                     "undeclared = 1; }\n")},
               2, "hlsl.hlsl:3");
  expect_error(
      {"check", "--kernel",
       path("binding.comp",
            glsl_kernel("sdata[tid] = XR_OP(sdata[tid], sdata[tid + s]) + extra[0];",
                        "layout(std430, binding = 3) readonly buffer E { XR_ACC extra[]; };"))},
      2, "binding 3");
  expect_error({"check", "--kernel",
                path("block.comp", glsl_kernel("sdata[tid] = XR_OP(sdata[tid], sdata[tid + s]);",
                                               "", "// xreduce: dtypes=i32 block=128"))},
               2, "declares block=128 but its workgroup is 64");
  expect_error({"check", "--kernel", path("odd.spv", "12345")}, 2, "whole number of 32-bit words");
  expect_error({"check", "--kernel", path("words.spv", "12345678")}, 2, "no SPIR-V magic");
  expect_error({"check", "--kernel", path("two.spv", std::string("\x03\x02\x23\x07", 4) + "0000"),
                "--kernel-spec", "dtypes=i32,f32"},
               2, "one dtype");
  // A resource that is not a storage buffer is named by its kind; HLSL's $Globals by what it
  // holds, with the push-constant spellings glslang takes (docs/kernels.md's former one is not).
  expect_error({"check", "--kernel", std::string(XR_BAD_KERNELS) + "/push_struct.hlsl"}, 2,
               "push_struct.hlsl: HLSL's $Globals is a uniform buffer at set 0 binding 2, holding "
               "the global variables outside a push-constant block (sizes)");
  expect_error(
      {"check", "--kernel",
       path("sampler.comp", glsl_kernel("sdata[tid] = XR_OP(sdata[tid], sdata[tid + s]) + "
                                        "XR_ACC(texture(tex, vec2(0)).x);",
                                        "layout(binding = 2) uniform sampler2D tex;"))},
      2, "'tex' is a combined image sampler (GLSL sampler2D and the like) at set 0 binding 2");
  CHECK(dir.entries() == 8);  // nothing written beside the kernels
}

// Past the device's limits a kernel is refused before any pipeline is made of it: Vulkan leaves
// such a dispatch undefined (an H200 hung on bad/shared_huge.comp, lavapipe summed it wrong).
TEST_CASE("kernels past the device's limits are refused before they run, naming both numbers",
          "[cli][usage][kernel]") {
  require_vulkan();
  const std::string bad = XR_BAD_KERNELS;
  for (const char* command : {"run", "check"}) {
    CAPTURE(command);
    std::vector<std::string> args{command, "--kernel", bad + "/shared_huge.comp"};
    if (std::string_view(command) == "run") args.insert(args.end(), {"--n", "1000"});
    expect_error(args, 2,
                 "shared_huge.comp: declares 4000000 bytes of workgroup memory (GLSL shared, "
                 "HLSL groupshared); llvmpipe");
  }
  expect_error({"run", "--kernel", bad + "/shared_huge.comp", "--n", "1000"}, 2,
               "allows 32768 (maxComputeSharedMemorySize)");
  expect_error({"run", "--kernel", bad + "/shared_huge.hlsl", "--n", "1000"}, 2,
               "shared_huge.hlsl: declares 4000000 bytes of workgroup memory");
  // Sized by the workgroup through specialization constant 0: 256 x 4096 ints once specialized.
  expect_error({"run", "--kernel", bad + "/shared_spec.comp", "--n", "1000"}, 2,
               "shared_spec.comp: declares 4194304 bytes of workgroup memory");
  // glslang refuses a 2048-wide source itself, naming its limit (Vulkan's guaranteed minimum).
  expect_error({"run", "--kernel", bad + "/wide.comp", "--n", "1000"}, 2,
               "error: 'local_size' : too large");
  expect_error({"compare", "--kernel", bad + "/push_large.comp", "--n", "1000", "--quiet"}, 2,
               "push_large.comp: its push constants take 1024 bytes; llvmpipe");
  expect_error({"run", "--kernel", bad + "/push_large.comp", "--n", "1000"}, 2,
               "allows 128 (maxPushConstantsSize)");
  // A prebuilt module past the device's workgroup limits (glslang refuses such a source itself):
  // built at 64 invocations by glslangValidator, its LocalSize then rewritten to 2048.
  TempDir dir;
  write_bytes(dir / "narrow.comp",
              "#version 450\nlayout(local_size_x = 64) in;\n"
              "layout(std430, binding = 0) readonly buffer In { int xs[]; };\n"
              "layout(std430, binding = 1) writeonly buffer Out { int partials[]; };\n"
              "void main() { if (gl_LocalInvocationID.x == 0) "
              "partials[gl_WorkGroupID.x] = xs[gl_GlobalInvocationID.x]; }\n");
  const std::string build = "glslangValidator -V --target-env vulkan1.2 -o " +
                            (dir / "wide.spv").string() + " " + (dir / "narrow.comp").string() +
                            " >/dev/null 2>&1";
  if (std::system(build.c_str()) == 0) {
    const std::string bytes = slurp(dir / "wide.spv");
    std::vector<std::uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
    bool patched = false;
    // OpExecutionMode LocalSize, and the constant 64 of glslang's gl_WorkGroupSize built-in,
    // which overrides it (the kernel uses no other 64).
    for (std::size_t at = 5; at < words.size(); at += words[at] >> 16) {
      const std::uint32_t op = words[at] & 0xffff;
      if ((op == 16 && words[at + 2] == 17) || (op == 43 && words[at + 3] == 64)) {
        words[at + 3] = 2048;
        patched = true;
      }
    }
    REQUIRE(patched);
    write_bytes(dir / "wide.spv",
                std::string(reinterpret_cast<const char*>(words.data()), words.size() * 4));
    expect_error({"run", "--kernel", (dir / "wide.spv").string(), "--kernel-spec", "dtypes=i32",
                  "--n", "1000"},
                 2, "wide.spv: its workgroup is 2048 invocations wide; llvmpipe");
  } else {
    WARN("glslangValidator is not installed: the prebuilt 2048-wide module is not checked");
  }
  // The same device runs a built-in variant right after: nothing of the refused kernels ran.
  const Result after =
      xreduce({"run", "--backend", "vulkan", "--variant", "fast/vectorized", "--n", "100003"});
  CHECK(after.code == 0);
}

TEST_CASE("a kernel is checked, run and compared like every variant", "[cli][kernel]") {
  require_vulkan();
  TempDir dir;
  write_bytes(dir / "mine.comp", glsl_kernel());
  const std::string mine = (dir / "mine.comp").string();
  const Result good = xreduce({"check", "--kernel", mine, "--max-size", "5000"});
  INFO(good.out << good.err);
  CHECK(good.code == 0);
  CHECK(good.out.find("reduce user/mine on vulkan") != std::string::npos);
  CHECK(good.out.find(" 0 failed") != std::string::npos);

  // A kernel that drops every second partial's right half: wrong past one element.
  write_bytes(dir / "wrong.comp", glsl_kernel("sdata[tid] = sdata[tid];"));
  const std::string wrong = (dir / "wrong.comp").string();
  const Result bad = xreduce({"check", "--kernel", wrong, "--max-size", "300"});
  INFO(bad.out << bad.err);
  CHECK(bad.code == 1);
  CHECK(bad.out.find("FAILED") != std::string::npos);
  CHECK(bad.out.find("i32 n=2 ") != std::string::npos);  // the first size it gets wrong
  const Result run = xreduce({"run", "--kernel", wrong, "--n", "1000", "--reps", "1"});
  CHECK(run.code == 1);
  CHECK(run.out.find("FAILED") != std::string::npos);

  const Result cmp = xreduce({"compare", "--kernel", mine, "--backend", "vulkan", "--variant",
                              "smem/sequential,user/*", "--n", "4096", "--reps", "2", "--format",
                              "csv", "--quiet"});
  INFO(cmp.out << cmp.err);
  CHECK(cmp.code == 0);
  CHECK(cmp.out.find("user/mine") != std::string::npos);
  CHECK(cmp.out.find("smem/sequential") != std::string::npos);
}

// With --kernel and no --dtype, --op or --scan, run and compare take the kernel's first claims
// (as they take its backend and variant), and the report's header says so.
TEST_CASE("a kernel's own claims are the defaults, and the header says so", "[cli][kernel]") {
  require_vulkan();
  TempDir dir;
  write_bytes(dir / "maxf.comp", glsl_kernel("sdata[tid] = XR_OP(sdata[tid], sdata[tid + s]);", "",
                                             "// xreduce: dtypes=f32,i32 ops=max,sum"));
  const std::string maxf = (dir / "maxf.comp").string();
  const Result run = xreduce({"run", "--kernel", maxf, "--n", "1000", "--reps", "1"});
  INFO(run.out << run.err);
  CHECK(run.code == 0);
  CHECK(run.out.find("defaults   --dtype f32 --op max: the --kernel's first claims (maxf.comp)") !=
        std::string::npos);
  CHECK(run.out.find("n = 1000 f32") != std::string::npos);
  const Result given = xreduce({"run", "--kernel", maxf, "--n", "1000", "--reps", "1", "--dtype",
                                "i32", "--format", "json"});
  REQUIRE(given.code == 0);
  const json j = json::parse(given.out);
  CHECK(j["dtype"] == "i32");
  CHECK(j["op"] == "max");
  CHECK(j["kernel_defaults"].get<std::string>().rfind("--op max: the --kernel's first claim ", 0) ==
        0);
  // Every flag given: nothing taken, nothing said; a dtype it does not claim is refused.
  const Result all = xreduce({"run", "--kernel", maxf, "--n", "1000", "--reps", "1", "--dtype",
                              "i32", "--op", "sum", "--format", "json"});
  CHECK(json::parse(all.out)["kernel_defaults"].is_null());
  expect_error({"run", "--kernel", maxf, "--n", "1000", "--dtype", "u32"}, 3,
               "does not support dtype u32 (it supports: f32, i32)");

  // A scan's kind too: its first claimed kind is exclusive here.
  write_bytes(dir / "serial.comp",
              "#version 450\n"
              "// xreduce: primitive=scan dtypes=i32 ops=max,sum kinds=exclusive,inclusive "
              "pass=main:one\n"
              "layout(local_size_x = 64) in;\n"
              "layout(std430, binding = 0) readonly buffer In { XR_T xs[]; };\n"
              "layout(std430, binding = 1) writeonly buffer Out { XR_T ys[]; };\n"
              "layout(push_constant) uniform P { uint n; uint tiles; } p;\n"
              "void main() {\n"
              "  if (gl_LocalInvocationID.x != 0) return;\n"
              "  XR_ACC acc = XR_IDENTITY;\n"
              "  for (uint i = 0; i < p.n; ++i) {\n"
              "    const XR_ACC x = XR_TO_ACC(xs[i]);\n"
              "    if (XR_EXCLUSIVE == 1) ys[i] = XR_FROM_ACC(acc);\n"
              "    acc = XR_OP(acc, x);\n"
              "    if (XR_EXCLUSIVE == 0) ys[i] = XR_FROM_ACC(acc);\n"
              "  }\n"
              "}\n");
  const Result scan = xreduce({"run", "--kernel", (dir / "serial.comp").string(), "--n", "3000",
                               "--reps", "1", "--format", "json"});
  INFO(scan.out << scan.err);
  REQUIRE(scan.code == 0);
  const json sj = json::parse(scan.out);
  CHECK(sj["scan"] == "exclusive");
  CHECK(sj["op"] == "max");
  CHECK(sj["kernel_defaults"] ==
        "--dtype i32 --op max --scan exclusive: the --kernel's first claims (serial.comp), as no "
        "flag named them");

  const Result cmp = xreduce({"compare", "--kernel", maxf, "--backend", "vulkan", "--n", "4096",
                              "--reps", "2", "--format", "json", "--quiet"});
  INFO(cmp.out << cmp.err);
  REQUIRE(cmp.code == 0);
  const json c = json::parse(cmp.out);
  bool mine = false;
  for (const auto& row : c["results"]) {
    CHECK(row["dtype"] == "f32");
    CHECK(row["op"] == "max");
    mine = mine || row["variant"] == "user/maxf";
  }
  CHECK(mine);
  CHECK(c["notes"].dump().find("--dtype f32 --op max: the --kernel's first claims") !=
        std::string::npos);
}

TEST_CASE("kernel-header prints the prelude a prebuilt module is built with", "[cli][kernel]") {
  TempDir dir;
  write_bytes(
      dir / "bit.cu",
      "// xreduce: primitive=scan dtypes=i32,f32,f16 ops=sum,max kinds=inclusive,exclusive\n"
      "// xreduce: block=128 pass=a:tiles pass=b:one\n");
  const std::string cu = (dir / "bit.cu").string();
  const Result r = xreduce({"kernel-header", "--kernel", cu, "--dtype", "f32", "--op", "max",
                            "--scan", "exclusive", "--pass", "1"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  for (const char* line :
       {"#define XR_T float\n", "#define XR_OP_MAX 1\n", "#define XR_EXCLUSIVE 1\n",
        "#define XR_PASS 1\n", "#define XR_BLOCK 128u\n", "#define XR_DTYPE_F32 1\n"})
    CHECK(r.out.find(line) != std::string::npos);
  CHECK(r.out.find("cuda_fp16.h") == std::string::npos);  // included for f16 only
  const Result half = xreduce({"kernel-header", "--kernel", cu, "--dtype", "f16"});
  CHECK(half.out.find("#include <cuda_fp16.h>\n#define XR_T __half\n#define XR_ACC float\n") == 0);
  // GLSL's spelling, and a reduce's later passes reading the partials.
  write_bytes(dir / "r.comp", glsl_kernel("", "", "// xreduce: dtypes=f16,i64"));
  const Result glsl = xreduce(
      {"kernel-header", "--kernel", (dir / "r.comp").string(), "--dtype", "f16", "--partials"});
  CHECK(glsl.out.find("#extension GL_EXT_shader_explicit_arithmetic_types") == 0);
  CHECK(glsl.out.find("#define XR_T float\n#define XR_ACC float\n") != std::string::npos);

  expect_error({"kernel-header", "--kernel", cu, "--dtype", "f64"}, 2,
               "does not claim --dtype f64");
  expect_error({"kernel-header", "--kernel", cu, "--pass", "2"}, 2, "declares 2 pass(es)");
  write_bytes(dir / "half.cubin", "");
  expect_error(
      {"kernel-header", "--kernel", (dir / "half.cubin").string(), "--kernel-spec", "dtypes=f16"},
      2, "one prebuilt f16 module cannot");
}

TEST_CASE("a kernel that never finishes ends the run: exit 5, one line", "[cli][kernel]") {
  require_vulkan();
  expect_never_finishes(std::string(XR_BAD_KERNELS) + "/spin.comp", "vulkan", "2M",
                        "vulkan: a submission did not finish within 1 s");
}

// The look-back and one-group scan knobs: a malformed value refuses the scan with one line, exit 2.
TEST_CASE("malformed look-back and one-group knobs refuse the scan with one line",
          "[cli][vulkan]") {
  for (const auto& [name, value, says] :
       {std::tuple{"XR_VK_LOOKBACK_WINDOW", "9", "XR_VK_LOOKBACK_WINDOW must be 1, 2, 3 or 4"},
        std::tuple{"XR_VK_LOOKBACK_CLOCK", "yes", "XR_VK_LOOKBACK_CLOCK must be 0 or 1"},
        std::tuple{"XR_SCAN_ONE_GROUP_MAX", "4K",
                   "XR_SCAN_ONE_GROUP_MAX must be a whole number"}}) {
    CAPTURE(name, value);
    setenv(name, value, 1);
    expect_error({"run", "--backend", "vulkan", "--primitive", "scan", "--variant",
                  "fast/decoupled-lookback", "--n", "100"},
                 2, says);
    unsetenv(name);
  }
}

// ---- the SM clock of every sample (clock.hpp) -------------------------------------------------

// On lavapipe the probe reads the host's clocks (VK_KHR_shader_clock), so every field is there;
// XR_CLOCK_SCRIPT replaces the readings to make samples throttled on purpose. No timing
// assertions: the counts follow from the script and the retake rule.
TEST_CASE("every row carries the clock it was measured at; throttled rows are flagged",
          "[cli][clock]") {
  require_vulkan();
  TempDir dir;
  const auto at_clock = dir / "at_clock.json";
  const Result r = xreduce({"compare", "--backend", "cpu,vulkan", "--variant",
                            "cpu/sequential,fast/single-pass", "--n", "4096", "--reps", "3",
                            "--quiet", "--format", "json", "--save-json", at_clock.string()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  for (const auto& d : j["devices"]) {
    CAPTURE(d["backend"]);
    if (d["backend"] == "vulkan") {
      CHECK(d["reference_clock_mhz"].get<double>() > 0);
      CHECK(d["clock"] == "VK_KHR_shader_clock: subgroup clock against the device clock");
    } else {
      CHECK(d["reference_clock_mhz"].is_null());
      CHECK(d["clock"] == "not measured: the CPU backend");
    }
  }
  for (const auto& row : j["results"]) {
    CAPTURE(row["variant"]);
    if (row["backend"] == "vulkan") {
      CHECK(row["clock_mhz"]["min"].get<double>() > 0);
      CHECK(row["clock_mhz"]["median"].get<double>() >= row["clock_mhz"]["min"].get<double>());
    } else {
      CHECK(row["clock_mhz"].is_null());
    }
    CHECK(row["throttled"] == false);
  }

  // Idle clock for good (345 of 1980 MHz): each sample retaken three times, then kept, flagged.
  setenv("XR_CLOCK_SCRIPT", "1980:345", 1);
  const auto idle = dir / "idle.json";
  const Result t = xreduce({"compare", "--backend", "vulkan", "--variant", "fast/single-pass",
                            "--n", "4096", "--reps", "3", "--quiet", "--save-json", idle.string()});
  INFO(t.out << t.err);
  CHECK(t.code == 0);  // a throttled point is a result, never silent, not a failure
  CHECK(t.out.find("measured at 345 MHz, every sample ≥ 17 % of the 1980 MHz reference clock") !=
        std::string::npos);
  CHECK(t.out.find("ok, THROTTLED") != std::string::npos);
  CHECK(t.out.find("kept samples under the clock threshold") != std::string::npos);
  const json ij = json::parse(slurp(idle));
  CHECK(ij["results"][0]["throttled"] == true);
  CHECK(ij["results"][0]["clock_retaken"] == 9);  // three retakes per repetition at most
  CHECK(ij["devices"][0]["reference_clock_mhz"] == 1980.0);
  // --throttle-threshold 0 keeps every sample: nothing retaken, nothing flagged.
  const Result zero =
      xreduce({"run", "--backend", "vulkan", "--variant", "fast/single-pass", "--n", "4096",
               "--reps", "3", "--throttle-threshold", "0", "--format", "json"});
  REQUIRE(zero.code == 0);
  CHECK(json::parse(zero.out)["clock_retaken"] == 0);
  CHECK(json::parse(zero.out)["throttled"] == false);
  // The two runs' clocks differ, and xreduce diff says so beside its verdicts.
  unsetenv("XR_CLOCK_SCRIPT");
  const Result d = xreduce({"diff", at_clock.string(), idle.string()});
  INFO(d.out << d.err);
  CHECK(d.code == 0);
  CHECK(d.out.find("clock ") != std::string::npos);
  CHECK(d.out.find("-> 345 MHz (every sample ≥ 17 % of 1980)") != std::string::npos);

  expect_error({"run", "--backend", "vulkan", "--variant", "fast/single-pass", "--n", "100",
                "--throttle-threshold", "120"},
               2, "--throttle-threshold must be a percentage from 0 to 100, not 120");
  setenv("XR_CLOCK_SCRIPT", "fast", 1);
  expect_error({"run", "--backend", "vulkan", "--variant", "fast/single-pass", "--n", "100"}, 2,
               "XR_CLOCK_SCRIPT must be REFERENCE:MHZ[,MHZ...] in MHz");
  unsetenv("XR_CLOCK_SCRIPT");
}

TEST_CASE("compare --count host and device: each sort with its count given and read on the GPU",
          "[cli][compare][sort]") {
  require_vulkan();
  const std::vector<std::string> args = {"compare",
                                         "--backend",
                                         "cpu,vulkan",
                                         "--primitive",
                                         "sort",
                                         "--variant",
                                         "cpu/radix,radix/onesweep",
                                         "--values",
                                         "u32",
                                         "--count",
                                         "host,device",
                                         "--n",
                                         "3000",
                                         "--reps",
                                         "1",
                                         "--format",
                                         "json"};
  const Result r = xreduce(args);
  INFO(show(args) << "\n" << r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  REQUIRE(j["results"].size() == 4);  // two variants, each count's place
  for (const auto& row : j["results"]) {
    const bool device = row["sort"]["count"] == "device";
    CHECK((device || row["sort"]["count"] == "host"));
    if (row["backend"] == "cpu" && device) {  // the host's sorts have no device count
      CHECK(row["status"] == "unsupported");
      CHECK_THAT(row["reason"].get<std::string>(),
                 Catch::Contains("takes its count from the host"));
    } else {
      CHECK(row["ok"] == true);
    }
  }
  CHECK_THAT(xreduce({"compare", "--primitive", "sort", "--count", "gpu", "--n", "10"}).err,
             Catch::Contains("--count: 'gpu' is not host or device"));
  CHECK_THAT(xreduce({"compare", "--primitive", "scan", "--count", "device", "--n", "10"}).err,
             Catch::Contains("--count applies to --primitive sort and histogram"));
}
