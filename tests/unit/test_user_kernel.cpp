// Core's description of a user's kernel (xreduce/user_kernel.hpp): declarations and their
// errors, the passes' grids and a reduce's levels, the scratch and the padding, the prelude; and
// the device timeout's knob (xreduce/device_timeout.hpp).
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <utility>

#include "test_support.hpp"
#include "xreduce/device_timeout.hpp"
#include "xreduce/ptx_module.hpp"
#include "xreduce/user_kernel.hpp"

using xr::DType;
using xr::ErrorCategory;
using xr::KernelGrid;
using xrtest::require_error;
using xrtest::TempDir;
using xrtest::write_bytes;

namespace {

xr::UserKernel declared(const TempDir& dir, const std::string& name, const std::string& text,
                        std::string_view spec = {}) {
  write_bytes(dir / name, text);
  return xr::load_user_kernel(dir / name, spec);
}

}  // namespace

TEST_CASE("user kernel: declarations from the file and --kernel-spec", "[unit][kernel]") {
  TempDir dir;
  const xr::UserKernel k = declared(
      dir, "k.cu",
      "// xreduce: primitive=scan dtypes=i32,f32 ops=sum,max kinds=inclusive,exclusive\n"
      "// xreduce: block=128 items=4 grid=96 pass=up:tiles pass=top:one scratch-per-tile=8\n",
      "nondeterministic");
  CHECK(k.id == "user/k");
  CHECK(k.primitive == xr::Primitive::scan);
  CHECK(k.block == 128);
  CHECK(k.items == 4);
  CHECK(k.max_groups == 96);
  CHECK(k.dtypes == std::vector<DType>{DType::i32, DType::f32});
  REQUIRE(k.passes.size() == 2);
  CHECK(k.passes[1].entry == "top");
  CHECK(k.passes[1].grid == KernelGrid::one);
  CHECK_FALSE(k.deterministic);
  // A CUDA reduce with nothing declared: 256 threads, entry xr_reduce.
  const xr::UserKernel r = declared(dir, "r.cu", "");
  CHECK(r.block == 256);
  CHECK(r.passes.front().entry == "xr_reduce");
}

TEST_CASE("user kernel: bad declarations are one usage error naming file and line",
          "[unit][kernel]") {
  TempDir dir;
  require_error([&] { declared(dir, "a.comp", "\n// xreduce: grid=0\n"); }, ErrorCategory::usage,
                "a.comp:2: grid=0 is not a count from 1 to 2147483647");
  // block=0 is not "no block declared": it is refused, as is a scan's kinds= on a reduce.
  require_error([&] { declared(dir, "z.cl", "// xreduce: block=0\n"); }, ErrorCategory::usage,
                "z.cl:1: block=0 is not a count from 1 to 1024");
  require_error([&] { declared(dir, "k.cl", "// xreduce: kinds=exclusive\n"); },
                ErrorCategory::usage,
                "k.cl:1: kinds=exclusive declares a scan's kinds; this kernel is a reduce");
  CHECK(declared(dir, "s.cl", "// xreduce: kinds=exclusive primitive=scan\n").kinds ==
        std::vector<xr::ScanKind>{xr::ScanKind::exclusive});
  // A sort parses as a primitive, but a user's kernel cannot be one.
  require_error([&] { declared(dir, "s.cl", "// xreduce: primitive=sort\n"); },
                ErrorCategory::usage,
                "s.cl:1: primitive=sort: a user's kernel declares primitive=reduce or "
                "primitive=scan (sorts are built in only)");
  require_error([&] { declared(dir, "s.cu", "", "primitive=sorted"); }, ErrorCategory::usage,
                "primitive=sorted: a user's kernel declares primitive=reduce or primitive=scan");
  require_error([&] { declared(dir, "b.comp", "// xreduce: block=96\n"); }, ErrorCategory::usage,
                "block=96 is not a power of two");
  require_error([&] { declared(dir, "c.spv", "", "dtypes=i32,f32"); }, ErrorCategory::usage,
                "a prebuilt module serves one dtype");
  require_error([&] { declared(dir, "d.cubin", "", "dtypes=bf16"); }, ErrorCategory::usage,
                "one prebuilt bf16 module cannot");
  require_error([&] { declared(dir, "e.cu", "// xreduce: pass=a:tiles pass=b:tiles\n"); },
                ErrorCategory::usage, "a reduce kernel has one entry point");
}

