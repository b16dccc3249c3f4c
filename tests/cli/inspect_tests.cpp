// `xreduce inspect` on lavapipe (CI) and the CPU: every field of every pass present, the
// statistics lavapipe does not report stated as not reported, occupancy unknown without a CUDA
// device of the same UUID, the four formats consistent, users' kernels inspected like built-in
// variants, and the bad flags refused in one line.
#include "cli_support.hpp"

namespace {

using namespace clitest;
using json = nlohmann::json;

const std::vector<std::string> kPassKeys = {"kernel",
                                            "block",
                                            "grid",
                                            "elements_per_thread",
                                            "registers",
                                            "static_shared_bytes",
                                            "dynamic_shared_bytes",
                                            "local_bytes",
                                            "stack_bytes",
                                            "binary_bytes",
                                            "constant_bytes",
                                            "subgroup_size",
                                            "max_threads",
                                            "binary",
                                            "api_blocks_per_sm",
                                            "instructions",
                                            "occupancy",
                                            "not_reported",
                                            "statistics"};

json inspect_json(std::vector<std::string> args) {
  args.insert(args.begin(), "inspect");
  args.insert(args.end(), {"--format", "json"});
  const Result r = xreduce(args);
  INFO("command: " << show(args) << "\nstderr: " << r.err);
  REQUIRE(r.code == 0);
  return json::parse(r.out);
}

// The fields of one CSV line (RFC 4180: quoted fields may hold commas and doubled quotes).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("inspect: every vulkan variant's passes on lavapipe, unreported facts said so",
          "[cli][inspect][vulkan]") {
  require_vulkan_or_skip();
  const std::uint64_t n = 70001;
  const json j = inspect_json({"--backend", "vulkan", "--n", std::to_string(n)});
  REQUIRE(j["schema"] == 1);
  REQUIRE(j["limits"].size() == 1);
  CHECK(j["limits"][0]["limits"].is_null());
  CHECK(j["limits"][0]["from"].get<std::string>().find("unknown") != std::string::npos);

  // Every vulkan variant that claims i32 (and sum, where it has an operator) has its row.
  const json listed = json::parse(xreduce({"list", "--format", "json"}).out);
  std::set<std::string> expected, seen;
  for (const auto& b : listed["backends"])
    if (b["name"] == "vulkan")
      for (const auto& v : b["variants"])
        expected.insert(v["primitive"].get<std::string>() + " " + v["id"].get<std::string>());
  for (const auto& row : j["rows"]) {
    const std::string id =
        row["primitive"].get<std::string>() + " " + row["variant"].get<std::string>();
    INFO(id);
    seen.insert(id);
    CHECK(row["backend"] == "vulkan");
    CHECK(row["n"] == n);
    CHECK(row["dtype"] == "i32");
    if (row["passes"].empty()) {
      CHECK(row["note"].get<std::string>().find("cannot run here") != std::string::npos);
      continue;
    }
    for (const auto& p : row["passes"]) {
      for (const auto& key : kPassKeys) CHECK(p.contains(key));
      CHECK(p["block"].get<std::uint64_t>() > 0);
      CHECK(p["grid"].get<std::uint64_t>() > 0);
      CHECK(p["elements_per_thread"].get<double>() ==
            Approx(double(n) / (p["grid"].get<double>() * p["block"].get<double>())));
      // A sort's modules are named by key width (sort_*.k32) or not at all (its word passes), a
      // histogram's by sample type or not at all (its zero and sum passes).
      const std::string kernel = p["kernel"].get<std::string>();
      const char* named = row["primitive"] == "sort"        ? "sort_"
                          : row["primitive"] == "histogram" ? "histogram_"
                                                            : ".i32";
      CHECK(kernel.find(named) != std::string::npos);
      // lavapipe has no VK_KHR_pipeline_executable_properties: nothing is made up.
      CHECK(p["registers"].is_null());
      CHECK(p["static_shared_bytes"].is_null());
      CHECK(p["occupancy"].is_null());
      CHECK(p["not_reported"].get<std::string>().find("not reported") != std::string::npos);
    }
  }
  CHECK(seen == expected);
}

