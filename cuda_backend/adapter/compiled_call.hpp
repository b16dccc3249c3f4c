// What a CUDA call compiled into (`xreduce inspect`, compare's compiled facts): the call's
// launches captured into a graph, whose kernel nodes give each launch's kernel, grid, block and
// dynamic shared memory; the runtime then says what each kernel was compiled into
// (cudaFuncGetAttributes) and how many of its blocks one SM holds
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor). The same launches a timed call makes, CUB's
// included.
#pragma once

#include <functional>

#include "context.hpp"
#include "xreduce/compiled.hpp"

namespace xr::cuda {

// `enqueue(stream)` enqueues one call on the context's stream; the call runs twice. For a plan
// nothing has run yet (`xreduce inspect`): the first call loads its kernels' modules.
CompiledCall compiled_call(Context& ctx, const std::function<void(cudaStream_t)>& enqueue);

// What `enqueue` launches, captured and never run: the facts of a plan a timed call has just run
// (its kernels loaded), with no call of its own in the measuring loop. `enqueue` must enqueue a
// copy of that plan: a plan counts the calls it enqueues (the look-back's epochs, the single
// pass's tickets), and the device must see each call its host counted.
CompiledCall captured_call(Context& ctx, const std::function<void(cudaStream_t)>& enqueue);

// One launch of `func` (a kernel's host stub or a cudaKernel_t): what the runtime says of it.
// Users' kernels, loaded with cudaLibraryLoadData, are described this way: the runtime cannot
// name a captured node's library kernel (cudaGraphKernelNodeGetParams: invalid device function).
CompiledPass compiled_launch(const void* func, std::uint64_t grid, std::uint32_t block,
                             std::size_t dynamic_shared = 0);

// The selected device's per-SM limits, from its attributes.
SmLimits sm_limits_of(const DeviceLimits& limits, const std::string& name);

}  // namespace xr::cuda
