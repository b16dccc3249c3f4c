#include "xreduce/histogram_reference.hpp"

#include <algorithm>
#include <execution>
#include <numeric>
#include <string>
#include <thread>

#include "xreduce/error.hpp"

namespace xr {
namespace {

// Samples a chunk of the parallel count holds at least: enough that a chunk's work outweighs
// starting it.
constexpr std::size_t kChunkSamples = std::size_t{1} << 20;

// Chunks of the parallel count: a few a hardware thread, and never so many that their private
// bins (chunks x bins counters, alive at once) outweigh the samples.
std::size_t chunks_for(std::size_t n, std::uint32_t bins) {
  const std::size_t threads = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t by_size = (n + kChunkSamples - 1) / kChunkSamples;
  return std::max<std::size_t>(1, std::min({by_size, 4 * threads, n / bins}));
}

template <class T>
void require_levels(const HistogramLevels& levels) {
  if (auto error = histogram_levels_error<T>(levels)) throw Error(ErrorCategory::usage, *error);
}

}  // namespace

template <class T>
std::vector<std::uint64_t> histogram_counts(std::span<const T> samples,
                                            const HistogramLevels& levels) {
  const EvenBins<T> rule(levels);
  const std::size_t chunks = chunks_for(samples.size(), levels.bins);
  const std::size_t per_chunk = (samples.size() + chunks - 1) / chunks;
  std::vector<std::size_t> chunk_ids(chunks);
  std::iota(chunk_ids.begin(), chunk_ids.end(), std::size_t{0});
  // One private copy of the bins a chunk, merged in chunk order (the sum does not depend on it).
  std::vector<std::vector<std::uint64_t>> partial(chunks);
  std::for_each(std::execution::par, chunk_ids.begin(), chunk_ids.end(), [&](std::size_t c) {
    std::vector<std::uint64_t> bins(levels.bins, 0);
    const std::size_t end = std::min(samples.size(), (c + 1) * per_chunk);
    for (std::size_t i = c * per_chunk; i < end; ++i)
      if (const std::int64_t b = rule.bin_of(samples[i]); b >= 0)
        ++bins[static_cast<std::size_t>(b)];
    partial[c] = std::move(bins);
  });
  std::vector<std::uint64_t> total(levels.bins, 0);
  for (const auto& bins : partial)
    for (std::size_t b = 0; b < total.size(); ++b) total[b] += bins[b];
  return total;
}

template <class T>
HistogramReference::HistogramReference(std::span<const T> samples, const HistogramLevels& levels) {
  require_levels<T>(levels);
  counts_ = histogram_counts(samples, levels);
  counted_ = std::accumulate(counts_.begin(), counts_.end(), std::uint64_t{0});
}

HistogramReference::HistogramReference(HostView samples, const HistogramLevels& levels) {
  visit_histogram_sample(samples.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    *this = HistogramReference(samples.as<T>(), levels);
  });
}

template <class C>
Verdict HistogramReference::compare(std::span<const C> counts) const {
  if (counts.size() != counts_.size())
    return {.message = "got " + std::to_string(counts.size()) + " counts, expected one a bin (" +
                       std::to_string(counts_.size()) + ")"};
  std::size_t wrong = 0, first = 0;
  for (std::size_t b = counts.size(); b-- > 0;)
    if (static_cast<std::uint64_t>(counts[b]) != counts_[b]) {
      ++wrong;
      first = b;
    }
  if (wrong == 0) return {.ok = true, .message = {}};
  return {.message = std::to_string(wrong) + " of " + std::to_string(counts_.size()) +
                     " bins wrong; bin " + std::to_string(first) + ": got " +
                     std::to_string(counts[first]) + ", expected " +
                     std::to_string(counts_[first])};
}

Verdict HistogramReference::validate(std::span<const std::uint32_t> counts) const {
  return compare(counts);
}
Verdict HistogramReference::validate(std::span<const std::uint64_t> counts) const {
  return compare(counts);
}

#define XR_HISTOGRAM_SAMPLE(T)                                                     \
  template std::vector<std::uint64_t> histogram_counts<T>(std::span<const T>,      \
                                                          const HistogramLevels&); \
  template HistogramReference::HistogramReference(std::span<const T>, const HistogramLevels&);
XR_HISTOGRAM_SAMPLE(std::uint8_t)
XR_HISTOGRAM_SAMPLE(std::uint16_t)
XR_HISTOGRAM_SAMPLE(std::int32_t)
XR_HISTOGRAM_SAMPLE(std::uint32_t)
XR_HISTOGRAM_SAMPLE(float)
XR_HISTOGRAM_SAMPLE(double)
#undef XR_HISTOGRAM_SAMPLE

}  // namespace xr
