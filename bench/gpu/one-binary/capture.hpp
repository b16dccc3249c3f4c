// What a call enqueues on a stream, as the GPU would run it: the call is captured into a CUDA
// graph (stream capture, nothing runs) and the graph's nodes are read in dependency order, each
// kernel with its function, launch shape and parameter block, each memset with its target.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "cu_owners.hpp"
#include "recording.hpp"

namespace xr::onebin {

struct CapturedKernel {
  CUfunction function = nullptr;  // the library's own (its cubin's) function
  std::string name;               // cuFuncGetName's, mangled
  Dim3 grid, block;
  unsigned shared_bytes = 0;
  std::vector<ParamSpan> params;  // cuFuncGetParamInfo's, in order
  std::vector<std::byte> param_bytes;
};

struct CapturedFill {
  CUdeviceptr dst = 0;
  std::uint64_t bytes = 0;
  unsigned element_size = 1;
  std::uint32_t value = 0;
};

using CapturedStep = std::variant<CapturedKernel, CapturedFill>;

struct CapturedCall {
  std::vector<CapturedStep> steps;
  GraphOwner graph;  // the graph the steps were read from
};

// Captures what `enqueue` puts on `stream` (thread-local capture mode) and returns the graph's
// steps in a topological order of its edges. Error(unsupported) for a node this replay cannot
// express (a memcpy, a host callback, a child graph, a kernel launched through `extra`, a 2D
// memset with padding), naming it.
CapturedCall capture_steps(CUstream stream, const std::function<void(CUstream)>& enqueue);

}  // namespace xr::onebin
