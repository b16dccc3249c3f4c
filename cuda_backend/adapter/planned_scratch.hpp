// What reduce's and scan's variants both keep between calls: one planned call (the library's
// Reduce or Scan, or a user kernel's plan) and its zeroed scratch, remade only when (n, dtype,
// op) changes, so grid choice, occupancy and CUB's temp-storage query stay out of the timed
// region; and the count of launches on that scratch (a plan's first launch loads modules, so it
// is not gated).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "context.hpp"
#include "xreduce/types.hpp"

namespace xr::cuda {

// Call: anything with scratch_size(), the bytes of scratch it needs.
template <class Call>
class PlannedScratch {
 public:
  // Makes the call with `make()` and fresh zeroed scratch unless the current one is for
  // (t, op, n). A failed plan or allocation leaves none behind.
  template <class Make>
  void ensure(Context& ctx, DType t, Op op, std::size_t n, Make&& make) {
    if (call_ && n_ == n && t_ == t && op_ == op) return;
    call_.reset();
    scratch_ = DeviceBuffer();
    Call call = make();
    scratch_ = ctx.zeroed(call.scratch_size());
    call_.emplace(std::move(call));
    n_ = n;
    t_ = t;
    op_ = op;
    launches_ = 0;
  }

  Call& call() { return *call_; }
  const Call& call() const { return *call_; }
  void* scratch() const { return scratch_.get(); }
  // Launches enqueued on this scratch so far; counted by `launched()`.
  std::uint64_t launches() const { return launches_; }
  void launched() { ++launches_; }

 private:
  std::optional<Call> call_;
  std::size_t n_ = 0;
  DType t_{};
  Op op_{};
  DeviceBuffer scratch_;
  std::uint64_t launches_ = 0;
};

}  // namespace xr::cuda
