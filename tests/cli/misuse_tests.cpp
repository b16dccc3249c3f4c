// The command line misused, through the xreduce binary: two outputs naming one file, a kernel
// asked to run as a primitive it does not declare, numbers past an option's range, flags a sort
// has no use for. Each is exit 2 with one line naming what is wrong, before anything is measured
// or written; every case is a refusal or a run of a few elements on the CPU.
#include <unistd.h>

#include <limits>

#include "cli_support.hpp"

namespace {

using namespace clitest;

const std::vector<std::string> kCpuSort = {
    "run",  "--backend", "cpu", "--variant", "cpu/radix", "--n",      "100", "--primitive",
    "sort", "--values",  "u32", "--reps",    "1",         "--warmup", "0"};

// A kernel file that only declares itself: every refusal here comes before it is compiled.
std::string kernel_file(const TempDir& dir, const std::string& name, const std::string& declares) {
  write_bytes(dir / name, "// xreduce: " + declares + "\nvoid main() {}\n");
  return (dir / name).string();
}

}  // namespace

TEST_CASE("two outputs naming one file are refused, however the file is named",
          "[cli][usage][out]") {
  TempDir dir;
  const std::string keys = (dir / "a.npy").string();
  // The same path, spelled another way: a sort's keys and values would land in one file.
  expect_error(
      with(kCpuSort, {"--output", keys, "--values-output", (dir / "." / "a.npy").string()}), 2,
      "--output '" + keys + "' and --values-output '" + (dir / "." / "a.npy").string() +
          "' name the same file");
  CHECK(dir.entries() == 0);
  // An existing file by two names: a symbolic link and a hard link to it.
  write_bytes(dir / "b.npy", "old");
  REQUIRE(::symlink((dir / "b.npy").c_str(), (dir / "soft.npy").c_str()) == 0);
  REQUIRE(::link((dir / "b.npy").c_str(), (dir / "hard.npy").c_str()) == 0);
  for (const char* other : {"soft.npy", "hard.npy"}) {
    CAPTURE(other);
    expect_error(with(kCpuSort, {"--output", (dir / "b.npy").string(), "--values-output",
                                 (dir / other).string()}),
                 2, "name the same file");
  }
  CHECK(slurp(dir / "b.npy") == "old");
  // Two files are two outputs.
  const Result both = xreduce(with(
      kCpuSort, {"--output", keys, "--values-output", (dir / "v.npy").string(), "--dist", "full"}));
  INFO(both.err);
  CHECK(both.code == 0);
  CHECK(fs::exists(keys));
  CHECK(fs::exists(dir / "v.npy"));

  // compare's --out, --save-json and --plot, and diff's --out and --plot, before any work.
  const std::string report = (dir / "r.json").string();
  expect_error({"compare", "--backend", "cpu", "--n", "10", "--out", report, "--save-json",
                (dir / "sub" / ".." / "r.json").string()},
               2, "--out '" + report + "' and --save-json '");
  expect_error({"compare", "--backend", "cpu", "--n", "10", "--save-json", report, "--plot",
                (dir / "plot.svg").string(), "--out", (dir / "plot.svg").string()},
               2, "--out '" + (dir / "plot.svg").string() + "' and --plot '");
  expect_error({"diff", "old.json", "new.json", "--out", (dir / "d.svg").string(), "--plot",
                (dir / "./d.svg").string()},
               2, "name the same file");
  CHECK_FALSE(fs::exists(report));
}

TEST_CASE("a kernel declaring primitive=sort is refused in one line", "[cli][usage][kernel]") {
  TempDir dir;
  const std::string sort = kernel_file(dir, "sorter.comp", "primitive=sort");
  const std::string says =
      "primitive=sort: a user's kernel declares primitive=reduce or primitive=scan (sorts are "
      "built in only)";
  expect_error({"run", "--kernel", sort, "--n", "10"}, 2, says);
  expect_error({"compare", "--kernel", sort, "--n", "10"}, 2, says);
  expect_error({"check", "--kernel", sort}, 2, says);
}

TEST_CASE("a kernel runs as the primitive it declares, never as another", "[cli][usage][kernel]") {
  require_vulkan_or_skip();
  TempDir dir;
  const std::string reduce = kernel_file(dir, "sum.comp", "dtypes=i32");
  const std::string scan = kernel_file(dir, "ok_scan.comp", "primitive=scan");
  expect_error(
      {"run", "--kernel", scan, "--primitive", "sort", "--n", "10"}, 2,
      "--kernel " + scan + " declares primitive=scan, which --primitive sort does not ask for");
  expect_error({"run", "--kernel", reduce, "--primitive", "scan", "--n", "10"}, 2,
               "declares primitive=reduce, which --primitive scan does not ask for");
  expect_error({"run", "--kernel", reduce, "--backend", "vulkan", "--variant", "user/sum",
                "--primitive", "sort", "--n", "10"},
               2, "declares primitive=reduce, which --primitive sort does not ask for");
  expect_error({"compare", "--kernel", reduce, "--primitive", "scan", "--n", "10"}, 2,
               "--kernel " + reduce + " declares primitive=reduce, which --primitive scan");
  expect_error(
      {"compare", "--kernel", reduce, "--kernel", scan, "--primitive", "reduce,sort", "--n", "10"},
      2, "declares primitive=scan, which --primitive reduce,sort does not ask for");
  expect_error({"inspect", "--kernel", scan, "--primitive", "sort"}, 2,
               "declares primitive=scan, which --primitive sort does not ask for");
}

