// The PTX's JIT through the toolkit's stub driver, which refuses every call: the module and its
// log are made before any member that holds them, so a refusal is one line and touches nothing
// else. (Built from another member's constructor, the log was written into a string not yet
// constructed: heap memory a previous case had left, under AddressSanitizer a fault.)
#include <catch2/catch.hpp>

#include <memory>

#include "cuda_ptx_kernels.hpp"
#include "onesweep_ptx.hpp"
#include "xreduce/error.hpp"

namespace xr::onebin::test {
namespace {

Recording one_kernel_step(const std::string& entry) {
  Recording r;
  KernelStep k;
  k.name = k.entry = entry;
  k.shared_bytes = 59440;
  r.steps.emplace_back(k);
  return r;
}

}  // namespace

TEST_CASE("a refused JIT is one line, every time") {
  const std::string entry = entry_named("13onesweep_passIjLi512ELi20");
  const PtxModule ptx = onesweep_ptx().keep({entry});
  const Recording r = one_kernel_step(entry);
  // The heap the earlier rounds leave is what the later ones are made in, as cases follow cases.
  for (int round = 0; round < 4; ++round) {
    std::unique_ptr<CudaPtxKernels> kernels;
    CHECK_THROWS_WITH(kernels = std::make_unique<CudaPtxKernels>(ptx, r),
                      Catch::Contains("cuModuleLoadDataEx of the PTX failed"));
    CHECK_FALSE(kernels);
  }
}

TEST_CASE("jit_module refuses with the driver's words") {
  CHECK_THROWS_AS(jit_module(onesweep_ptx().header()), Error);
}

}  // namespace xr::onebin::test
