// Users' CUDA kernels as NVRTC compiles them (cuda_backend/adapter/user_module, user_compile):
// white-box tests that need no GPU. Every .cu example compiles for sm_90 for every dtype, op and
// scan kind it claims, through the same prelude the backend puts in front; the ABI's macros compile
// for every dtype; a compile error names the user's file and line; the kernel cache is used.
// Loading and the ABI's parameter check need a device (bench/gpu/validate runs them).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "user_compile.hpp"
#include "user_module.hpp"
#include "xreduce/error.hpp"
#include "xreduce/user_kernel.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kExamples = XR_KERNEL_EXAMPLES;
const fs::path kBad = XR_BAD_KERNELS;
constexpr int kMajor = 9, kMinor = 0;  // the GPU machine's Hopper

// A temporary directory, made the kernel cache while it lives (XR_KERNEL_CACHE).
class CacheDir {
 public:
  CacheDir() {
    std::string pattern = (fs::temp_directory_path() / "xreduce-cuda-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
    setenv("XR_KERNEL_CACHE", (path_ / "cache").c_str(), 1);
  }
  CacheDir(const CacheDir&) = delete;
  CacheDir& operator=(const CacheDir&) = delete;
  ~CacheDir() {
    unsetenv("XR_KERNEL_CACHE");
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name) << text;
    return path_ / name;
  }
  std::size_t cached() const {
    std::error_code ec;
    if (!fs::exists(path_ / "cache", ec)) return 0;
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(path_ / "cache"), {}));
  }

 private:
  fs::path path_;
};

bool is_elf(const std::string& image) {
  return image.size() > 4 && image.compare(0, 4,
                                           "\x7f"
                                           "ELF") == 0;
}

// Compiles `k` for every dtype, op and kind it claims; returns the number of cubins.
int compile_every_claim(const xr::UserKernel& k) {
  int compiled = 0;
  for (xr::DType t : k.dtypes)
    for (xr::Op op : k.ops)
      for (xr::ScanKind kind : k.kinds) {
        CAPTURE(k.path.string(), xr::to_string(t), xr::to_string(op), xr::to_string(kind));
        const xr::cuda::UserModuleKey first{t, t, op, kind};
        CHECK(is_elf(xr::cuda::user_image(k, first, kMajor, kMinor)));
        ++compiled;
        if (k.primitive == xr::Primitive::reduce && xr::accumulator_of(t) != t) {
          const xr::cuda::UserModuleKey rest{xr::accumulator_of(t), t, op, kind};
          CHECK(is_elf(xr::cuda::user_image(k, rest, kMajor, kMinor)));
          ++compiled;
        }
      }
  return compiled;
}

// The one usage line the compile of bad kernel `name` (its first claim) is refused with.
std::string compile_refusal(const char* name) {
  const xr::UserKernel k = xr::load_user_kernel(kBad / name);
  try {
    xr::cuda::user_image(k, {xr::DType::i32, xr::DType::i32}, kMajor, kMinor);
  } catch (const xr::Error& e) {
    INFO(e.what());
    CHECK(e.category() == xr::ErrorCategory::usage);
    return e.what();
  }
  FAIL(name << " compiled");
  return {};
}

}  // namespace

TEST_CASE("every CUDA example compiles for every claim", "[kernels][cuda]") {
  CacheDir cache;
  for (const char* name : {"block_reduce.cu", "seed000_interleaved.cu", "seed002_warp_shuffle.cu",
                           "seed001_bit.cu", "rts_hillis_steele.cu"}) {
    const xr::UserKernel k = xr::load_user_kernel(kExamples / name);
    const auto halves = std::count(k.dtypes.begin(), k.dtypes.end(), xr::DType::f16) +
                        std::count(k.dtypes.begin(), k.dtypes.end(), xr::DType::bf16);
    // A reduce of f16 or bf16 compiles a second module for its float partials.
    const auto partials = k.primitive == xr::Primitive::reduce ? halves * k.ops.size() : 0;
    CHECK(compile_every_claim(k) ==
          static_cast<int>(k.dtypes.size() * k.ops.size() * k.kinds.size() + partials));
  }
}

TEST_CASE("the ABI's macros compile for every dtype, op and kind", "[kernels][cuda]") {
  CacheDir cache;
  // A reduce that uses every macro of docs/kernels.md once.
  const fs::path path = cache.write("macros.cu", R"(
// xreduce: dtypes=i32,u32,f32,i64,u64,f64,f16,bf16 ops=sum,min,max block=128 items=2
extern "C" __global__ void xr_reduce(const XR_T* in, XR_ACC* partials, unsigned int n) {
  __shared__ XR_ACC s[XR_BLOCK];
  XR_ACC acc = XR_IDENTITY;
  for (unsigned i = 0; i < XR_ITEMS; ++i)
    acc = XR_OP(acc, XR_TO_ACC(in[blockIdx.x * XR_TILE + i * XR_BLOCK + threadIdx.x]));
  s[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned k = XR_BLOCK / 2; k > 0; k /= 2) {
    if (threadIdx.x < k) s[threadIdx.x] = XR_OP(s[threadIdx.x], s[threadIdx.x + k]);
    __syncthreads();
  }
  if (XR_EXCLUSIVE + XR_PASS == 0 && threadIdx.x == 0) partials[blockIdx.x] = s[0];
  (void)XR_FROM_ACC(acc);  // for f16 and bf16: the header of their type is included
}
)");
  const xr::UserKernel k = xr::load_user_kernel(path);
  REQUIRE(k.block == 128);
  CHECK(compile_every_claim(k) == 8 * 3 + 2 * 3);  // f16 and bf16 also compile their partials
}