TEST_CASE("user kernel: grids, a reduce's levels, scratch and padding", "[unit][kernel]") {
  CHECK(xr::kernel_groups(KernelGrid::tiles, 0, 256) == 1);
  CHECK(xr::kernel_groups(KernelGrid::tiles, 257, 256) == 2);
  CHECK(xr::kernel_groups(KernelGrid::one, 1 << 20, 256) == 1);
  // Seed 000's recursion: one partial per tile until one value is left.
  CHECK(xr::kernel_reduce_levels(1000, 256) == std::vector<std::uint64_t>{1000, 4, 1});
  CHECK(xr::kernel_reduce_levels(1, 256) == std::vector<std::uint64_t>{1, 1});
  require_error([] { xr::kernel_reduce_levels(1000, 1); }, ErrorCategory::usage,
                "must hold at least 2 elements");
  // Seed 002's grid-stride kernel at grid=1024: at most 1024 partials, then 2, then 1.
  CHECK(xr::kernel_reduce_levels(std::uint64_t{1} << 28, 512, 1024) ==
        std::vector<std::uint64_t>{std::uint64_t{1} << 28, 1024, 2, 1});

  xr::UserKernel k;
  k.scratch_per_tile = 8;
  k.scratch_bytes = 4;
  CHECK(xr::kernel_scratch_bytes(k, 1 << 20, 256) == 8 * 4096 + 4);
  k.max_groups = 100;
  CHECK(k.groups(KernelGrid::tiles, 1 << 20, 256) == 100);
  CHECK(xr::kernel_scratch_bytes(k, 1 << 20, 256) == 8 * 100 + 4);
  k.scratch_per_tile = k.scratch_bytes = 0;
  CHECK(xr::kernel_scratch_bytes(k, 10, 256) == xr::kKernelMinScratchBytes);

  CHECK(xr::kernel_padded(1000, 256, DType::f32, "user/x") == 1024);
  require_error([] { xr::kernel_padded(1, std::uint64_t{1} << 20, DType::f32, "user/x"); },
                ErrorCategory::unsupported, "KiB xreduce pads an array with");
  const std::vector<std::byte> pad = xr::identity_bytes(DType::i32, xr::Op::min, 2);
  std::int32_t v[2];
  std::memcpy(v, pad.data(), sizeof v);
  CHECK(v[0] == INT32_MAX);
  CHECK(v[1] == INT32_MAX);
}

TEST_CASE("user kernel: the prelude includes only what the types need", "[unit][kernel]") {
  using L = xr::KernelLanguage;
  const auto prelude = [](L l, DType t) {
    return xr::kernel_prelude(
        l, xr::kernel_macros(l, t, t, xr::Op::sum, xr::ScanKind::inclusive, 256, 1));
  };
  CHECK(prelude(L::cuda, DType::f32).find("#include") == std::string::npos);
  CHECK(prelude(L::cuda, DType::f16).find("#include <cuda_fp16.h>\n") == 0);
  CHECK(prelude(L::cuda, DType::bf16).find("#include <cuda_bf16.h>\n") == 0);
  CHECK(prelude(L::glsl, DType::i64).find("#extension GL_EXT_shader_explicit_arithmetic_types") ==
        0);
  CHECK(prelude(L::hlsl, DType::f64).find("#define XR_T double\n") == 0);
  require_error([&] { prelude(L::glsl, DType::bf16); }, ErrorCategory::unsupported,
                "no type for bf16");
}

