// One build of a user's kernel in a language whose kernels name each pass's entry point (CUDA,
// OpenCL C): a single build holds every pass, so XR_PASS is 0, and it is for one set of the ABI's
// macro arguments.
#pragma once

#include <compare>
#include <string>

#include "xreduce/primitive.hpp"
#include "xreduce/user_kernel.hpp"

namespace xr {

// What one build is for (the macros' arguments).
struct UserBuildKey {
  DType data = DType::i32;  // what the pass reads (a reduce's partials: the accumulator)
  DType dtype = DType::i32;
  Op op = Op::sum;
  ScanKind kind = ScanKind::inclusive;
  auto operator<=>(const UserBuildKey&) const = default;
};

// The text the compiler builds for `key`: the ABI's prelude (kernel_prelude), then the file under
// its own name and line numbers.
std::string user_source(const UserKernel& kernel, const UserBuildKey& key);

}  // namespace xr