TEST_CASE("inspect: a one-pass and a multi-pass variant, and the grid follows n",
          "[cli][inspect][vulkan]") {
  require_vulkan_or_skip();
  const auto passes = [](const json& j, std::string_view id) {
    for (const auto& row : j["rows"])
      if (row["variant"] == id) return row["passes"];
    FAIL("no row of " << id);
    return json();
  };
  const json small =
      inspect_json({"--backend", "vulkan", "--variant", "fast/single-pass,smem/sequential",
                    "--primitive", "reduce", "--n", "1000"});
  const json large =
      inspect_json({"--backend", "vulkan", "--variant", "fast/single-pass,smem/sequential",
                    "--primitive", "reduce", "--n", "4M"});
  CHECK(passes(small, "fast/single-pass").size() == 1);
  // Harris's step 3: one block per 256 elements, then again over the partials until one is left.
  const json seq = passes(large, "smem/sequential");
  REQUIRE(seq.size() >= 2);
  CHECK(seq[0]["grid"].get<std::uint64_t>() * seq[0]["block"].get<std::uint64_t>() == 4u << 20);
  CHECK(seq.back()["grid"] == 1);
  CHECK(passes(large, "smem/sequential")[0]["grid"].get<std::uint64_t>() >
        passes(small, "smem/sequential")[0]["grid"].get<std::uint64_t>());
}

TEST_CASE("inspect: csv, md and text carry the same rows", "[cli][inspect][vulkan]") {
  require_vulkan_or_skip();
  const std::vector<std::string> base = {
      "inspect", "--backend", "vulkan",  "--variant", "fast/*,smem/hillis-steele",
      "--n",     "64K",       "--dtype", "i32,f32"};
  auto run = [&](std::string format) {
    auto args = base;
    args.insert(args.end(), {"--format", format});
    const Result r = xreduce(args);
    INFO("command: " << show(args) << "\nstderr: " << r.err);
    REQUIRE(r.code == 0);
    return r.out;
  };
  const json j = json::parse(run("json"));
  std::size_t passes = 0;
  for (const auto& row : j["rows"]) passes += std::max<std::size_t>(1, row["passes"].size());
  std::istringstream csv(run("csv"));
  std::string line;
  std::getline(csv, line);
  const std::size_t columns = csv_fields(line).size();
  CHECK(columns == 27);
  std::size_t lines = 0;
  while (std::getline(csv, line)) {
    INFO(line);
    CHECK(csv_fields(line).size() == columns);
    ++lines;
  }
  CHECK(lines == passes);
  const std::string md = run("md");
  CHECK(md.find("## vulkan") != std::string::npos);
  CHECK(md.find("| fast/single-pass |") != std::string::npos);
  const std::string text = run("text");
  CHECK(text.find("fast/decoupled-lookback") != std::string::npos);
  CHECK(text.find("occupancy unknown") != std::string::npos);
}

TEST_CASE("inspect: a user's kernel like a built-in variant", "[cli][inspect][vulkan]") {
  require_vulkan_or_skip();
  const json j = inspect_json({"--backend", "vulkan", "--kernel",
                               std::string(XR_EXAMPLE_KERNELS) + "/sequential.comp", "--variant",
                               "user/*", "--n", "100000", "--dtype", "f32"});
  REQUIRE(j["rows"].size() == 1);
  const json& row = j["rows"][0];
  CHECK(row["variant"] == "user/sequential");
  REQUIRE(row["passes"].size() >= 2);
  CHECK(row["passes"][0]["block"] == 64);
  CHECK(row["passes"].back()["grid"] == 1);
}

TEST_CASE("inspect: the cpu compiles nothing, and bad flags are one line", "[cli][inspect]") {
  const json j = inspect_json({"--backend", "cpu", "--variant", "cpu/sequential", "--n", "1K"});
  REQUIRE(j["rows"].size() == 3);  // reduce, scan and histogram
  for (const auto& row : j["rows"]) {
    CHECK(row["passes"].empty());
    CHECK(row["note"].get<std::string>().find("host") != std::string::npos);
  }
  CHECK(j["limits"][0]["from"].get<std::string>().find("CPU") != std::string::npos);
  expect_error({"inspect", "--backend", "cpu", "--format", "xml"}, 2, "--format");
  expect_error({"inspect", "--backend", "cpu", "--variant", "nope/*"}, 2, "nope/*");
  expect_error({"inspect", "--backend", "cpu", "--n", "12Q"}, 2, "12Q");
  TempDir dir;
  const fs::path out = dir / "inspect.json";
  const Result r = xreduce(
      {"inspect", "--backend", "cpu", "--n", "1K", "--format", "json", "--out", out.string()});
  REQUIRE(r.code == 0);
  CHECK(r.out.empty());
  CHECK(json::parse(slurp(out))["schema"] == 1);
}

