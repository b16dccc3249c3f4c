#include "capture.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <queue>

#include "cu_owners.hpp"

namespace xr::onebin {
namespace {

// Ends a capture on every path out, so that a failed enqueue leaves the stream usable.
class CaptureScope {
 public:
  explicit CaptureScope(CUstream s) : stream_(s) {
    XR_CU_CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
  }
  CaptureScope(const CaptureScope&) = delete;
  CaptureScope& operator=(const CaptureScope&) = delete;
  ~CaptureScope() {
    if (open_) {
      CUgraph g = nullptr;
      cuStreamEndCapture(stream_, &g);  // the enqueue's error is the one to report
      if (g) cuGraphDestroy(g);
    }
  }
  GraphOwner end() {
    CUgraph g = nullptr;
    open_ = false;
    XR_CU_CHECK(cuStreamEndCapture(stream_, &g));
    return GraphOwner(g);
  }

 private:
  CUstream stream_;
  bool open_ = true;
};

std::vector<CUgraphNode> graph_nodes(CUgraph g) {
  std::size_t n = 0;
  XR_CU_CHECK(cuGraphGetNodes(g, nullptr, &n));
  std::vector<CUgraphNode> nodes(n);
  XR_CU_CHECK(cuGraphGetNodes(g, nodes.data(), &n));
  nodes.resize(n);
  return nodes;
}

// Kahn's order over the graph's edges; ties in the order cuGraphGetNodes lists the nodes (a
// capture from one stream is a chain, and this is its order).
std::vector<CUgraphNode> in_dependency_order(CUgraph g) {
  const std::vector<CUgraphNode> nodes = graph_nodes(g);
  std::size_t edges = 0;
  XR_CU_CHECK(cuGraphGetEdges(g, nullptr, nullptr, nullptr, &edges));
  std::vector<CUgraphNode> from(edges), to(edges);
  XR_CU_CHECK(cuGraphGetEdges(g, from.data(), to.data(), nullptr, &edges));
  std::map<CUgraphNode, std::size_t> index;
  for (std::size_t i = 0; i < nodes.size(); ++i) index[nodes[i]] = i;
  std::vector<std::size_t> waiting(nodes.size(), 0);
  std::vector<std::vector<std::size_t>> next(nodes.size());
  for (std::size_t e = 0; e < edges; ++e) {
    next[index.at(from[e])].push_back(index.at(to[e]));
    ++waiting[index.at(to[e])];
  }
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (waiting[i] == 0) ready.push(i);
  std::vector<CUgraphNode> order;
  while (!ready.empty()) {
    const std::size_t i = ready.top();
    ready.pop();
    order.push_back(nodes[i]);
    for (std::size_t j : next[i])
      if (--waiting[j] == 0) ready.push(j);
  }
  if (order.size() != nodes.size())
    throw Error(ErrorCategory::check_failed, "the captured graph has a cycle");
  return order;
}

std::vector<ParamSpan> param_spans(CUfunction f) {
  std::vector<ParamSpan> spans;
  for (std::size_t i = 0;; ++i) {
    ParamSpan s;
    const CUresult r = cuFuncGetParamInfo(f, i, &s.offset, &s.size);
    if (r == CUDA_ERROR_INVALID_VALUE) break;  // past the last parameter
    XR_CU_CHECK(r);
    spans.push_back(s);
  }
  return spans;
}

CapturedKernel read_kernel(CUgraphNode node) {
  CUDA_KERNEL_NODE_PARAMS p{};
  XR_CU_CHECK(cuGraphKernelNodeGetParams(node, &p));
  if (p.extra)
    throw Error(ErrorCategory::unsupported,
                "a captured kernel takes its parameters through `extra`: not replayed");
  CapturedKernel k;
  k.function = p.func;
  if (!k.function) XR_CU_CHECK(cuKernelGetFunction(&k.function, p.kern));
  const char* name = nullptr;
  XR_CU_CHECK(cuFuncGetName(&name, k.function));
  k.name = name;
  k.grid = {p.gridDimX, p.gridDimY, p.gridDimZ};
  k.block = {p.blockDimX, p.blockDimY, p.blockDimZ};
  k.shared_bytes = p.sharedMemBytes;
  k.params = param_spans(k.function);
  if (!k.params.empty() && !p.kernelParams)
    throw Error(ErrorCategory::unsupported,
                "a captured kernel node of " + k.name + " holds no parameter values: not replayed");
  std::size_t bytes = 0;
  for (const ParamSpan& s : k.params) bytes = std::max(bytes, s.offset + s.size);
  k.param_bytes.assign(bytes, std::byte{0});
  for (std::size_t i = 0; i < k.params.size(); ++i)
    std::memcpy(k.param_bytes.data() + k.params[i].offset, p.kernelParams[i], k.params[i].size);
  return k;
}

CapturedFill read_fill(CUgraphNode node) {
  CUDA_MEMSET_NODE_PARAMS m{};
  XR_CU_CHECK(cuGraphMemsetNodeGetParams(node, &m));
  const std::uint64_t row = std::uint64_t(m.width) * m.elementSize;
  if (m.height > 1 && m.pitch != row)
    throw Error(ErrorCategory::unsupported, "a captured 2D memset with padded rows (pitch " +
                                                std::to_string(m.pitch) + " B, rows of " +
                                                std::to_string(row) + " B): not replayed");
  return {m.dst, row * std::max<std::size_t>(m.height, 1), m.elementSize, m.value};
}

std::string node_type_name(CUgraphNodeType t) {
  switch (t) {
    case CU_GRAPH_NODE_TYPE_MEMCPY:
      return "memcpy";
    case CU_GRAPH_NODE_TYPE_HOST:
      return "host callback";
    case CU_GRAPH_NODE_TYPE_GRAPH:
      return "child graph";
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
      return "event record";
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
      return "event wait";
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
      return "memory allocation";
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
      return "memory free";
    default:
      return "type " + std::to_string(int(t));
  }
}

}  // namespace

CapturedCall capture_steps(CUstream stream, const std::function<void(CUstream)>& enqueue) {
  CaptureScope scope(stream);
  enqueue(stream);
  GraphOwner graph = scope.end();
  std::vector<CapturedStep> steps;
  for (CUgraphNode node : in_dependency_order(graph.get())) {
    CUgraphNodeType type{};
    XR_CU_CHECK(cuGraphNodeGetType(node, &type));
    if (type == CU_GRAPH_NODE_TYPE_KERNEL)
      steps.emplace_back(read_kernel(node));
    else if (type == CU_GRAPH_NODE_TYPE_MEMSET)
      steps.emplace_back(read_fill(node));
    else if (type != CU_GRAPH_NODE_TYPE_EMPTY)
      throw Error(ErrorCategory::unsupported,
                  "the captured call holds a " + node_type_name(type) + " node: not replayed");
  }
  return {std::move(steps), std::move(graph)};
}

}  // namespace xr::onebin
