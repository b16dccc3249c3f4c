// The environment knobs' contract (docs/cli.md, "Environment knobs") across the backends: a
// malformed value is refused by every primitive it affects, numbers past their range are
// malformed (never wrapped or saturated), a report's knobs are what took effect (never a
// malformed or an empty one), and a refusal names the knob and its value.
#include "cli_support.hpp"

namespace {

using namespace clitest;

// The report's knobs of one `run --format json` with `args`; the run must succeed.
json run_knobs(std::vector<std::string> args) {
  args.insert(args.begin(), "run");
  for (const char* more : {"--reps", "1", "--warmup", "0", "--format", "json"})
    args.emplace_back(more);
  const Result r = xreduce(args);
  INFO("command: " << show(args) << "\nstderr: " << r.err);
  REQUIRE(r.code == 0);
  return json::parse(r.out)["knobs"];
}

const std::vector<std::string> kVulkanSort = {"run",  "--backend", "vulkan",         "--primitive",
                                              "sort", "--variant", "radix/onesweep", "--n",
                                              "1000"};
const std::vector<std::string> kOpenClSort = {"run",  "--backend", "opencl",         "--primitive",
                                              "sort", "--variant", "radix/onesweep", "--n",
                                              "1000"};

}  // namespace

TEST_CASE("a malformed XR_VK_LOOKBACK_POLLS refuses the Vulkan sorts as it does the scans",
          "[cli][vulkan][knobs]") {
  require_vulkan_or_skip();
  for (const char* value : {"abc", "-1", "4294967296", ""}) {
    CAPTURE(value);
    setenv("XR_VK_LOOKBACK_POLLS", value, 1);
    expect_error(kVulkanSort, 2, "XR_VK_LOOKBACK_POLLS must be a whole number from 0 to");
    expect_error({"run", "--backend", "vulkan", "--primitive", "scan", "--variant",
                  "fast/decoupled-lookback", "--n", "1000"},
                 2, "XR_VK_LOOKBACK_POLLS must be a whole number from 0 to");
  }
  unsetenv("XR_VK_LOOKBACK_POLLS");
}

// XR_VK_HISTOGRAM_MATCH refuses every Vulkan histogram when malformed and nothing else; well
// formed, the report records it and subgroup/aggregated's plan says it matched by ballots.
TEST_CASE("XR_VK_HISTOGRAM_MATCH: malformed, it refuses the Vulkan histograms alone",
          "[cli][vulkan][knobs]") {
  require_vulkan_or_skip();
  const std::vector<std::string> histogram = {"--backend", "vulkan",    "--primitive",
                                              "histogram", "--variant", "subgroup/aggregated",
                                              "--n",       "1000"};
  setenv("XR_VK_HISTOGRAM_MATCH", "partition", 1);
  std::vector<std::string> run = histogram;
  run.insert(run.begin(), "run");
  expect_error(run, 2, "XR_VK_HISTOGRAM_MATCH must be auto or ballots (got 'partition')");
  CHECK_FALSE(run_knobs({"--backend", "vulkan", "--variant", "fast/single-pass", "--n", "1000"})
                  .contains("XR_VK_HISTOGRAM_MATCH"));
  setenv("XR_VK_HISTOGRAM_MATCH", "ballots", 1);
  CHECK(run_knobs(histogram).value("XR_VK_HISTOGRAM_MATCH", "") == "ballots");
  const Result r = xreduce(run);
  unsetenv("XR_VK_HISTOGRAM_MATCH");
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(r.out.find("matched by subgroup ballots") != std::string::npos);
}