TEST_CASE("user kernel: OpenCL C's .cl, its types, pragmas and wrapping sums", "[unit][kernel]") {
  using L = xr::KernelLanguage;
  TempDir dir;
  // The CUDA ABI's names and defaults: xr_reduce / xr_scan, 256 work-items.
  const xr::UserKernel r = declared(dir, "r.cl", "// xreduce: dtypes=i32,f64\n");
  CHECK(r.language == L::opencl);
  CHECK(xr::backend_of(r.language) == "opencl");
  CHECK(xr::is_source(r.language));
  CHECK(r.block == 256);
  CHECK(r.passes.front().entry == "xr_reduce");
  CHECK(declared(dir, "s.cl", "// xreduce: primitive=scan\n").passes.front().entry == "xr_scan");
  require_error([&] { declared(dir, "k.txt", ""); }, ErrorCategory::usage, ".cl: OpenCL");

  const auto prelude = [](DType t, xr::Op op, DType data) {
    return xr::kernel_prelude(
        L::opencl, xr::kernel_macros(L::opencl, data, t, op, xr::ScanKind::inclusive, 64, 2));
  };
  const std::string i32 = prelude(DType::i32, xr::Op::sum, DType::i32);
  CHECK(i32.find("#pragma") == std::string::npos);
  CHECK(i32.find("#define XR_T int\n#define XR_ACC int\n") == 0);
  // Signed overflow is undefined in OpenCL C: signed sums wrap through unsigned arithmetic.
  CHECK(i32.find("#define XR_OP(a,b) as_int((uint)(a) + (uint)(b))\n") != std::string::npos);
  CHECK(i32.find("#define XR_TILE 128u\n") != std::string::npos);
  CHECK(prelude(DType::i64, xr::Op::sum, DType::i64)
            .find("#define XR_OP(a,b) as_long((ulong)(a) + (ulong)(b))\n") != std::string::npos);
  CHECK(prelude(DType::u64, xr::Op::min, DType::u64)
            .find("#define XR_T ulong\n#define XR_ACC ulong\n#define XR_OP(a,b) ((b) < (a) ? "
                  "(b) : (a))\n#define XR_IDENTITY 18446744073709551615UL\n") == 0);
  CHECK(prelude(DType::f64, xr::Op::max, DType::f64)
            .find("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#define XR_T double\n") == 0);
  CHECK(prelude(DType::f64, xr::Op::max, DType::f64)
            .find("#define XR_IDENTITY as_double(0xfff0000000000000UL)\n") != std::string::npos);
  // f16 reads half (its partials float) with cl_khr_fp16's pragma, and accumulates in float.
  CHECK(prelude(DType::f16, xr::Op::sum, DType::f16)
            .find("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n#define XR_T half\n#define "
                  "XR_ACC float\n") == 0);
  CHECK(prelude(DType::f16, xr::Op::min, DType::f32).find("#define XR_T float\n") !=
        std::string::npos);
  CHECK(prelude(DType::f32, xr::Op::min, DType::f32)
            .find("#define XR_IDENTITY as_float(0x7f800000u)\n") != std::string::npos);
  require_error([&] { prelude(DType::bf16, xr::Op::sum, DType::bf16); }, ErrorCategory::unsupported,
                "OpenCL C kernels have no type for bf16");
}

TEST_CASE("device timeout: XR_DEVICE_TIMEOUT in seconds, malformed values named",
          "[unit][timeout]") {
  unsetenv("XR_DEVICE_TIMEOUT");
  CHECK(xr::read_device_timeout().limit == std::chrono::seconds(60));
  CHECK(xr::read_device_timeout().given.empty());
  setenv("XR_DEVICE_TIMEOUT", "0.5", 1);
  CHECK(xr::read_device_timeout().limit == std::chrono::milliseconds(500));
  CHECK(xr::read_device_timeout().describe() == "0.5 s");
  for (const char* bad : {"0", "-1", "abc", "2s", "1e9"}) {
    setenv("XR_DEVICE_TIMEOUT", bad, 1);
    CAPTURE(bad);
    CHECK(xr::read_device_timeout().error.find("XR_DEVICE_TIMEOUT must be") == 0);
  }
  unsetenv("XR_DEVICE_TIMEOUT");
  // Without a handler a timeout throws; the tool installs one that exits instead.
  require_error([] { xr::device_timed_out("never finished"); }, ErrorCategory::device_lost,
                "never finished");
}

namespace {
[[noreturn]] void exit_42(const xr::Error& e) {
  std::fputs(e.what(), stderr);
  std::_Exit(42);
}

// Runs `body` in a child process; its exit status and how long it took.
std::pair<int, double> in_child(const std::function<void()>& body) {
  const auto start = std::chrono::steady_clock::now();
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    body();
    std::_Exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, seconds};
}
}  // namespace

