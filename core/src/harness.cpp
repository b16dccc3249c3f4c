#include "xreduce/harness.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "xreduce/error.hpp"

namespace xr {

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

Measurement measure(Backend& backend, Reducer& reducer, DeviceArray& input, HostView pristine,
                    Op op, const MeasureOptions& options) {
  const bool restore = reducer.info().writes_input;
  auto prepare = [&] {
    if (restore) input.write(pristine);
    if (options.flush_cache) backend.flush_cache();
  };

  Measurement m;
  bool have_result = false;
  auto record_value = [&](const Value& v) {
    if (!have_result) {
      m.result = v;
      have_result = true;
    } else if (!v.bitwise_equal(m.result)) {
      m.deterministic = false;
    }
  };
  for (int i = 0; i < options.warmup; ++i) {
    prepare();
    record_value(reducer.reduce(input, op).value);
  }

  std::vector<double> device_ms, host_ms;
  const auto start = std::chrono::steady_clock::now();
  const int min_reps = std::max(1, options.min_reps);
  const int max_reps = std::max(min_reps, options.max_reps);
  for (int rep = 0; rep < max_reps; ++rep) {
    prepare();
    Reduction r = reducer.reduce(input, op);
    record_value(r.value);
    device_ms.push_back(r.timing.device_ms);
    host_ms.push_back(r.timing.host_ms);
    m.device_timer = r.timing.device_timer;
    if (rep + 1 < min_reps) continue;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed >= options.max_seconds) break;
    if (options.target_rel_spread > 0 &&
        summarize(device_ms).rel_spread < options.target_rel_spread)
      break;
  }
  if (restore) input.write(pristine);  // leave the caller's data as it was
  m.device_ms = summarize(std::move(device_ms));
  m.host_ms = summarize(std::move(host_ms));
  return m;
}

}  // namespace xr
