// The CUDA Backend: probe, device choice, uploads, and the cache/bandwidth seams.
#include "xreduce/cuda_backend.hpp"

#include <algorithm>
#include <cctype>
#include <deque>
#include <string>

#include "array.hpp"
#include "compiled_call.hpp"
#include "context.hpp"
#include "cuda_clock.hpp"
#include "link.hpp"
#include "timing.hpp"
#include "user_module.hpp"
#include "user_variants.hpp"
#include "variants.hpp"
#include "xreduce/call_check.hpp"
#include "xreduce/device_select.hpp"
#include "xreduce/error.hpp"
#include "xreduce/user_kernel.hpp"

namespace xr::cuda {

// Past its n elements every array holds core's slack (kKernelSlackBytes), where a user's kernel
// that reads its whole last tile finds the identity (written before each of its calls).
CudaArray::CudaArray(std::shared_ptr<Context> ctx, DType t, std::size_t n)
    : SizedArray(t, n),
      ctx_((ctx->activate(), std::move(ctx))),
      buffer_(n * size_of(t) + kKernelSlackBytes) {}

CudaArray::CudaArray(std::shared_ptr<Context> ctx, HostView src)
    : CudaArray(std::move(ctx), src.dtype, src.size) {
  write(src);
}

void CudaArray::copy_in(const void* src) {
  ctx_->upload(buffer_.get(), src, bytes());
}

CudaArray& device_array(DeviceArray& array, const Context& ctx) {
  CudaArray& a = own_array<CudaArray>(array, "cuda");
  if (a.context().device() != ctx.device())
    throw Error(ErrorCategory::usage,
                "cuda: an array lives on device " + std::to_string(a.context().device()) +
                    ", the variant on device " + std::to_string(ctx.device()));
  return a;
}

void CudaArray::copy_out(void* dst) const {
  ctx_->download(dst, buffer_.get(), bytes());
}

namespace {

// Device memory kept free beside an array: scratch (partials are < 1% of n), CUB temp storage,
// the L2-flush buffer and the driver's own needs. A generous starting point, not a tuned number.
constexpr std::uint64_t kReserveBytes = std::uint64_t(512) << 20;

class CudaBackend final : public Backend {
 public:
  CudaBackend() noexcept : knobs_(read_cuda_knobs()) { probe(); }

  std::string_view name() const override { return "cuda"; }
  bool available() const override { return available_; }
  std::string unavailable_reason() const override { return reason_; }
  std::vector<DeviceInfo> devices() const override { return devices_; }
  std::vector<VariantInfo> variants() const override {
    std::vector<VariantInfo> out = cuda_variants();
    for (VariantInfo& v : kernels_.variants()) out.push_back(std::move(v));
    return out;
  }

  void add_kernel(const UserKernel& kernel) override {
    if (backend_of(kernel.language) != name())
      throw Error(ErrorCategory::unsupported,
                  "the cuda backend runs CUDA C++, PTX and cubin kernels, not " +
                      std::string(to_string(kernel.language)) + " (" + kernel.path.string() + ")");
    kernels_.add(kernel, name(), has_variant(kernel.primitive, kernel.id));
  }
  std::vector<std::pair<std::string, std::string>> knobs() const override { return knobs_.set; }

  void select_device(const DeviceChoice& choice) override {
    require_available();
    std::vector<DeviceCandidate> candidates;
    for (const DeviceInfo& d : devices_) candidates.push_back({d, true, false});
    const int index = static_cast<int>(choose_device(candidates, choice, "CUDA"));
    if (index != selected_) {
      selected_ = index;
      clock_.reset();
      ctx_.reset();  // arrays and reducers made before keep the old context alive
    }
  }

  DeviceInfo device() const override {
    require_available();
    return devices_[selected_];
  }

  std::string unsupported_reason(Primitive primitive, std::string_view id) const override {
    if (!available_) return reason_;
    if (kernels_.find(primitive, id)) return {};
    try {
      return variant_unsupported_reason(primitive, id, limits_[selected_]);
    } catch (const Error& e) {
      return e.what();
    }
  }

  std::unique_ptr<Reducer> make_reducer(std::string_view id) override {
    if (const UserKernel* k = kernels_.find(Primitive::reduce, id)) {
      require_available();
      compile_first_claim(*k, user_modules_, context()->limits());
      return make_user_reducer(context(), *k, user_modules_);
    }
    check_can_run(Primitive::reduce, id);
    return make_cuda_reducer(id, context());
  }

  std::unique_ptr<Scanner> make_scanner(std::string_view id) override {
    if (const UserKernel* k = kernels_.find(Primitive::scan, id)) {
      require_available();
      compile_first_claim(*k, user_modules_, context()->limits());
      return make_user_scanner(context(), *k, user_modules_);
    }
    check_can_run(Primitive::scan, id);
    return make_cuda_scanner(id, context());
  }

  std::unique_ptr<Sorter> make_sorter(std::string_view id) override {
    check_can_run(Primitive::sort, id);
    return make_cuda_sorter(id, context());
  }