TEST_CASE("an unsigned option past its range is refused, not wrapped", "[cli][usage]") {
  const std::vector<std::string> cpu = {"run", "--backend", "cpu",    "--variant", "cpu/sequential",
                                        "--n", "10",        "--reps", "1",         "--format",
                                        "json"};
  const std::string range = "is not a whole number from 0 to 18446744073709551615";
  expect_error(with(cpu, {"--seed", "-1"}), 2, "--seed: '-1' " + range);
  expect_error(with(cpu, {"--seed", "18446744073709551616"}), 2,
               "--seed: '18446744073709551616' " + range);
  expect_error(with(cpu, {"--seed", "0x10"}), 2, "--seed: '0x10' " + range);
  expect_error({"compare", "--backend", "cpu", "--n", "10", "--seed", "-1"}, 2, "--seed: '-1'");
  expect_error({"check", "--backend", "cpu", "--seed", "99999999999999999999"}, 2, "--seed: '");
  expect_error({"check", "--backend", "cpu", "--max-size", "-3"}, 2, "--max-size: '-3' " + range);
  expect_error({"kernel-header", "--kernel", "k.comp", "--pass", "-1"}, 2, "--pass: '-1' " + range);
  // The largest seed is taken, and a leading zero is decimal, not octal.
  for (const auto& [given, taken] : std::vector<std::pair<std::string, std::uint64_t>>{
           {"18446744073709551615", UINT64_MAX}, {"010", 10}}) {
    const Result r = xreduce(with(cpu, {"--seed", given}));
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(json::parse(r.out)["seed"].get<std::uint64_t>() == taken);
  }
}

TEST_CASE("a sort alone refuses --op, in run, compare and inspect alike", "[cli][usage][sort]") {
  const std::string says = "--op applies to reduce and scan, not sort";
  expect_error({"run", "--backend", "cpu", "--variant", "cpu/radix", "--primitive", "sort", "--n",
                "10", "--op", "max"},
               2, says);
  expect_error({"compare", "--backend", "cpu", "--primitive", "sort", "--n", "10", "--op", "max"},
               2, says);
  expect_error({"inspect", "--backend", "cpu", "--primitive", "sort", "--op", "min"}, 2, says);
  // With a reduce or a scan beside the sort, --op is theirs.
  const Result r = xreduce({"compare", "--backend", "cpu", "--variant", "cpu/sequential,cpu/radix",
                            "--primitive", "reduce,sort", "--n", "10", "--op", "max", "--reps", "1",
                            "--quiet", "--format", "json"});
  INFO(r.err);
  CHECK(r.code == 0);
}

TEST_CASE("help names every primitive and every --dist", "[cli][help]") {
  const Result top = xreduce({"--help"});
  REQUIRE(top.code == 0);
  CHECK(top.out.find("reduction, prefix-sum and sort ladders") != std::string::npos);
  CHECK(top.out.find("sort (n keys -> the keys in order") != std::string::npos);
  CHECK(top.out.find("and histogram (n samples -> --bins counts over --range LO:HI") !=
        std::string::npos);
  CHECK(top.out.find("uniform (its default), one-bin, skewed, image or part-out") !=
        std::string::npos);
  CHECK(top.out.find("few, sorted, reversed, top-digit or bottom-digit") != std::string::npos);
  for (const char* command : {"run", "compare"}) {
    CAPTURE(command);
    const Result r = xreduce({command, "--help"});
    REQUIRE(r.code == 0);
    CHECK(r.out.find("few | sorted | reversed | top-digit | bottom-digit") != std::string::npos);
    CHECK(r.out.find("reduce | scan | sort | histogram") != std::string::npos);
    CHECK(r.out.find("uniform (its default) | one-bin | skewed | image | part-out") !=
          std::string::npos);
  }
}

TEST_CASE("run generates its data or reads it: --seed and --dist are refused with --input",
          "[cli][usage][run]") {
  TempDir dir;
  const std::string in = (dir / "in.npy").string();
  REQUIRE(xreduce(with(kCpuSort, {"--output", in})).code == 0);
  const std::vector<std::string> read = {
      "run", "--backend", "cpu", "--variant", "cpu/radix", "--primitive", "sort", "--input", in};
  expect_error(with(read, {"--seed", "3"}), 2, "--input excludes --seed");
  expect_error(with(read, {"--dist", "full"}), 2, "--input excludes --dist");
  CHECK(xreduce(with(read, {"--reps", "1"})).code == 0);
}

TEST_CASE("run's JSON: a NaN or infinite result is a string, null only where there is none",
          "[cli][run][sort]") {
  TempDir dir;
  // f32 keys NaN, 1, -inf: sorted descending, NaN comes first (the keys' total order); ascending,
  // -inf.
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
  header.resize(117, ' ');
  header += '\n';
  const float keys[] = {std::numeric_limits<float>::quiet_NaN(), 1.0f,
                        -std::numeric_limits<float>::infinity()};
  write_bytes(dir / "nan.npy", std::string("\x93NUMPY\x01\x00", 8) + char(header.size()) + '\0' +
                                   header +
                                   std::string(reinterpret_cast<const char*>(keys), sizeof keys));
  const std::vector<std::string> sort = {"run",       "--backend",   "cpu",  "--variant",
                                         "cpu/radix", "--primitive", "sort", "--reps",
                                         "1",         "--format",    "json"};
  auto result_of = [&](const std::vector<std::string>& more) {
    const Result r = xreduce(with(sort, more));
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    CHECK(j["result"] == j["reference"]);
    return j["result"];
  };
  CHECK(result_of({"--input", (dir / "nan.npy").string(), "--order", "desc"}) == "nan");
  CHECK(result_of({"--input", (dir / "nan.npy").string()}) == "-inf");
  CHECK(result_of({"--n", "0", "--dtype", "f32"}).is_null());
}
