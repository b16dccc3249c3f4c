// Users' kernels as CUDA variants (`--kernel FILE.cu|.ptx|.cubin`, docs/kernels.md): made by
// the backend like its table's variants, timed and checked the same way.
#pragma once

#include <memory>

#include "context.hpp"
#include "user_module.hpp"
#include "xreduce/backend.hpp"
#include "xreduce/user_kernel.hpp"

namespace xr::cuda {

// The kernel and its modules outlive the variants made from them (the backend keeps both).
std::unique_ptr<Reducer> make_user_reducer(std::shared_ptr<Context> ctx, const UserKernel& kernel,
                                           UserModules& modules);
std::unique_ptr<Scanner> make_user_scanner(std::shared_ptr<Context> ctx, const UserKernel& kernel,
                                           UserModules& modules);

// Compiles, loads and checks the first combination the kernel claims, so a bad kernel fails when
// its variant is made, before any measurement.
void compile_first_claim(const UserKernel& kernel, UserModules& modules,
                         const DeviceLimits& limits);

}  // namespace xr::cuda
