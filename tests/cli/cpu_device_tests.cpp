// The CPU devices (pocl, lavapipe) run kernels in xreduce's own process and keep caches of their
// own: a kernel whose private arrays pass a worker thread's stack ends in one line, pocl's cache
// lives inside xreduce's (one "clear the cache" clears both), and a whole cache entry whose
// module is not valid SPIR-V is rebuilt before a driver sees it.
#include "cli_support.hpp"
#include "xreduce/kernel_cache.hpp"

namespace {

using namespace clitest;

const std::string kOpenCl = "opencl";

// Files anywhere under `dir`.
std::size_t files_under(const fs::path& dir) {
  std::size_t n = 0;
  if (!fs::is_directory(dir)) return 0;
  for (const auto& e : fs::recursive_directory_iterator(dir)) n += e.is_regular_file();
  return n;
}

}  // namespace

TEST_CASE("an OpenCL C kernel whose private arrays pass a CPU worker's stack ends in one line",
          "[cli][kernel][opencl]") {
  require_backend_or_skip(kOpenCl);
  const std::string kernel = std::string(XR_BAD_KERNELS) + "/private_huge.cl";
  const Result r = xreduce({"run", "--kernel", kernel, "--n", "1000", "--reps", "1"});
  INFO(r.err);
  // Refused before it runs where the driver reports the kernel's private memory (exit 2); pocl
  // 3.1 does not, and the overflow ends the run in the fault guard's line (exit 5): never a
  // death by signal without a word.
  CHECK((r.code == 2 || r.code == 5));
  CHECK(r.err.rfind("xreduce: error: ", 0) == 0);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK((r.err.find("CL_KERNEL_PRIVATE_MEM_SIZE") != std::string::npos ||
         r.err.find("private arrays past a worker thread's stack") != std::string::npos));
}

TEST_CASE("pocl's program cache lives inside xreduce's kernel cache, unless POCL_CACHE_DIR says",
          "[cli][cache][opencl]") {
  require_backend_or_skip(kOpenCl);
  TempDir cache, elsewhere;
  setenv("XR_KERNEL_CACHE", cache.path().c_str(), 1);
  unsetenv("POCL_CACHE_DIR");
  const std::vector<std::string> run = {
      "run", "--backend", "opencl", "--variant", "smem/sequential", "--n", "5000", "--reps", "1"};
  const Result first = xreduce(run);
  INFO(first.err);
  REQUIRE(first.code == 0);
  const bool pocl =
      first.out.find("pthread") != std::string::npos || first.out.find("cpu-") != std::string::npos;
  if (pocl) CHECK(files_under(cache / "pocl") > 0);
  // The user's own POCL_CACHE_DIR is kept: nothing new under ours.
  fs::remove_all(cache / "pocl");
  fs::remove_all(cache.path());
  fs::create_directories(cache.path());
  setenv("POCL_CACHE_DIR", elsewhere.path().c_str(), 1);
  REQUIRE(xreduce(run).code == 0);
  CHECK_FALSE(fs::exists(cache / "pocl"));
  if (pocl) CHECK(files_under(elsewhere.path()) > 0);
  unsetenv("POCL_CACHE_DIR");
  unsetenv("XR_KERNEL_CACHE");
}

// An XR_KERNEL_CACHE that cannot hold the cache (a device, a file, under a file) is no cache, on
// every backend: the kernels are built without one, pocl's cache is not put inside it, and one
// note names the knob and the folder.
TEST_CASE("an unusable XR_KERNEL_CACHE: every backend builds without it and says so once",
          "[cli][cache][opencl][vulkan]") {
  require_backend_or_skip(kOpenCl);
  require_vulkan_or_skip();
  TempDir dir;
  write_bytes(dir / "a-file", "not a folder");
  unsetenv("POCL_CACHE_DIR");
  const std::string glsl = std::string(XR_EXAMPLE_KERNELS) + "/sequential.comp";
  for (const std::string& cache :
       {std::string("/dev/null"), (dir / "a-file").string(), (dir / "a-file" / "sub").string()}) {
    CAPTURE(cache);
    setenv("XR_KERNEL_CACHE", cache.c_str(), 1);
    for (const std::vector<std::string>& run :
         {std::vector<std::string>{"run", "--backend", "opencl", "--variant", "smem/sequential",
                                   "--n", "5000", "--reps", "1", "--format", "json"},
          std::vector<std::string>{"run", "--kernel", glsl, "--n", "5000", "--reps", "1",
                                   "--format", "json"}}) {
      CAPTURE(show(run));
      const Result r = xreduce(run);
      INFO(r.err);
      REQUIRE(r.code == 0);
      const std::string note = "xreduce: note: XR_KERNEL_CACHE=" + cache + ": ";
      const std::size_t at = r.err.find(note);
      CHECK(at != std::string::npos);
      CHECK(r.err.find(note, at + 1) == std::string::npos);  // once
      CHECK(r.err.find("kernels are built without a cache") != std::string::npos);
      CHECK(r.err.find("kernel cache entry") == std::string::npos);  // no note per kernel
      // Not in effect: not among OpenCL's knobs, which record the cache where it is one.
      if (run[1] == "--backend")
        CHECK_FALSE(json::parse(r.out)["knobs"].contains("XR_KERNEL_CACHE"));
    }
  }
  unsetenv("XR_KERNEL_CACHE");
  CHECK(slurp(dir / "a-file") == "not a folder");
}

TEST_CASE("a whole kernel-cache entry whose module is not valid SPIR-V is rebuilt, not run",
          "[cli][cache][vulkan][kernel]") {
  require_vulkan_or_skip();
  TempDir cache;
  setenv("XR_KERNEL_CACHE", cache.path().c_str(), 1);
  const std::string kernel = std::string(XR_EXAMPLE_KERNELS) + "/sequential.comp";
  const std::vector<std::string> run = {"run", "--kernel", kernel, "--n", "10000", "--reps", "1"};
  REQUIRE(xreduce(run).code == 0);
  const auto modules = cache_entries(cache, ".spv");
  REQUIRE_FALSE(modules.empty());
  // The module's header stays (magic, version, generator, bound, schema); its instructions are
  // overwritten; the entry is encoded again, so its key, lengths and hashes all match.
  for (const fs::path& p : modules) {
    const std::string name = p.filename().string();
    auto decoded = xr::decode_cache_entry(slurp(p), name, {"module"});
    REQUIRE(std::holds_alternative<xr::CacheParts>(decoded));
    xr::CacheParts parts = std::get<xr::CacheParts>(decoded);
    std::string& module = parts.at("module");
    REQUIRE(module.size() > 64);
    for (std::size_t i = 20; i < module.size(); ++i) module[i] = static_cast<char>(0xff);
    write_bytes(p, xr::encode_cache_entry(name, parts));
  }
  const Result again = xreduce(run);
  INFO(again.err);
  CHECK(again.code == 0);  // neither the driver's error (5) nor the user's file blamed (2)
  CHECK(again.err.find("not a valid SPIR-V module: removed, built again") != std::string::npos);
  unsetenv("XR_KERNEL_CACHE");
}
