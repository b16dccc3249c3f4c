// What every CLI test file shares: a temporary directory, files written byte for byte, the xreduce
// binary run with its stdout, stderr and exit code captured, the one-line error contract, and the
// skip exit code.
#pragma once

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "temp_files.hpp"

extern char** environ;

namespace clitest {

namespace fs = std::filesystem;
using json = nlohmann::json;

constexpr int kSkip = 77;  // XR_SKIP_RETURN_CODE: ctest reports the test as skipped

using xrtest::slurp;
using xrtest::TempDir;
using xrtest::write_bytes;

struct Result {
  int code = -1;
  std::string out, err;
};

// Runs `program` (a path) with `args`; stdout and stderr are captured through files.
inline Result run_program(const std::string& program, const std::vector<std::string>& args) {
  TempDir io;
  const std::string out_path = (io / "stdout").string(), err_path = (io / "stderr").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  std::vector<std::string> storage{program};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t pid;
  const int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start " + program);
  int status = 0;
  waitpid(pid, &status, 0);
  Result r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  return r;
}

// Runs the xreduce binary with `args`.
inline Result xreduce(const std::vector<std::string>& args) {
  return run_program(XREDUCE_EXE, args);
}

// The kernel cache's entries with `suffix` (".spv", ".clbin"), in name order.
inline std::vector<fs::path> cache_entries(const TempDir& cache, std::string_view suffix) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(cache.path()))
    if (e.path().extension() == suffix) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// `args` with `more` after them.
inline std::vector<std::string> with(std::vector<std::string> args,
                                     const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

inline std::string show(const std::vector<std::string>& args) {
  std::string s = "xreduce";
  for (const auto& a : args) s += " " + a;
  return s;
}

// The contract of every failure: the exit code, and exactly one line "xreduce: error: ..." on
// stderr that mentions `needle`.
inline void expect_error(const std::vector<std::string>& args, int code,
                         std::string_view needle = "") {
  const Result r = xreduce(args);
  INFO("command: " << show(args));
  INFO("stderr: " << r.err);
  CHECK(r.code == code);
  CHECK(r.err.rfind("xreduce: error: ", 0) == 0);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.back() == '\n');
  CHECK(r.err.find(needle) != std::string::npos);
}

[[noreturn]] inline void skip(const std::string& why) {
  std::cout << "skipped: " << why << std::endl;
  std::_Exit(kSkip);
}

// Skips the calling test where `backend` is not available, unless XR_TEST_REQUIRE_BACKENDS names
// it (CI), where that is a failure.
inline void require_backend_or_skip(std::string_view backend) {
  const Result list = xreduce({"list", "--format", "json"});
  REQUIRE(list.code == 0);
  bool available = false;
  const json listed =
      json::parse(list.out);  // named: a range-for over a temporary's member dangles
  for (const auto& b : listed["backends"])
    available |= b["name"] == backend && b["available"].get<bool>();
  if (!available) {
    const char* required = std::getenv("XR_TEST_REQUIRE_BACKENDS");
    if (required && std::string_view(required).find(backend) != std::string_view::npos)
      FAIL("XR_TEST_REQUIRE_BACKENDS names " << backend << ", but it is not available");
    skip("the " + std::string(backend) + " backend is not available here");
  }
}

inline void require_vulkan_or_skip() {
  require_backend_or_skip("vulkan");
}

// A kernel that never finishes ends the run (docs/kernels.md, "Bad kernels"): with
// XR_DEVICE_TIMEOUT=1, `run` and `compare` exit 5 with one line holding `says`, at once (the
// process does not wait for the device), and leave no file half-written; a malformed value
// leaves the backend unavailable (exit 3).
inline void expect_never_finishes(const std::string& kernel, const std::string& backend,
                                  const std::string& n, std::string_view says) {
  TempDir dir;
  setenv("XR_DEVICE_TIMEOUT", "1", 1);
  const auto t0 = std::chrono::steady_clock::now();
  expect_error({"run", "--kernel", kernel, "--n", n, "--reps", "1", "--warmup", "0"}, 5, says);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(seconds < 30);  // the process ended at once: it did not wait for the device
  // compare writes its report whole after the measurements: a lost device leaves no file.
  expect_error({"compare", "--kernel", kernel, "--backend", backend, "--n", n, "--reps", "1",
                "--warmup", "0", "--quiet", "--out", (dir / "never.md").string(), "--save-json",
                (dir / "never.json").string()},
               5, "did not finish within 1 s");
  setenv("XR_DEVICE_TIMEOUT", "forever", 1);
  expect_error({"run", "--kernel", kernel, "--n", "100"}, 3,
               "XR_DEVICE_TIMEOUT must be a number of seconds");
  unsetenv("XR_DEVICE_TIMEOUT");
  CHECK(dir.entries() == 0);  // nothing half-written
}

}  // namespace clitest
