#include "timing.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <string_view>

#include "xreduce/error.hpp"
#include "xreduce/harness.hpp"
#include "xreduce/units.hpp"

namespace xr::cuda {
namespace {

// Long enough for any host to enqueue an interval, short enough that a deadlock (a lazy module
// load waiting on the held stream) costs one second and an error, not a hang.
constexpr unsigned long long kGateTimeoutNs = 1'000'000'000ull;

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void gate_kernel(const volatile int* release, volatile int* timed_out,
                            unsigned long long timeout_ns) {
  const unsigned long long t0 = global_ns();
  while (*release == 0) {
    if (global_ns() - t0 > timeout_ns) {
      *timed_out = 1;
      return;
    }
  }
}

__global__ void empty_kernel() {}

}  // namespace

// --- Gate ------------------------------------------------------------------------------------

Gate::Gate() : flags_(2 * sizeof(int)) {
  void* dev = nullptr;
  XR_CUDA_CHECK(cudaHostGetDevicePointer(&dev, flags_.get(), 0));
  device_flags_ = static_cast<int*>(dev);
}

void Gate::hold(cudaStream_t s) {
  auto* f = static_cast<int*>(flags_.get());
  std::atomic_ref<int>(f[0]).store(0, std::memory_order_relaxed);
  std::atomic_ref<int>(f[1]).store(0, std::memory_order_release);
  gate_kernel<<<1, 1, 0, s>>>(device_flags_, device_flags_ + 1, kGateTimeoutNs);
  XR_CUDA_CHECK_LAUNCH();
  held_ = true;
}

void Gate::release() {
  if (!held_) return;
  std::atomic_ref<int>(static_cast<int*>(flags_.get())[0]).store(1, std::memory_order_release);
  held_ = false;
}

void Gate::check() const {
  if (std::atomic_ref<int>(static_cast<int*>(flags_.get())[1]).load(std::memory_order_acquire))
    throw Error(ErrorCategory::device_lost,
                "cuda: the timing gate gave up after 1 s before the host released it (a launch "
                "waited on the held stream); the interval is not GPU time");
}

// --- CallTimer -------------------------------------------------------------------------------

void CallTimer::start(cudaStream_t s, bool gated) {
  queued_ = 0;
  holding_ = gated;
  if (gated) gate_.hold(s);
  XR_CUDA_CHECK(cudaEventRecord(start_.get(), s));
}

void CallTimer::enqueued() {
  if (holding_ && ++queued_ == kGatedCalls) {
    gate_.release();
    holding_ = false;
  }
}

void CallTimer::stop(cudaStream_t s) {
  XR_CUDA_CHECK(cudaEventRecord(stop_.get(), s));
}

float CallTimer::finish(cudaStream_t s) {
  gate_.release();
  holding_ = false;
  XR_CUDA_CHECK(cudaStreamSynchronize(s));
  gate_.check();
  float ms = 0;
  XR_CUDA_CHECK(cudaEventElapsedTime(&ms, start_.get(), stop_.get()));
  return ms;
}

// --- overheads -------------------------------------------------------------------------------

namespace {

// Calls per sample and samples per row: 256 launches stay well inside the launch queue behind
// the gate; 25 samples give a stable median in well under a second for every row.
constexpr int kCalls = 256;
constexpr int kSamples = 25;

using Clock = HostClock;

// A graph holding `kernels` empty kernels in a chain, captured from the stream.
struct GraphExec {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  GraphExec(cudaStream_t s, int kernels) {
    XR_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < kernels; ++i) empty_kernel<<<1, 32, 0, s>>>();
    XR_CUDA_CHECK(cudaStreamEndCapture(s, &graph));
    XR_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  }
  GraphExec(const GraphExec&) = delete;
  GraphExec& operator=(const GraphExec&) = delete;
  ~GraphExec() {
    if (exec) XR_CUDA_CHECK_NOTHROW(cudaGraphExecDestroy(exec));
    if (graph) XR_CUDA_CHECK_NOTHROW(cudaGraphDestroy(graph));
  }
};

}  // namespace

