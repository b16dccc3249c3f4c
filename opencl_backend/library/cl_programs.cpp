#include "cl_programs.hpp"

#include <utility>

#include "cl_check.hpp"
#include "cl_sources.hpp"

namespace xr::opencl {
namespace {

std::string dtype_define(DType t) {
  std::string s(to_string(t));
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return "-DT_" + s;
}

std::string build_log(cl_program program, cl_device_id device) {
  std::size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS)
    return {};
  std::string log(size, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

// The binary of a built program for its one device.
std::string binary_of(cl_program program) {
  std::size_t size = 0;
  XR_CL_CHECK(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr));
  std::string bytes(size, '\0');
  unsigned char* data = reinterpret_cast<unsigned char*>(bytes.data());
  XR_CL_CHECK(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof data, &data, nullptr));
  return bytes;
}

// At most this many lines of a failed build's log reach the error: the first errors are what a
// person acts on.
constexpr std::size_t kLogLines = 20;

std::string first_lines(const std::string& log) {
  std::size_t at = 0;
  for (std::size_t i = 0; i < kLogLines && at != std::string::npos; ++i) {
    at = log.find('\n', at);
    if (at != std::string::npos) ++at;
  }
  return at == std::string::npos ? log : log.substr(0, at) + "...";
}

}  // namespace

Programs::Programs(cl_context context, const DeviceFacts& facts, std::string defines)
    : context_(context),
      facts_(facts),
      defines_(std::move(defines)),
      disk_(KernelCache::from_environment()) {}

std::string Programs::options(const KernelKey& key) const {
  std::string o = "-cl-std=CL1.2 " + dtype_define(key.dtype) +
                  " -DXR_OP=" + std::to_string(static_cast<int>(key.op)) +
                  " -DWG=" + std::to_string(key.workgroup) +
                  " -DUNROLL=" + std::to_string(key.unroll);
  if (key.idx64) o += " -DXR_IDX64";
  if (key.dst_elements) o += " -DXR_DST_ELEMENTS";
  if (facts_.subgroups == SubgroupPath::nvidia_ptx) o += " -DXR_SG_PTX";
  if (!key.defines.empty()) o += " " + key.defines;
  if (!defines_.empty()) o += " " + defines_;
  return o;
}

BuiltProgram Programs::compile(const std::string& source, const std::string& options,
                               const std::string& what) {
  // NVIDIA's compiler reports each kernel's registers and memory in the build log with
  // -cl-nv-verbose (cl_nv_compiler_options): what `inspect` shows.
  const std::string all =
      facts_.has("cl_nv_compiler_options") ? options + " -cl-nv-verbose" : options;
  const std::string key = StableHash()
                              .add(facts_.platform_name)
                              .add(facts_.info.name)
                              .add(facts_.info.driver_version)
                              .add(source)
                              .add(all)
                              .hex();
  BuiltProgram built;
  built.options = all;
  cl_device_id device = facts_.device;
  if (auto binary = disk_.load(key, ".clbin")) {
    const unsigned char* data = reinterpret_cast<const unsigned char*>(binary->data());
    const std::size_t size = binary->size();
    cl_int status = CL_SUCCESS, binary_status = CL_SUCCESS;
    ProgramOwner p(
        clCreateProgramWithBinary(context_, 1, &device, &size, &data, &binary_status, &status));
    if (status == CL_SUCCESS && binary_status == CL_SUCCESS &&
        clBuildProgram(p.get(), 1, &device, all.c_str(), nullptr, nullptr) == CL_SUCCESS) {
      built.program = std::move(p);
      built.log = disk_.load(key, ".log").value_or("");
      built.from_cache = true;
      built.binary_bytes = size;
      return built;
    }
  }
  const char* text = source.c_str();
  built.program =
      ProgramOwner(XR_CL_CREATE(clCreateProgramWithSource(context_, 1, &text, nullptr, status)));
  const cl_int status =
      clBuildProgram(built.program.get(), 1, &device, all.c_str(), nullptr, nullptr);
  built.log = build_log(built.program.get(), device);
  if (status != CL_SUCCESS)
    // A kernel that does not compile, or an option (XR_CL_BUILD_OPTIONS) the compiler refuses.
    throw Error(status == CL_BUILD_PROGRAM_FAILURE || status == CL_INVALID_BUILD_OPTIONS
                    ? ErrorCategory::usage
                    : category_of(status),
                what + " did not build for " + facts_.info.name + " (" + error_name(status) +
                    ", options " + options + "):\n" + first_lines(built.log));
  const std::string binary = binary_of(built.program.get());
  built.binary_bytes = binary.size();
  disk_.store(key, ".clbin", binary);
  disk_.store(key, ".log", built.log);
  return built;
}

const BuiltProgram& Programs::build(const std::string& source, const std::string& options,
                                    const std::string& what) {
  const std::string key = StableHash().add(source).add(options).hex();
  auto& slot = built_[key];
  if (!slot) slot = std::make_unique<BuiltProgram>(compile(source, options, what));
  return *slot;
}

const BuiltProgram& Programs::program(const KernelKey& key) {
  kernel(key);
  return *kernels_.at(key).program;
}

cl_kernel Programs::kernel(const KernelKey& key) {
  Entry& e = kernels_[key];
  if (!e.kernel) {
    e.program = &build(program_source(key.kernel), options(key), "kernel " + key.kernel + ".cl");
    e.kernel =
        KernelOwner(XR_CL_CREATE(clCreateKernel(e.program->program.get(), "xr_main", status)));
  }
  return e.kernel.get();
}

}  // namespace xr::opencl
