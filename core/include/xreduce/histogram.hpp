// A histogram's parameters and its bin rule: n samples -> `bins` counts over even levels in
// [lower, upper), as cub::DeviceHistogram::HistogramEven. A sample outside the range, and a NaN,
// is counted nowhere. The rule is the one place a sample's bin is defined; every backend computes
// the same bin for every sample, bit for bit.
//
// Integer samples: bin = floor((s - lower) * bins / (upper - lower)), exact (CUB computes it in a
// 32- or 64-bit unsigned integer and refuses levels where that could overflow; here 64 bits hold
// every product the limits below allow). Float samples: CUB's arithmetic in the sample's type,
// scale = T(bins) / T(upper - lower) rounded once, bin = int((s - lower) * scale); a sample just
// below `upper` whose product rounds up to `bins` is counted nowhere, as CUB drops it.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "xreduce/types.hpp"

namespace xr {

// The counters' width: u32, or u64 where n may pass 2^32 - 1.
enum class HistogramCounts : std::uint8_t { u32, u64 };
inline constexpr HistogramCounts kAllHistogramCounts[] = {HistogramCounts::u32,
                                                          HistogramCounts::u64};
std::string_view to_string(HistogramCounts c);
std::optional<HistogramCounts> parse_histogram_counts(std::string_view s);

// Calls f(TypeTag<T>{}) with the C++ type of a histogram's sample type `t`: visit_dtype over
// kHistogramSampleDTypes alone, so that a histogram's templates are built for its six types.
// Error(unsupported) for another type.
template <class F>
decltype(auto) visit_histogram_sample(DType t, F&& f) {
  switch (t) {
    case DType::u8:
      return f(TypeTag<std::uint8_t>{});
    case DType::u16:
      return f(TypeTag<std::uint16_t>{});
    case DType::i32:
      return f(TypeTag<std::int32_t>{});
    case DType::u32:
      return f(TypeTag<std::uint32_t>{});
    case DType::f32:
      return f(TypeTag<float>{});
    case DType::f64:
      return f(TypeTag<double>{});
    default:
      break;
  }
  throw Error(ErrorCategory::unsupported,
              "a histogram does not take " + std::string(to_string(t)) + " samples");
}

// The most bins core defines the rule for: (s - lower) < 2^32 times this stays below 2^64.
inline constexpr std::uint32_t kMaxHistogramBins = 1u << 24;

// `bins` even bins over [lower, upper). Levels are held as doubles (exact for every integer
// sample's level, u32's 2^32 included) and taken in the sample's type by EvenBins.
struct HistogramLevels {
  std::uint32_t bins = 256;
  double lower = 0;
  double upper = 256;
  HistogramCounts counts = HistogramCounts::u32;

  bool operator==(const HistogramLevels&) const = default;
};

// "LO:HI" with LO < HI, both finite numbers; nullopt otherwise (the sample type is checked later,
// by histogram_levels_error).
std::optional<std::pair<double, double>> parse_histogram_range(std::string_view s);
// "0:256": the range as --range takes it (shortest text that reads back the same double).
std::string range_text(const HistogramLevels& levels);

// What is wrong with `levels` for samples of type T, as one line, or nullopt: bins past 1 to
// kMaxHistogramBins; for integer samples, a level that is not an integer, a lower below the
// type's least value or an upper past its greatest plus one; for floats, a level the type does
// not hold or a width (upper - lower) it cannot.
template <class T>
std::optional<std::string> histogram_levels_error(const HistogramLevels& levels);

// The rule, for samples of type T: bin_of gives the bin of s, or -1 where s is counted nowhere.
template <class T>
class EvenBins {
 public:
  // Requires levels that histogram_levels_error<T> accepts.
  explicit EvenBins(const HistogramLevels& levels);

  std::int64_t bin_of(T s) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (!(s >= lower_ && s < upper_)) return -1;  // NaN fails both
      // Each step rounds in T (SSE arithmetic; a difference times a scale has no multiply-add
      // to fuse), as on the GPU.
      const std::int64_t bin = static_cast<std::int64_t>((s - lower_) * scale_);
      return bin < bins_ ? bin : -1;
    } else {
      const std::int64_t v = static_cast<std::int64_t>(s);
      if (v < lower_ || v >= upper_) return -1;
      return static_cast<std::int64_t>(static_cast<std::uint64_t>(v - lower_) *
                                       static_cast<std::uint64_t>(bins_) / width_);
    }
  }
  std::int64_t bins() const { return bins_; }

 private:
  using Level = std::conditional_t<std::is_floating_point_v<T>, T, std::int64_t>;
  Level lower_{}, upper_{};
  T scale_{};                // floats: T(bins) / T(upper - lower)
  std::uint64_t width_ = 1;  // integers: upper - lower
  std::int64_t bins_ = 1;
};

template <class T>
EvenBins<T>::EvenBins(const HistogramLevels& levels)
    : lower_(static_cast<Level>(levels.lower)),
      upper_(static_cast<Level>(levels.upper)),
      bins_(levels.bins) {
  if constexpr (std::is_floating_point_v<T>) {
    const T width = upper_ - lower_;
    scale_ = static_cast<T>(static_cast<T>(levels.bins) / width);
  } else {
    width_ = static_cast<std::uint64_t>(upper_ - lower_);
  }
}

}  // namespace xr
