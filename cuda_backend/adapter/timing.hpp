// How the CUDA backend times its calls (docs/cli.md, "Measurement modes"), and the per-API
// overheads it reports.
//
// Cold and batch intervals are held behind a gate, nvbench's blocking kernel: a one-thread kernel
// spins on a flag in pinned host memory while the host enqueues the start event, the work and the
// stop event, then the host raises the flag. The GPU then runs the whole interval back to back,
// so it holds no host launch gap (with an idle stream the start event would otherwise complete
// before the first kernel is even submitted). A CUDA graph would shorten the gap, not remove it:
// the event before cudaGraphLaunch still completes while the host launches the graph.
#pragma once

#include <cuda_runtime_api.h>

#include <vector>

#include "context.hpp"
#include "xreduce/backend.hpp"

namespace xr::cuda {

// The blocking kernel and its two flags (release, timed out) in mapped pinned memory.
class Gate {
 public:
  Gate();
  // Enqueues the spinning kernel on `s` (which must be idle on the GPU side or the flags' last
  // user must have finished: the caller synchronised after the previous release).
  void hold(cudaStream_t s);
  void release();
  // After the stream was synchronised: Error(device_lost) when the kernel of the last hold() gave
  // up waiting (the host took longer than the timeout to enqueue the interval; its timing would
  // hold the wait). An interval that was not held has nothing to check.
  void check();

 private:
  PinnedBuffer flags_;  // int[2]: release, timed_out
  int* device_flags_ = nullptr;
  bool held_ = false;      // the kernel waits for release()
  bool to_check_ = false;  // held since the last check()
};

// One timed interval of `calls` calls on the context's stream: start() holds the gate (from the
// second interval of a plan on: the first call loads modules lazily, which would wait on the
// held stream) and records the start event; enqueued() counts calls and lets the gate go once
// kGatedCalls are queued (the launch queue is finite); stop() records the stop event;
// finish() releases, waits for the stream (bounded by the XR_DEVICE_TIMEOUT limit: a kernel that
// never finishes ends in device_timed_out) and returns the interval in ms.
class CallTimer {
 public:
  CallTimer() = default;
  // `gated`: hold the gate for this interval (not a plan's first, and not with XR_CUDA_NO_GATE).
  void start(cudaStream_t s, bool gated);
  void enqueued();
  void stop(cudaStream_t s);
  // start(), then `calls` calls of `enqueue()` each counted by enqueued(), then stop().
  template <class Enqueue>
  void record(cudaStream_t s, bool gated, int calls, Enqueue&& enqueue) {
    start(s, gated);
    for (int i = 0; i < calls; ++i) {
      enqueue();
      enqueued();
    }
    stop(s);
  }
  float finish(cudaStream_t s, const DeviceTimeout& timeout);

 private:
  Gate gate_;
  Event start_, stop_;
  int queued_ = 0;
  bool holding_ = false;
};

// cudaStreamSynchronize that gives up: polls `s` (spinning, as the synchronise of the default
// scheduling does) and calls device_timed_out past `timeout`.
void wait_for_stream(cudaStream_t s, const DeviceTimeout& timeout);

// Calls a batch keeps queued behind the gate before letting it go (at most 3 launches each, under
// the launch queue's depth; the calls after it are enqueued while the GPU works through these).
inline constexpr int kGatedCalls = 256;

// Empty-kernel GPU time (stream launches, CUDA graph), host launch cost (cudaLaunchKernel,
// cudaGraphLaunch) and host round trips (launch + synchronise, and with a 4-byte read-back).
std::vector<Overhead> measure_cuda_overheads(Context& ctx);

}  // namespace xr::cuda