// XR_VK_HISTOGRAM_LAYOUT=global: fast/replicated's bins past one shared copy counted in global
// memory instead of in slices; lane-banked: 255 bins lane-banked at any count; malformed, every
// Vulkan histogram refused.
TEST_CASE("XR_VK_HISTOGRAM_LAYOUT: global counts 65536 bins in global memory, not in slices",
          "[cli][vulkan][knobs]") {
  require_vulkan_or_skip();
  const std::vector<std::string> run = {
      "run",     "--backend", "vulkan", "--primitive", "histogram", "--variant", "fast/replicated",
      "--dtype", "u16",       "--bins", "65536",       "--n",       "100000"};
  const Result sliced = xreduce(run);
  INFO(sliced.err);
  CHECK(sliced.code == 0);
  CHECK(sliced.out.find("slices of") != std::string::npos);
  setenv("XR_VK_HISTOGRAM_LAYOUT", "none", 1);
  expect_error(run, 2,
               "XR_VK_HISTOGRAM_LAYOUT must be auto, lane-banked, replicated or global (got "
               "'none')");
  setenv("XR_VK_HISTOGRAM_LAYOUT", "global", 1);
  const Result global = xreduce(run);
  std::vector<std::string> bytes = run;
  bytes[8] = "u8";
  bytes[10] = "255";  // with the discard bin, 32 KiB (lavapipe's) of counters
  bytes.insert(bytes.end(), {"--range", "0:255"});
  setenv("XR_VK_HISTOGRAM_LAYOUT", "lane-banked", 1);
  const Result banked = xreduce(bytes);
  unsetenv("XR_VK_HISTOGRAM_LAYOUT");
  INFO(banked.err);
  CHECK(banked.code == 0);
  CHECK(banked.out.find("lane-banked copies") != std::string::npos);
  INFO(global.err);
  CHECK(global.code == 0);
  CHECK(global.out.find("slices of") == std::string::npos);
  CHECK(global.out.find("global") != std::string::npos);
}

TEST_CASE("a malformed knob is not recorded among a report's knobs", "[cli][vulkan][knobs]") {
  require_vulkan_or_skip();
  // A reduce runs (neither knob is a reduce's); the report records only the well-formed one.
  setenv("XR_VK_LOOKBACK_POLLS", "abc", 1);
  setenv("XR_VK_LOOKBACK_WINDOW", "2", 1);
  const json knobs =
      run_knobs({"--backend", "vulkan", "--variant", "fast/single-pass", "--n", "1000"});
  unsetenv("XR_VK_LOOKBACK_POLLS");
  unsetenv("XR_VK_LOOKBACK_WINDOW");
  INFO(knobs.dump());
  CHECK_FALSE(knobs.contains("XR_VK_LOOKBACK_POLLS"));
  CHECK(knobs.value("XR_VK_LOOKBACK_WINDOW", "") == "2");
}

TEST_CASE("a tile or shape knob's number past 2^32 is malformed, not wrapped",
          "[cli][vulkan][opencl][knobs]") {
  require_vulkan_or_skip();
  require_backend_or_skip("opencl");
  // 4294967552 = 2^32 + 256, 4294967304 = 2^32 + 8, 4294967424 = 2^32 + 128: each wrapped would
  // be a tile the knob takes.
  for (const char* tile : {"4294967552x8", "256x4294967304"}) {
    CAPTURE(tile);
    setenv("XR_CL_SORT_TILE", tile, 1);
    expect_error(kOpenClSort, 2, "XR_CL_SORT_TILE must be <threads>x<items>");
    unsetenv("XR_CL_SORT_TILE");
    setenv("XR_VK_SORT_TILE", tile, 1);
    expect_error(kVulkanSort, 2, "XR_VK_SORT_TILE must be <threads>x<items>");
    unsetenv("XR_VK_SORT_TILE");
  }
  for (const char* api : {"vulkan", "opencl"}) {
    const std::string knob =
        api == std::string_view("vulkan") ? "XR_VK_LOOKBACK_SHAPE" : "XR_CL_LOOKBACK_SHAPE";
    CAPTURE(knob);
    setenv(knob.c_str(), "4294967424x8", 1);
    expect_error({"run", "--backend", api, "--primitive", "scan", "--variant",
                  "fast/decoupled-lookback", "--n", "1000"},
                 2, knob + " must be <workgroup>x<vectors>");
    unsetenv(knob.c_str());
  }
}

