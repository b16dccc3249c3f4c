#include "cuda_intervals.hpp"

#include <chrono>
#include <string>
#include <thread>

namespace xr::onebin {

CudaIntervals::CudaIntervals(CudaGate& gate, std::uint64_t flush_bytes)
    : gate_(gate), flush_(flush_bytes) {}

void CudaIntervals::begin(CUstream s) {
  marks_ = 0;
  XR_CU_CHECK(cuMemsetD32Async(flush_.get(), 0, flush_.bytes() / 4, s));
  gate_.hold(s);
  mark(s);
}

void CudaIntervals::mark(CUstream s) {
  if (marks_ == events_.size()) events_.push_back(make_event());
  XR_CU_CHECK(cuEventRecord(events_[marks_++].get(), s));
}

std::vector<double> CudaIntervals::finish(CUstream s) {
  gate_.release();
  wait_for_stream(s, 20, "a timed call");
  gate_.check();
  std::vector<double> ms;
  for (std::size_t i = 1; i < marks_; ++i) {
    float t = 0;
    XR_CU_CHECK(cuEventElapsedTime(&t, events_[i - 1].get(), events_[i].get()));
    ms.push_back(t);
  }
  return ms;
}

void wait_for_stream(CUstream s, double seconds, const char* what) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    const CUresult r = cuStreamQuery(s);
    if (r == CUDA_SUCCESS) return;
    if (r != CUDA_ERROR_NOT_READY) throw_cu_error(r, __FILE__, __LINE__, what);
    if (std::chrono::steady_clock::now() > deadline)
      throw Error(ErrorCategory::device_lost, std::string("cuda: ") + what + " did not finish in " +
                                                  std::to_string(seconds) + " s");
    std::this_thread::yield();
  }
}

}  // namespace xr::onebin
