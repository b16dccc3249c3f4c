#include "cuda_clock.hpp"

#include "timing.hpp"

namespace xr::cuda {

CudaClock::CudaClock(std::shared_ptr<Context> ctx)
    : ctx_((ctx->activate(), std::move(ctx))), clock_() {}

double CudaClock::read_mhz() {
  ctx_->activate();
  return clock_.read_mhz(ctx_->stream());
}

void CudaClock::warm(double ms) {
  ctx_->activate();
  clock_.spin(ctx_->stream(), ms * 1e3);
  wait_for_stream(ctx_->stream(), ctx_->knobs().timeout);
}

}  // namespace xr::cuda