TEST_CASE("XR_VK_BLOCK_BYTES past 2^64 - 1 is malformed, not saturated", "[cli][vulkan][knobs]") {
  require_vulkan_or_skip();
  setenv("XR_VK_BLOCK_BYTES", std::string(100000, '9').c_str(), 1);
  const Result r = xreduce({"run", "--backend", "vulkan", "--variant", "fast/single-pass", "--n",
                            "1000", "--reps", "1"});
  unsetenv("XR_VK_BLOCK_BYTES");
  INFO(r.out.substr(0, 2000) << r.err.substr(0, 2000));
  CHECK(r.code == 3);
  CHECK(r.err.find("XR_VK_BLOCK_BYTES must be a whole number of bytes from 1048576 to "
                   "18446744073709551615") != std::string::npos);
  CHECK(r.err.size() < 400);  // the value is shown shortened: one line a terminal holds
}

TEST_CASE("a report records XR_CL_LOCAL_MEMORY, and no OpenCL knob set empty",
          "[cli][opencl][knobs]") {
  require_backend_or_skip("opencl");
  setenv("XR_CL_LOCAL_MEMORY", "reported", 1);
  for (const char* empty : {"XR_CL_SORT_TILE", "XR_CL_BUILD_OPTIONS", "XR_CL_SORT_MODE",
                            "XR_CL_GATE", "XR_DEVICE_TIMEOUT", "XR_SCAN_ONE_GROUP_MAX"})
    setenv(empty, "", 1);
  const json knobs = run_knobs(
      {"--backend", "opencl", "--primitive", "sort", "--variant", "radix/onesweep", "--n", "1000"});
  for (const char* empty : {"XR_CL_SORT_TILE", "XR_CL_BUILD_OPTIONS", "XR_CL_SORT_MODE",
                            "XR_CL_GATE", "XR_DEVICE_TIMEOUT", "XR_SCAN_ONE_GROUP_MAX"}) {
    unsetenv(empty);
    CAPTURE(empty);
    CHECK_FALSE(knobs.contains(empty));
  }
  unsetenv("XR_CL_LOCAL_MEMORY");
  INFO(knobs.dump());
  CHECK(knobs.value("XR_CL_LOCAL_MEMORY", "") == "reported");
}

// lavapipe's 32 KiB of shared memory hold 1024 invocations' counters ranked by counting, but not
// by subgroup ballots (a row of 256 16-bit counters per subgroup of 8): no item fits beside them.
TEST_CASE("XR_VK_SORT_TILE that the device's shared memory cannot hold is refused naming it",
          "[cli][vulkan][knobs]") {
  require_vulkan_or_skip();
  setenv("XR_VK_SORT_TILE", "1024x1", 1);
  const Result r = xreduce(kVulkanSort);
  setenv("XR_VK_SORT_RANKING", "counting", 1);
  const Result counting = xreduce(kVulkanSort);
  unsetenv("XR_VK_SORT_RANKING");
  unsetenv("XR_VK_SORT_TILE");
  INFO(r.err);
  const bool lavapipe = counting.out.find("llvmpipe") != std::string::npos;
  CHECK(counting.code == 0);
  if (lavapipe || r.code != 0) {
    CHECK(r.code == 3);
    CHECK(r.err.find("XR_VK_SORT_TILE=1024x1: ") != std::string::npos);
    CHECK(r.err.find("32768 bytes of shared memory") != std::string::npos);
    CHECK(r.err.find("at most 448 invocations") != std::string::npos);
  }
}

TEST_CASE("a malformed knob's line names its value, escaped and shortened",
          "[cli][opencl][knobs]") {
  require_backend_or_skip("opencl");
  setenv("XR_CL_SORT_WIDE", "\x1b[31myes", 1);
  expect_error(kOpenClSort, 2, "XR_CL_SORT_WIDE must be 0 or 1 (got '\\x1b[31myes')");
  unsetenv("XR_CL_SORT_WIDE");
  setenv("XR_CL_LOOKBACK_POLLS", std::string(1000, '7').c_str(), 1);
  expect_error(kOpenClSort, 2,
               "XR_CL_LOOKBACK_POLLS must be a whole number from 0 to 4294967295 (got 1000 "
               "bytes: '7777");
  unsetenv("XR_CL_LOOKBACK_POLLS");
}
