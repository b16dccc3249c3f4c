#include "xreduce/histogram.hpp"

#include <charconv>
#include <cstdint>
#include <string>

namespace xr {

namespace {

std::optional<double> finite_number(std::string_view t) {
  if (t.empty()) return std::nullopt;
  if (t.front() == '+') t.remove_prefix(1);  // from_chars takes '-' only
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc{} || end != t.data() + t.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::string number_text(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string range_of(const HistogramLevels& levels) {
  return "the range " + number_text(levels.lower) + ":" + number_text(levels.upper);
}

template <class T>
std::optional<std::string> integer_levels_error(const HistogramLevels& levels) {
  const double least = static_cast<double>(std::numeric_limits<T>::lowest());
  const double past = static_cast<double>(std::numeric_limits<T>::max()) + 1.0;
  if (levels.lower != std::floor(levels.lower) || levels.upper != std::floor(levels.upper))
    return range_of(levels) + " has a level that is not an integer, for integer samples";
  if (levels.lower < least || levels.upper > past)
    return range_of(levels) + " is not within the samples' values " + number_text(least) + ":" +
           number_text(past);
  return std::nullopt;
}

template <class T>
std::optional<std::string> float_levels_error(const HistogramLevels& levels) {
  const T lower = static_cast<T>(levels.lower), upper = static_cast<T>(levels.upper);
  if (!std::isfinite(lower) || !std::isfinite(upper))
    return range_of(levels) + " has a level the samples' type does not hold";
  if (!(lower < upper))
    return range_of(levels) + " is empty in the samples' type (its levels round to one value)";
  if (!std::isfinite(upper - lower))
    return range_of(levels) + " is wider than the samples' type holds (upper - lower overflows)";
  // The rule's scale, bins / (upper - lower) in the samples' type, must be a number.
  if (!std::isfinite(static_cast<T>(static_cast<T>(levels.bins) / (upper - lower))))
    return range_of(levels) + " is too narrow for " + std::to_string(levels.bins) +
           " bins in the samples' type (bins / (upper - lower) overflows)";
  return std::nullopt;
}

}  // namespace

std::string_view to_string(HistogramCounts c) {
  return c == HistogramCounts::u64 ? "u64" : "u32";
}

std::optional<HistogramCounts> parse_histogram_counts(std::string_view s) {
  for (HistogramCounts c : kAllHistogramCounts)
    if (s == to_string(c)) return c;
  return std::nullopt;
}

std::optional<std::pair<double, double>> parse_histogram_range(std::string_view s) {
  // The separator is the colon after the first character: "-4:4" has its sign first.
  const std::size_t colon = s.find(':', 1);
  if (colon == std::string_view::npos) return std::nullopt;
  const auto lower = finite_number(s.substr(0, colon)), upper = finite_number(s.substr(colon + 1));
  if (!lower || !upper || !(*lower < *upper)) return std::nullopt;
  return std::pair{*lower, *upper};
}

std::string range_text(const HistogramLevels& levels) {
  return number_text(levels.lower) + ":" + number_text(levels.upper);
}

template <class T>
std::optional<std::string> histogram_levels_error(const HistogramLevels& levels) {
  if (levels.bins < 1 || levels.bins > kMaxHistogramBins)
    return "bins " + std::to_string(levels.bins) + " is not within 1 to " +
           std::to_string(kMaxHistogramBins);
  if (!std::isfinite(levels.lower) || !std::isfinite(levels.upper) ||
      !(levels.lower < levels.upper))
    return range_of(levels) + " is not a range LO:HI with LO < HI";
  if constexpr (std::is_floating_point_v<T>)
    return float_levels_error<T>(levels);
  else
    return integer_levels_error<T>(levels);
}

template std::optional<std::string> histogram_levels_error<std::uint8_t>(const HistogramLevels&);
template std::optional<std::string> histogram_levels_error<std::uint16_t>(const HistogramLevels&);
template std::optional<std::string> histogram_levels_error<std::int32_t>(const HistogramLevels&);
template std::optional<std::string> histogram_levels_error<std::uint32_t>(const HistogramLevels&);
template std::optional<std::string> histogram_levels_error<float>(const HistogramLevels&);
template std::optional<std::string> histogram_levels_error<double>(const HistogramLevels&);

}  // namespace xr
