// The benchmark harness: warm-up, repetitions, statistics, for either primitive through a
// Runner. Restores the input of a variant that writes it between repetitions, outside the timed
// region; reads a scan's output back only outside the timed region, twice per point (after the
// first run, for the check, and after the last, for the determinism check).
#pragma once

#include <cstdint>
#include <vector>

#include "xreduce/backend.hpp"
#include "xreduce/check.hpp"
#include "xreduce/runner.hpp"

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
  Outcome result;  // of the first (warm-up or timed) run; checked by the caller
  // Reduce: every repetition returned bitwise the same value. Scan: the last repetition's output
  // equals the first's bitwise. The caller decides what a difference means
  // (VariantInfo::deterministic_for).
  bool deterministic = true;
  Stats device_ms;
  Stats host_ms;
  bool device_timer = true;
};

// Runs `runner` on `input` per `options`. `pristine` is the input's original content: restored
// into `input` before every run when the variant writes its input, and after the last.
Measurement measure(Backend& backend, Runner& runner, DeviceArray& input, HostView pristine,
                    const Operation& operation, const MeasureOptions& options);

// The end-to-end cost an application pays: copy `data` into a device array (allocated once,
// outside the timed region, as an application would), run, and bring the result back (a
// reduce's value, a scan's whole output), all on the host clock. device_ms holds that time.
Measurement measure_end_to_end(Backend& backend, Runner& runner, HostView data,
                               const Operation& operation, const MeasureOptions& options);

// GB/s (10^9 bytes per second) of `bytes` in `ms`; 0 when ms is 0.
inline double gbps(double bytes, double ms) {
  return ms > 0 ? bytes / (ms * 1e6) : 0;
}

}  // namespace xr
