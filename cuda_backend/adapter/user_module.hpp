// A user's CUDA kernel (`--kernel FILE.cu|.ptx|.cubin`, core's UserKernel) as loaded kernels:
// the .cu compiled by NVRTC for the device's architecture with the ABI's prelude for one (dtype,
// op, kind), kept on disk (KernelCache) and in memory; .ptx (JIT-compiled by the driver) and
// .cubin loaded as they are. Each pass's entry point is looked up and checked against the ABI
// (docs/kernels.md: its parameters, and whether the block size fits its registers) before the
// first launch.
#pragma once

#include <cuda_runtime_api.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "context.hpp"
#include "xreduce/user_build.hpp"
#include "xreduce/user_kernel.hpp"

namespace xr::cuda {

// What one compile is for: one module holds every pass (core's UserBuildKey).
using UserModuleKey = UserBuildKey;

struct LibraryUnload {
  void operator()(cudaLibrary_t l) const noexcept { XR_CUDA_CHECK_NOTHROW(cudaLibraryUnload(l)); }
};

// A loaded module and the kernel of each pass, in the kernel's pass order.
class UserModule {
 public:
  UserModule(cudaLibrary_t library, std::vector<cudaKernel_t> passes)
      : library_(library), passes_(std::move(passes)) {}
  cudaKernel_t pass(std::size_t i) const { return passes_.at(i); }
  // Whether a launch of it has been enqueued: a module's first launch loads it into the context
  // (lazy loading), which must not wait behind a held timing gate (timing.hpp).
  bool launched() const { return launched_; }
  void mark_launched() { launched_ = true; }

 private:
  std::unique_ptr<CUlib_st, LibraryUnload> library_;
  std::vector<cudaKernel_t> passes_;
  bool launched_ = false;
};

class UserModules {
 public:
  // The module of `key` for the device of `limits`, compiled and loaded on first use.
  // Error(usage) naming the file with the compiler's messages, a load failure or the ABI
  // mismatch.
  UserModule& get(const UserKernel& kernel, const UserModuleKey& key, const DeviceLimits& limits);

 private:
  std::map<std::string, std::unique_ptr<UserModule>> modules_;
};

// What is loaded for `key` on an sm_<cc_major><cc_minor> device: a .cu's cubin (from the kernel
// cache, else compiled by NVRTC and stored there), or a .ptx's or .cubin's own bytes. Needs no
// device. Error(usage) with the compiler's messages.
std::string user_image(const UserKernel& kernel, const UserModuleKey& key, int cc_major,
                       int cc_minor);

// What the runtime says of a loaded kernel (cudaFuncGetAttributes) that the device's limits bind.
struct KernelResources {
  int registers = 0;              // per thread
  std::size_t static_shared = 0;  // bytes of __shared__ arrays
  int max_threads = 0;            // per block, as its registers and __launch_bounds__ allow
};
// Empty when blocks of `block` threads of a kernel of `r` fit the device of `dev`, else one
// clause naming what is past which limit, with both numbers (the file's name goes before it).
std::string block_refusal(const std::string& entry, const KernelResources& r, std::uint32_t block,
                          const DeviceLimits& dev);

// The parameter sizes in bytes the ABI fixes for a pass of `primitive`: reduce (const XR_T* in,
// XR_ACC* partials, unsigned n), scan (const XR_T* in, XR_T* out, unsigned char* scratch,
// unsigned n).
std::vector<std::size_t> abi_parameter_sizes(Primitive primitive);

}  // namespace xr::cuda
