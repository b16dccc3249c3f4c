// A CUDA program of its own that uses xreduce as a library: it allocates its memory, makes its
// stream, uploads n int32 values, enqueues an inclusive scan and a sum with xreduce::cuda,
// checks both against the host, and with --reps times the scan as `xreduce compare` does (L2
// flushed, CUDA events around one call, the median).
//
//   cuda_scan [--n N] [--reps R] [--variant ID]
//
// Exit codes: 0 the results match, 1 they do not, 2 bad arguments, 3 no CUDA device that can run
// it (or a CUDA error).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>
#include <xreduce/cuda.hpp>

namespace {

struct Args {
  std::uint64_t n = 1'000'003;  // not a multiple of any tile: the tails run too
  int reps = 0;
  std::string variant;
};

std::optional<Args> parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const bool has_value = i + 1 < argc;
    char* end = nullptr;
    if (flag == "--n" && has_value) {
      a.n = std::strtoull(argv[++i], &end, 0);
      if (*end || a.n == 0) return std::nullopt;
    } else if (flag == "--reps" && has_value) {
      a.reps = static_cast<int>(std::strtol(argv[++i], &end, 10));
      if (*end || a.reps < 0) return std::nullopt;
    } else if (flag == "--variant" && has_value) {
      a.variant = argv[++i];
    } else {
      return std::nullopt;
    }
  }
  return a;
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(e) + ": " +
                             cudaGetErrorString(e));
}

// Device memory, freed with its owner.
struct Free {
  void operator()(void* p) const noexcept { cudaFree(p); }
};
using DeviceMemory = std::unique_ptr<void, Free>;

DeviceMemory device_bytes(std::size_t bytes) {
  void* p = nullptr;
  check(cudaMalloc(&p, std::max<std::size_t>(bytes, 1)), "cudaMalloc");
  return DeviceMemory(p);
}

struct Stream {
  Stream() { check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate"); }
  ~Stream() { cudaStreamDestroy(s); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t s = nullptr;
};

struct Event {
  Event() { check(cudaEventCreate(&e), "cudaEventCreate"); }
  ~Event() { cudaEventDestroy(e); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t e = nullptr;
};

// The median GPU time of one scan over `reps` calls, each after an L2 flush (a fill of a buffer
// larger than any L2), as xreduce compare's cold mode times one.
double time_scan_ms(xr::cuda::Scan& scan, cudaStream_t stream, const void* in, void* out,
                    void* scratch, int reps) {
  const DeviceMemory flush = device_bytes(256u << 20);
  Event start, stop;
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    check(cudaMemsetAsync(flush.get(), r, 256u << 20, stream), "cudaMemsetAsync");
    check(cudaEventRecord(start.e, stream), "cudaEventRecord");
    scan.enqueue(stream, xr::ScanKind::inclusive, in, out, scratch);
    check(cudaEventRecord(stop.e, stream), "cudaEventRecord");
    check(cudaEventSynchronize(stop.e), "cudaEventSynchronize");
    float t = 0;
    check(cudaEventElapsedTime(&t, start.e, stop.e), "cudaEventElapsedTime");
    ms.push_back(t);
  }
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2];
}

int run(const Args& args) {
  const std::uint64_t n = args.n;
  const std::size_t bytes = n * sizeof(std::int32_t);
  std::vector<std::int32_t> data(n);
  std::mt19937 random(7);
  for (auto& x : data) x = static_cast<std::int32_t>(random() % 201) - 100;

  // The library's two phases: plan (the scratch sizes), then enqueue on the caller's stream.
  xr::cuda::Scan scan(
      {.dtype = xr::DType::i32, .op = xr::Op::sum, .count = n, .variant = args.variant});
  const xr::cuda::Reduce reduce({.dtype = xr::DType::i32, .op = xr::Op::sum, .count = n});
  const DeviceMemory in = device_bytes(bytes), out = device_bytes(bytes), sum = device_bytes(16);
  const DeviceMemory scan_scratch = device_bytes(scan.scratch_size());
  const DeviceMemory reduce_scratch = device_bytes(reduce.scratch_size());
  const Stream stream;
  // Scratch is zeroed once, before the first call with each object.
  check(cudaMemsetAsync(scan_scratch.get(), 0, scan.scratch_size(), stream.s), "cudaMemsetAsync");
  check(cudaMemsetAsync(reduce_scratch.get(), 0, reduce.scratch_size(), stream.s),
        "cudaMemsetAsync");
  check(cudaMemcpyAsync(in.get(), data.data(), bytes, cudaMemcpyHostToDevice, stream.s),
        "cudaMemcpyAsync");
  scan.enqueue(stream.s, xr::ScanKind::inclusive, in.get(), out.get(), scan_scratch.get());
  reduce.enqueue(stream.s, in.get(), sum.get(), reduce_scratch.get());

  std::vector<std::int32_t> expected(n), got(n);
  std::int32_t total = 0;
  check(cudaMemcpyAsync(got.data(), out.get(), bytes, cudaMemcpyDeviceToHost, stream.s),
        "cudaMemcpyAsync");
  check(cudaMemcpyAsync(&total, sum.get(), 4, cudaMemcpyDeviceToHost, stream.s), "cudaMemcpyAsync");
  check(cudaStreamSynchronize(stream.s), "cudaStreamSynchronize");
  std::inclusive_scan(data.begin(), data.end(), expected.begin());
  const auto mismatch = std::mismatch(expected.begin(), expected.end(), got.begin());
  const bool scan_ok = mismatch.first == expected.end();
  const bool sum_ok = total == expected.back();

  cudaDeviceProp props{};
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaGetDeviceProperties(&props, device), "cudaGetDeviceProperties");
  std::printf("device: %s\n", props.name);
  std::printf("scan of %llu i32 (%s): %s\n", static_cast<unsigned long long>(n),
              scan.variant().c_str(), scan_ok ? "matches the host" : "WRONG");
  if (!scan_ok)
    std::printf("  first difference at %lld: %d, expected %d\n",
                static_cast<long long>(mismatch.first - expected.begin()), *mismatch.second,
                *mismatch.first);
  std::printf("sum (%s): %d, %s\n", reduce.variant().c_str(), total,
              sum_ok ? "matches the host" : "WRONG");
  if (args.reps > 0) {
    const double ms =
        time_scan_ms(scan, stream.s, in.get(), out.get(), scan_scratch.get(), args.reps);
    std::printf("scan time: %.4f ms median of %d (cold, L2 flushed), %.1f GB/s\n", ms, args.reps,
                2.0 * static_cast<double>(bytes) / ms / 1e6);
  }
  return scan_ok && sum_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<Args> args = parse(argc, argv);
  if (!args) {
    std::fprintf(stderr, "usage: cuda_scan [--n N] [--reps R] [--variant ID]\n");
    return 2;
  }
  try {
    return run(*args);
  } catch (const xr::Error& e) {
    std::fprintf(stderr, "cuda_scan: %s\n", e.what());
    return e.category() == xr::ErrorCategory::usage ? 2 : 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuda_scan: %s\n", e.what());
    return 3;
  }
}