  std::unique_ptr<Histogrammer> make_histogrammer(std::string_view id) override {
    check_can_run(Primitive::histogram, id);
    return make_cuda_histogrammer(id, context());
  }

  std::unique_ptr<DeviceArray> upload(HostView data) override {
    check_fits(data.dtype, data.size);
    return std::make_unique<CudaArray>(context(), data);
  }

  std::unique_ptr<DeviceArray> allocate(DType t, std::size_t n) override {
    check_fits(t, n);
    return std::make_unique<CudaArray>(context(), t, n);
  }

  std::uint64_t max_elements(DType t) const override {
    if (!available_) return 0;
    auto& ctx = const_cast<CudaBackend*>(this)->context();
    ctx->activate();
    std::size_t free_bytes = 0, total = 0;
    XR_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    return free_bytes > kReserveBytes ? (free_bytes - kReserveBytes) / size_of(t) : 0;
  }

  void flush_cache() override {
    if (available_) context()->flush_l2();
  }

  std::optional<double> measure_read_bandwidth_gbps() override {
    if (!available_) return std::nullopt;
    return context()->read_bandwidth_gbps();
  }

  std::optional<double> measure_copy_bandwidth_gbps() override {
    if (!available_) return std::nullopt;
    return context()->copy_bandwidth_gbps();
  }

  ClockProbe* clock_probe() override {
    if (!available_) return nullptr;
    if (!clock_) clock_ = std::make_unique<CudaClock>(context());
    return clock_.get();
  }

  std::optional<SmLimits> sm_limits() override {
    if (!available_) return std::nullopt;
    return sm_limits_of(context()->limits(), devices_[selected_].name);
  }

  std::string clock_unmeasured_reason() override {
    return available_ ? std::string() : "not measured: " + reason_;
  }

  std::vector<Overhead> measure_overheads() override {
    if (!available_) return {};
    return measure_cuda_overheads(*context());
  }

  std::optional<LinkRate> measure_link(std::uint64_t bytes) override {
    if (!available_) return std::nullopt;
    return measure_cuda_link(*context(), bytes);
  }

 private:
  // Unknown ids are usage errors even without a device; then the device must run the variant.
  void check_can_run(Primitive primitive, std::string_view id) const {
    if (!has_variant(primitive, id))
      throw Error(ErrorCategory::usage, "unknown cuda " + std::string(to_string(primitive)) +
                                            " variant '" + std::string(id) + "'");
    require_available();
    if (auto why = variant_unsupported_reason(primitive, id, limits_[selected_]); !why.empty())
      throw Error(ErrorCategory::unsupported, std::string(id) + ": " + why);
  }

  void check_fits(DType t, std::size_t n) const {
    require_available();
    if (n > max_elements(t))
      throw Error(ErrorCategory::out_of_memory,
                  "cuda: " + std::to_string(n) + " " + std::string(to_string(t)) + " elements (" +
                      std::to_string(n * size_of(t) >> 20) + " MiB) do not fit in " +
                      devices_[selected_].name + "'s free memory");
  }

  // Never throws: any failure becomes the reason the backend is unavailable.
  void probe() noexcept {
    if (!knobs_.timeout.error.empty()) {
      reason_ = knobs_.timeout.error;
      return;
    }
    try {
      int count = 0;
      const cudaError_t e = cudaGetDeviceCount(&count);
      if (e != cudaSuccess) {
        reason_ =
            std::string("CUDA driver: ") + cudaGetErrorString(e) + " (" + cudaGetErrorName(e) + ")";
        (void)cudaGetLastError();  // leave no stale error for the next checked call
        return;
      }
      if (count == 0) {
        reason_ = "no CUDA device found";
        return;
      }
      for (int i = 0; i < count; ++i) {
        devices_.push_back(describe_device(i));
        limits_.push_back(query_limits(i));
      }
      available_ = true;
    } catch (const std::exception& ex) {
      devices_.clear();
      limits_.clear();
      reason_ = ex.what();
    } catch (...) {
      devices_.clear();
      limits_.clear();
      reason_ = "CUDA probe failed";
    }
  }

  void require_available() const {
    if (!available_)
      throw Error(ErrorCategory::unavailable, "cuda backend unavailable: " + reason_);
  }

  std::shared_ptr<Context>& context() {
    if (!ctx_) ctx_ = std::make_shared<Context>(limits_[selected_].device, knobs_);
    return ctx_;
  }

  CudaKnobs knobs_;
  bool available_ = false;
  std::string reason_;
  std::vector<DeviceInfo> devices_;
  std::vector<DeviceLimits> limits_;
  int selected_ = 0;
  std::shared_ptr<Context> ctx_;
  std::unique_ptr<CudaClock> clock_;  // made on first use, with the context
  UserKernels kernels_;
  UserModules user_modules_;  // loaded per device architecture; outlive the variants
};

}  // namespace

std::unique_ptr<Backend> make_backend() {
  return std::make_unique<CudaBackend>();
}

}  // namespace xr::cuda
