// The histogram's bin rule (core's EvenBins) against cub::DeviceHistogram::HistogramEven itself,
// on the GPU: for each sample type and a set of levels, samples that sit on and beside every
// bin's edges (floats one ulp either side, the last value below `upper`), outside the range,
// NaN and infinities, and uniform ones; CUB's counts must equal the rule's bin for bin. Levels
// are passed to CUB in the type its best users pass: the sample's float type for floats, a
// 64-bit integer for integer samples (so that u8's 256 and u32's 2^32 are levels at all).
//
//   nvcc -std=c++20 -O2 -arch=native -I core/include bench/gpu/histogram/cub_rule.cu \
//     core/src/histogram.cpp -o cub_rule
//   ./cub_rule        # one line a case; exit 1 if any case differs
#include <cub/device/device_histogram.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "xreduce/histogram.hpp"

namespace {

#define CHECK_CUDA(call)                                                 \
  do {                                                                   \
    const cudaError_t status_ = (call);                                  \
    if (status_ != cudaSuccess) {                                        \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
                   cudaGetErrorString(status_));                         \
      std::exit(2);                                                      \
    }                                                                    \
  } while (0)

template <class T>
using LevelOf = std::conditional_t<std::is_floating_point_v<T>, T, long long>;

// Samples on and beside each bin's lower edge, at the range's ends and outside it, then uniform
// samples over a little more than the range.
template <class T>
std::vector<T> samples_for(const xr::HistogramLevels& levels, std::size_t uniform) {
  std::vector<T> out;
  const double width = (levels.upper - levels.lower) / levels.bins;
  const auto push = [&](double v) {
    if constexpr (std::is_floating_point_v<T>) {
      const T t = static_cast<T>(v);
      out.push_back(t);
      out.push_back(std::nextafter(t, -std::numeric_limits<T>::infinity()));
      out.push_back(std::nextafter(t, std::numeric_limits<T>::infinity()));
    } else {
      for (double d : {-1.0, 0.0, 1.0}) {
        const double e = std::floor(v) + d;
        if (e >= static_cast<double>(std::numeric_limits<T>::lowest()) &&
            e <= static_cast<double>(std::numeric_limits<T>::max()))
          out.push_back(static_cast<T>(e));
      }
    }
  };
  for (std::uint32_t b = 0; b <= levels.bins && b <= 70000; ++b) push(levels.lower + b * width);
  push(levels.upper);
  if constexpr (std::is_floating_point_v<T>) {
    out.push_back(std::numeric_limits<T>::quiet_NaN());
    out.push_back(std::numeric_limits<T>::infinity());
    out.push_back(-std::numeric_limits<T>::infinity());
    out.push_back(static_cast<T>(-0.0));
  }
  std::mt19937_64 rng(7);
  const double span = levels.upper - levels.lower;
  std::uniform_real_distribution<double> real(levels.lower - span / 16, levels.upper + span / 16);
  for (std::size_t i = 0; i < uniform; ++i) {
    double v = real(rng);
    if constexpr (!std::is_floating_point_v<T>)
      v = std::clamp(std::floor(v), static_cast<double>(std::numeric_limits<T>::lowest()),
                     static_cast<double>(std::numeric_limits<T>::max()));
    out.push_back(static_cast<T>(v));
  }
  return out;
}

template <class T>
std::vector<std::uint64_t> cub_counts(const std::vector<T>& samples,
                                      const xr::HistogramLevels& levels) {
  T* d_samples = nullptr;
  unsigned* d_counts = nullptr;
  CHECK_CUDA(cudaMalloc(&d_samples, samples.size() * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&d_counts, levels.bins * sizeof(unsigned)));
  CHECK_CUDA(
      cudaMemcpy(d_samples, samples.data(), samples.size() * sizeof(T), cudaMemcpyHostToDevice));
  const int num_levels = static_cast<int>(levels.bins) + 1;
  const auto lower = static_cast<LevelOf<T>>(levels.lower),
             upper = static_cast<LevelOf<T>>(levels.upper);
  const auto n = static_cast<long long>(samples.size());
  std::size_t temp_bytes = 0;
  CHECK_CUDA(cub::DeviceHistogram::HistogramEven(nullptr, temp_bytes, d_samples, d_counts,
                                                 num_levels, lower, upper, n));
  void* d_temp = nullptr;
  CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
  CHECK_CUDA(cub::DeviceHistogram::HistogramEven(d_temp, temp_bytes, d_samples, d_counts,
                                                 num_levels, lower, upper, n));
  std::vector<unsigned> counts(levels.bins);
  CHECK_CUDA(cudaMemcpy(counts.data(), d_counts, counts.size() * sizeof(unsigned),
                        cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(d_temp));
  CHECK_CUDA(cudaFree(d_counts));
  CHECK_CUDA(cudaFree(d_samples));
  return {counts.begin(), counts.end()};
}

template <class T>
bool check(const char* type, const xr::HistogramLevels& levels) {
  if (auto error = xr::histogram_levels_error<T>(levels)) {
    std::printf("%-4s bins %6u range %s: refused by the rule: %s\n", type, levels.bins,
                xr::range_text(levels).c_str(), error->c_str());
    return false;
  }
  const std::vector<T> samples = samples_for<T>(levels, std::size_t{1} << 22);
  const xr::EvenBins<T> rule(levels);
  std::vector<std::uint64_t> want(levels.bins, 0);
  for (T s : samples)
    if (const auto b = rule.bin_of(s); b >= 0) ++want[static_cast<std::size_t>(b)];
  const std::vector<std::uint64_t> got = cub_counts(samples, levels);
  std::size_t wrong = 0, first = 0;
  for (std::size_t b = levels.bins; b-- > 0;)
    if (got[b] != want[b]) ++wrong, first = b;
  std::printf("%-4s bins %6u range %-24s samples %8zu: %s", type, levels.bins,
              xr::range_text(levels).c_str(), samples.size(), wrong ? "DIFFERS" : "equal");
  if (wrong)
    std::printf(" (%zu bins; bin %zu: cub %llu, rule %llu)", wrong, first,
                static_cast<unsigned long long>(got[first]),
                static_cast<unsigned long long>(want[first]));
  std::printf("\n");
  return wrong == 0;
}

}  // namespace

int main() {
  bool ok = true;
  for (std::uint32_t bins : {1u, 2u, 255u, 256u, 257u, 4096u, 65536u}) {
    ok &= check<std::uint8_t>("u8", {.bins = bins, .lower = 0, .upper = 256});
    ok &= check<std::uint16_t>("u16", {.bins = bins, .lower = 0, .upper = 65536});
    ok &= check<std::uint16_t>("u16", {.bins = bins, .lower = 1000, .upper = 61001});
    ok &= check<std::int32_t>("i32", {.bins = bins, .lower = -1e6, .upper = 3e6 + 7});
    ok &= check<std::int32_t>("i32", {.bins = bins, .lower = -2147483648.0, .upper = 2147483647.0});
    ok &= check<std::uint32_t>("u32", {.bins = bins, .lower = 0, .upper = 4294967295.0});
    ok &= check<float>("f32", {.bins = bins, .lower = 0, .upper = 1});
    ok &= check<float>("f32", {.bins = bins, .lower = -0.3, .upper = 0.7});
    ok &= check<float>("f32", {.bins = bins, .lower = 0, .upper = 0.1 * bins});
    ok &= check<double>("f64", {.bins = bins, .lower = -0.3, .upper = 0.7});
  }
  std::printf("%s\n", ok ? "every case equal" : "some cases differ");
  return ok ? 0 : 1;
}
