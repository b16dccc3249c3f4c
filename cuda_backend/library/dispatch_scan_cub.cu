// lib/cub: cub::DeviceScan::InclusiveScan / ExclusiveScan with the same operators as every other
// variant, exclusive scans starting from the op's identity. 32-bit offsets while n fits them, as
// a caller passing an int count gets; 64-bit beyond. One scratch serves both kinds: the plan
// keeps the larger of the two temp-storage sizes CUB asks for. f16 / bf16: the operator and the
// exclusive init are float (cub_operator), so CUB scans in float and rounds each output once.
#include <cub/device/device_scan.cuh>

#include "kernels/ops.cuh"
#include "scan_dispatch.hpp"

namespace xr::cuda::detail {
namespace {

// temp == nullptr: query the size into `bytes`.
template <class T, class A, class O, class N>
void cub_scan(void* temp, std::size_t& bytes, const void* in, void* out, N n, ScanKind kind,
              cudaStream_t stream) {
  const T* src = static_cast<const T*>(in);
  T* dst = static_cast<T*>(out);
  if (kind == ScanKind::inclusive)
    XR_CUDA_CHECK(cub::DeviceScan::InclusiveScan(temp, bytes, src, dst,
                                                 kernels::cub_operator<O, T>(), n, stream));
  else
    XR_CUDA_CHECK(cub::DeviceScan::ExclusiveScan(temp, bytes, src, dst,
                                                 kernels::cub_operator<O, T>(),
                                                 O::template identity<A>(), n, stream));
}

template <class T, class A, class O>
void cub_scan_any_n(void* temp, std::size_t& bytes, const void* in, void* out, std::size_t n,
                    ScanKind kind, cudaStream_t stream) {
  if (n <= 0xffffffffu)
    cub_scan<T, A, O>(temp, bytes, in, out, static_cast<std::uint32_t>(n), kind, stream);
  else
    cub_scan<T, A, O>(temp, bytes, in, out, static_cast<std::uint64_t>(n), kind, stream);
}

}  // namespace

void plan_scan_cub(ScanPlan& plan, const DeviceLimits&) {
  std::size_t most = 16;
  kernels::with_type_op(plan.dtype, plan.op, [&]<class T, class A, class O>() {
    for (ScanKind kind : kAllScanKinds) {
      std::size_t bytes = 0;
      cub_scan_any_n<T, A, O>(nullptr, bytes, nullptr, nullptr, plan.n, kind, nullptr);
      most = std::max(most, bytes);
    }
  });
  plan.scratch_bytes = most;
}

void enqueue_scan_cub(const ScanPlan& plan, const ScanBuffers& bufs, ScanKind kind,
                      cudaStream_t stream) {
  kernels::with_type_op(plan.dtype, plan.op, [&]<class T, class A, class O>() {
    std::size_t bytes = plan.scratch_bytes;
    cub_scan_any_n<T, A, O>(bufs.scratch, bytes, bufs.input, bufs.output, plan.n, kind, stream);
    XR_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace xr::cuda::detail
