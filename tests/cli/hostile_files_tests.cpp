// Files gone bad on a user's disk, and kernels that write where they should not, through the
// xreduce binary: a kernel-cache entry that is truncated, random, another kernel's or a link to
// /dev/zero is rebuilt with one note (never handed to a driver, never trusted); a report's
// strings, as the environment's knobs, reach no terminal raw and its bad fields are one usage
// error; a .npy header's NUL or overflowing shape is said as it is; an OpenCL C kernel's stray
// writes just past its partials are harmless, and one far outside every array ends the run in one
// line (exit 5) on pocl; the smaller refusals (an empty --out, a FIFO as --input).
#include <sys/stat.h>

#include "cli_support.hpp"

namespace {

using namespace clitest;

// The notes the cache printed on stderr.
int cache_notes(const std::string& err) {
  int notes = 0;
  for (std::size_t at = err.find("note: kernel cache entry"); at != std::string::npos;
       at = err.find("note: kernel cache entry", at + 1))
    ++notes;
  return notes;
}

// Whether `text` holds a byte a terminal would act on (ESC, BEL, NUL, DEL, a C1 control) or a
// bidirectional control that reorders what follows it (U+202A..U+202E, U+2066..U+2069).
bool has_raw_control(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\n') || c == 0x7f) return true;
    if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0xa0)
      return true;
    if (c == 0xe2 && i + 2 < text.size()) {
      const auto b = static_cast<unsigned char>(text[i + 1]);
      const auto d = static_cast<unsigned char>(text[i + 2]);
      if ((b == 0x80 && d >= 0xaa && d <= 0xae) || (b == 0x81 && d >= 0xa6 && d <= 0xa9))
        return true;
    }
  }
  return false;
}

const std::string kPocl = "opencl";

}  // namespace

TEST_CASE("a truncated OpenCL program binary in the kernel cache is rebuilt with one note",
          "[cli][cache][opencl]") {
  require_backend_or_skip(kPocl);
  TempDir cache;
  setenv("XR_KERNEL_CACHE", cache.path().c_str(), 1);
  const std::vector<std::string> run = {
      "run", "--backend", "opencl", "--variant", "smem/sequential", "--n", "100000", "--reps", "2"};
  const Result first = xreduce(run);
  REQUIRE(first.code == 0);
  CHECK(cache_notes(first.err) == 0);
  const auto programs = cache_entries(cache, ".clbin");
  REQUIRE_FALSE(programs.empty());
  for (const fs::path& p : programs) write_bytes(p, slurp(p).substr(0, 40000));
  const Result again = xreduce(run);
  INFO(again.err);
  CHECK(again.code == 0);
  CHECK(again.out.find("ok") != std::string::npos);
  CHECK(cache_notes(again.err) == static_cast<int>(programs.size()));
  CHECK(again.err.find("truncated: 40000 of ") != std::string::npos);
  // Stored whole again: the third run reads it without a note.
  const Result third = xreduce(run);
  CHECK(third.code == 0);
  CHECK(cache_notes(third.err) == 0);
  // inspect reads the same programs.
  for (const fs::path& p : programs) fs::resize_file(p, 100);
  const Result inspect =
      xreduce({"inspect", "--backend", "opencl", "--variant", "smem/sequential"});
  CHECK(inspect.code == 0);
  CHECK(cache_notes(inspect.err) >= 1);
}

TEST_CASE("another kernel's program binary under a key is never trusted",
          "[cli][cache][opencl][kernel]") {
  require_backend_or_skip(kPocl);
  TempDir cache;
  setenv("XR_KERNEL_CACHE", cache.path().c_str(), 1);
  const std::string sequential = std::string(XR_EXAMPLE_KERNELS) + "/sequential.cl";
  const std::vector<std::string> check = {
      "check",      "--kernel", sequential, "--kernel-spec", "dtypes=i32 ops=sum,max",
      "--max-size", "3000"};
  REQUIRE(xreduce(check).code == 0);
  const auto programs = cache_entries(cache, ".clbin");
  REQUIRE(programs.size() >= 2);
  // Every entry holds another's bytes (the first the last's): each is refused for its key.
  const std::string last = slurp(programs.back());
  for (std::size_t i = programs.size() - 1; i > 0; --i)
    write_bytes(programs[i], slurp(programs[i - 1]));
  write_bytes(programs.front(), last);
  const Result swapped = xreduce(check);
  INFO(swapped.out << swapped.err);
  CHECK(swapped.code == 0);
  CHECK(swapped.out.find(" 0 failed") != std::string::npos);
  CHECK(swapped.err.find("written for another kernel") != std::string::npos);
  CHECK(cache_notes(swapped.err) >= 2);
  // An entry that is a link to /dev/zero is not read, let alone to the end.
  fs::remove(programs.front());
  fs::create_symlink("/dev/zero", programs.front());
  const Result zero = xreduce(check);
  CHECK(zero.code == 0);
  CHECK(zero.err.find("a symbolic link: removed, built again") != std::string::npos);
  CHECK_FALSE(fs::is_symlink(programs.front()));
}

