#include "link.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "xreduce/error.hpp"
#include "xreduce/harness.hpp"
#include "xreduce/units.hpp"

namespace xr::cuda {
namespace {

// As the Vulkan anchor (vulkan_backend/adapter/vk_link.cpp): one warm-up, then the median of 7.
constexpr int kLinkRuns = 7;

// Median ms of cudaMemcpyAsync(dst, src, bytes, kind) over kLinkRuns after a warm-up. Not held
// behind the gate (timing.hpp): the host's launch gap inside the interval is microseconds, a
// copy of the sizes this anchors (64 MiB and more) milliseconds.
double median_copy_ms(Context& ctx, void* dst, const void* src, std::size_t bytes,
                      cudaMemcpyKind kind) {
  Event start, stop;
  std::vector<double> ms;
  for (int run = 0; run <= kLinkRuns; ++run) {
    XR_CUDA_CHECK(cudaEventRecord(start.get(), ctx.stream()));
    XR_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, ctx.stream()));
    XR_CUDA_CHECK(cudaEventRecord(stop.get(), ctx.stream()));
    XR_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float t = 0;
    XR_CUDA_CHECK(cudaEventElapsedTime(&t, start.get(), stop.get()));
    if (run > 0) ms.push_back(t);  // run 0 warms up (first touch of the mappings, clocks)
  }
  return summarize(ms).median;
}

}  // namespace

LinkRate measure_cuda_link(Context& ctx, std::uint64_t bytes) {
  ctx.activate();
  std::size_t free_bytes = 0, total = 0;
  XR_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  // Half the free memory at most: the anchor runs beside the arrays of a compare.
  const std::size_t limit = free_bytes / 2 / 16 * 16;
  const std::size_t size = std::min<std::uint64_t>(bytes, limit);
  if (size == 0)
    throw Error(ErrorCategory::out_of_memory,
                "cuda: no device memory is free for the host-link probe");
  PinnedBuffer host(size);
  DeviceBuffer device(size);
  std::memset(host.get(), 1, size);  // its pages resident before the warm-up
  XR_CUDA_CHECK(cudaMemsetAsync(device.get(), 1, size, ctx.stream()));

  LinkRate link;
  link.bytes = size;
  link.upload_gbps = gbps(static_cast<double>(size), median_copy_ms(ctx, device.get(), host.get(),
                                                                    size, cudaMemcpyHostToDevice));
  link.readback_gbps =
      gbps(static_cast<double>(size),
           median_copy_ms(ctx, host.get(), device.get(), size, cudaMemcpyDeviceToHost));
  link.samples = kLinkRuns;
  link.how = "cudaMemcpyAsync from/to cudaMallocHost memory, CUDA events";
  if (size < bytes)
    link.how += ", clamped to " + format_mib(size) + " (half the free device memory)";
  return link;
}

}  // namespace xr::cuda
