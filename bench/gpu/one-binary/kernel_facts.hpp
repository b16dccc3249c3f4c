// What CUDA's driver says it compiled a kernel into: registers, spills (local memory), static
// shared memory and the blocks an SM holds at the step's launch shape. The same facts for the
// library's cubin and for the PTX's JIT show whether the two are the same machine code.
#pragma once

#include <cuda.h>

#include "recording.hpp"

namespace xr::onebin {

struct KernelFacts {
  int registers = -1;
  int local_bytes = -1;
  int static_shared_bytes = -1;
  int blocks_per_sm = -1;
  bool operator==(const KernelFacts&) const = default;
};

KernelFacts facts_of(CUfunction f, const KernelStep& step);

}  // namespace xr::onebin