std::vector<Overhead> measure_cuda_overheads(Context& ctx) {
  ctx.activate();
  const cudaStream_t s = ctx.stream();
  std::vector<Overhead> out;
  Gate gate;
  Event start, stop;
  DeviceBuffer word(sizeof(int));
  PinnedBuffer host_word(sizeof(int));
  GraphExec chain(s, kCalls), single(s, 1);
  // Warm-up: loads the kernels and uploads both graphs before anything is held or timed.
  empty_kernel<<<1, 32, 0, s>>>();
  XR_CUDA_CHECK_LAUNCH();
  XR_CUDA_CHECK(cudaGraphLaunch(chain.exec, s));
  XR_CUDA_CHECK(cudaGraphLaunch(single.exec, s));
  XR_CUDA_CHECK(cudaStreamSynchronize(s));

  // GPU time per call of `calls` calls that enqueue() puts behind the gate, between two events;
  // and the host's time per call to enqueue them.
  auto gpu_per_call = [&](int calls, auto&& enqueue, std::vector<double>& host_us) {
    std::vector<double> gpu_us;
    for (int i = 0; i < kSamples; ++i) {
      gate.hold(s);
      XR_CUDA_CHECK(cudaEventRecord(start.get(), s));
      const auto t0 = Clock::now();
      enqueue();
      host_us.push_back(us_since(t0) / calls);
      XR_CUDA_CHECK(cudaEventRecord(stop.get(), s));
      gate.release();
      XR_CUDA_CHECK(cudaStreamSynchronize(s));
      gate.check();
      float ms = 0;
      XR_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
      gpu_us.push_back(1e3 * ms / calls);
    }
    return gpu_us;
  };
  auto launch_empty = [&] {
    empty_kernel<<<1, 32, 0, s>>>();
    XR_CUDA_CHECK_LAUNCH();
  };
  std::vector<double> launch_host, graph_host, unused;
  auto stream_gpu = gpu_per_call(
      kCalls,
      [&] {
        for (int i = 0; i < kCalls; ++i) launch_empty();
      },
      launch_host);
  auto graph_gpu = gpu_per_call(
      kCalls, [&] { XR_CUDA_CHECK(cudaGraphLaunch(chain.exec, s)); }, unused);
  gpu_per_call(
      kCalls,
      [&] {
        for (int i = 0; i < kCalls; ++i) XR_CUDA_CHECK(cudaGraphLaunch(single.exec, s));
      },
      graph_host);
  // One empty kernel in the interval every variant's single call is timed in: the floor of every
  // cold CUDA number.
  auto cold_us = gpu_per_call(1, launch_empty, unused);
  out.push_back(make_overhead(OverheadKind::cold_interval,
                              "empty kernel, cold: one call's interval", "stream launch",
                              std::move(cold_us),
                              "events around one launch behind the gate, as a "
                              "variant's call"));
  out.push_back(make_overhead(OverheadKind::dispatch_gpu, "empty kernel, GPU time per call",
                              "stream launches", std::move(stream_gpu),
                              "256 launches back to back behind the gate, events around them"));
  out.push_back(make_overhead(OverheadKind::dispatch_gpu, "empty kernel, GPU time per call",
                              "CUDA graph", std::move(graph_gpu),
                              "one graph of 256 chained kernels"));
  out.push_back(make_overhead(OverheadKind::submit_host, "submit, host time per call",
                              "cudaLaunchKernel", std::move(launch_host),
                              "the <<<>>> launch call alone"));
  out.push_back(make_overhead(OverheadKind::submit_host, "submit, host time per call",
                              "cudaGraphLaunch", std::move(graph_host), "a one-kernel graph"));

  // Round trips: submit to result on the host, synchronising by spinning (the context asks for
  // cudaDeviceScheduleSpin).
  std::vector<double> bare, with_value;
  for (int i = 0; i < kSamples * 4; ++i) {
    auto t0 = Clock::now();
    empty_kernel<<<1, 32, 0, s>>>();
    XR_CUDA_CHECK_LAUNCH();
    XR_CUDA_CHECK(cudaStreamSynchronize(s));
    bare.push_back(us_since(t0));
    t0 = Clock::now();
    empty_kernel<<<1, 32, 0, s>>>();
    XR_CUDA_CHECK_LAUNCH();
    XR_CUDA_CHECK(
        cudaMemcpyAsync(host_word.get(), word.get(), sizeof(int), cudaMemcpyDeviceToHost, s));
    XR_CUDA_CHECK(cudaStreamSynchronize(s));
    with_value.push_back(us_since(t0));
  }
  out.push_back(make_overhead(OverheadKind::round_trip, "round trip, host time",
                              "launch + cudaStreamSynchronize (spin)", std::move(bare),
                              "an empty kernel"));
  out.push_back(make_overhead(OverheadKind::round_trip, "round trip, host time",
                              "launch + 4-byte copy + cudaStreamSynchronize (spin)",
                              std::move(with_value), "what a reduce's value costs to fetch"));
  return out;
}

}  // namespace xr::cuda
