// The benchmark harness: warm-up, repetitions, statistics. Restores the input of a variant that
// writes it between repetitions, outside the timed region.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "xreduce/backend.hpp"
#include "xreduce/reference.hpp"

namespace xr {

struct MeasureOptions {
  int warmup = 1;      // untimed runs first (module load, first-touch, clocks)
  int min_reps = 5;    // timed runs at least ...
  int max_reps = 100;  // ... and at most
  // Stop once the median's relative spread (median absolute deviation / median) is under this
  // ... (nvbench stops on noise, not on a count); 0 = always run max_reps.
  double target_rel_spread = 0.01;
  double max_seconds = 2.0;  // ... or once this much wall time went into the point
  bool flush_cache = true;   // Backend::flush_cache() before each timed run (cold L2)
};

struct Stats {
  double median = 0, min = 0, max = 0, mean = 0;
  double rel_spread = 0;  // median absolute deviation / median
  int count = 0;
};
Stats summarize(std::vector<double> samples);

struct Measurement {
  Value result;               // of the first (warm-up or timed) run; checked by the caller
  bool deterministic = true;  // every repetition returned bitwise the same value
  Stats device_ms;
  Stats host_ms;
  bool device_timer = true;
};

// Runs `reducer` on `input` per `options`. `pristine` is the input's original content: restored
// into `input` before every run when the variant writes its input.
Measurement measure(Backend& backend, Reducer& reducer, DeviceArray& input, HostView pristine,
                    Op op, const MeasureOptions& options);

// Bytes a reduction must read: n * sizeof(T), the same formula on every backend.
inline double reduce_bytes(std::size_t n, DType t) {
  return static_cast<double>(n) * static_cast<double>(size_of(t));
}
// GB/s (10^9 bytes per second) of `bytes` in `ms`; 0 when ms is 0.
inline double gbps(double bytes, double ms) {
  return ms > 0 ? bytes / (ms * 1e6) : 0;
}

}  // namespace xr
