// What a CUDA call compiled into (`xreduce inspect`, compare's compiled facts): the call is
// enqueued once (modules load, as a timed run's first call), then captured into a graph, which
// runs too (a plan's call count stays the device's), and whose kernel nodes give each launch's
// kernel, grid, block and dynamic shared memory; the runtime then says what each kernel was
// compiled into (cudaFuncGetAttributes) and how many of its blocks one SM holds
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor). The same launches a timed call makes, CUB's
// included.
#pragma once

#include <functional>

#include "context.hpp"
#include "xreduce/compiled.hpp"

namespace xr::cuda {

// `enqueue(stream)` enqueues one call on the context's stream; the call runs twice.
CompiledCall compiled_call(Context& ctx, const std::function<void(cudaStream_t)>& enqueue);

// One launch of `func` (a kernel's host stub or a cudaKernel_t): what the runtime says of it.
// Users' kernels, loaded with cudaLibraryLoadData, are described this way: the runtime cannot
// name a captured node's library kernel (cudaGraphKernelNodeGetParams: invalid device function).
CompiledPass compiled_launch(const void* func, std::uint64_t grid, std::uint32_t block,
                             std::size_t dynamic_shared = 0);

// The selected device's per-SM limits, from its attributes.
SmLimits sm_limits_of(const DeviceLimits& limits, const std::string& name);

}  // namespace xr::cuda
