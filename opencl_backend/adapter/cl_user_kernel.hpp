// A user's OpenCL C kernel (`--kernel FILE.cl`, core's UserKernel) as built programs: the file
// after the ABI's prelude for one (dtype, op, kind), built by the device's own compiler through
// the library's program cache (kept as program binaries on disk), and each pass's entry point
// checked against the ABI (docs/kernels.md: it exists, takes the ABI's arguments, and the
// declared block fits it and the device) before the first launch. A PTX kernel (`FILE.ptx`) is
// built from its PTX as NVIDIA's OpenCL takes it (cl_user_ptx) and checked the same way.
#pragma once

#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cl_device.hpp"
#include "cl_internal.hpp"
#include "xreduce/compiled.hpp"
#include "xreduce/cpu_fault_guard.hpp"
#include "xreduce/user_build.hpp"
#include "xreduce/user_kernel.hpp"

namespace xr::opencl {

// What one build is for: one program holds every pass (core's UserBuildKey).
using UserProgramKey = UserBuildKey;

// The options every user's kernel is built with; -cl-kernel-arg-info keeps each argument's type
// name, which the ABI check reads (a `float n` has a uint's size).
inline constexpr const char* kUserBuildOptions = "-cl-std=CL1.2 -cl-kernel-arg-info";

// One build of a user's kernel and the kernel object of each of its passes, in pass order.
class UserProgram {
 public:
  // Builds (or loads from the cache) and checks. Error(usage) naming the file: the compiler's
  // messages, a missing entry point, arguments other than the ABI's, a block past the kernel's
  // or the device's limits.
  UserProgram(const Device& device, const UserKernel& kernel, const UserProgramKey& key);
  cl_kernel pass(std::size_t i) const { return passes_.at(i).get(); }
  std::size_t passes() const { return passes_.size(); }
  // What pass `i` compiled into, launched as `groups` work-groups (`inspect`).
  CompiledPass describe(std::size_t i, std::uint64_t groups) const;

 private:
  const Device& device_;
  const UserKernel& kernel_;
  std::unique_ptr<BuiltProgram> ptx_;  // a .ptx kernel's build, its own
  const BuiltProgram* built_;          // ptx_, or owned by the device's program cache
  std::vector<KernelOwner> passes_;
};

// The programs of one variant on one device, built on first use.
class UserPrograms {
 public:
  UserPrograms(std::shared_ptr<Device> device, const UserKernel& kernel)
      : device_(std::move(device)), kernel_(kernel) {}
  UserProgram& get(const UserProgramKey& key);

 private:
  std::shared_ptr<Device> device_;
  const UserKernel& kernel_;
  std::map<UserProgramKey, std::unique_ptr<UserProgram>> programs_;
};

// Why `facts`' device cannot run the element types the kernel claims, in words (f16 needs
// cl_khr_fp16, f64 cl_khr_fp64); empty when it can.
std::string user_kernel_missing(const UserKernel& kernel, const DeviceFacts& facts);

// Builds and checks the first combination the kernel claims, so a bad kernel fails when its
// variant is made, before any measurement.
void compile_first_claim(const std::shared_ptr<Device>& device, const UserKernel& kernel);

// Writes the identity of `op` into [n, n rounded up to whole tiles) of `buffer`, an array of n
// elements of `t` with core's kKernelSlackBytes past them: what a kernel reading its whole last
// tile finds past n. Blocking, outside any timed interval.
void pad_with_identity(const Device& device, cl_mem buffer, DType t, std::uint64_t n, Op op,
                       std::uint64_t tile, std::string_view id);

// A buffer a user's kernel writes (a reduce's partials, a scan's scratch): `bytes`, then core's
// kKernelSlackBytes as every array has, so that a write just past its end lands in memory of its
// own rather than in the driver's (pocl's are the process's heap).
MemOwner make_user_buffer(const Device& device, std::uint64_t bytes);

// What a call of a user's kernel runs under: on a CPU device (pocl), which runs kernels in this
// process, a fault ends the process in one line naming the kernel (core's CpuFaultGuard).
CpuFaultGuard user_call_guard(const Device& device, const UserKernel& kernel);

// Enqueues `kernel` over `groups` work-groups of `block`; its event goes to `first` and to `last`
// where they are given (each its own reference), and it waits for `wait`.
void enqueue_user_pass(cl_command_queue queue, cl_kernel kernel, std::uint64_t groups,
                       std::uint32_t block, std::span<const cl_event> wait, cl_event* first,
                       cl_event* last);

}  // namespace xr::opencl