TEST_CASE("a SPIR-V module in the kernel cache overwritten with random bytes is rebuilt",
          "[cli][cache][vulkan][kernel]") {
  require_vulkan_or_skip();
  TempDir cache;
  setenv("XR_KERNEL_CACHE", cache.path().c_str(), 1);
  const std::string kernel = std::string(XR_EXAMPLE_KERNELS) + "/sequential.comp";
  const std::vector<std::string> run = {"run", "--kernel", kernel, "--n", "10000", "--reps", "2"};
  REQUIRE(xreduce(run).code == 0);
  const auto modules = cache_entries(cache, ".spv");
  REQUIRE_FALSE(modules.empty());
  std::string noise(4096, '\0');
  for (std::size_t i = 0; i < noise.size(); ++i)
    noise[i] = static_cast<char>((i * 2654435761u) >> 13);
  for (const fs::path& p : modules) write_bytes(p, noise);
  const Result again = xreduce(run);
  INFO(again.err);
  CHECK(again.code == 0);  // the user's source is not blamed for the cache's file
  CHECK(again.err.find("not a SPIR-V module") == std::string::npos);
  CHECK(cache_notes(again.err) == static_cast<int>(modules.size()));
}

TEST_CASE("an OpenCL C kernel's stray writes: just past its partials harmless, far out one line",
          "[cli][kernel][opencl]") {
  require_backend_or_skip(kPocl);
  const std::string bad = XR_BAD_KERNELS;
  // Inside the slack every OpenCL array has, partials included: the run goes on and checks ok.
  const Result slack = xreduce({"check", "--kernel", bad + "/oob_slack.cl", "--max-size", "70000"});
  INFO(slack.out << slack.err);
  CHECK(slack.code == 0);
  CHECK(slack.out.find(" 0 failed") != std::string::npos);
  // 4 GiB past them: pocl runs the kernel in xreduce's threads, and the fault ends the process in
  // one line naming the kernel.
  expect_error({"run", "--kernel", bad + "/oob.cl", "--n", "100000", "--reps", "1"}, 5,
               "opencl: kernel user/oob on ");
  expect_error({"run", "--kernel", bad + "/oob.cl", "--n", "100000", "--reps", "1"}, 5,
               "faulted the process");
  // A float n has a uint's size: its type name refuses it before anything runs.
  expect_error({"check", "--kernel", bad + "/params_float.cl"}, 2,
               "params_float.cl: kernel 'xr_reduce' argument 3 is a float, not a uint");
}

TEST_CASE("a report's strings reach the terminal escaped, in every format of diff and baseline",
          "[cli][report][baseline]") {
  TempDir dir;
  const std::string a = (dir / "a.json").string(), b = (dir / "b.json").string();
  REQUIRE(xreduce({"compare", "--backend", "cpu", "--variant", "cpu/sequential", "--n", "1000",
                   "--reps", "3", "--quiet", "--save-json", a, "--out", (dir / "a.txt").string()})
              .code == 0);
  json j = json::parse(slurp(a));
  j["command"] = "\x1b[2J\x1b[31mPWNED\x07\xc2\x9b";
  j["devices"][0]["name"] = "cpu\x1b]0;title\x07\u202e";  // RLO: what follows reads backwards
  // A NUL in a knob's name: read whole, not cut short where a C string would end.
  j["devices"][0]["knobs"] = {{"XR_\x1b[1m", std::string("\x00\x1b[5m", 5)},
                              {std::string("XR_\0NUL", 7), "\u2066isolated"}};
  json row = j["results"][0];
  row["variant"] = "cpu/\x1b[41msequential";  // a row of this file only, listed as such
  j["results"].push_back(row);
  write_bytes(b, j.dump());
  for (const char* format : {"text", "md", "csv", "json"}) {
    CAPTURE(format);
    const Result diff = xreduce({"diff", a, b, "--format", format});
    INFO(diff.err);
    CHECK(diff.code == 0);
    CHECK_FALSE(has_raw_control(diff.out));
    CHECK_FALSE(has_raw_control(diff.err));
    // JSON escapes the backslash of \x1b once more.
    const std::string escaped = std::string_view(format) == "json" ? "\\\\x1b" : "\\x1b";
    CHECK(diff.out.find(escaped + "[41msequential") != std::string::npos);
    if (std::string_view(format) != "csv") CHECK(diff.out.find("PWNED") != std::string::npos);
    if (std::string_view(format) == "text")
      CHECK(diff.out.find("XR_\\x00NUL=\\xe2\\x81\\xa6isolated") != std::string::npos);
  }
  const Result baseline = xreduce({"compare", "--backend", "cpu", "--variant", "cpu/sequential",
                                   "--n", "1000", "--reps", "3", "--quiet", "--baseline", b});
  INFO(baseline.err);
  CHECK(baseline.code == 0);
  CHECK(baseline.out.find("PWNED") != std::string::npos);
  CHECK_FALSE(has_raw_control(baseline.out));
  CHECK_FALSE(has_raw_control(baseline.err));
  // --merge: another backend's rows and device, each string escaped in the merged report.
  for (auto& d : j["devices"]) d["backend"] = "peer\x1b[1m";
  for (auto& r : j["results"]) r["backend"] = "peer\x1b[1m";
  write_bytes(b, j.dump());
  for (const char* format : {"text", "md", "csv", "json"}) {
    CAPTURE(format);
    const Result merged =
        xreduce({"compare", "--backend", "cpu", "--variant", "cpu/sequential", "--n", "1000",
                 "--reps", "3", "--quiet", "--merge", b, "--format", format});
    INFO(merged.err);
    CHECK(merged.code == 0);
    const std::string escaped = std::string_view(format) == "json" ? "\\\\x1b" : "\\x1b";
    CHECK(merged.out.find("peer" + escaped + "[1m") != std::string::npos);
    CHECK_FALSE(has_raw_control(merged.out));
  }
}

