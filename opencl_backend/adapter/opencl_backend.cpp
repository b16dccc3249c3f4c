// The OpenCL backend as core sees it: device listing and choice, arrays, reducers, scanners,
// sorters, histogrammers, probes.
#include "xreduce/opencl_backend.hpp"

#include <algorithm>

#include "cl_array.hpp"
#include "cl_device.hpp"
#include "cl_env_knobs.hpp"
#include "cl_histogrammer.hpp"
#include "cl_probes.hpp"
#include "cl_reducer.hpp"
#include "cl_sorter.hpp"
#include "cl_user_kernel.hpp"
#include "cl_user_ptx.hpp"
#include "cl_user_variants.hpp"
#include "xreduce/call_check.hpp"
#include "xreduce/device_backend.hpp"
#include "xreduce/error.hpp"
#include "xreduce/user_kernel.hpp"

namespace xr::opencl {
namespace {

class OpenClBackend final : public DeviceBackend {
 public:
  OpenClBackend() : DeviceBackend("OpenCL") {
    // A malformed XR_DEVICE_TIMEOUT leaves the backend unavailable, as CUDA's and Vulkan's; so
    // does a malformed XR_CL_GATE.
    if (!knobs_.timeout.error.empty() || !knobs_.gate.error.empty()) {
      reason_ = !knobs_.timeout.error.empty() ? knobs_.timeout.error : knobs_.gate.error;
      return;
    }
    open([this] {
      Platforms p = enumerate_devices(knobs_.library.facts_options());
      devices_ = std::move(p.devices);
      if (!devices_.empty()) return std::string();
      std::string why =
          "the OpenCL ICD loader reports no device (no ICD in /etc/OpenCL/vendors or "
          "OCL_ICD_VENDORS?)";
      for (const auto& problem : p.problems) why += "; " + problem;
      return why;
    });
  }

  ~OpenClBackend() override { release_device(); }

  std::string_view name() const override { return "opencl"; }
  using DeviceBackend::device;

  void add_kernel(const UserKernel& kernel) override {
    if (kernel.language != KernelLanguage::opencl && kernel.language != KernelLanguage::ptx)
      throw Error(ErrorCategory::unsupported,
                  "the opencl backend runs OpenCL C kernels (.cl) and PTX (.ptx), not " +
                      std::string(to_string(kernel.language)) + " (" + kernel.path.string() + ")");
    // A PTX's entries and parameters are checked now, on any device: a bad one fails the command.
    if (kernel.language == KernelLanguage::ptx) opencl_ptx(kernel);
    if (std::find(kernel.dtypes.begin(), kernel.dtypes.end(), DType::bf16) != kernel.dtypes.end())
      throw Error(ErrorCategory::usage,
                  kernel.path.string() + ": declares bf16, which OpenCL C has no type for");
    kernels_.add(kernel, name(), Variants::has(kernel.primitive, kernel.id));
  }

  std::vector<std::pair<std::string, std::string>> knobs() const override {
    return knobs_.recorded;
  }

  std::unique_ptr<DeviceArray> upload(HostView data) override {
    check_fits(data.dtype, data.size);
    return std::make_unique<ClArray>(device(true), data);
  }

  std::unique_ptr<DeviceArray> allocate(DType t, std::size_t n) override {
    check_fits(t, n);
    return std::make_unique<ClArray>(device(true), t, n);
  }

  std::uint64_t max_elements(DType t) const override {
    if (!available()) return 0;
    // Every array holds core's slack past its elements (cl_array.hpp).
    const std::uint64_t bytes = std::min(facts().max_allocation, facts().global_memory);
    return bytes > kKernelSlackBytes ? (bytes - kKernelSlackBytes) / size_of(t) : 0;
  }

