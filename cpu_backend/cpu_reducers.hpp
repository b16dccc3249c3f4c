// Internal to the CPU backend: its array type and the variant tables of every primitive.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "xreduce/backend.hpp"

namespace xr::cpu {

// Host memory standing in for device memory; the copy keeps the caller's data intact.
class CpuArray final : public DeviceArray {
 public:
  explicit CpuArray(HostView src);
  CpuArray(DType t, std::size_t n) : data_(t, n) {}
  DType dtype() const override { return data_.dtype(); }
  std::size_t size() const override { return data_.size(); }
  void write(HostView src) override;
  void read_into(HostArray& dst) const override;
  HostView view() const { return data_.view(); }
  template <class T>
  std::span<T> span() {
    return data_.as<T>();
  }

 private:
  HostArray data_;
};

std::vector<VariantInfo> cpu_variants();  // reduce
// Error(usage) for an id that is not a CPU reduce variant.
std::unique_ptr<Reducer> make_cpu_reducer(std::string_view id);
std::vector<VariantInfo> cpu_scan_variants();
// Error(usage) for an id that is not a CPU scan variant.
std::unique_ptr<Scanner> make_cpu_scanner(std::string_view id);
std::vector<VariantInfo> cpu_sort_variants();
// Error(usage) for an id that is not a CPU sort variant.
std::unique_ptr<Sorter> make_cpu_sorter(std::string_view id);
std::vector<VariantInfo> cpu_histogram_variants();
// Error(usage) for an id that is not a CPU histogram variant.
std::unique_ptr<Histogrammer> make_cpu_histogrammer(std::string_view id);

}  // namespace xr::cpu