TEST_CASE("compare: each row carries its call's compiled passes, the same as inspect's",
          "[cli][inspect][compare][vulkan]") {
  require_vulkan_or_skip();
  const std::vector<std::string> select = {
      "--backend",   "cpu,vulkan", "--variant", "cpu/sequential,smem/sequential,fast/single-pass",
      "--primitive", "reduce",     "--n",       "300000"};
  std::vector<std::string> args = {"compare", "--reps", "3", "--format", "json"};
  args.insert(args.end(), select.begin(), select.end());
  const Result r = xreduce(args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json report = json::parse(r.out);
  CHECK(report["schema_version"] == 4);
  std::vector<std::string> inspect_args(select.begin(), select.end());
  inspect_args.erase(inspect_args.begin(), inspect_args.begin() + 2);
  inspect_args.insert(inspect_args.begin(), {"--backend", "vulkan"});
  const json inspected = inspect_json(inspect_args);
  int gpu_rows = 0;
  for (const auto& row : report["results"]) {
    INFO(row["backend"] << " " << row["variant"]);
    REQUIRE(row["compiled"].is_object());
    const json& passes = row["compiled"]["passes"];
    if (row["backend"] == "cpu") {  // host code: no passes, and why
      CHECK(passes.empty());
      CHECK(row["compiled"]["note"].get<std::string>().find("host") != std::string::npos);
      continue;
    }
    ++gpu_rows;
    const json* same = nullptr;
    for (const auto& i : inspected["rows"])
      if (i["variant"] == row["variant"]) same = &i;
    REQUIRE(same);
    REQUIRE(passes.size() == (*same)["passes"].size());
    for (std::size_t k = 0; k < passes.size(); ++k) {
      CHECK(passes[k]["block"] == (*same)["passes"][k]["block"]);
      CHECK(passes[k]["grid"] == (*same)["passes"][k]["grid"]);
      CHECK(passes[k]["kernel"] == (*same)["passes"][k]["kernel"]);
      CHECK(passes[k]["registers"].is_null());  // lavapipe reports none, and none is made up
      CHECK(passes[k]["not_reported"].get<std::string>().find("not reported") != std::string::npos);
    }
  }
  CHECK(gpu_rows == 2);
}

// XR_VK_CAPTURE_IR: recorded with the report's knobs; a driver that reports statistics has each
// pipeline's internal representations written (at least the listing per pipeline), one without
// the extension (Debian 12's lavapipe) has nothing written and runs as without the knob.
TEST_CASE("XR_VK_CAPTURE_IR: a knob of the report, the listing where the driver has statistics",
          "[cli][inspect][vulkan]") {
  require_vulkan_or_skip();
  TempDir dir;
  const auto ir = dir / "ir";
  setenv("XR_VK_CAPTURE_IR", ir.string().c_str(), 1);
  const json inspected = inspect_json(
      {"--backend", "vulkan", "--variant", "smem/first-add", "--n", "4096", "--dtype", "f32"});
  const Result r =
      xreduce({"compare", "--backend", "vulkan", "--variant", "smem/first-add", "--n", "4096",
               "--dtype", "f32", "--reps", "1", "--quiet", "--format", "json"});
  unsetenv("XR_VK_CAPTURE_IR");
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  REQUIRE(j["devices"].size() == 1);
  CHECK(j["devices"][0]["knobs"]["XR_VK_CAPTURE_IR"] == ir.string());
  const json& pass = inspected["rows"].at(0)["passes"].at(0);
  if (pass["registers"].is_null()) {
    CHECK_FALSE(std::filesystem::exists(ir));
  } else {
    REQUIRE(std::filesystem::exists(ir));
    int listings = 0;
    for (const auto& f : std::filesystem::directory_iterator(ir))
      listings += f.path().string().ends_with("-list.txt") &&
                  f.path().filename().string().starts_with("smem_first_add.f32");
    CHECK(listings >= 1);
  }
}

TEST_CASE("inspect: a sort of keys and one of pairs, each its own modules",
          "[cli][inspect][vulkan]") {
  require_vulkan_or_skip();
  const json j = inspect_json({"--backend", "vulkan", "--primitive", "sort", "--variant",
                               "radix/onesweep", "--dtype", "u32", "--values", "none,u32,u64",
                               "--order", "desc", "--n", "100000"});
  REQUIRE(j["rows"].size() == 3);
  for (const auto& row : j["rows"]) {
    CHECK(row["op"].is_null());
    CHECK(row["sort"]["order"] == "desc");
    const std::string values = row["sort"]["values"];
    // The digit passes move the values in their width's pairs modules only.
    std::size_t pairs_modules = 0, wide_modules = 0;
    for (const auto& p : row["passes"]) {
      const std::string kernel = p["kernel"];
      pairs_modules += kernel.find(".pairs") != std::string::npos;
      wide_modules += kernel.find(".pairs64") != std::string::npos;
    }
    CHECK((pairs_modules > 0) == (values != "none"));
    CHECK(wide_modules == (values == "u64" ? pairs_modules : 0));
  }
}

TEST_CASE("inspect: each sort says the tuning entry its plan used, or the knob over it",
          "[cli][inspect][vulkan]") {
  require_vulkan_or_skip();
  const auto tuning_of = [](const char* variant) {
    const json j = inspect_json({"--backend", "vulkan", "--primitive", "sort", "--variant", variant,
                                 "--dtype", "u32", "--n", "100000"});
    REQUIRE(j["rows"].size() == 1);
    return j["rows"][0]["tuning"].get<std::string>();
  };
  // The table's row for subgroup ballots and 32-bit keys, and the measurement that chose it.
  const std::string onesweep = tuning_of("radix/onesweep");
  CHECK_THAT(onesweep, Catch::StartsWith("digit tile "));
  CHECK_THAT(onesweep, Catch::Contains("radix/onesweep 9.29 / 11.37 ms at 512 x 19"));
  // reduce-then-scan's own row, where its sweeps chose another tile than onesweep's.
  const std::string reduce_then_scan = tuning_of("radix/reduce-then-scan");
  CHECK_THAT(reduce_then_scan, Catch::StartsWith("digit tile "));
  CHECK_THAT(reduce_then_scan,
             Catch::Contains("radix/reduce-then-scan 11.80 / 14.00 ms at 768 x 10"));
  CHECK_THAT(tuning_of("bitonic/smem"), Catch::StartsWith("bitonic tile "));
  // A count on the device: the Sort's grids, with the measurement that chose them.
  CHECK_THAT(onesweep, Catch::Contains("; a count on the device: the Sort's grids (H200, "));
  setenv("XR_VK_SORT_TILE", "256x4", 1);
  setenv("XR_VK_SORT_GRIDS", "device", 1);
  const std::string knob = tuning_of("radix/onesweep");
  unsetenv("XR_VK_SORT_TILE");
  unsetenv("XR_VK_SORT_GRIDS");
  CHECK(knob ==
        "digit tile 256 x 4: the tool's XR_VK_SORT_TILE; a count on the device: indirect "
        "dispatches (the tool's XR_VK_SORT_GRIDS)");
  // The text report carries the same line under its table.
  const Result r = xreduce({"inspect", "--backend", "vulkan", "--primitive", "sort", "--variant",
                            "radix/onesweep", "--dtype", "u32", "--n", "100000"});
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("tuning: radix/onesweep") && Catch::Contains(onesweep));
}

