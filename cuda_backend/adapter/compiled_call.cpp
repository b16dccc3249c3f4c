#include "compiled_call.hpp"

#include <cuda_runtime_api.h>
#include <cxxabi.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "xreduce/error.hpp"

namespace xr::cuda {
namespace {

// A captured graph, destroyed with its owner.
struct GraphDeleter {
  void operator()(cudaGraph_t g) const noexcept { XR_CUDA_CHECK_NOTHROW(cudaGraphDestroy(g)); }
};
using Graph = std::unique_ptr<std::remove_pointer_t<cudaGraph_t>, GraphDeleter>;

struct GraphExecDeleter {
  void operator()(cudaGraphExec_t e) const noexcept {
    XR_CUDA_CHECK_NOTHROW(cudaGraphExecDestroy(e));
  }
};
using GraphExec = std::unique_ptr<std::remove_pointer_t<cudaGraphExec_t>, GraphExecDeleter>;

// Runs a captured call once and waits for it.
void launch(cudaGraph_t graph, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  XR_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  const GraphExec owner(exec);
  XR_CUDA_CHECK(cudaGraphLaunch(exec, s));
  XR_CUDA_CHECK(cudaStreamSynchronize(s));
}

Graph capture(cudaStream_t s, const std::function<void(cudaStream_t)>& enqueue) {
  // Relaxed: CUB's dispatch queries attributes while it enqueues, which the stricter modes refuse.
  XR_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
  cudaGraph_t graph = nullptr;
  try {
    enqueue(s);
  } catch (...) {
    (void)cudaStreamEndCapture(s, &graph);
    if (graph) (void)cudaGraphDestroy(graph);
    throw;
  }
  XR_CUDA_CHECK(cudaStreamEndCapture(s, &graph));
  return Graph(graph);
}

// The graph's nodes in the order they run: a capture of one stream is a chain, and its edges say
// which link comes first.
std::vector<cudaGraphNode_t> nodes_in_order(cudaGraph_t g) {
  std::size_t count = 0;
  XR_CUDA_CHECK(cudaGraphGetNodes(g, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  if (count) XR_CUDA_CHECK(cudaGraphGetNodes(g, nodes.data(), &count));
  std::size_t edges = 0;
  XR_CUDA_CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges));
  std::vector<cudaGraphNode_t> from(edges), to(edges);
  if (edges) XR_CUDA_CHECK(cudaGraphGetEdges(g, from.data(), to.data(), nullptr, &edges));
  // Kahn's order: a node after every node it depends on, ties in the graph's own order.
  std::map<cudaGraphNode_t, int> waiting;
  for (std::size_t i = 0; i < edges; ++i) ++waiting[to[i]];
  std::vector<cudaGraphNode_t> order, ready;
  for (cudaGraphNode_t n : nodes)
    if (!waiting[n]) ready.push_back(n);
  while (!ready.empty()) {
    const cudaGraphNode_t n = ready.front();
    ready.erase(ready.begin());
    order.push_back(n);
    for (std::size_t i = 0; i < edges; ++i)
      if (from[i] == n && --waiting[to[i]] == 0) ready.push_back(to[i]);
  }
  return order;
}

// "void ns::kernel<float, 256u>(float const*, ...)" -> "ns::kernel<float, 256u>".
std::string kernel_name(const void* func) {
  const char* mangled = nullptr;
  if (cudaFuncGetName(&mangled, func) != cudaSuccess || !mangled) {
    (void)cudaGetLastError();
    return "(unnamed kernel)";
  }
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> demangled(
      abi::__cxa_demangle(mangled, nullptr, nullptr, &status), &std::free);
  std::string name = status == 0 && demangled ? demangled.get() : mangled;
  // The parameter list: from the last '(' at template depth 0.
  int depth = 0;
  std::size_t params = std::string::npos;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    if (name[i] == '>') --depth;
    if (name[i] == '(' && depth == 0) params = i;
  }
  if (params != std::string::npos) name.resize(params);
  if (name.rfind("void ", 0) == 0) name.erase(0, 5);
  return name;
}

int attribute(cudaDeviceAttr attr, int device) {
  int v = 0;
  XR_CUDA_CHECK(cudaDeviceGetAttribute(&v, attr, device));
  return v;
}

}  // namespace

