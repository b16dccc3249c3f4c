// Users' PTX (`--kernel FILE.ptx`, docs/kernels.md) beyond CUDA, through the xreduce binary: a
// variant of OpenCL and Vulkan too, run and checked where the driver launches PTX (NVIDIA's),
// refused in one line with exit 3 where it does not (pocl, lavapipe), and its entries' parameters
// checked on every device before anything runs (exit 2).
#include "cli_support.hpp"

namespace {

using namespace clitest;

const std::string kPtxReduce = std::string(XR_PTX_KERNELS) + "/block_reduce.ptx";
const std::string kPtxScan = std::string(XR_PTX_KERNELS) + "/rts_hillis_steele.ptx";

}  // namespace

TEST_CASE("a PTX kernel runs on OpenCL where the driver builds PTX, and says why not elsewhere",
          "[cli][kernel][opencl]") {
  require_backend_or_skip("opencl");
  const std::string& reduce = kPtxReduce;
  const std::string& scan = kPtxScan;
  const Result list = xreduce({"list"});
  REQUIRE(list.code == 0);
  const bool builds_ptx = list.out.find("yes (--kernel FILE.ptx runs here)") != std::string::npos;
  INFO(list.out);
  CHECK(list.out.find("PTX program binaries") != std::string::npos);
  CHECK((builds_ptx || list.out.find("no (NVIDIA's OpenCL alone takes PTX)") != std::string::npos));
  if (builds_ptx) {
    // The same PTX CUDA loads, checked on OpenCL's buffers and queue like every variant.
    for (const std::string& kernel : {reduce, scan}) {
      const Result check =
          xreduce({"check", "--backend", "opencl", "--kernel", kernel, "--max-size", "70001"});
      INFO(check.out << check.err);
      CHECK(check.code == 0);
      CHECK(check.out.find(" on opencl") != std::string::npos);
      CHECK(check.out.find(" 0 failed") != std::string::npos);
    }
  } else {
    for (const char* command : {"run", "check"}) {
      CAPTURE(command);
      std::vector<std::string> args{command, "--backend", "opencl", "--kernel", reduce};
      if (std::string_view(command) == "run") args.insert(args.end(), {"--n", "1000"});
      expect_error(args, 3, "PTX runs on NVIDIA's OpenCL, which takes it as a program binary");
    }
  }
  // The ABI's parameters are checked on every device, before anything runs.
  const std::string bad = XR_BAD_KERNELS;
  expect_error({"run", "--backend", "opencl", "--kernel", bad + "/params.ptx", "--n", "1000"}, 2,
               "params.ptx: entry 'xr_reduce' takes 2 parameters; the reduce ABI's are 3");
  expect_error({"run", "--backend", "opencl", "--kernel", bad + "/params_kind.ptx", "--n", "1000"},
               2,
               "params_kind.ptx: entry 'xr_reduce' parameter 3 (.param .u64 xr_reduce_param_2) "
               "is not a 32-bit n");
  expect_error({"run", "--backend", "opencl", "--kernel", reduce, "--kernel-spec", "entry=reduce",
                "--n", "1000"},
               2, "block_reduce.ptx: no entry 'reduce' (the PTX has: xr_reduce)");
}

TEST_CASE("a PTX kernel runs on Vulkan where the driver offers VK_NVX_binary_import",
          "[cli][kernel][vulkan]") {
  require_backend_or_skip("vulkan");
  const Result list = xreduce({"list"});
  REQUIRE(list.code == 0);
  const bool launches =
      list.out.find("(--kernel FILE.ptx runs here by VK_NVX_binary_import)") != std::string::npos;
  INFO(list.out);
  CHECK(list.out.find("CUDA binaries (VK_NV_cuda_kernel_launch, VK_NVX_binary_import)") !=
        std::string::npos);
  if (launches) {
    for (const std::string& kernel : {kPtxReduce, kPtxScan}) {
      const Result check =
          xreduce({"check", "--backend", "vulkan", "--kernel", kernel, "--max-size", "70001"});
      INFO(check.out << check.err);
      CHECK(check.code == 0);
      CHECK(check.out.find(" on vulkan") != std::string::npos);
      CHECK(check.out.find(" 0 failed") != std::string::npos);
    }
  } else {
    expect_error({"run", "--backend", "vulkan", "--kernel", kPtxReduce, "--n", "1000"}, 3,
                 "PTX runs on Vulkan through VK_NVX_binary_import, which ");
  }
  // The barrier knob is read with the device's: a malformed one leaves Vulkan unavailable.
  setenv("XR_VK_PTX_BARRIER", "sometimes", 1);
  expect_error({"run", "--backend", "vulkan", "--variant", "fast/vectorized", "--n", "1000"}, 3,
               "XR_VK_PTX_BARRIER must be all or compute");
  unsetenv("XR_VK_PTX_BARRIER");
  expect_error({"run", "--backend", "vulkan", "--kernel",
                std::string(XR_BAD_KERNELS) + "/params.ptx", "--n", "1000"},
               2, "params.ptx: entry 'xr_reduce' takes 2 parameters; the reduce ABI's are 3");
}
