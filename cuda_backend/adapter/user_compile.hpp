// A user's CUDA C++ kernel (`--kernel FILE.cu`) compiled at run time by NVRTC into a cubin for
// one device's own architecture, with the ABI's prelude (core's kernel_prelude) in front of the
// file's text. No device is needed to compile: the unit tests compile here, the GPU loads.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace xr::cuda {

// What one NVRTC compile is given besides the source: the options (architecture, dialect,
// include path) and the compiler's version, all part of a cached cubin's key.
struct NvrtcSetup {
  std::vector<std::string> options;
  std::string version;  // "NVRTC 13.0"
};

// The options for sm_<cc_major><cc_minor>: the cubin NVRTC gives is that architecture's machine
// code, as nvcc -arch=sm_XY makes. -lineinfo lets compute-sanitizer name the user's lines; the
// CUDA include directory (for cuda_fp16.h and cuda_bf16.h) is found at run time (cuda_include_dir).
NvrtcSetup nvrtc_setup(int cc_major, int cc_minor);

// The toolkit's include directory NVRTC needs for the 16-bit types' headers: $CUDA_PATH/include,
// $CUDA_HOME/include, the directory of the toolkit xreduce was built with, /usr/local/cuda/include;
// the first that holds cuda_fp16.h. Empty when none does (then only f16/bf16 kernels fail, with
// the compiler's "cannot open source file" naming the header).
std::filesystem::path cuda_include_dir();

// Compiles `source` (the prelude, then `#line 1 "<path>"`, then the file) as `path` and returns
// the cubin. Error(usage) "PATH: does not compile: " with the compiler's log, its locations
// spelled PATH:LINE as the other front ends spell them.
std::string nvrtc_compile(const std::filesystem::path& path, const std::string& source,
                          const NvrtcSetup& setup);

// NVRTC's "FILE(LINE): " locations as "FILE:LINE: ".
std::string gcc_style_locations(const std::string& log);
// ptxas's sizes in hexadecimal ("(0x3d0900 bytes, 0xc000 max)") in decimal, as every other
// limit message of xreduce gives them.
std::string decimal_sizes(const std::string& log);

}  // namespace xr::cuda
