#include "cuda_gate.hpp"

#include <atomic>
#include <cstdint>

#include "helper_ptx.hpp"

namespace xr::onebin {
namespace {

constexpr std::uint64_t kGateTimeoutNs = 1'000'000'000ull;

ModuleOwner load_gate(const std::string& header) {
  const std::string ptx = gate_ptx(header);
  CUmodule m = nullptr;
  XR_CU_CHECK(cuModuleLoadData(&m, ptx.c_str()));
  return ModuleOwner(m);
}

std::atomic_ref<int> flag(const MappedHostMemory& m, int i) {
  return std::atomic_ref<int>(static_cast<int*>(m.host())[i]);
}

}  // namespace

CudaGate::CudaGate(const std::string& ptx_header)
    : module_(load_gate(ptx_header)), flags_(2 * sizeof(int)) {
  XR_CU_CHECK(cuModuleGetFunction(&gate_, module_.get(), kGateEntry));
  flag(flags_, 0).store(0);
  flag(flags_, 1).store(0);
}

void CudaGate::hold(CUstream s) {
  flag(flags_, 0).store(0, std::memory_order_relaxed);
  flag(flags_, 1).store(0, std::memory_order_release);
  CUdeviceptr release = flags_.device(), timed_out = flags_.device() + sizeof(int);
  std::uint64_t timeout = kGateTimeoutNs;
  void* params[] = {&release, &timed_out, &timeout};
  XR_CU_CHECK(cuLaunchKernel(gate_, 1, 1, 1, 1, 1, 1, 0, s, params, nullptr));
  held_ = true;
}

void CudaGate::release() {
  if (held_) flag(flags_, 0).store(1, std::memory_order_release);
  held_ = false;
}

void CudaGate::check() {
  if (flag(flags_, 1).load(std::memory_order_acquire))
    throw Error(ErrorCategory::device_lost,
                "cuda: the timing gate gave up after 1 s before the host released it; the "
                "interval is not GPU time");
}

}  // namespace xr::onebin
