// The timer of the tuning sweeps (tune/*.cu): CUDA events around a launch, the L2 flushed by a
// memset of twice its size before each run, median of `reps` runs after one warm-up.
#pragma once

#include <algorithm>
#include <functional>
#include <vector>

#include "context.hpp"

namespace xr::cuda::tune {

struct Timer {
  cudaStream_t s;
  DeviceBuffer flush;
  Event a, b;
  double median_ms(const std::function<void()>& launch, int reps) {
    std::vector<double> t;
    for (int r = 0; r <= reps; ++r) {
      XR_CUDA_CHECK(cudaMemsetAsync(flush.get(), r, flush.bytes(), s));
      XR_CUDA_CHECK(cudaEventRecord(a.get(), s));
      launch();
      XR_CUDA_CHECK(cudaEventRecord(b.get(), s));
      XR_CUDA_CHECK(cudaEventSynchronize(b.get()));
      float ms = 0;
      XR_CUDA_CHECK(cudaEventElapsedTime(&ms, a.get(), b.get()));
      if (r) t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  }
};

}  // namespace xr::cuda::tune