TEST_CASE("a report's bad fields and unreadable files are one usage error naming them",
          "[cli][report][usage]") {
  TempDir dir;
  const std::string a = (dir / "a.json").string();
  REQUIRE(xreduce({"compare", "--backend", "cpu", "--variant", "cpu/sequential", "--n", "1000",
                   "--reps", "3", "--quiet", "--save-json", a, "--out", (dir / "a.txt").string()})
              .code == 0);
  std::string text = slurp(a);
  const std::size_t at = text.find("\"median_ms\": ") + 13;
  text.replace(at, text.find(',', at) - at, "1e400");
  write_bytes(dir / "big.json", text);
  expect_error({"diff", a, (dir / "big.json").string()}, 2,
               "result 0's \"median_ms\" is a number past the range of a double");
  json j = json::parse(slurp(a));
  j["results"][0]["rel_spread"] = 1e6;
  write_bytes(dir / "spread.json", j.dump());
  expect_error({"diff", a, (dir / "spread.json").string(), "--fail-above", "5"}, 2,
               "\"rel_spread\" is 1000000.0, not a number from 0 to 1");
  j = json::parse(slurp(a));
  j["results"][0]["ok"] = false;
  write_bytes(dir / "ok.json", j.dump());
  expect_error(
      {"compare", "--backend", "cpu", "--n", "1000", "--baseline", (dir / "ok.json").string()}, 2,
      "\"ok\" is false but its status is 'ok'");
  // Not a report's file at all: a device read until its limit, a FIFO with no writer (read as
  // empty, not waited on), a directory.
  expect_error({"diff", a, "/dev/zero"}, 2, "diff '/dev/zero': holds more than the ");
  REQUIRE(::mkfifo((dir / "fifo").c_str(), 0600) == 0);
  expect_error({"diff", a, (dir / "fifo").string()}, 2, "is empty, not a compare report");
  expect_error({"diff", a, dir.path().string()}, 2, "is a directory, not a file");
}

