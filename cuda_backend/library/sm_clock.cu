// xreduce/cuda/clock.hpp: the SM clock probe kernel (nvbench's gpu_frequency is the anchor).
#include <algorithm>
#include <cmath>

#include "cuda_check.hpp"
#include "xreduce/cuda/clock.hpp"

namespace xr::cuda {
namespace {

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// out[0]: clock64's cycles, out[1]: %globaltimer's nanoseconds over a window of `window_ns`
// that starts on an edge of the timer and ends on the first reading past it. One thread.
__global__ void sm_clock_kernel(unsigned long long window_ns, unsigned long long* out) {
  const unsigned long long first = global_ns();
  unsigned long long t0 = global_ns();
  while (t0 == first) t0 = global_ns();
  const long long c0 = clock64();
  unsigned long long t1 = t0;
  do {
    t1 = global_ns();
  } while (t1 - t0 < window_ns);
  const long long c1 = clock64();
  out[0] = static_cast<unsigned long long>(c1 - c0);
  out[1] = t1 - t0;
}

__global__ void spin_kernel(unsigned long long ns) {
  const unsigned long long t0 = global_ns();
  while (global_ns() - t0 < ns) {
  }
}

}  // namespace

struct SmClock::State {
  unsigned long long* host = nullptr;  // mapped pinned memory: the kernel writes it directly
  unsigned long long* device = nullptr;
  int clock_khz = 0;
  ~State() {
    if (host) XR_CUDA_CHECK_NOTHROW(cudaFreeHost(host));
  }
};

SmClock::SmClock() : state_(make_state<State>()) {
  int device = 0;
  XR_CUDA_CHECK(cudaGetDevice(&device));
  XR_CUDA_CHECK(cudaDeviceGetAttribute(&state_->clock_khz, cudaDevAttrClockRate, device));
  void* host = nullptr;
  XR_CUDA_CHECK(cudaHostAlloc(&host, 2 * sizeof(unsigned long long), cudaHostAllocMapped));
  state_->host = static_cast<unsigned long long*>(host);
  void* mapped = nullptr;
  XR_CUDA_CHECK(cudaHostGetDevicePointer(&mapped, host, 0));
  state_->device = static_cast<unsigned long long*>(mapped);
}

double SmClock::read_mhz(cudaStream_t stream, double window_us) const {
  const auto window_ns = static_cast<unsigned long long>(std::max(1.0, window_us * 1e3));
  sm_clock_kernel<<<1, 1, 0, stream>>>(window_ns, state_->device);
  XR_CUDA_CHECK_LAUNCH();
  XR_CUDA_CHECK(cudaStreamSynchronize(stream));
  const volatile unsigned long long* r = state_->host;
  const double ns = static_cast<double>(r[1]);
  return ns > 0 ? static_cast<double>(r[0]) / ns * 1e3 : 0;
}

void SmClock::spin(cudaStream_t stream, double us) const {
  spin_kernel<<<1, 1, 0, stream>>>(static_cast<unsigned long long>(std::max(0.0, us * 1e3)));
  XR_CUDA_CHECK_LAUNCH();
}

double SmClock::max_mhz() const {
  return state_->clock_khz / 1e3;
}

}  // namespace xr::cuda
