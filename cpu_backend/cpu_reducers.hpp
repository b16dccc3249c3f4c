// Internal to the CPU backend: its array type and the variant table.
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
  DType dtype() const override { return data_.dtype(); }
  std::size_t size() const override { return data_.size(); }
  void write(HostView src) override;
  HostArray read() const override {
    HostArray copy(data_.dtype(), data_.size());
    if (copy.bytes()) std::memcpy(copy.data(), data_.data(), copy.bytes());
    return copy;
  }
  HostView view() const { return data_.view(); }

 private:
  HostArray data_;
};

std::vector<VariantInfo> cpu_variants();
// Error(usage) for an id that is not a CPU variant.
std::unique_ptr<Reducer> make_cpu_reducer(std::string_view id);

}  // namespace xr::cpu
