"""How bench/peers.py times torch and cupy the way xreduce times its CUDA variants: xreduce's
statistics (summarize, the adaptive stop, the batch size) and the Timer (one stream, events,
an L2 flush, nvbench's gate kernel with CuPy or CUDA graph replays without it)."""
import contextlib
import ctypes
import math
import time

MIN_REPS, MAX_REPS, TARGET_SPREAD = 5, 100, 0.01  # xreduce's MeasureOptions defaults
BATCH_TARGET_MS, MAX_BATCH_CALLS = 1.0, 1000
# Calls a batch queues behind the gate before letting it go (xreduce's kGatedCalls): the launch
# queue is finite, and a full one would stall the host until the gate timed out.
GATED_CALLS = 256
GATE_TIMEOUT_NS = 1_000_000_000
GRAPH_TIMING = "device (graph replay, no gate: cupy missing)"
GATE_SOURCE = r"""
extern "C" __global__ void gate(unsigned long long flags_addr, unsigned long long timeout_ns) {
  volatile int* flags = (volatile int*)flags_addr;  // [0] release, [1] timed out
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  while (flags[0] == 0) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (t - t0 > timeout_ns) { flags[1] = 1; return; }
  }
}
"""



def summarize(samples):
    """xreduce's Stats: median (mean of the middle two for an even count), min, max, mean,
    rel_spread = median absolute deviation / median, count."""
    def median_of(v):
        m = len(v) // 2
        return v[m] if len(v) % 2 else 0.5 * (v[m - 1] + v[m])
    s = sorted(samples)
    med = median_of(s)
    mad = median_of(sorted(abs(x - med) for x in s))
    return {"median": med, "min": s[0], "max": s[-1], "mean": sum(s) / len(s),
            "rel_spread": mad / med if med > 0 else 0.0, "count": len(s)}


def stop_now(samples, elapsed_s, max_time_s):
    """xreduce's rule: MIN_REPS..MAX_REPS samples; in between, stop once the point's time is spent
    or the median's spread is under TARGET_SPREAD."""
    if len(samples) >= MAX_REPS:
        return True
    if len(samples) < MIN_REPS:
        return False
    return elapsed_s >= max_time_s or summarize(samples)["rel_spread"] < TARGET_SPREAD


def batch_calls_for(one_call_ms):
    """Calls per batch sample: about BATCH_TARGET_MS of work, within 1..MAX_BATCH_CALLS."""
    if one_call_ms <= 0:
        return MAX_BATCH_CALLS
    return int(min(max(math.ceil(BATCH_TARGET_MS / one_call_ms), 1), MAX_BATCH_CALLS))


# ---- GPU timing ---------------------------------------------------------------------------------