TEST_CASE("a saved report's numbers are checked where compare merges them",
          "[cli][report][merge]") {
  TempDir dir;
  const std::string a = (dir / "a.json").string();
  REQUIRE(xreduce({"compare", "--backend", "cpu", "--variant", "cpu/sequential", "--n", "1000",
                   "--reps", "3", "--quiet", "--save-json", a, "--out", (dir / "a.txt").string()})
              .code == 0);
  json j = json::parse(slurp(a));
  for (auto& d : j["devices"]) d["backend"] = "peer";
  for (auto& r : j["results"]) r["backend"] = "peer";
  j["devices"][0]["index"] = 3;
  j["devices"][0]["memory_bytes"] = std::uint64_t{1} << 34;
  write_bytes(dir / "peer.json", j.dump());
  const Result merged = xreduce({"compare", "--backend", "cpu", "--variant", "cpu/sequential",
                                 "--n", "1000", "--reps", "3", "--quiet", "--merge",
                                 (dir / "peer.json").string(), "--format", "json"});
  INFO(merged.err);
  REQUIRE(merged.code == 0);
  const json out = json::parse(merged.out);
  CHECK(out["devices"][1]["index"] == 3);  // the merged device as its file has it
  CHECK(out["devices"][1]["memory_bytes"] == std::uint64_t{1} << 34);
  // n = 2^64 - 1 would make its 1K row's time a bandwidth of 10^17 GB/s.
  j["results"][0]["n"] = UINT64_MAX;
  write_bytes(dir / "huge.json", j.dump());
  expect_error(
      {"compare", "--backend", "cpu", "--n", "1000", "--merge", (dir / "huge.json").string()}, 2,
      "result 0's \"n\" is 18446744073709551615, not a whole number from 0 to "
      "9007199254740992");
  j["results"][0]["n"] = 1000;
  j["results"][0]["gbps"] = -1.5;
  write_bytes(dir / "gbps.json", j.dump());
  expect_error({"diff", a, (dir / "gbps.json").string()}, 2,
               "result 0's \"gbps\" is -1.5, not a number of at least 0");
  j["results"][0]["gbps"] = 1.0;
  j["devices"][0]["index"] = -1;
  write_bytes(dir / "index.json", j.dump());
  expect_error(
      {"compare", "--backend", "cpu", "--n", "1000", "--baseline", (dir / "index.json").string()},
      2, "device 0's \"index\" is -1, not a whole number from 0 to 2147483647");
}

TEST_CASE("a .npy header's NUL is shown and an overflowing shape is said to overflow",
          "[cli][usage][npy]") {
  TempDir dir;
  // A format 1.0 .npy of `dict` (padded to 118 bytes and a newline) and `data`.
  auto npy = [&](const std::string& name, std::string dict, const std::string& data) {
    dict.resize(118, ' ');
    dict += '\n';
    write_bytes(dir / name,
                std::string("\x93NUMPY\x01\x00", 8) + char(dict.size()) + '\0' + dict + data);
    return (dir / name).string();
  };
  const std::vector<std::string> run = {"run",       "--backend",      "cpu",
                                        "--variant", "cpu/sequential", "--input"};
  const std::string nul =
      npy("nul.npy", std::string("{'descr': '<f4\0', 'fortran_order': False, 'shape': (4,), }", 58),
          std::string(16, '\0'));
  auto args = run;
  args.push_back(nul);
  expect_error(args, 2, "unsupported .npy dtype '<f4\\x00' (supported, little-endian");
  // 2^62 + 1000 elements of 4 bytes: their byte count wraps to the file's 4000.
  args.back() = npy("wraps.npy",
                    "{'descr': '<i4', 'fortran_order': False, 'shape': (4611686018427388904,), }",
                    std::string(4000, '\0'));
  expect_error(args, 2, "shape (4611686018427388904,) overflows");
}

TEST_CASE("environment knobs reach the terminal escaped: run's knob line, compare's note",
          "[cli][vulkan]") {
  require_vulkan_or_skip();
  // XR_VK_VALIDATION is read as "1" or not: this value changes nothing but what is printed.
  setenv("XR_VK_VALIDATION", "\x1b[31mred\u202e", 1);
  const Result run = xreduce({"run", "--backend", "vulkan", "--variant", "smem/sequential", "--n",
                              "1000", "--reps", "1", "--warmup", "0"});
  INFO(run.err);
  CHECK(run.code == 0);
  CHECK(run.out.find("knob       XR_VK_VALIDATION=\\x1b[31mred\\xe2\\x80\\xae") !=
        std::string::npos);
  CHECK_FALSE(has_raw_control(run.out));
  const Result compare = xreduce({"compare", "--backend", "vulkan", "--variant", "smem/sequential",
                                  "--n", "1000", "--reps", "1", "--warmup", "0", "--quiet"});
  INFO(compare.err);
  CHECK(compare.code == 0);
  CHECK(compare.out.find("knobs XR_VK_VALIDATION=\\x1b[31mred\\xe2\\x80\\xae") !=
        std::string::npos);
  CHECK_FALSE(has_raw_control(compare.out));
  unsetenv("XR_VK_VALIDATION");
}

TEST_CASE("an empty FILE argument and a FIFO as --input are refused, not waited on",
          "[cli][usage]") {
  TempDir dir;
  expect_error({"inspect", "--backend", "cpu", "--out", ""}, 2, "--out: an empty file name");
  expect_error({"compare", "--backend", "cpu", "--n", "1000", "--save-json", ""}, 2,
               "--save-json: an empty file name");
  REQUIRE(::mkfifo((dir / "in.npy").c_str(), 0600) == 0);
  expect_error({"run", "--backend", "cpu", "--variant", "cpu/sequential", "--input",
                (dir / "in.npy").string()},
               2, "in.npy: is a FIFO, not a regular file");
  CHECK(dir.entries() == 1);
}