  void flush_cache() override { probes().flush_cache(); }
  std::optional<double> measure_read_bandwidth_gbps() override {
    return probes().read_bandwidth_gbps();
  }
  std::optional<double> measure_copy_bandwidth_gbps() override {
    return probes().copy_bandwidth_gbps();
  }
  std::vector<Overhead> measure_overheads() override { return probes().overheads(); }
  std::optional<LinkRate> measure_link(std::uint64_t bytes) override {
    return probes().link(bytes);
  }
  ClockProbe* clock_probe() override {
    if (!available()) return nullptr;
    return probes().clock();
  }
  std::string clock_unmeasured_reason() override {
    if (!available()) return "not measured: " + reason_;
    return probes().clock_unmeasured_reason();
  }

 private:
  const DeviceFacts& facts() const { return devices_[selected()]; }

  std::vector<VariantInfo> builtin_variants() const override { return Variants::all(); }
  bool has_builtin(Primitive primitive, std::string_view id) const override {
    return Variants::has(primitive, id);
  }
  std::string builtin_unsupported_reason(Primitive primitive, std::string_view id) const override {
    return variant_unsupported_reason(primitive, id, facts());
  }
  std::string user_kernel_missing(const UserKernel& kernel) const override {
    if (kernel.language == KernelLanguage::ptx)
      if (std::string why = ptx_unbuildable_reason(facts()); !why.empty()) return why;
    return opencl::user_kernel_missing(kernel, facts());
  }

  // A user's kernel is built and checked for its first claim before any measurement.
  std::unique_ptr<Reducer> make_user_reducer(const UserKernel& kernel) override {
    compile_first_claim(device(true), kernel);
    return opencl::make_user_reducer(device(true), kernel);
  }
  std::unique_ptr<Scanner> make_user_scanner(const UserKernel& kernel) override {
    compile_first_claim(device(true), kernel);
    return opencl::make_user_scanner(device(true), kernel);
  }
  std::unique_ptr<Reducer> make_builtin_reducer(std::string_view id) override {
    return opencl::make_reducer(device(true), *find_reduce(id));
  }
  std::unique_ptr<Scanner> make_builtin_scanner(std::string_view id) override {
    return opencl::make_scanner(device(true), *find_scan(id));
  }
  std::unique_ptr<Sorter> make_builtin_sorter(std::string_view id) override {
    return opencl::make_sorter(device(true), id);
  }
  std::unique_ptr<Histogrammer> make_builtin_histogrammer(std::string_view id) override {
    return opencl::make_histogrammer(device(true), id);
  }

  void release_device() override {
    probes_.reset();
    device_.reset();
  }

  void check_fits(DType t, std::size_t n) const {
    require_available();
    if (n > max_elements(t))
      throw Error(ErrorCategory::out_of_memory,
                  "opencl: " + std::to_string(n) + " " + std::string(to_string(t)) +
                      " elements exceed the " + std::to_string(max_elements(t)) +
                      " one buffer can hold on " + facts().info.name +
                      " (CL_DEVICE_MAX_MEM_ALLOC_SIZE)");
  }

  // The selected device's context and queue, made on first use.
  std::shared_ptr<Device> device(bool) {
    require_available();
    if (!device_)
      device_ = std::make_shared<Device>(facts(), knobs_.timeout, knobs_.library, knobs_.gate.kind);
    return device_;
  }

  Probes& probes() {
    if (!probes_) probes_ = std::make_unique<Probes>(device(true));
    return *probes_;
  }

  // The devices as core's choice sees them: a GPU preferred.
  std::vector<DeviceCandidate> candidates() const override {
    std::vector<DeviceCandidate> out;
    for (const DeviceFacts& f : devices_)
      out.push_back({f.info, true, (f.type & CL_DEVICE_TYPE_GPU) != 0});
    return out;
  }

  OpenClBackendKnobs knobs_ = read_opencl_backend_knobs();
  std::vector<DeviceFacts> devices_;
  std::shared_ptr<Device> device_;
  std::unique_ptr<Probes> probes_;
};

}  // namespace

std::unique_ptr<Backend> make_backend() {
  return std::make_unique<OpenClBackend>();
}

}  // namespace xr::opencl