TEST_CASE("a CUDA compile error names the file and line", "[kernels][cuda][usage]") {
  CacheDir cache;
  const std::string message = compile_refusal("syntax.cu");
  CHECK_THAT(message, Catch::Contains("syntax.cu: does not compile:"));
  CHECK_THAT(message, Catch::Contains("syntax.cu:5: error: identifier \"undeclared\""));
  CHECK(cache.cached() == 0);  // nothing stored for a kernel that did not compile
}

// The GPU recipe's bad kernels (bench/gpu/kernels) must compile, so that on the GPU each fails
// the way it is meant to: at the ABI check, the entry point, the timeout or the fault.
TEST_CASE("the bad kernels of the GPU recipe compile", "[kernels][cuda]") {
  CacheDir cache;
  for (const char* name : {"params.cu", "mangled.cu", "spin.cu", "oob.cu", "registers.cu"}) {
    CAPTURE(name);
    CHECK(compile_every_claim(xr::load_user_kernel(kBad / name)) == 1);
  }
}

TEST_CASE("a compiled CUDA kernel is kept in the cache and reused", "[kernels][cuda]") {
  CacheDir cache;
  const xr::UserKernel k = xr::load_user_kernel(kExamples / "seed002_warp_shuffle.cu");
  const xr::cuda::UserModuleKey key{xr::DType::i32, xr::DType::i32};
  const std::string first = xr::cuda::user_image(k, key, kMajor, kMinor);
  REQUIRE(cache.cached() == 1);
  CHECK(xr::cuda::user_image(k, key, kMajor, kMinor) == first);
  CHECK(cache.cached() == 1);
  // Another architecture is another compile.
  CHECK(is_elf(xr::cuda::user_image(k, key, 8, 0)));
  CHECK(cache.cached() == 2);
}

TEST_CASE("NVRTC's locations are spelled FILE:LINE", "[kernels][cuda]") {
  CHECK(xr::cuda::gcc_style_locations("a.cu(12): error: x\nb/c.cu(3): warning: y") ==
        "a.cu:12: error: x\nb/c.cu:3: warning: y");
}

TEST_CASE("prebuilt CUDA modules are loaded as they are", "[kernels][cuda]") {
  CacheDir cache;
  const fs::path path = cache.write("k.ptx", "// xreduce: dtypes=f32\n.version 8.0\n");
  const xr::UserKernel k = xr::load_user_kernel(path);
  CHECK(xr::cuda::user_image(k, {xr::DType::f32, xr::DType::f32}, kMajor, kMinor) == k.contents);
  CHECK(cache.cached() == 0);
}

// Past the device's limits, without a device: what the compiler refuses (static shared memory
// past 48 KiB), and the check every loaded kernel goes through (cudaFuncGetAttributes against
// the device's limits) on hand-computed resources.
TEST_CASE("a kernel past the shared-memory limit is refused by its compile, in decimal",
          "[kernels][cuda][usage]") {
  CacheDir cache;
  const std::string message = compile_refusal("shared_huge.cu");
  CHECK_THAT(message, Catch::Contains("shared_huge.cu: does not compile:"));
  CHECK_THAT(message, Catch::Contains("uses too much shared data (4000000 bytes, 49152 max)"));
  CHECK(cache.cached() == 0);
  CHECK(xr::cuda::decimal_sizes("f uses too much shared data (0x3d0900 bytes, 0xc000 max)") ==
        "f uses too much shared data (4000000 bytes, 49152 max)");
  CHECK(xr::cuda::decimal_sizes("no sizes (0x12 here)") == "no sizes (0x12 here)");
}

TEST_CASE("blocks past the registers, shared memory or threads of a device are refused",
          "[kernels][cuda][usage]") {
  xr::cuda::DeviceLimits h200;  // as cudaGetDeviceProperties gives them for sm_90
  h200.max_threads_per_block = 1024;
  h200.shared_per_block = 49152;
  h200.regs_per_block = 65536;
  using R = xr::cuda::KernelResources;
  CHECK(xr::cuda::block_refusal("k", R{32, 1024, 1024}, 256, h200).empty());
  CHECK(xr::cuda::block_refusal("k", R{64, 0, 1024}, 1024, h200).empty());  // 65536 exactly
  // bad/registers.cu: 80 registers per thread (ptxas -v for sm_90) at block=1024.
  CHECK(xr::cuda::block_refusal("xr_reduce", R{80, 4096, 768}, 1024, h200) ==
        "kernel 'xr_reduce' uses 80 registers per thread: block=1024 needs 81920; this device "
        "has 65536 per block (regsPerBlock), so it runs at most 768 threads per block");
  CHECK(xr::cuda::block_refusal("k", R{32, 0, 128}, 256, h200) ==
        "kernel 'k' runs at most 128 threads per block (its __launch_bounds__, or 32 registers "
        "per thread), not block=256");
  CHECK(xr::cuda::block_refusal("k", R{32, 49153, 1024}, 256, h200) ==
        "kernel 'k' uses 49153 bytes of static shared memory; this device allows 49152 per "
        "block (sharedMemPerBlock)");
  CHECK(xr::cuda::block_refusal("k", R{32, 0, 1024}, 2048, h200) ==
        "block=2048 is past this device's 1024 threads per block (maxThreadsPerBlock)");
}
