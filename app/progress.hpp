// Progress of a long `compare` on stderr, with an ETA, only on a terminal.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

#include <fmt/format.h>

namespace xr::app {

// Progress with an ETA on stderr, only on a terminal. Work is weighted by elements plus a fixed
// per-point cost, so a sweep's large sizes count for more than its small ones.
class Progress {
 public:
  Progress(bool enabled, double total_weight)
      : enabled_(enabled), total_(total_weight), start_(std::chrono::steady_clock::now()) {}
  ~Progress() { clear(); }
  void note(const std::string& what) {
    if (!enabled_) return;
    std::string eta;
    const double elapsed = seconds();
    if (done_ > 0 && elapsed > 1) {
      const double left = elapsed * (total_ - done_) / done_;
      eta = fmt::format("  ETA {}", left >= 60
                                        ? fmt::format("{}m{:02}s", int(left) / 60, int(left) % 60)
                                        : fmt::format("{}s", int(left + 0.5)));
    }
    std::string line =
        fmt::format("[{:3.0f}%] {}{}", total_ > 0 ? 100 * done_ / total_ : 0, what, eta);
    if (line.size() > 100) line.resize(100);
    std::fprintf(stderr, "\r\x1b[K%s", line.c_str());
    std::fflush(stderr);
    shown_ = true;
  }
  void advance(double weight) { done_ += weight; }
  void clear() {
    if (enabled_ && shown_) std::fprintf(stderr, "\r\x1b[K");
    shown_ = false;
  }

 private:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  bool enabled_;
  double total_;
  double done_ = 0;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace xr::app
