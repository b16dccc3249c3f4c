// Context and memory of the CPU backend: the "device" is this host, its memory is RAM.
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

#include "cpu_reducers.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/cpu_backend.hpp"
#include "xreduce/error.hpp"

namespace xr::cpu {
namespace {

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "host CPU";
}

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * page : 0;
}

class CpuBackend final : public Backend {
 public:
  std::string_view name() const override { return "cpu"; }
  bool available() const override { return true; }
  std::string unavailable_reason() const override { return {}; }

  std::vector<DeviceInfo> devices() const override {
    DeviceInfo d;
    d.index = 0;
    d.name = cpu_model_name();
    // Whole strings, not literals assigned: GCC 12's -Wrestrict misreads the inlined assignment
    // of a literal to a string member here (GCC bug 105651).
    d.api_version = std::string("C++20, TBB");
    d.driver_version = std::string("-");
    d.memory_bytes = physical_memory_bytes();
    d.properties = {{"hardware threads", std::to_string(std::thread::hardware_concurrency())}};
    return {d};
  }

  std::vector<VariantInfo> variants() const override {
    std::vector<VariantInfo> all = cpu_variants();
    for (auto& v : cpu_scan_variants()) all.push_back(std::move(v));
    for (auto& v : cpu_sort_variants()) all.push_back(std::move(v));
    for (auto& v : cpu_histogram_variants()) all.push_back(std::move(v));
    return all;
  }

  void select_device(const DeviceChoice& choice) override {
    if (!choice.selector.empty() && choice.selector != "0")
      throw Error(ErrorCategory::usage,
                  "cpu backend has one device, 0; no device matches '" + choice.selector + "'");
  }
  DeviceInfo device() const override { return devices().front(); }
  std::string unsupported_reason(Primitive, std::string_view) const override { return {}; }

  std::unique_ptr<Reducer> make_reducer(std::string_view id) override {
    return make_cpu_reducer(id);
  }
  std::unique_ptr<Scanner> make_scanner(std::string_view id) override {
    return make_cpu_scanner(id);
  }
  std::unique_ptr<Sorter> make_sorter(std::string_view id) override { return make_cpu_sorter(id); }
  std::unique_ptr<Histogrammer> make_histogrammer(std::string_view id) override {
    return make_cpu_histogrammer(id);
  }

  std::unique_ptr<DeviceArray> upload(HostView data) override {
    if (data.size > max_elements(data.dtype))
      throw Error(ErrorCategory::out_of_memory, "cpu backend: " + std::to_string(data.size) +
                                                    " elements do not fit in host memory");
    return std::make_unique<CpuArray>(data);
  }

  std::unique_ptr<DeviceArray> allocate(DType t, std::size_t n) override {
    if (n > max_elements(t))
      throw Error(ErrorCategory::out_of_memory,
                  "cpu backend: " + std::to_string(n) + " elements do not fit in host memory");
    return std::make_unique<CpuArray>(t, n);
  }

  // The CPU backend keeps its own copy beside the caller's data: half of RAM each.
  std::uint64_t max_elements(DType t) const override {
    return physical_memory_bytes() / 2 / size_of(t);
  }
};

}  // namespace

CpuArray::CpuArray(HostView src) : data_(src.dtype, src.size) {
  write(src);
}

void CpuArray::read_into(HostArray& dst) const {
  if (dst.dtype() != data_.dtype() || dst.size() != data_.size())
    throw Error(ErrorCategory::usage,
                "DeviceArray::read_into: dtype or size differs from the array");
  if (dst.bytes()) std::memcpy(dst.data(), data_.data(), dst.bytes());
}

void CpuArray::write(HostView src) {
  if (src.dtype != data_.dtype() || src.size != data_.size())
    throw Error(ErrorCategory::usage, "DeviceArray::write: dtype or size differs from the array");
  if (src.bytes()) std::memcpy(data_.data(), src.data, src.bytes());
}

std::unique_ptr<Backend> make_backend() {
  return std::make_unique<CpuBackend>();
}

}  // namespace xr::cpu
