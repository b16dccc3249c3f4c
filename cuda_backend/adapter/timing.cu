#include "timing.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include "xreduce/device_timeout.hpp"
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
  // Pinned memory comes uninitialised: a recycled allocation once held a nonzero "timed out".
  std::memset(flags_.get(), 0, flags_.bytes());
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
  to_check_ = true;
}

void Gate::release() {
  if (!held_) return;
  std::atomic_ref<int>(static_cast<int*>(flags_.get())[0]).store(1, std::memory_order_release);
  held_ = false;
}

void Gate::check() {
  if (!std::exchange(to_check_, false)) return;
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

void wait_for_stream(cudaStream_t s, const DeviceTimeout& timeout) {
  const auto deadline = HostClock::now() + timeout.limit;
  for (unsigned polls = 1;; ++polls) {
    const cudaError_t e = cudaStreamQuery(s);
    if (e == cudaSuccess) return;
    if (e != cudaErrorNotReady) throw_cuda_error(e, __FILE__, __LINE__, "the timed calls");
    if (polls % 1024 == 0 && HostClock::now() > deadline)
      device_timed_out("cuda: a timed call did not finish within " + timeout.describe() +
                       ": the device stopped answering (a kernel that never finishes?); "
                       "XR_DEVICE_TIMEOUT sets the limit");
  }
}

float CallTimer::finish(cudaStream_t s, const DeviceTimeout& timeout) {
  gate_.release();
  holding_ = false;
  wait_for_stream(s, timeout);
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

namespace {

// The stream, the gate, two events and the warm graphs every row is measured with.
class EmptyLaunches {
 public:
  explicit EmptyLaunches(Context& ctx) : s_(ctx.stream()), chain_(s_, kCalls), single_(s_, 1) {
    // Warm-up: loads the kernels and uploads both graphs before anything is held or timed.
    empty_kernel<<<1, 32, 0, s_>>>();
    XR_CUDA_CHECK_LAUNCH();
    XR_CUDA_CHECK(cudaGraphLaunch(chain_.exec, s_));
    XR_CUDA_CHECK(cudaGraphLaunch(single_.exec, s_));
    XR_CUDA_CHECK(cudaStreamSynchronize(s_));
  }

  // GPU time per call of `calls` calls that enqueue() puts behind the gate, between two events;
  // and the host's time per call to enqueue them.
  template <class Enqueue>
  std::vector<double> gpu_us_per_call(int calls, Enqueue&& enqueue, std::vector<double>& host_us) {
    std::vector<double> gpu_us;
    for (int i = 0; i < kSamples; ++i) {
      gate_.hold(s_);
      XR_CUDA_CHECK(cudaEventRecord(start_.get(), s_));
      const auto t0 = Clock::now();
      enqueue();
      host_us.push_back(us_since(t0) / calls);
      XR_CUDA_CHECK(cudaEventRecord(stop_.get(), s_));
      gate_.release();
      XR_CUDA_CHECK(cudaStreamSynchronize(s_));
      gate_.check();
      float ms = 0;
      XR_CUDA_CHECK(cudaEventElapsedTime(&ms, start_.get(), stop_.get()));
      gpu_us.push_back(1e3 * ms / calls);
    }
    return gpu_us;
  }

  void launch_empty() {
    empty_kernel<<<1, 32, 0, s_>>>();
    XR_CUDA_CHECK_LAUNCH();
  }
  void launch_chain() { XR_CUDA_CHECK(cudaGraphLaunch(chain_.exec, s_)); }
  void launch_single() { XR_CUDA_CHECK(cudaGraphLaunch(single_.exec, s_)); }
  cudaStream_t stream() const { return s_; }

 private:
  cudaStream_t s_;
  Gate gate_;
  Event start_, stop_;
  GraphExec chain_, single_;
};

// GPU time per empty kernel (stream launches, a CUDA graph), the interval of one call (the
// floor of every cold CUDA number), and the host's launch cost of each.
void launch_rows(EmptyLaunches& e, std::vector<Overhead>& out) {
  std::vector<double> launch_host, graph_host, unused;
  auto stream_gpu = e.gpu_us_per_call(
      kCalls,
      [&] {
        for (int i = 0; i < kCalls; ++i) e.launch_empty();
      },
      launch_host);
  auto graph_gpu = e.gpu_us_per_call(
      kCalls, [&] { e.launch_chain(); }, unused);
  e.gpu_us_per_call(
      kCalls,
      [&] {
        for (int i = 0; i < kCalls; ++i) e.launch_single();
      },
      graph_host);
  auto cold_us = e.gpu_us_per_call(
      1, [&] { e.launch_empty(); }, unused);
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
}

// Submit to result on the host, synchronising by spinning (the context asks for
// cudaDeviceScheduleSpin), bare and with a 4-byte read-back.
void round_trip_rows(EmptyLaunches& e, std::vector<Overhead>& out) {
  const cudaStream_t s = e.stream();
  DeviceBuffer word(sizeof(int));
  PinnedBuffer host_word(sizeof(int));
  std::vector<double> bare, with_value;
  for (int i = 0; i < kSamples * 4; ++i) {
    auto t0 = Clock::now();
    e.launch_empty();
    XR_CUDA_CHECK(cudaStreamSynchronize(s));
    bare.push_back(us_since(t0));
    t0 = Clock::now();
    e.launch_empty();
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
}

}  // namespace

std::vector<Overhead> measure_cuda_overheads(Context& ctx) {
  ctx.activate();
  EmptyLaunches launches(ctx);
  std::vector<Overhead> out;
  launch_rows(launches, out);
  round_trip_rows(launches, out);
  return out;
}

}  // namespace xr::cuda