CompiledPass compiled_launch(const void* func, std::uint64_t grid, std::uint32_t block,
                             std::size_t dynamic_shared) {
  cudaFuncAttributes a{};
  XR_CUDA_CHECK(cudaFuncGetAttributes(&a, func));
  CompiledPass pass;
  pass.kernel = kernel_name(func);
  pass.block = block;
  pass.grid = grid;
  pass.registers = a.numRegs;
  pass.static_shared = a.sharedSizeBytes;
  pass.dynamic_shared = dynamic_shared;
  pass.local_bytes = a.localSizeBytes;
  pass.constant_bytes = a.constSizeBytes;
  pass.subgroup_size = 32;
  pass.max_threads = a.maxThreadsPerBlock;
  pass.binary = "sm_" + std::to_string(a.binaryVersion) + " (PTX " +
                std::to_string(a.ptxVersion / 10) + "." + std::to_string(a.ptxVersion % 10) + ")";
  int blocks = 0;
  XR_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, func, static_cast<int>(block), dynamic_shared));
  pass.api_blocks_per_sm = blocks;
  pass.statistics = {
      {"numRegs", std::to_string(a.numRegs), "registers per thread"},
      {"sharedSizeBytes", std::to_string(a.sharedSizeBytes), "static shared memory per block"},
      {"localSizeBytes", std::to_string(a.localSizeBytes), "local memory per thread"},
      {"constSizeBytes", std::to_string(a.constSizeBytes), "user constant memory"},
      {"maxThreadsPerBlock", std::to_string(a.maxThreadsPerBlock),
       "the largest block this kernel launches with"},
      {"maxDynamicSharedSizeBytes", std::to_string(a.maxDynamicSharedSizeBytes),
       "dynamic shared memory it may be given"},
      {"binaryVersion", std::to_string(a.binaryVersion), "the SASS's compute capability"},
      {"ptxVersion", std::to_string(a.ptxVersion), "the PTX's virtual architecture"}};
  return pass;
}

namespace {

// The kernels of a captured call, in the order they run (memsets and copies compile nothing).
CompiledCall passes_of(cudaGraph_t graph) {
  CompiledCall call;
  for (cudaGraphNode_t node : nodes_in_order(graph)) {
    cudaGraphNodeType type{};
    XR_CUDA_CHECK(cudaGraphNodeGetType(node, &type));
    if (type != cudaGraphNodeTypeKernel) continue;
    cudaKernelNodeParams p{};
    XR_CUDA_CHECK(cudaGraphKernelNodeGetParams(node, &p));
    call.passes.push_back(
        compiled_launch(p.func, std::uint64_t(p.gridDim.x) * p.gridDim.y * p.gridDim.z,
                        p.blockDim.x * p.blockDim.y * p.blockDim.z, p.sharedMemBytes));
  }
  return call;
}

}  // namespace

CompiledCall compiled_call(Context& ctx, const std::function<void(cudaStream_t)>& enqueue) {
  ctx.activate();
  const cudaStream_t s = ctx.stream();
  enqueue(s);  // the first call loads the kernels' modules, outside the capture
  XR_CUDA_CHECK(cudaStreamSynchronize(s));
  const Graph graph = capture(s, enqueue);
  // The captured call runs too. A plan counts the calls it enqueues (the look-back's epochs, the
  // single pass's tickets): the device must see every call the host counted, or the plan's next
  // call reads status words of a call that never ran (compute-sanitizer's memcheck found a
  // look-back reading out of bounds after compare inspected its plan).
  launch(graph.get(), s);
  return passes_of(graph.get());
}

CompiledCall captured_call(Context& ctx, const std::function<void(cudaStream_t)>& enqueue) {
  ctx.activate();
  return passes_of(capture(ctx.stream(), enqueue).get());
}

SmLimits sm_limits_of(const DeviceLimits& limits, const std::string& name) {
  const int d = limits.device;
  const int major = attribute(cudaDevAttrComputeCapabilityMajor, d);
  const int minor = attribute(cudaDevAttrComputeCapabilityMinor, d);
  return {
      .device = name + " (sm_" + std::to_string(major) + std::to_string(minor) + ")",
      .warp_size = attribute(cudaDevAttrWarpSize, d),
      .max_threads_per_sm = attribute(cudaDevAttrMaxThreadsPerMultiProcessor, d),
      .max_threads_per_block = attribute(cudaDevAttrMaxThreadsPerBlock, d),
      .max_blocks_per_sm = attribute(cudaDevAttrMaxBlocksPerMultiprocessor, d),
      .registers_per_sm = attribute(cudaDevAttrMaxRegistersPerMultiprocessor, d),
      .registers_per_block = attribute(cudaDevAttrMaxRegistersPerBlock, d),
      // cuda_occupancy.h's constants for compute capability 7.0 and later.
      .max_registers_per_thread = 255,
      .register_alloc_unit = 256,
      .sub_partitions = 4,
      .shared_per_sm =
          static_cast<std::uint64_t>(attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, d)),
      .shared_per_block =
          static_cast<std::uint64_t>(attribute(cudaDevAttrMaxSharedMemoryPerBlock, d)),
      .shared_per_block_optin =
          static_cast<std::uint64_t>(attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, d)),
      .reserved_shared_per_block =
          static_cast<std::uint64_t>(attribute(cudaDevAttrReservedSharedMemoryPerBlock, d)),
      .shared_alloc_unit = major >= 8 ? 128u : 256u,
  };
}

}  // namespace xr::cuda
