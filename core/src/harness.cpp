#include "xreduce/harness.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <string>

#include "xreduce/error.hpp"
#include "xreduce/units.hpp"

namespace xr {

std::string_view to_string(TimingMode m) {
  return m == TimingMode::cold ? "cold" : "batch";
}

TimingMode parse_timing_mode(std::string_view text) {
  if (text == "cold") return TimingMode::cold;
  if (text == "batch") return TimingMode::batch;
  throw Error(ErrorCategory::usage,
              "unknown timing mode '" + std::string(text) + "' (expected cold or batch)");
}

Stats summarize(std::vector<double> samples) {
  Stats s;
  s.count = static_cast<int>(samples.size());
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  auto median_of = [](const std::vector<double>& v) {
    std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
  };
  s.median = median_of(samples);
  s.min = samples.front();
  s.max = samples.back();
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / samples.size();
  std::vector<double> dev(samples.size());
  std::transform(samples.begin(), samples.end(), dev.begin(),
                 [&](double x) { return std::fabs(x - s.median); });
  std::sort(dev.begin(), dev.end());
  s.rel_spread = s.median > 0 ? median_of(dev) / s.median : 0;
  return s;
}

Overhead make_overhead(OverheadKind kind, std::string what, std::string path,
                       std::vector<double> samples_us, std::string note) {
  const Stats s = summarize(std::move(samples_us));
  return Overhead{kind,  std::move(what), std::move(path), s.median,
                  s.min, s.count,         std::move(note)};
}

ClockProbe* measurement_clock(Backend& backend) {
  ClockProbe* own = backend.clock_probe();
  if (!own) return nullptr;
  static const ClockScript script = read_clock_script();
  if (script.given.empty()) return own;
  if (!script.error.empty()) throw Error(ErrorCategory::usage, script.error);
  // One script per backend, played from its start, for the whole process.
  static std::map<const Backend*, std::unique_ptr<ScriptedClock>> scripted;
  auto& probe = scripted[&backend];
  if (!probe) probe = std::make_unique<ScriptedClock>(script);
  return probe.get();
}

namespace {

// The SM clock around each sample: read before and after it (outside the timed interval), the
// sample's clock the lower of the two; whether that is under the threshold of the reference.
class ClockWatch {
 public:
  ClockWatch(ClockProbe* probe, const MeasureOptions& options) : probe_(probe), options_(options) {}
  void before() {
    if (probe_) before_ = probe_->read_mhz();
  }
  void after() {
    if (probe_) after_ = probe_->read_mhz();
  }
  std::optional<double> sample_mhz() const {
    if (!probe_) return std::nullopt;
    return std::min(before_, after_);
  }
  bool throttled(double mhz) const {
    return options_.throttle_threshold > 0 && mhz < options_.throttle_threshold * reference();
  }
  // Keeps the device busy (ClockProbe::warm, warm_ms at a time) until its clock reads at or
  // above the threshold, for at most `budget_s`: before a point's timed samples, whose data the
  // host has just generated and uploaded while the device idled, and before a retaken sample.
  void settle(double budget_s) {
    if (!probe_ || options_.throttle_threshold <= 0) return;
    const auto until = HostClock::now() + std::chrono::duration<double>(budget_s);
    while (throttled(probe_->read_mhz()) && HostClock::now() < until)
      probe_->warm(options_.warm_ms);
  }
  double reference() const { return probe_->reference_mhz(); }
  bool measured() const { return probe_ != nullptr; }

