// A user's GLSL, HLSL or SPIR-V kernel (`--kernel`, core's UserKernel) as modules the pipelines
// can run: compiled by libshaderc with the ABI's prelude for one (dtype, op, kind) and pass,
// validated by spirv-val, checked against the ABI (docs/kernels.md: entry point, local size,
// bindings, push constants), and kept on disk (KernelCache) and in memory.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "xreduce/user_kernel.hpp"

namespace xr::shaders {
class ShaderCompiler;
}

namespace xr::vulkan {

struct UserModule {
  std::string name;  // unique per kernel, pass and macros: the pipelines' key
  std::vector<std::uint32_t> words;
  std::string entry;
  std::uint32_t workgroup = 0;  // local size x, as compiled or as set through constant 0
};

// The device's limits a user's kernel is checked against before a pipeline is made of it: a
// kernel past them is refused (Error(usage), naming the file, the limit and the value), never run
// (the Vulkan spec leaves such a dispatch undefined: a GPU may hang on it, a CPU device may run
// it and sum wrong; docs/results/H200/tuning-notes.md).
struct UserKernelLimits {
  std::string device;                  // its name, for the message
  std::uint32_t max_shared_bytes = 0;  // maxComputeSharedMemorySize
  std::uint32_t max_invocations = 0;   // maxComputeWorkGroupInvocations
  std::uint32_t max_size_x = 0;        // maxComputeWorkGroupSize[0]
  std::uint32_t max_push_bytes = 0;    // maxPushConstantsSize
};

// What one compile is for: the pass of the kernel and the macros' arguments.
struct UserModuleKey {
  std::size_t pass = 0;
  DType data = DType::i32;  // what the pass reads (a reduce's partials: the accumulator)
  DType dtype = DType::i32;
  Op op = Op::sum;
  ScanKind kind = ScanKind::inclusive;
};

class UserModules {
 public:
  UserModules();
  ~UserModules();
  UserModules(const UserModules&) = delete;
  UserModules& operator=(const UserModules&) = delete;

  // The module of `key`, compiled and checked on first use. Error(usage) with the compiler's
  // messages, the ABI mismatch or the limit of `limits` it is past, naming the file.
  const UserModule& get(const UserKernel& kernel, const UserModuleKey& key,
                        const UserKernelLimits& limits);

 private:
  // `optimize` false: a build that keeps the kernel's names, for a message (never cached).
  std::vector<std::uint32_t> compile(const UserKernel& kernel, const UserModuleKey& key,
                                     bool optimize = true);
  std::unique_ptr<shaders::ShaderCompiler> compiler_;  // made on first compile
  std::map<std::string, std::unique_ptr<UserModule>> modules_;
};

}  // namespace xr::vulkan