class Timer:
    """One stream, two events, an L2 flush buffer. With CuPy: a CuPy stream (torch runs on it as
    an ExternalStream) and the gate, nvbench's blocking kernel: it spins on a mapped host flag
    while the host enqueues start event, calls and stop event; released, the GPU runs the interval
    back to back. Without CuPy: a torch stream and CUDA graph replays, ungated."""

    def __init__(self, cp, torch, device):
        self.cp, self.torch, self.flags, self.graph = cp, torch, None, None
        if torch is not None:
            torch.cuda.set_device(device)
        if cp is None:
            self.stream = torch.cuda.Stream()
            self.events = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
            l2 = torch.cuda.get_device_properties(device).L2_cache_size
            self.flush_buffer = torch.empty(2 * l2 // 4, dtype=torch.int32, device="cuda")
            self.torch_stream, self.timing = self.stream, GRAPH_TIMING
            return
        rt, self.timing = cp.cuda.runtime, "device"
        cp.cuda.Device(device).use()
        self.stream = cp.cuda.Stream(non_blocking=True)
        self.torch_stream = (torch.cuda.ExternalStream(self.stream.ptr, device=device)
                             if torch is not None else None)
        self.events = [cp.cuda.Event() for _ in range(2)]
        self.flush_buffer = cp.empty(2 * rt.getDeviceProperties(device)["l2CacheSize"] // 4,
                                     dtype=cp.int32)
        self.host_words = rt.hostAlloc(8, 2)  # 2 = cudaHostAllocMapped; int[2] release, timed out
        self.flags = (ctypes.c_int32 * 2).from_address(self.host_words)
        # CuPy has no cudaHostGetDevicePointer; with unified addressing (every 64-bit platform
        # CUDA 12 runs on) the device pointer of mapped memory is the host pointer.
        if not rt.getDeviceProperties(device).get("unifiedAddressing", 1):
            raise RuntimeError("the device has no unified addressing: no mapped gate flag")
        self.gate_args = (cp.uint64(self.host_words), cp.uint64(GATE_TIMEOUT_NS))
        self.gate = cp.RawKernel(GATE_SOURCE, "gate")
        self.flags[0] = 1
        with self.context():  # compile and load the gate and the fill now, never behind the gate
            self.gate((1,), (1,), self.gate_args)
            self.flush()
            self.synchronize()

    def context(self):  # the stream, current for CuPy and torch
        stack = contextlib.ExitStack()
        if self.cp is not None:
            stack.enter_context(self.stream)
        if self.torch_stream is not None:
            stack.enter_context(self.torch.cuda.stream(self.torch_stream))
        return stack

    def synchronize(self):
        self.stream.synchronize()

    def flush(self):  # writing 2 x L2 bytes evicts the input
        (self.flush_buffer.fill(1) if self.cp is not None else self.flush_buffer.fill_(1))

    def prepare(self, fn, capture=True):
        """What one timed call runs: fn itself, or without the gate the replay of fn's graph.
        capture=False: fn itself always, for a call that waits on the host (no graph holds it)."""
        if self.cp is not None or not capture:
            return fn
        self.graph = None  # free the last graph's memory pool first
        graph = self.torch.cuda.CUDAGraph()
        with self.torch.cuda.graph(graph, stream=self.stream):
            graph.output = fn()  # lives as long as the graph
        self.graph = graph
        graph.replay()  # the first replay uploads the graph: not a sample
        self.synchronize()
        return graph.replay

    def sample(self, run, calls, flush, gated=True):
        """(device ms, host ms) of `calls` calls of run() in one interval. gated=False: no gate,
        for a call that waits on the host (the held stream would make it wait out the gate's
        time-out); the interval then holds that wait and the launches after it."""
        if flush:
            self.flush()
        start, stop = self.events
        gate = gated and self.flags is not None
        if gate:  # the last gate finished: we synchronised after it
            self.flags[0] = self.flags[1] = 0
            self.gate((1,), (1,), self.gate_args)
        try:
            t0 = time.perf_counter()
            start.record(self.stream)
            for i in range(calls):
                run()
                if i + 1 == GATED_CALLS and gate:
                    self.flags[0] = 1
            stop.record(self.stream)
        finally:
            if gate:
                self.flags[0] = 1  # only now: the GPU runs the interval with no host gap
        stop.synchronize()
        host_ms = (time.perf_counter() - t0) * 1e3
        if gate and self.flags[1]:
            raise RuntimeError("the timing gate gave up after 1 s before the host released it "
                               "(a call waited on the held stream); the sample is not GPU time")
        if self.cp is None:
            return start.elapsed_time(stop), host_ms
        return self.cp.cuda.get_elapsed_time(start, stop), host_ms


def measure(timer, run, mode, max_time, gated=True):
    """Per-call samples until stop_now: (device stats, host stats, calls per sample); gated as
    Timer.sample."""
    calls = 1
    if mode == "batch":
        calls = batch_calls_for(timer.sample(run, 1, False, gated)[0])  # a warm call calibrates
        timer.sample(run, calls, False, gated)  # one untimed batch, as xreduce
    device_ms, host_ms, t0 = [], [], time.perf_counter()
    while True:
        d, h = timer.sample(run, calls, mode == "cold", gated)
        device_ms.append(d / calls)
        host_ms.append(h / calls)
        if stop_now(device_ms, time.perf_counter() - t0, max_time):
            return summarize(device_ms), summarize(host_ms), calls