// A driver call that blocks for ever (pocl after a kernel's stray write) ends at the timeout
// through the handler, and a guard that ends in time, or has no handler to call, does nothing.
TEST_CASE("device watchdog: a call blocked past the limit ends the process through the handler",
          "[unit][timeout]") {
  const auto [blocked, seconds] = in_child([] {
    xr::set_device_timeout_handler(&exit_42);
    const xr::DeviceWatchdog watch(true, std::chrono::milliseconds(100), "blocked in the driver");
    std::this_thread::sleep_for(std::chrono::seconds(30));
  });
  CHECK(blocked == 42);
  CHECK(seconds < 10);
  const int finished =
      in_child([] {
        xr::set_device_timeout_handler(&exit_42);
        { const xr::DeviceWatchdog watch(true, std::chrono::milliseconds(100), "in time"); }
        const xr::DeviceWatchdog inactive(false, std::chrono::milliseconds(1), "a GPU's call");
        std::this_thread::sleep_for(std::chrono::milliseconds(400));
      }).first;
  CHECK(finished == 0);
  const int unhandled =
      in_child([] {
        xr::set_device_timeout_handler(nullptr);
        const xr::DeviceWatchdog watch(true, std::chrono::milliseconds(1), "no handler");
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
      }).first;
  CHECK(unhandled == 0);
}

TEST_CASE("user kernel: PTX runs on CUDA, and on OpenCL and Vulkan where the driver launches it",
          "[unit][kernel]") {
  using L = xr::KernelLanguage;
  CHECK(xr::backend_of(L::ptx) == "cuda");
  CHECK(xr::backends_taking(L::ptx) == std::vector<std::string_view>{"cuda", "opencl", "vulkan"});
  CHECK(xr::runs_on(L::ptx, "opencl"));
  CHECK(xr::runs_on(L::ptx, "vulkan"));
  CHECK_FALSE(xr::runs_on(L::glsl, "opencl"));
  CHECK_FALSE(xr::runs_on(L::cubin, "opencl"));
  CHECK(xr::backends_taking(L::opencl) == std::vector<std::string_view>{"opencl"});
  // A .ptx and a .cl of one id would both be OpenCL's variant: refused, naming that backend.
  TempDir dir;
  const xr::UserKernel cl = declared(dir, "twin.cl", "// xreduce: dtypes=u32\n");
  xr::UserKernel ptx = cl;
  ptx.language = L::ptx;
  ptx.path = dir / "twin.ptx";
  require_error(
      [&] {
        xr::check_kernel_ids({cl, ptx});
      },
      ErrorCategory::usage, "are both the opencl variant user/twin");
}

TEST_CASE("PTX module: an entry's parameters read and declared again", "[unit][kernel]") {
  const std::string text =
      ".version 9.0\n.target sm_90\n.address_size 64\n\n.visible .entry xr_reduce(\n"
      "\t.param .u64 xr_reduce_param_0,\n\t.param .u64 xr_reduce_param_1,\n"
      "\t.param .u32 xr_reduce_param_2\n)\n{\n\tret;\n}\n";
  const xr::PtxModule m = xr::PtxModule::parse(text);
  CHECK(m.params("xr_reduce") == std::vector<std::string>{".param .u64 xr_reduce_param_0",
                                                          ".param .u64 xr_reduce_param_1",
                                                          ".param .u32 xr_reduce_param_2"});
  const xr::PtxModule g =
      m.with_param("xr_reduce", 1, ".param .u64 .ptr .global .align 4 xr_reduce_param_1");
  CHECK(g.params("xr_reduce")[1] == ".param .u64 .ptr .global .align 4 xr_reduce_param_1");
  CHECK(g.params("xr_reduce")[2] == ".param .u32 xr_reduce_param_2");
  CHECK(g.text().find("\t.param .u64 .ptr .global .align 4 xr_reduce_param_1,\n") !=
        std::string::npos);
  require_error([&] { (void)m.with_param("xr_reduce", 3, ".param .u32 x"); }, ErrorCategory::usage,
                "has no parameter 4");
  require_error([&] { (void)m.params("xr_scan"); }, ErrorCategory::usage,
                "the PTX defines no entry xr_scan");
  // No parameters at all: an empty list.
  const xr::PtxModule none = xr::PtxModule::parse(
      ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n");
  CHECK(none.params("k").empty());
}
