#include "user_compile.hpp"

#include <nvrtc.h>

#include <cstdlib>
#include <memory>
#include <regex>

#include "xreduce/error.hpp"

#ifndef XR_CUDA_TOOLKIT_INCLUDE_DIR
#define XR_CUDA_TOOLKIT_INCLUDE_DIR ""
#endif

namespace xr::cuda {
namespace {

struct ProgramDestroy {
  void operator()(nvrtcProgram p) const noexcept { nvrtcDestroyProgram(&p); }
};
using Program = std::unique_ptr<_nvrtcProgram, ProgramDestroy>;

// NVRTC's failures other than the user's compile errors (out of memory, a bad option): the
// toolkit's, not the file's.
void check(nvrtcResult r, const char* what) {
  if (r != NVRTC_SUCCESS)
    throw Error(
        r == NVRTC_ERROR_OUT_OF_MEMORY ? ErrorCategory::out_of_memory : ErrorCategory::unsupported,
        std::string("NVRTC: ") + what + " failed: " + nvrtcGetErrorString(r));
}

std::string program_log(nvrtcProgram p) {
  std::size_t size = 0;
  check(nvrtcGetProgramLogSize(p, &size), "nvrtcGetProgramLogSize");
  std::string log(size, '\0');
  if (size) check(nvrtcGetProgramLog(p, log.data()), "nvrtcGetProgramLog");
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

bool holds_fp16_header(const std::filesystem::path& dir) {
  std::error_code ec;
  return !dir.empty() && std::filesystem::is_regular_file(dir / "cuda_fp16.h", ec);
}

}  // namespace

std::filesystem::path cuda_include_dir() {
  for (const char* var : {"CUDA_PATH", "CUDA_HOME"})
    if (const char* root = std::getenv(var); root && *root)
      if (const auto dir = std::filesystem::path(root) / "include"; holds_fp16_header(dir))
        return dir;
  for (const char* dir : {XR_CUDA_TOOLKIT_INCLUDE_DIR, "/usr/local/cuda/include"})
    if (holds_fp16_header(dir)) return dir;
  return {};
}

NvrtcSetup nvrtc_setup(int cc_major, int cc_minor) {
  int major = 0, minor = 0;
  check(nvrtcVersion(&major, &minor), "nvrtcVersion");
  NvrtcSetup setup;
  setup.version = "NVRTC " + std::to_string(major) + "." + std::to_string(minor);
  setup.options = {"--gpu-architecture=sm_" + std::to_string(cc_major) + std::to_string(cc_minor),
                   "-std=c++17", "-lineinfo"};
  if (const auto dir = cuda_include_dir(); !dir.empty())
    setup.options.push_back("--include-path=" + dir.string());
  return setup;
}

std::string gcc_style_locations(const std::string& log) {
  static const std::regex location(R"(\(([0-9]+)\): )");
  return std::regex_replace(log, location, ":$1: ");
}

std::string decimal_sizes(const std::string& log) {
  // ptxas: "uses too much shared data (0x3d0900 bytes, 0xc000 max)".
  static const std::regex sizes(R"(\(0x([0-9a-fA-F]+) bytes, 0x([0-9a-fA-F]+) max\))");
  std::string out;
  auto at = log.cbegin();
  for (std::sregex_iterator m(log.begin(), log.end(), sizes), end; m != end; ++m) {
    out.append(at, (*m)[0].first);
    out += '(';
    out += std::to_string(std::stoull((*m)[1].str(), nullptr, 16));
    out += " bytes, ";
    out += std::to_string(std::stoull((*m)[2].str(), nullptr, 16));
    out += " max)";
    at = (*m)[0].second;
  }
  out.append(at, log.cend());
  return out;
}

std::string nvrtc_compile(const std::filesystem::path& path, const std::string& source,
                          const NvrtcSetup& setup) {
  nvrtcProgram raw = nullptr;
  check(nvrtcCreateProgram(&raw, source.c_str(), path.string().c_str(), 0, nullptr, nullptr),
        "nvrtcCreateProgram");
  const Program program(raw);
  std::vector<const char*> options;
  for (const std::string& o : setup.options) options.push_back(o.c_str());
  const nvrtcResult r = nvrtcCompileProgram(raw, static_cast<int>(options.size()), options.data());
  if (r == NVRTC_ERROR_COMPILATION)
    throw Error(ErrorCategory::usage, path.string() + ": does not compile: " +
                                          decimal_sizes(gcc_style_locations(program_log(raw))));
  check(r, "nvrtcCompileProgram");
  std::size_t size = 0;
  check(nvrtcGetCUBINSize(raw, &size), "nvrtcGetCUBINSize");
  std::string cubin(size, '\0');
  check(nvrtcGetCUBIN(raw, cubin.data()), "nvrtcGetCUBIN");
  return cubin;
}

}  // namespace xr::cuda
