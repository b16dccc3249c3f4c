#include "cl_programs.hpp"

#include <optional>
#include <random>
#include <utility>

#include "cl_check.hpp"
#include "cl_ptxas.hpp"
#include "cl_quiet_stderr.hpp"
#include "cl_sources.hpp"

namespace xr::opencl {
namespace {

std::string dtype_define(DType t) {
  std::string s(to_string(t));
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return "-DT_" + s;
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

}  // namespace

std::string first_lines(const std::string& log) {
  std::size_t at = 0;
  for (std::size_t i = 0; i < kLogLines && at != std::string::npos; ++i) {
    at = log.find('\n', at);
    if (at != std::string::npos) ++at;
  }
  return at == std::string::npos ? log : log.substr(0, at) + "...";
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

std::pair<ProgramOwner, cl_int> Programs::build_source(const std::string& source,
                                                       const std::string& all,
                                                       CompilerOutput output,
                                                       std::string& log) const {
  const char* text = source.c_str();
  cl_device_id device = facts_.device;
  ProgramOwner program(
      XR_CL_CREATE(clCreateProgramWithSource(context_, 1, &text, nullptr, status)));
  cl_int status = CL_SUCCESS;
  {
    std::optional<QuietStderr> quiet;
    if (output == CompilerOutput::quiet) quiet.emplace();
    status = clBuildProgram(program.get(), 1, &device, all.c_str(), nullptr, nullptr);
  }
  log = build_log(program.get(), device);
  return {std::move(program), status};
}

BuiltProgram Programs::compile(const std::string& source, const std::string& options,
                               const std::string& what, CompilerOutput output) {
  // NVIDIA's compiler reports each kernel's registers and memory in the build log with
  // -cl-nv-verbose (cl_nv_compiler_options): what `inspect` shows.
  const std::string all =
      facts_.has("cl_nv_compiler_options") ? options + " -cl-nv-verbose" : options;
  BuiltProgram built;
  built.options = all;
  built.source = source;
  built.output = output;
  built.disk_key = StableHash()
                       .add(facts_.platform_name)
                       .add(facts_.info.name)
                       .add(facts_.info.driver_version)
                       .add(source)
                       .add(all)
                       .hex();
  cl_device_id device = facts_.device;
  if (auto entry = disk_.load(built.disk_key, ".clbin", {"binary", "log"})) {
    const std::string& binary = entry->at("binary");
    const unsigned char* data = reinterpret_cast<const unsigned char*>(binary.data());
    const std::size_t size = binary.size();
    cl_int status = CL_SUCCESS, binary_status = CL_SUCCESS;
    ProgramOwner p(
        clCreateProgramWithBinary(context_, 1, &device, &size, &data, &binary_status, &status));
    if (status == CL_SUCCESS && binary_status == CL_SUCCESS &&
        clBuildProgram(p.get(), 1, &device, all.c_str(), nullptr, nullptr) == CL_SUCCESS) {
      built.program = std::move(p);
      built.log = entry->at("log");
      built.from_cache = true;
      built.binary_bytes = size;
      built.binary = binary;
      return built;
    }
    disk_.discard(built.disk_key, ".clbin", "the driver refused its program binary");
  }
  auto [program, status] = build_source(source, all, output, built.log);
  built.program = std::move(program);
  if (status != CL_SUCCESS)
    // A kernel that does not compile, or an option (XR_CL_BUILD_OPTIONS) the compiler refuses.
    throw Error(status == CL_BUILD_PROGRAM_FAILURE || status == CL_INVALID_BUILD_OPTIONS
                    ? ErrorCategory::usage
                    : category_of(status),
                what + " did not build for " + facts_.info.name + " (" + error_name(status) +
                    ", options " + options + "):\n" + first_lines(built.log));
  built.binary = binary_of(built.program.get());
  built.binary_bytes = built.binary.size();
  disk_.store(built.disk_key, ".clbin", {{"binary", built.binary}, {"log", built.log}});
  return built;
}

const std::string& Programs::log_with_ptxas(const BuiltProgram& built) {
  if (!facts_.has("cl_nv_compiler_options") || has_ptxas_lines(built.log) || built.ptxas_rebuilt)
    return built.log;
  BuiltProgram& kept = *built_.at(built.memo_key);
  kept.ptxas_rebuilt = true;
  // The name is new to every cache: ptxas runs, and logs every kernel of the program.
  std::random_device entropy;
  const std::string nonce =
      StableHash().add(std::to_string(entropy())).add(std::to_string(entropy())).hex();
  std::string log;
  const auto [program, status] =
      build_source(built.source + "\n__kernel void xr_ptxas_" + nonce + "(void) {}\n",
                   built.options, built.output, log);
  if (status != CL_SUCCESS || !has_ptxas_lines(log)) return kept.log;
  kept.log = std::move(log);
  disk_.store(kept.disk_key, ".clbin", {{"binary", kept.binary}, {"log", kept.log}});
  return kept.log;
}

const BuiltProgram& Programs::build(const std::string& source, const std::string& options,
                                    const std::string& what, CompilerOutput output) {
  const std::string key = StableHash().add(source).add(options).hex();
  auto& slot = built_[key];
  if (!slot) {
    slot = std::make_unique<BuiltProgram>(compile(source, options, what, output));
    slot->memo_key = key;
  }
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
