// The benchmark harness: warm-up, repetitions, statistics, for either primitive through a
// Runner. Restores the input of a variant that writes it between repetitions, outside the timed
// region; reads a scan's output back only outside the timed region, twice per point (after the
// first run, for the check, and after the last, for the determinism check).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "xreduce/backend.hpp"
#include "xreduce/check.hpp"
#include "xreduce/clock.hpp"
#include "xreduce/runner.hpp"

namespace xr {

// What one sample is (docs/cli.md, "Measurement modes", as nvbench's):
//   cold   one call, L2 flushed before it (unless flush_cache is off), GPU time with no host
//          launch gap in the interval: each backend's Reducer/Scanner guarantees that;
//   batch  the same call back to back, hot, calibrated to about batch_target_ms per sample;
//          the time per call: what a pipeline of calls costs.
enum class TimingMode { cold, batch };
std::string_view to_string(TimingMode m);
// "cold" | "batch"; Error(usage) otherwise.
TimingMode parse_timing_mode(std::string_view text);

struct MeasureOptions {
  TimingMode mode = TimingMode::cold;
  int warmup = 1;      // untimed runs first (module load, first-touch, clocks)
  int min_reps = 5;    // timed runs at least ...
  int max_reps = 100;  // ... and at most
  // Stop once the median's relative spread (median absolute deviation / median) is under this
  // ... (nvbench stops on noise, not on a count); 0 = always run max_reps.
  double target_rel_spread = 0.01;
  double max_seconds = 2.0;  // ... or once this much wall time went into the point
  bool flush_cache = true;   // Backend::flush_cache() before each timed run (cold L2)
  // Batch: calls per sample = batch_target_ms / (one warm call's time), within
  // [1, max_batch_calls]. 1 ms holds ~250 calls of a 4 us kernel, enough that the interval's
  // two timestamps cost < 0.1 %; 1000 calls bound a Vulkan command buffer's recording.
  double batch_target_ms = 1.0;
  int max_batch_calls = 1000;
  // A sample whose SM clock (read before and after it) is under this fraction of the reference
  // is discarded and retaken after a warm-up, within max_seconds (--throttle-threshold; 0 keeps
  // every sample). Where the backend measures no clock, every sample is kept.
  double throttle_threshold = kThrottleThreshold;
  // Before a point's timed samples and before a retaken sample, the device is kept busy
  // (ClockProbe::warm, warm_ms at a time) until its clock reads at or above the threshold, for
  // at most settle_seconds: what a governor needs to raise a clock that dropped while the host
  // generated and uploaded the point's data.
  double warm_ms = 20;
  double settle_seconds = 1.0;
};

struct Stats {
  double median = 0, min = 0, max = 0, mean = 0;
  double rel_spread = 0;  // median absolute deviation / median
  int count = 0;
};
Stats summarize(std::vector<double> samples);

// The SM clock over a point's samples (clock.hpp), where the backend measures it.
struct ClockStats {
  bool measured = false;
  double reference_mhz = 0;
  Stats mhz;               // of the kept samples: each the lower of its before and after readings
  int retaken = 0;         // samples discarded under the threshold and taken again
  bool throttled = false;  // kept samples under the threshold: the budget ran out first
  int throttled_samples = 0;
};

struct Measurement {
  Outcome result;  // of the first (warm-up or timed) run; checked by the caller
  // Reduce: every repetition returned bitwise the same value. Scan: the last repetition's output
  // equals the first's bitwise. The caller decides what a difference means
  // (VariantInfo::deterministic_for).
  bool deterministic = true;
  Stats device_ms;
  Stats host_ms;
  bool device_timer = true;
  TimingMode mode = TimingMode::cold;
  int batch_calls = 0;  // calls per sample in batch mode; 0 in cold
  ClockStats clock;
};

// The clock probe measurements on `backend` use: XR_CLOCK_SCRIPT's synthetic source where it is
// set (Error(usage) when it is malformed), else the backend's own; nullptr where the backend
// measures no clock.
ClockProbe* measurement_clock(Backend& backend);

// Runs `runner` on `input` per `options` (either mode). `pristine` is the input's original
// content: restored into `input` before every sample when the variant writes its input, and after
// the last. In batch mode the checked result is the first (single, warm-up) call's; the
// determinism check compares a batch's last call with it, except for a variant that writes its
// input (its later calls reduce partials).
Measurement measure(Backend& backend, Runner& runner, DeviceArray& input, HostView pristine,
                    const Operation& operation, const MeasureOptions& options);

// The end-to-end cost an application pays: copy `data` into a device array (allocated once,
// outside the timed region, as an application would), run, and bring the result back (a
// reduce's value, a scan's whole output), all on the host clock. device_ms holds that time.
Measurement measure_end_to_end(Backend& backend, Runner& runner, HostView data,
                               const Operation& operation, const MeasureOptions& options);

// One row of a backend's overhead table from its samples in microseconds: median and minimum.
Overhead make_overhead(OverheadKind kind, std::string what, std::string path,
                       std::vector<double> samples_us, std::string note);

// One size of a backend's user-facing transfer path (compare --transfers).
struct TransferRow {
  std::uint64_t bytes = 0;
  double upload_gbps = 0;    // DeviceArray::write, median
  double readback_gbps = 0;  // DeviceArray::read_into, median
  int samples = 0;           // timed transfers each way
};

// Repetitions of one transfer size: a warm-up (the first touch of the device array and of the
// backend's staging), then the median of `runs`; fewer from `long_from` bytes on, where one
// transfer lasts tens of ms on a GPU and seconds on a CPU device, and the spread is small.
struct TransferPolicy {
  int warmup = 1;  // at least one: its read-back is checked
  int runs = 5;
  int long_runs = 3;
  std::uint64_t long_from = std::uint64_t{1} << 30;
};

// Times `backend`'s own transfer path, through core's interface only, at each of `sizes` (bytes,
// a positive multiple of 4, else Error(usage)): one u32 device array per size (Backend::allocate),
// DeviceArray::write from a host array whose pages are filled before timing (upload) and
// DeviceArray::read_into another whose pages are touched too (readback), each blocking call on
// the host clock, as an application sees it. The warm-up's read-back must equal what was written,
// else Error(check_failed). Error(out_of_memory) where the device cannot hold a size: the caller
// chooses sizes that fit (Backend::max_elements) and that the host can hold twice.
std::vector<TransferRow> measure_transfers(Backend& backend,
                                           const std::vector<std::uint64_t>& sizes,
                                           const TransferPolicy& policy = {});

// GB/s (10^9 bytes per second) of `bytes` in `ms`; 0 when ms is 0.
inline double gbps(double bytes, double ms) {
  return ms > 0 ? bytes / (ms * 1e6) : 0;
}

}  // namespace xr