 private:
  ClockProbe* probe_;
  const MeasureOptions& options_;
  double before_ = 0, after_ = 0;
};

// Retakes of a point's throttled samples at most, whatever its time budget: a device held under
// the threshold for good gives a flagged point in bounded time, not an endless loop.
constexpr int kMaxRetakesPerRep = 3;

// The repetition policy shared by both measurements: `warmup` untimed calls of once(false),
// then timed calls of once(true) until the median's spread, the time limit or the count says
// stop. once(timed) returns the Timing of one call and reads `clock` around its timed call; a
// sample under the clock threshold is retaken after a warm-up while the budget lasts, and kept
// and flagged after that.
template <class Once>
void repeat(const MeasureOptions& options, ClockWatch& clock, Once&& once, Measurement& m) {
  for (int i = 0; i < options.warmup; ++i) once(false);
  clock.settle(std::min(options.settle_seconds, options.max_seconds));
  std::vector<double> device_ms, host_ms, clock_mhz;
  const auto start = HostClock::now();
  const int min_reps = std::max(1, options.min_reps);
  const int max_reps = std::max(min_reps, options.max_reps);
  const auto elapsed = [&] {
    return std::chrono::duration<double>(HostClock::now() - start).count();
  };
  for (int rep = 0; rep < max_reps;) {
    const Timing t = once(true);
    const std::optional<double> mhz = clock.sample_mhz();
    if (mhz && clock.throttled(*mhz)) {
      if (elapsed() < options.max_seconds && m.clock.retaken < kMaxRetakesPerRep * max_reps) {
        ++m.clock.retaken;
        clock.settle(std::min(options.settle_seconds, options.max_seconds - elapsed()));
        continue;
      }
      m.clock.throttled = true;
      ++m.clock.throttled_samples;
    }
    device_ms.push_back(t.device_ms);
    host_ms.push_back(t.host_ms);
    if (mhz) clock_mhz.push_back(*mhz);
    m.device_timer = t.device_timer;
    if (++rep < min_reps) continue;
    if (elapsed() >= options.max_seconds) break;
    if (options.target_rel_spread > 0 &&
        summarize(device_ms).rel_spread < options.target_rel_spread)
      break;
  }
  m.device_ms = summarize(std::move(device_ms));
  m.host_ms = summarize(std::move(host_ms));
  if (clock.measured()) {
    m.clock.measured = true;
    m.clock.reference_mhz = clock.reference();
    m.clock.mhz = summarize(std::move(clock_mhz));
  }
}

// Keeps the first run's outcome and watches the later ones: a reduce's every value (cheap), a
// scan's output only at the end (a full read-back).
class OutcomeWatch {
 public:
  OutcomeWatch(Runner& runner, Measurement& m) : runner_(runner), m_(m) {}
  void after_run() {
    if (!have_) {
      m_.result = runner_.outcome();
      have_ = true;
    } else if (runner_.primitive() == Primitive::reduce &&
               !runner_.outcome().bitwise_equal(m_.result)) {
      m_.deterministic = false;
    }
    ran_since_first_ = have_ && runs_++ > 0;
  }
  void finish() {
    if (runner_.primitive() == Primitive::scan && ran_since_first_ &&
        !runner_.outcome().bitwise_equal(m_.result))
      m_.deterministic = false;
  }

