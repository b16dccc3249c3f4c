// What reduce's and scan's variants both keep between calls: one plan and its zeroed scratch,
// remade only when (n, dtype, op) changes, so grid choice, occupancy and CUB's temp-storage query
// stay out of the timed region; and the count of launches on that scratch (a plan's first launch
// loads modules, so it is not gated; scan's look-back tags its status words with it).
#pragma once

#include <cstddef>
#include <cstdint>
#include "context.hpp"
#include "xreduce/types.hpp"

namespace xr::cuda {

template <class Plan>
class PlannedScratch {
 public:
  // Makes the plan with `make()` and fresh zeroed scratch unless the current one is for
  // (t, op, n). A failed allocation leaves no plan behind.
  template <class MakePlan>
  void ensure(Context& ctx, DType t, Op op, std::size_t n, MakePlan&& make) {
    if (valid_ && plan_.n == n && plan_.dtype == t && plan_.op == op) return;
    valid_ = false;
    scratch_ = DeviceBuffer();
    plan_ = make();
    scratch_ = ctx.zeroed(plan_.scratch_bytes);
    launches_ = 0;
    valid_ = true;
  }

  const Plan& plan() const { return plan_; }
  void* scratch() const { return scratch_.get(); }
  // Launches enqueued on this scratch so far; counted by `launched()`.
  std::uint64_t launches() const { return launches_; }
  void launched() { ++launches_; }

 private:
  Plan plan_{};
  bool valid_ = false;
  DeviceBuffer scratch_;
  std::uint64_t launches_ = 0;
};

}  // namespace xr::cuda
