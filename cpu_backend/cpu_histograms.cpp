// The CPU histogram variants: the rule's loop, one sample at a time into one set of counters, and
// its parallel copy, a private set of counters a hardware thread merged bin by bin in parallel.
// Both count by core's EvenBins, so they are exact by construction.
#include <algorithm>
#include <execution>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "cpu_reducers.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/error.hpp"
#include "xreduce/histogram_request.hpp"
#include "xreduce/units.hpp"

namespace xr::cpu {
namespace {

enum class HistogramAlgorithm { sequential, parallel };

template <class T>
void count_sequential(std::span<const T> samples, const EvenBins<T>& rule,
                      std::vector<std::uint64_t>& bins) {
  for (const T s : samples)
    if (const std::int64_t b = rule.bin_of(s); b >= 0) ++bins[static_cast<std::size_t>(b)];
}

// One private set of counters a thread, each over a contiguous slice; merged by bin ranges in
// parallel, so neither half is serial in the bins.
template <class T>
void count_parallel(std::span<const T> samples, const EvenBins<T>& rule,
                    std::vector<std::uint64_t>& bins) {
  const std::size_t threads = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t parts =
      std::max<std::size_t>(1, std::min(threads, samples.size() / bins.size()));
  std::vector<std::vector<std::uint64_t>> privates(parts);
  std::vector<std::size_t> ids(parts);
  std::iota(ids.begin(), ids.end(), std::size_t{0});
  const std::size_t slice = (samples.size() + parts - 1) / parts;
  std::for_each(std::execution::par, ids.begin(), ids.end(), [&](std::size_t p) {
    privates[p].assign(bins.size(), 0);
    const std::size_t begin = std::min(samples.size(), p * slice);
    count_sequential(samples.subspan(begin, std::min(slice, samples.size() - begin)), rule,
                     privates[p]);
  });
  std::for_each(std::execution::par, ids.begin(), ids.end(), [&](std::size_t part) {
    const std::size_t width = (bins.size() + parts - 1) / parts;
    const std::size_t end = std::min(bins.size(), (part + 1) * width);
    for (std::size_t b = part * width; b < end; ++b)
      for (const auto& counts : privates) bins[b] += counts[b];
  });
}

// The counts of the request's samples, by the algorithm.
std::vector<std::uint64_t> count(const HistogramRequest& request, HistogramAlgorithm algorithm) {
  std::vector<std::uint64_t> bins(request.levels().bins, 0);
  const HostView samples = own_array<CpuArray>(request.samples(), "cpu").view();
  visit_histogram_sample(samples.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const EvenBins<T> rule(request.levels());
    if (algorithm == HistogramAlgorithm::sequential)
      count_sequential(samples.as<T>(), rule, bins);
    else
      count_parallel(samples.as<T>(), rule, bins);
  });
  return bins;
}

template <class C>
void store(const std::vector<std::uint64_t>& bins, CpuArray& counts) {
  std::transform(bins.begin(), bins.end(), counts.span<C>().begin(),
                 [](std::uint64_t c) { return static_cast<C>(c); });
}

class CpuHistogrammer final : public Histogrammer {
 public:
  CpuHistogrammer(VariantInfo info, HistogramAlgorithm algorithm)
      : info_(std::move(info)), algorithm_(algorithm) {}
  const VariantInfo& info() const override { return info_; }

  Timing histogram(const HistogramRequest& request) override {
    request.check_made_for(info_);
    if (request.count_on_device())
      throw Error(ErrorCategory::unsupported,
                  info_.id +
                      " takes its count from the host: a count on the device is the GPU "
                      "libraries' indirect call");
    auto& counts = own_array<CpuArray>(request.counts(), "cpu");
    const auto start = HostClock::now();
    const std::vector<std::uint64_t> bins = count(request, algorithm_);
    if (counts.dtype() == DType::u64)
      store<std::uint64_t>(bins, counts);
    else
      store<std::uint32_t>(bins, counts);
    const double ms = ms_since(start);
    return Timing{ms, ms, true};
  }

 private:
  VariantInfo info_;
  HistogramAlgorithm algorithm_;
};

constexpr std::pair<std::string_view, HistogramAlgorithm> kHistogramVariants[] = {
    {"cpu/sequential", HistogramAlgorithm::sequential},
    {"cpu/parallel", HistogramAlgorithm::parallel}};

VariantInfo histogram_info(std::string_view id) {
  return catalog_variant(Primitive::histogram, id,
                         {std::begin(kHistogramSampleDTypes), std::end(kHistogramSampleDTypes)},
                         {});
}

}  // namespace

std::vector<VariantInfo> cpu_histogram_variants() {
  std::vector<VariantInfo> out;
  for (const auto& [id, algorithm] : kHistogramVariants) out.push_back(histogram_info(id));
  return out;
}

std::unique_ptr<Histogrammer> make_cpu_histogrammer(std::string_view id) {
  for (const auto& [name, algorithm] : kHistogramVariants)
    if (name == id) return std::make_unique<CpuHistogrammer>(histogram_info(id), algorithm);
  throw Error(ErrorCategory::usage, "unknown cpu histogram variant '" + std::string(id) + "'");
}

}  // namespace xr::cpu
