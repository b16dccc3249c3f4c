// --plot: runs bench/plot.py on a compare report (python3 + matplotlib).
#include "plot.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "xreduce/error.hpp"

extern char** environ;

namespace xr::app {
namespace {

std::filesystem::path self_dir() {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : exe.parent_path();
}

// bench/plot.py: $XREDUCE_PLOT_SCRIPT, else the copy next to the binary (the build tree puts it
// there), else the source tree this binary was built from.
std::filesystem::path plot_script() {
  if (const char* env = std::getenv("XREDUCE_PLOT_SCRIPT"); env && *env) return env;
  std::error_code ec;
  const auto beside = self_dir() / "xreduce-plot.py";
  if (std::filesystem::exists(beside, ec)) return beside;
  const auto source = std::filesystem::path(XR_SOURCE_DIR) / "bench" / "plot.py";
  if (std::filesystem::exists(source, ec)) return source;
  throw Error(ErrorCategory::unavailable,
              "--plot needs bench/plot.py, found neither next to xreduce nor in " +
                  std::string(XR_SOURCE_DIR) + " (set XREDUCE_PLOT_SCRIPT)");
}

}  // namespace

// Runs `python3 plot.py JSON OUT`; its output goes to a log whose last line is the error.
void draw_plot(const std::string& report_json, const std::filesystem::path& out) {
  const auto script = plot_script();
  char json_tmp[] = "/tmp/xreduce-plot-XXXXXX";
  int fd = mkstemp(json_tmp);
  if (fd < 0) throw Error(ErrorCategory::usage, "--plot: cannot create a temporary file");
  bool written =
      write(fd, report_json.data(), report_json.size()) == static_cast<ssize_t>(report_json.size());
  close(fd);
  std::string log = std::string(json_tmp) + ".log";
  struct Cleanup {
    std::string a, b;
    ~Cleanup() {
      unlink(a.c_str());
      unlink(b.c_str());
    }
  } cleanup{json_tmp, log};
  if (!written) throw Error(ErrorCategory::usage, "--plot: cannot write the temporary JSON");

  // $XREDUCE_PYTHON, else python3 on PATH, then Debian's own (a pyenv or venv python3 first
  // on PATH often lacks matplotlib); plot.py exits 3 when matplotlib is missing.
  std::vector<std::string> pythons;
  if (const char* env = std::getenv("XREDUCE_PYTHON"); env && *env)
    pythons = {env};
  else
    pythons = {"python3", "/usr/bin/python3"};
  std::string s = script.string(), o = out.string(), j = json_tmp;
  std::string failure;
  for (auto& py : pythons) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    char* argv[] = {py.data(), s.data(), j.data(), o.data(), nullptr};
    pid_t pid;
    int rc = posix_spawnp(&pid, py.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
      failure = fmt::format("cannot run {}: {}", py, std::strerror(rc));
      continue;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
    std::ifstream in(log);
    std::string line, last;
    while (std::getline(in, line))
      if (line.find_first_not_of(" \t") != std::string::npos) last = line;
    failure = last.empty() ? py + " exited with an error" : last;
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 3)) break;  // only "no matplotlib" retries
  }
  unlink(out.c_str());
  throw Error(ErrorCategory::unavailable,
              fmt::format("--plot failed ({}): {}", script.string(), failure));
}

}  // namespace xr::app
