#include "context.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "dispatch_stream.hpp"
#include "timing.hpp"
#include "xreduce/host_copy.hpp"
#include "xreduce/units.hpp"

namespace xr::cuda {

// --- owners -----------------------------------------------------------------------------------
DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
  void* p = nullptr;
  if (bytes) XR_CUDA_CHECK(cudaMalloc(&p, bytes));
  ptr_.reset(p);
}

PinnedBuffer::PinnedBuffer(std::size_t bytes) : bytes_(bytes) {
  void* p = nullptr;
  if (bytes) XR_CUDA_CHECK(cudaMallocHost(&p, bytes));
  ptr_.reset(p);
}

Event::Event() {
  cudaEvent_t e = nullptr;
  XR_CUDA_CHECK(cudaEventCreate(&e));
  ev_.reset(e);
}

Stream::Stream() {
  cudaStream_t s = nullptr;
  XR_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  s_.reset(s);
}

// --- device facts ----------------------------------------------------------------------------
namespace {

int attribute(cudaDeviceAttr a, int device) {
  int v = 0;
  XR_CUDA_CHECK(cudaDeviceGetAttribute(&v, a, device));
  return v;
}

std::string version_text(int v) {  // 13000 -> "13.0"
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

}  // namespace

std::string uuid_hex(const cudaUUID_t& uuid) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (int i = 0; i < 16; ++i) {
    const auto b = static_cast<unsigned char>(uuid.bytes[i]);
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

DeviceInfo describe_device(int index) {
  cudaDeviceProp p{};
  XR_CUDA_CHECK(cudaGetDeviceProperties(&p, index));
  int runtime = 0, driver = 0;
  XR_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  XR_CUDA_CHECK(cudaDriverGetVersion(&driver));
  DeviceInfo d;
  d.index = index;
  d.name = p.name;
  d.uuid = uuid_hex(p.uuid);
  d.api_version = "CUDA runtime " + version_text(runtime);
  // cudaDriverGetVersion gives the newest CUDA the driver supports, not its build number.
  d.driver_version = "supports CUDA " + version_text(driver);
  d.memory_bytes = p.totalGlobalMem;
  const int mem_khz = attribute(cudaDevAttrMemoryClockRate, index);
  const int bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, index);
  // Double data rate: two transfers per memory clock.
  const double peak_gbps = 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9;
  char bus[32];
  std::snprintf(bus, sizeof bus, "%04x:%02x:%02x.0", p.pciDomainID, p.pciBusID, p.pciDeviceID);
  d.properties = {
      {"compute capability", std::to_string(p.major) + "." + std::to_string(p.minor)},
      {"SMs", std::to_string(p.multiProcessorCount)},
      {"L2", format_mib(static_cast<std::size_t>(p.l2CacheSize))},
      {"SM clock", std::to_string(attribute(cudaDevAttrClockRate, index) / 1000) + " MHz"},
      {"memory bus", std::to_string(bus_bits) + " bit"},
      {"theoretical bandwidth", std::to_string(static_cast<int>(peak_gbps)) + " GB/s"},
      {"PCI", bus},
  };
  return d;
}

// --- Context ---------------------------------------------------------------------------------
namespace {

// Bandwidth probe: ~1 GiB (the size of the 2^28 f32 benchmark point), median of this many runs.
constexpr std::size_t kProbeBytes = std::size_t(1) << 30;
constexpr int kProbeRuns = 11;
// Untimed runs first: the probe is the first thing a compare measures, while the clocks may
// still ramp from idle; with one warm-up it reads under what lib/cub streams
// (docs/results/H200/tuning-notes.md).
constexpr int kProbeWarmups = 4;
constexpr unsigned kProbeMaxWaves = 4;  // read probe grids: 1, 2 and 4 resident waves
}  // namespace

namespace {
// Runs before the other members are built, so the stream and events belong to `device`.
DeviceLimits activate_and_query(int device) {
  XR_CUDA_CHECK(cudaSetDevice(device));
  // Synchronise by spinning: the fastest documented round trip (what "auto" picks anyway while
  // the process has fewer contexts than cores). A context made earlier keeps its flags.
  if (const cudaError_t e = cudaSetDeviceFlags(cudaDeviceScheduleSpin);
      e != cudaSuccess && e != cudaErrorSetOnActiveProcess)
    throw_cuda_error(e, __FILE__, __LINE__, "cudaSetDeviceFlags(cudaDeviceScheduleSpin)");
  (void)cudaGetLastError();
  return query_limits(device);
}
}  // namespace

Context::Context(int device, CudaKnobs knobs)
    : limits_(activate_and_query(device)), knobs_(std::move(knobs)) {}

void Context::activate() const {
  XR_CUDA_CHECK(cudaSetDevice(limits_.device));
}

void Context::ensure_staging() {
  for (auto& s : staging_)
    if (!s.get()) s = PinnedBuffer(kStagingBytes);
}

void Context::upload(void* dst, const void* src, std::size_t bytes) {
  activate();
  if (!bytes) return;
  ensure_staging();
  const std::size_t chunk = staging_chunk_bytes(bytes);
  auto* out = static_cast<char*>(dst);
  const auto* in = static_cast<const char*>(src);
  for (std::size_t off = 0, i = 0; off < bytes; off += chunk, i ^= 1) {
    const std::size_t len = std::min(chunk, bytes - off);
    XR_CUDA_CHECK(cudaEventSynchronize(staged_[i].get()));  // chunk i's last DMA finished
    copy_parallel(staging_[i].get(), in + off, len);
    XR_CUDA_CHECK(
        cudaMemcpyAsync(out + off, staging_[i].get(), len, cudaMemcpyHostToDevice, stream()));
    XR_CUDA_CHECK(cudaEventRecord(staged_[i].get(), stream()));
  }
  XR_CUDA_CHECK(cudaStreamSynchronize(stream()));
}

void Context::download(void* dst, const void* src, std::size_t bytes) {
  activate();
  if (!bytes) return;
  ensure_staging();
  const std::size_t chunk = staging_chunk_bytes(bytes);
  auto* out = static_cast<char*>(dst);
  const auto* in = static_cast<const char*>(src);
  const auto enqueue = [&](std::size_t off, std::size_t i) {
    XR_CUDA_CHECK(cudaMemcpyAsync(staging_[i].get(), in + off, std::min(chunk, bytes - off),
                                  cudaMemcpyDeviceToHost, stream()));
    XR_CUDA_CHECK(cudaEventRecord(staged_[i].get(), stream()));
  };
  enqueue(0, 0);
  for (std::size_t off = 0, i = 0; off < bytes; off += chunk, i ^= 1) {
    // The next chunk's DMA goes into the other buffer, which the host finished reading.
    if (off + chunk < bytes) enqueue(off + chunk, i ^ 1);
    XR_CUDA_CHECK(cudaEventSynchronize(staged_[i].get()));
    copy_parallel(out + off, staging_[i].get(), std::min(chunk, bytes - off));
  }
}

DeviceBuffer Context::zeroed(std::size_t bytes) {
  activate();
  DeviceBuffer buf(bytes);
  if (bytes) {
    XR_CUDA_CHECK(cudaMemsetAsync(buf.get(), 0, bytes, stream()));
    XR_CUDA_CHECK(cudaStreamSynchronize(stream()));
  }
  return buf;
}

void Context::flush_l2() {
  activate();
  if (!flush_.get()) flush_ = DeviceBuffer(std::max<std::size_t>(2 * limits_.l2_bytes, 1 << 20));
  XR_CUDA_CHECK(cudaMemsetAsync(flush_.get(), 0, flush_.bytes(), stream()));
  XR_CUDA_CHECK(cudaStreamSynchronize(stream()));
}

// GB/s of `bytes` moved by enqueue(), median of kProbeRuns cold runs after kProbeWarmups.
template <class Enqueue>
double Context::probe_gbps(double bytes, Enqueue&& enqueue) {
  Event start, stop;
  Gate gate;  // as a variant's cold call: no launch gap inside the interval (timing.hpp)
  std::vector<double> ms;
  for (int run = 0; run < kProbeWarmups + kProbeRuns; ++run) {
    flush_l2();
    // The first run loads the kernel lazily, which would wait on a held stream.
    const bool gated = run > 0 && knobs_.gate;
    if (gated) gate.hold(stream());
    XR_CUDA_CHECK(cudaEventRecord(start.get(), stream()));
    enqueue();
    XR_CUDA_CHECK(cudaEventRecord(stop.get(), stream()));
    gate.release();
    XR_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    gate.check();  // only an interval it held
    float t = 0;
    XR_CUDA_CHECK(cudaEventElapsedTime(&t, start.get(), stop.get()));
    if (run >= kProbeWarmups) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  const double median = ms[ms.size() / 2];
  return median > 0 ? bytes / (median * 1e6) : 0;
}

std::size_t Context::probe_bytes(int buffers) const {
  std::size_t free_bytes = 0, total = 0;
  XR_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  return std::min(kProbeBytes, free_bytes / (4 * buffers)) / 16 * 16;
}

double Context::read_bandwidth_gbps() {
  if (read_gbps_ > 0) return read_gbps_;
  activate();
  const std::size_t bytes = probe_bytes(1);
  if (bytes == 0) return 0;
  DeviceBuffer buf(bytes);
  DeviceBuffer sink(std::size_t(kProbeMaxWaves * stream_read_blocks(limits_)) * sizeof(unsigned));
  XR_CUDA_CHECK(cudaMemsetAsync(buf.get(), 1, bytes, stream()));
  // The best of a few grid shapes, so a variant never streams above a peak the probe's one
  // shape happened to miss (docs/results/H200/tuning-notes.md).
  for (unsigned waves = 1; waves <= kProbeMaxWaves; waves *= 2)
    read_gbps_ = std::max(read_gbps_, probe_gbps(static_cast<double>(bytes), [&] {
                            enqueue_stream_read(buf.get(), bytes, sink.as<unsigned>(), limits_,
                                                stream(), waves);
                          }));
  return read_gbps_;
}

double Context::copy_bandwidth_gbps() {
  if (copy_gbps_ > 0) return copy_gbps_;
  activate();
  const std::size_t bytes = probe_bytes(2);
  if (bytes == 0) return 0;
  DeviceBuffer src(bytes), dst(bytes);
  XR_CUDA_CHECK(cudaMemsetAsync(src.get(), 1, bytes, stream()));
  copy_gbps_ = probe_gbps(2.0 * static_cast<double>(bytes), [&] {
    XR_CUDA_CHECK(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, stream()));
  });
  return copy_gbps_;
}

}  // namespace xr::cuda
