#include "cl_user_ptx.hpp"

#include <vector>

#include "xreduce/error.hpp"
#include "xreduce/user_ptx.hpp"

namespace xr::opencl {
namespace {

[[noreturn]] void refuse(const UserKernel& k, const std::string& what) {
  throw Error(ErrorCategory::usage, k.path.string() + ": " + what);
}

}  // namespace

std::string opencl_ptx(const UserKernel& k) {
  PtxModule ptx = checked_user_ptx(k);
  for (const KernelPass& pass : k.passes) {
    const std::vector<std::string> params = ptx.params(pass.entry);
    for (std::size_t i = 0; i < ptx_pointer_params(k.primitive); ++i)
      ptx = ptx.with_param(pass.entry, i,
                           ".param .u64 .ptr .global .align 4 " + ptx_param_name(params[i]));
  }
  return ptx.text();
}

std::string ptx_unbuildable_reason(const DeviceFacts& facts) {
  if (facts.builds_ptx()) return {};
  return "PTX runs on NVIDIA's OpenCL, which takes it as a program binary; " + facts.info.name +
         " is on " + facts.platform_name + ", which builds OpenCL C alone";
}

BuiltProgram build_user_ptx(const Device& device, const UserKernel& k) {
  const DeviceFacts& f = device.facts();
  BuiltProgram built;
  built.source = opencl_ptx(k);
  // NVIDIA's driver runs ptxas on the PTX; -cl-nv-verbose logs its registers and memory.
  built.options = f.has("cl_nv_compiler_options") ? "-cl-nv-verbose" : "";
  const auto* bytes = reinterpret_cast<const unsigned char*>(built.source.data());
  const std::size_t size = built.source.size();
  cl_device_id id = f.device;
  cl_int binary_status = CL_SUCCESS;
  cl_int status = CL_SUCCESS;
  built.program = ProgramOwner(
      clCreateProgramWithBinary(device.context(), 1, &id, &size, &bytes, &binary_status, &status));
  if (status == CL_INVALID_BINARY || binary_status == CL_INVALID_BINARY)
    refuse(k, f.info.name +
                  "'s OpenCL does not take the PTX as a program binary "
                  "(clCreateProgramWithBinary: CL_INVALID_BINARY)");
  check_call(status, __FILE__, __LINE__, "clCreateProgramWithBinary");
  status = clBuildProgram(built.program.get(), 1, &id, built.options.c_str(), nullptr, nullptr);
  built.log = build_log(built.program.get(), id);
  if (status != CL_SUCCESS)
    refuse(k, "does not build for " + f.info.name + " (clBuildProgram: " + error_name(status) +
                  "): " + first_lines(built.log));
  built.binary = built.source;
  built.binary_bytes = size;
  built.output = CompilerOutput::quiet;
  return built;
}

}  // namespace xr::opencl
