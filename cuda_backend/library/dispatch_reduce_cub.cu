// lib/cub: cub::DeviceReduce::Reduce with the same operators and identities as every other
// variant (Sum's zero, +inf/-inf for float min/max so an all-inf input stays exact). 32-bit
// offsets while n fits them, as a typical caller passing an int count gets; 64-bit beyond.
// f16 / bf16: the operator and init are float (cub_operator), so CUB accumulates in float and
// rounds once when it stores the result.
#include <cub/device/device_reduce.cuh>

#include "kernels/ops.cuh"
#include "reduce_dispatch.hpp"

namespace xr::cuda::detail {
namespace {

// temp == nullptr: query the size into `bytes`.
template <class T, class A, class O>
void cub_reduce(void* temp, std::size_t& bytes, const void* in, void* out, std::size_t n,
                cudaStream_t stream) {
  const T* src = static_cast<const T*>(in);
  T* dst = static_cast<T*>(out);
  const A init = O::template identity<A>();
  if (n <= 0xffffffffu)
    XR_CUDA_CHECK(cub::DeviceReduce::Reduce(temp, bytes, src, dst, static_cast<std::uint32_t>(n),
                                            kernels::cub_operator<O, T>(), init, stream));
  else
    XR_CUDA_CHECK(cub::DeviceReduce::Reduce(temp, bytes, src, dst, static_cast<std::uint64_t>(n),
                                            kernels::cub_operator<O, T>(), init, stream));
}

}  // namespace

void plan_reduce_cub(ReducePlan& plan, const DeviceLimits&) {
  std::size_t bytes = 0;
  kernels::with_type_op(plan.dtype, plan.op, [&]<class T, class A, class O>() {
    cub_reduce<T, A, O>(nullptr, bytes, nullptr, nullptr, plan.n, nullptr);
  });
  plan.scratch_bytes = std::max<std::size_t>(bytes, 16);
}

void enqueue_reduce_cub(const ReducePlan& plan, const ReduceBuffers& bufs, cudaStream_t stream) {
  kernels::with_type_op(plan.dtype, plan.op, [&]<class T, class A, class O>() {
    std::size_t bytes = plan.scratch_bytes;
    cub_reduce<T, A, O>(bufs.scratch, bytes, bufs.input, bufs.result, plan.n, stream);
    XR_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace xr::cuda::detail