TEST_CASE("inspect: an OpenCL sort says its tuning entry too", "[cli][inspect][opencl]") {
  require_backend_or_skip("opencl");
  const json j = inspect_json({"--backend", "opencl", "--primitive", "sort", "--variant",
                               "radix/onesweep", "--dtype", "u64", "--n", "100000"});
  REQUIRE(j["rows"].size() == 1);
  // 64-bit keys: the table's row for them, whichever ranking the device takes.
  const std::string tuning = j["rows"][0]["tuning"].get<std::string>();
  CHECK_THAT(tuning, Catch::StartsWith("digit tile "));
  CHECK_THAT(tuning, Catch::Contains("not measured"));
  // The local memory its tiles were fitted to: pocl's, a CPU device's, as it reports it; then
  // how its programs take the key's kind and order (a CPU device's: an argument), with the
  // measurement that chose it.
  CHECK_THAT(tuning, Catch::Matches(".*; local memory [0-9]+ bytes as reported; the key's kind "
                                    "and order an argument \\(pocl on two cores: .*\\)"));
}

TEST_CASE("list: an OpenCL device names the local memory it reports and what its sorts take",
          "[cli][list][opencl]") {
  require_backend_or_skip("opencl");
  const Result r = xreduce({"list"});
  REQUIRE(r.code == 0);
  // pocl, a CPU device: its own size, not probed.
  const std::size_t at = r.out.find("local memory ");
  REQUIRE(at != std::string::npos);
  const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
  CHECK_THAT(line, Catch::Contains(" bytes reported, ") &&
                       Catch::EndsWith(" working: as reported (not a GPU: not probed)"));
}
