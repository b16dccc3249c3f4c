#include "kernel_facts.hpp"

#include "cu_check.hpp"

namespace xr::onebin {
namespace {

int attribute(CUfunction f, CUfunction_attribute a) {
  int v = 0;
  XR_CU_CHECK(cuFuncGetAttribute(&v, a, f));
  return v;
}

}  // namespace

KernelFacts facts_of(CUfunction f, const KernelStep& step) {
  KernelFacts k;
  k.registers = attribute(f, CU_FUNC_ATTRIBUTE_NUM_REGS);
  k.local_bytes = attribute(f, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
  k.static_shared_bytes = attribute(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  XR_CU_CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(
      &k.blocks_per_sm, f, static_cast<int>(step.block.x * step.block.y * step.block.z),
      step.shared_bytes));
  return k;
}

}  // namespace xr::onebin
