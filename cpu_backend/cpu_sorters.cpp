// The CPU sort variants: the comparison sort the reference order is defined by, an LSD radix sort
// (the GPU radix sorts' algorithm, one digit at a time) and the parallel STL's. Every one sorts
// (sort bits, input position) records (sort_keys.hpp) and gathers keys and values by position,
// so each is stable and bitwise exact by construction of its own algorithm.
#include <algorithm>
#include <array>
#include <cstring>
#include <execution>
#include <string>
#include <vector>

#include "cpu_reducers.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/error.hpp"
#include "xreduce/sort_keys.hpp"
#include "xreduce/sort_request.hpp"
#include "xreduce/units.hpp"

namespace xr::cpu {
namespace {

enum class SortAlgorithm { std_sort, radix, parallel };

struct Record {
  std::uint64_t bits;  // the compared bits (sort_keys.hpp's sort_bits within the range)
  std::uint64_t position;
};

std::vector<Record> records_of(HostView keys, const SortDesc& desc) {
  std::vector<Record> out(keys.size);
  for (std::size_t i = 0; i < keys.size; ++i)
    out[i] = {digit_bits(sort_bits(keys.dtype, keys.data, i, desc.order), desc.bits), i};
  return out;
}

// LSD radix sort of the records by their bits, 8 bits a pass from the bottom: a histogram, its
// exclusive scan, a stable scatter.
void radix_sort(std::vector<Record>& records, std::uint32_t bits) {
  std::vector<Record> other(records.size());
  for (std::uint32_t shift = 0; shift < bits; shift += 8) {
    std::array<std::size_t, 257> start{};
    for (const Record& r : records) ++start[((r.bits >> shift) & 0xFF) + 1];
    for (std::size_t d = 1; d < start.size(); ++d) start[d] += start[d - 1];
    for (const Record& r : records) other[start[(r.bits >> shift) & 0xFF]++] = r;
    records.swap(other);
  }
}

bool by_bits(const Record& a, const Record& b) {
  return a.bits < b.bits;
}

void order_records(std::vector<Record>& records, SortAlgorithm algorithm, std::uint32_t bits) {
  switch (algorithm) {
    case SortAlgorithm::std_sort:
      std::stable_sort(records.begin(), records.end(), by_bits);
      return;
    case SortAlgorithm::radix:
      radix_sort(records, bits);
      return;
    case SortAlgorithm::parallel:
      std::stable_sort(std::execution::par, records.begin(), records.end(), by_bits);
      return;
  }
}

class CpuSorter final : public Sorter {
 public:
  CpuSorter(VariantInfo info, SortAlgorithm algorithm)
      : info_(std::move(info)), algorithm_(algorithm) {}
  const VariantInfo& info() const override { return info_; }

  Timing sort(const SortRequest& request) override {
    request.check_made_for(info_);
    if (request.count_on_device())
      throw Error(ErrorCategory::unsupported,
                  info_.id +
                      " takes its count from the host: a count on the device is the GPU "
                      "libraries' indirect call");
    const SortDesc& desc = request.desc();
    const HostView keys = own_array<CpuArray>(request.keys(), "cpu").view();
    auto& out = own_array<CpuArray>(request.sorted_keys(), "cpu");
    const auto start = HostClock::now();
    std::vector<Record> records = records_of(keys, desc);
    order_records(records, algorithm_, desc.bits.end - desc.bits.begin);
    gather_keys(keys, records, out);
    if (request.values()) gather_values(request, records);
    const double ms = ms_since(start);
    return Timing{ms, ms, true};
  }

 private:
  static void gather_keys(HostView keys, const std::vector<Record>& records, CpuArray& out) {
    const std::size_t width = size_of(keys.dtype);
    const auto* in = static_cast<const unsigned char*>(keys.data);
    auto* to = reinterpret_cast<unsigned char*>(out.span<std::uint8_t>().data());
    for (std::size_t j = 0; j < records.size(); ++j)
      std::memcpy(to + j * width, in + records[j].position * width, width);
  }

  static void gather_values(const SortRequest& request, const std::vector<Record>& records) {
    auto& values = own_array<CpuArray>(*request.values(), "cpu");
    auto& sorted = own_array<CpuArray>(*request.sorted_values(), "cpu");
    const std::size_t width = size_of(values.dtype());  // u32 or u64, moved as bytes
    const auto* from = static_cast<const unsigned char*>(values.view().data);
    auto* to = sorted.span<std::uint8_t>().data();
    for (std::size_t j = 0; j < records.size(); ++j)
      std::memcpy(to + j * width, from + records[j].position * width, width);
  }

  VariantInfo info_;
  SortAlgorithm algorithm_;
};

constexpr std::pair<std::string_view, SortAlgorithm> kSortVariants[] = {
    {"cpu/std-sort", SortAlgorithm::std_sort},
    {"cpu/radix", SortAlgorithm::radix},
    {"cpu/parallel", SortAlgorithm::parallel}};

VariantInfo sort_info(std::string_view id) {
  return catalog_variant(Primitive::sort, id,
                         {std::begin(kElementDTypes), std::end(kElementDTypes)}, {});
}

}  // namespace

std::vector<VariantInfo> cpu_sort_variants() {
  std::vector<VariantInfo> out;
  for (const auto& [id, algorithm] : kSortVariants) out.push_back(sort_info(id));
  return out;
}

std::unique_ptr<Sorter> make_cpu_sorter(std::string_view id) {
  for (const auto& [name, algorithm] : kSortVariants)
    if (name == id) return std::make_unique<CpuSorter>(sort_info(id), algorithm);
  throw Error(ErrorCategory::usage, "unknown cpu sort variant '" + std::string(id) + "'");
}

}  // namespace xr::cpu