 private:
  Runner& runner_;
  Measurement& m_;
  bool have_ = false;
  bool ran_since_first_ = false;
  int runs_ = 0;
};

}  // namespace

namespace {

// Calls per batch sample: enough for about options.batch_target_ms, from one warm call's time.
int batch_calls_for(double one_call_ms, const MeasureOptions& options) {
  const double calls = one_call_ms > 0 ? std::ceil(options.batch_target_ms / one_call_ms)
                                       : static_cast<double>(options.max_batch_calls);
  return static_cast<int>(std::clamp(calls, 1.0, static_cast<double>(options.max_batch_calls)));
}

Measurement measure_cold(Backend& backend, Runner& runner, DeviceArray& input, HostView pristine,
                         const Operation& operation, const MeasureOptions& options) {
  const bool restore = runner.info().writes_input;
  Measurement m;
  OutcomeWatch watch(runner, m);
  ClockWatch clock(measurement_clock(backend), options);
  repeat(
      options, clock,
      [&](bool timed) {
        if (restore) input.write(pristine);
        if (options.flush_cache) backend.flush_cache();
        if (timed) clock.before();  // after the flush: the clock the call starts at
        const Timing t = runner.run(input, operation);
        if (timed) clock.after();
        watch.after_run();
        return t;
      },
      m);
  watch.finish();
  return m;
}

Measurement measure_batch(Backend& backend, Runner& runner, DeviceArray& input, HostView pristine,
                          const Operation& operation, const MeasureOptions& options) {
  const bool restore = runner.info().writes_input;
  Measurement m;
  m.mode = TimingMode::batch;
  // Single warm calls: the first gives the checked result, the fastest the calibration (a
  // first call's interval can hold one-time costs: CUDA loads a module lazily at its launch).
  double one_call_ms = 0;
  for (int i = 0; i < std::max(2, options.warmup); ++i) {
    if (restore) input.write(pristine);
    const double ms = runner.run(input, operation).device_ms;
    one_call_ms = i == 0 ? ms : std::min(one_call_ms, ms);
    if (i == 0) m.result = runner.outcome();
  }
  m.batch_calls = batch_calls_for(one_call_ms, options);
  MeasureOptions timed = options;
  timed.warmup = 1;  // one untimed batch: records the batch's commands where an API records them
  ClockWatch clock(measurement_clock(backend), timed);
  repeat(
      timed, clock,
      [&](bool is_timed) {
        if (restore) input.write(pristine);
        if (is_timed) clock.before();
        const Timing t = runner.run_batch(input, operation, m.batch_calls);
        if (is_timed) clock.after();
        return t;
      },
      m);
  // The last call of the last batch against the first call; a variant that writes its input
  // computed something else from its second call on.
  if (!restore && !runner.outcome().bitwise_equal(m.result)) m.deterministic = false;
  return m;
}

}  // namespace

Measurement measure(Backend& backend, Runner& runner, DeviceArray& input, HostView pristine,
                    const Operation& operation, const MeasureOptions& options) {
  Measurement m = options.mode == TimingMode::batch
                      ? measure_batch(backend, runner, input, pristine, operation, options)
                      : measure_cold(backend, runner, input, pristine, operation, options);
  if (runner.info().writes_input) input.write(pristine);  // leave the caller's data as it was
  return m;
}

Measurement measure_end_to_end(Backend& backend, Runner& runner, HostView data,
                               const Operation& operation, const MeasureOptions& options) {
  Measurement m;
  OutcomeWatch watch(runner, m);
  auto array = backend.upload(data);
  runner.prepare_output(data.dtype, data.size);
  ClockWatch no_clock(nullptr, options);  // host time of the copies and the call: no SM clock
  repeat(
      options, no_clock,
      [&](bool) {
        if (options.flush_cache) backend.flush_cache();
        const auto t0 = HostClock::now();
        array->write(data);
        runner.run(*array, operation);
        runner.outcome();  // the result on the host: a reduce's value is there, a scan's is read
        const double ms = ms_since(t0);
        watch.after_run();
        return Timing{ms, ms, false};
      },
      m);
  watch.finish();
  return m;
}

namespace {

// One size of measure_transfers: `array` and both host arrays are made by the caller, so the
// samples hold only the copies.
TransferRow time_transfers(DeviceArray& array, const HostArray& source, HostArray& back,
                           const TransferPolicy& policy) {
  const std::uint64_t bytes = source.bytes();
  for (int i = 0; i < std::max(1, policy.warmup); ++i) {  // the first one is checked
    array.write(source.view());
    array.read_into(back);
    if (i == 0 && std::memcmp(back.data(), source.data(), bytes) != 0)
      throw Error(ErrorCategory::check_failed, "a transfer of " + std::to_string(bytes) +
                                                   " bytes read back other data than it wrote");
  }
  const int runs = std::max(1, bytes >= policy.long_from ? policy.long_runs : policy.runs);
  std::vector<double> upload_ms, readback_ms;
  for (int run = 0; run < runs; ++run) {
    auto t0 = HostClock::now();
    array.write(source.view());
    upload_ms.push_back(ms_since(t0));
    t0 = HostClock::now();
    array.read_into(back);
    readback_ms.push_back(ms_since(t0));
  }
  const double b = static_cast<double>(bytes);
  return TransferRow{bytes, gbps(b, summarize(std::move(upload_ms)).median),
                     gbps(b, summarize(std::move(readback_ms)).median), runs};
}

}  // namespace

std::vector<TransferRow> measure_transfers(Backend& backend,
                                           const std::vector<std::uint64_t>& sizes,
                                           const TransferPolicy& policy) {
  constexpr std::uint64_t kElement = sizeof(std::uint32_t);
  std::vector<TransferRow> rows;
  for (std::uint64_t bytes : sizes) {
    if (bytes == 0 || bytes % kElement != 0)
      throw Error(ErrorCategory::usage, "a transfer of " + std::to_string(bytes) +
                                            " bytes is not a whole number of u32 elements");
    const auto n = static_cast<std::size_t>(bytes / kElement);
    HostArray source(DType::u32, n);  // value-initialised: every page is touched now
    auto values = source.as<std::uint32_t>();
    std::iota(values.begin(), values.end(), std::uint32_t{0});  // a shifted read-back shows
    HostArray back(DType::u32, n);
    const auto array = backend.allocate(DType::u32, n);
    rows.push_back(time_transfers(*array, source, back, policy));
  }
  return rows;
}

}  // namespace xr
