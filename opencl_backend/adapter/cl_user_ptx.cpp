#include "cl_user_ptx.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include "xreduce/error.hpp"
#include "xreduce/ptx_module.hpp"

namespace xr::opencl {
namespace {

[[noreturn]] void refuse(const UserKernel& k, const std::string& what) {
  throw Error(ErrorCategory::usage, k.path.string() + ": " + what);
}

std::string abi_params(Primitive primitive) {
  return primitive == Primitive::reduce ? "(.u64 in, .u64 partials, .u32 n)"
                                        : "(.u64 in, .u64 out, .u64 scratch, .u32 n)";
}

// A declaration's words: ".param", its type, any attributes (.ptr, .align 8), its name.
std::vector<std::string> words_of(const std::string& declaration) {
  std::istringstream in(declaration);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// The parameter's name where `declaration` is a scalar of one of `types`; empty where it is not
// (another type, an array or a struct passed by value).
std::string scalar_name(const std::string& declaration, std::initializer_list<const char*> types) {
  const std::vector<std::string> words = words_of(declaration);
  if (words.size() < 3 || words.front() != ".param" || declaration.find('[') != std::string::npos)
    return {};
  for (const char* t : types)
    if (words[1] == t) return words.back();
  return {};
}

// `entry`'s parameters checked against the ABI, its pointers declared .ptr .global.
PtxModule with_global_pointers(const UserKernel& k, PtxModule ptx, const std::string& entry) {
  const std::vector<std::string> params = ptx.params(entry);
  const std::size_t expected = k.primitive == Primitive::reduce ? 3 : 4;
  const std::string abi = "the " + std::string(to_string(k.primitive)) + " ABI's are " +
                          std::to_string(expected) + ", " + abi_params(k.primitive) +
                          " (docs/kernels.md)";
  if (params.size() != expected)
    refuse(k, "entry '" + entry + "' takes " + std::to_string(params.size()) +
                  (params.size() == 1 ? " parameter; " : " parameters; ") + abi);
  for (std::size_t i = 0; i + 1 < expected; ++i) {
    const std::string name = scalar_name(params[i], {".u64", ".b64", ".s64"});
    if (name.empty())
      refuse(k, "entry '" + entry + "' parameter " + std::to_string(i + 1) + " (" + params[i] +
                    ") is not a 64-bit pointer; " + abi);
    ptx = ptx.with_param(entry, i, ".param .u64 .ptr .global .align 4 " + name);
  }
  if (scalar_name(params.back(), {".u32", ".b32", ".s32"}).empty())
    refuse(k, "entry '" + entry + "' parameter " + std::to_string(expected) + " (" + params.back() +
                  ") is not a 32-bit n; " + abi);
  return ptx;
}

}  // namespace

std::string opencl_ptx(const UserKernel& k) {
  PtxModule ptx = [&] {
    try {
      return PtxModule::parse(k.contents);
    } catch (const Error& e) {
      refuse(k, e.what());
    }
  }();
  const std::vector<std::string> entries = ptx.entries();
  for (const KernelPass& pass : k.passes) {
    if (std::find(entries.begin(), entries.end(), pass.entry) == entries.end()) {
      std::string names;
      for (const std::string& e : entries) names += (names.empty() ? "" : ", ") + e;
      refuse(k, "no entry '" + pass.entry + "' (the PTX has: " + (names.empty() ? "none" : names) +
                    "); declare it with entry= or pass=, and define it extern \"C\"");
    }
    ptx = with_global_pointers(k, std::move(ptx), pass.entry);
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
