#include "xreduce/histogram_desc.hpp"

#include <limits>

#include "xreduce/error.hpp"

namespace xr {

void check_histogram_desc(const HistogramDesc& desc) {
  const std::optional<std::string> wrong = visit_histogram_sample(desc.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return histogram_levels_error<T>(desc.levels);
  });
  if (wrong) throw Error(ErrorCategory::usage, *wrong);
  if (desc.levels.counts == HistogramCounts::u32 &&
      desc.count > std::numeric_limits<std::uint32_t>::max())
    throw Error(ErrorCategory::usage,
                std::to_string(desc.count) + " samples may pass a u32 counter: use u64 counts");
}

std::uint64_t histogram_counts_bytes(const HistogramLevels& levels) {
  return std::uint64_t{levels.bins} * (levels.counts == HistogramCounts::u64 ? 8 : 4);
}

}  // namespace xr
