// A renderer's frame loop over xreduce::opencl's histogram, as an exposure control counts each
// frame's luminance: its own kernel renders the frame and writes its 8-bit luma, four pixels a
// work-item, then the library counts the luma into 256 bins twice on the same in-order queue: into
// the frame's counts (HistogramOutput::overwrite) and into counts summed over every frame on the
// device (HistogramOutput::accumulate). One Histogram serves both calls and every frame. Every
// --check-every frames the program reads both back and checks them on the host, which renders
// every frame too, while the device does: the frame's counts against its histogram of the frame,
// the running counts against its sum of every frame's. It prints the two calls' device time per
// frame (the first call's first and the second's last profiling events) and the host's time to
// enqueue them.
//
//   opencl_histogram [--width W] [--height H] [--frames F] [--check-every K] [--device NAME]
//
// --device picks the first device whose name contains NAME (default: the first GPU, else the
// first device). Exit codes: 0 every checked frame matched the host, 1 one did not, 2 bad
// arguments, 3 no OpenCL device that can run it (or an OpenCL error).
#include <CL/cl.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>
#include <xreduce/opencl.hpp>

namespace {

struct Args {
  std::uint32_t width = 1919, height = 1079;  // pixels not a multiple of 4, nor of any tile
  int frames = 60;
  int check_every = 20;
  std::string device;
};

std::optional<Args> parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) return std::nullopt;
    const char* value = argv[++i];
    char* end = nullptr;
    const unsigned long long v = std::strtoull(value, &end, 10);
    const bool number = *end == '\0' && v > 0;
    if (flag == "--width" && number && v <= 65535)
      a.width = static_cast<std::uint32_t>(v);
    else if (flag == "--height" && number && v <= 65535)
      a.height = static_cast<std::uint32_t>(v);
    else if (flag == "--frames" && number && v <= 100'000)
      a.frames = static_cast<int>(v);
    else if (flag == "--check-every" && number && v <= 100'000)
      a.check_every = static_cast<int>(v);
    else if (flag == "--device")
      a.device = value;
    else
      return std::nullopt;
  }
  if (std::uint64_t{a.width} * a.height >= (1ull << 30)) return std::nullopt;
  return a;
}

void check(cl_int status, const char* what) {
  if (status != CL_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed: OpenCL error " + std::to_string(status));
}

std::string device_name(cl_device_id device) {
  std::size_t size = 0;
  check(clGetDeviceInfo(device, CL_DEVICE_NAME, 0, nullptr, &size), "clGetDeviceInfo");
  std::string name(size, '\0');
  check(clGetDeviceInfo(device, CL_DEVICE_NAME, size, name.data(), nullptr), "clGetDeviceInfo");
  while (!name.empty() && name.back() == '\0') name.pop_back();
  return name;
}

// The first device whose name contains `wanted`; without one, the first GPU, else the first.
cl_device_id pick_device(const std::string& wanted) {
  cl_uint count = 0;
  if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0)
    throw std::runtime_error("no OpenCL platform (is an ICD installed?)");
  std::vector<cl_platform_id> platforms(count);
  check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
  std::vector<cl_device_id> devices;
  for (cl_platform_id p : platforms) {
    cl_uint n = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &n) != CL_SUCCESS) continue;
    std::vector<cl_device_id> ids(n);
    check(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, n, ids.data(), nullptr), "clGetDeviceIDs");
    devices.insert(devices.end(), ids.begin(), ids.end());
  }
  for (cl_device_id d : devices)
    if (!wanted.empty() && device_name(d).find(wanted) != std::string::npos) return d;
  if (!wanted.empty()) throw std::runtime_error("no OpenCL device named like '" + wanted + "'");
  for (cl_device_id d : devices) {
    cl_device_type type = 0;
    check(clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, nullptr), "clGetDeviceInfo");
    if (type & CL_DEVICE_TYPE_GPU) return d;
  }
  if (devices.empty()) throw std::runtime_error("no OpenCL device");
  return devices.front();
}

// The program's own OpenCL objects, released by their owners.
struct Context {
  explicit Context(cl_device_id device) {
    cl_int status = CL_SUCCESS;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
    check(status, "clCreateContext");
    const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    queue = clCreateCommandQueueWithProperties(context, device, props, &status);
    if (status != CL_SUCCESS) clReleaseContext(context);
    check(status, "clCreateCommandQueueWithProperties");
  }
  ~Context() {
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
  }
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
};

struct Buffer {
  Buffer(const Context& c, std::size_t bytes) {
    cl_int status = CL_SUCCESS;
    mem = clCreateBuffer(c.context, CL_MEM_READ_WRITE, bytes, nullptr, &status);
    check(status, "clCreateBuffer");
  }
  ~Buffer() { clReleaseMemObject(mem); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  cl_mem mem = nullptr;
};

struct Event {
  ~Event() {
    if (e) clReleaseEvent(e);
  }
  cl_ulong at(cl_profiling_info what) const {
    cl_ulong ns = 0;
    check(clGetEventProfilingInfo(e, what, sizeof ns, &ns, nullptr), "clGetEventProfilingInfo");
    return ns;
  }
  cl_event e = nullptr;
};

// One frame, as a renderer's last pass leaves it, reduced to what its exposure control counts:
// pixel p = y * width + x takes a colour of moving gradients, scaled by a day brightness that
// rises and falls every 64 frames, plus a hash's noise of the pixel and the frame; its 8-bit luma
// (Rec. 709's weights in integers) is written at byte p, four pixels a work-item (vstore4: the
// bytes in the pixels' order on a device of either byte order). Every step is integer
// arithmetic, so the host repeats it bit for bit.
constexpr const char* kLumaSource = R"(
uint hash(uint x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}
uint luma(uint width, uint height, uint frame, uint p) {
  const uint x = p % width, y = p / width;
  const uint gx = x * 256u / width, gy = y * 256u / height;
  const uint t = (frame * 8u) % 512u;
  const uint day = t < 256u ? t : 511u - t;
  const uint noise = hash(p ^ (frame * 0x9e3779b9u));
  const uint r = min(255u, ((((gx + frame * 3u) & 255u) * day) >> 8) + (noise & 63u));
  const uint g = min(255u, ((gy * (255u - day / 2u)) >> 8) + ((noise >> 6) & 63u));
  const uint b = min(255u, (((gx ^ gy) * (255u - day)) >> 8) + ((noise >> 12) & 63u));
  return (54u * r + 183u * g + 19u * b + 128u) >> 8;
}
__kernel void frame_luma(uint width, uint height, uint frame, __global uchar* out) {
  const uint w = (uint)get_global_id(0);
  const uint pixels = width * height;
  if (w >= (pixels + 3u) / 4u) return;
  uchar4 four = (uchar4)(0);  // the last word's bytes past the frame: counted by no call
  if (4u * w + 0u < pixels) four.s0 = (uchar)luma(width, height, frame, 4u * w + 0u);
  if (4u * w + 1u < pixels) four.s1 = (uchar)luma(width, height, frame, 4u * w + 1u);
  if (4u * w + 2u < pixels) four.s2 = (uchar)luma(width, height, frame, 4u * w + 2u);
  if (4u * w + 3u < pixels) four.s3 = (uchar)luma(width, height, frame, 4u * w + 3u);
  vstore4(four, w, out);
}
)";

// The same arithmetic on the host, for its histogram of the frame.
struct Frame {
  cl_uint width, height, frame;
};
std::uint32_t hash(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}
std::uint32_t luma(const Frame& f, std::uint32_t p) {
  const std::uint32_t x = p % f.width, y = p / f.width;
  const std::uint32_t gx = x * 256u / f.width, gy = y * 256u / f.height;
  const std::uint32_t t = (f.frame * 8u) % 512u;
  const std::uint32_t day = t < 256u ? t : 511u - t;
  const std::uint32_t noise = hash(p ^ (f.frame * 0x9e3779b9u));
  const std::uint32_t r =
      std::min(255u, ((((gx + f.frame * 3u) & 255u) * day) >> 8) + (noise & 63u));
  const std::uint32_t g = std::min(255u, ((gy * (255u - day / 2u)) >> 8) + ((noise >> 6) & 63u));
  const std::uint32_t b = std::min(255u, (((gx ^ gy) * (255u - day)) >> 8) + ((noise >> 12) & 63u));
  return (54u * r + 183u * g + 19u * b + 128u) >> 8;
}
// The frame's 256 counts, added into the host's running sum too (u32, wrapping as the device's
// counters do). Nothing is stored but the counts: the host renders every frame, checked or not.
void histogram_on_host(const Frame& f, std::array<std::uint32_t, 256>& counts,
                       std::array<std::uint32_t, 256>& running) {
  counts.fill(0);
  const std::uint32_t pixels = f.width * f.height;
  for (std::uint32_t p = 0; p < pixels; ++p) ++counts[luma(f, p)];
  for (std::size_t b = 0; b < 256; ++b) running[b] += counts[b];
}

// The program's kernel, built by the device's driver.
struct LumaKernel {
  LumaKernel(const Context& c, cl_device_id device) {
    cl_int status = CL_SUCCESS;
    const char* source = kLumaSource;
    program = clCreateProgramWithSource(c.context, 1, &source, nullptr, &status);
    check(status, "clCreateProgramWithSource");
    check(clBuildProgram(program, 1, &device, "", nullptr, nullptr), "clBuildProgram");
    kernel = clCreateKernel(program, "frame_luma", &status);
    check(status, "clCreateKernel");
  }
  ~LumaKernel() {
    clReleaseKernel(kernel);
    clReleaseProgram(program);
  }
  LumaKernel(const LumaKernel&) = delete;
  LumaKernel& operator=(const LumaKernel&) = delete;
  void enqueue(cl_command_queue queue, const Frame& f, cl_mem out) const {
    check(clSetKernelArg(kernel, 0, sizeof f.width, &f.width), "clSetKernelArg");
    check(clSetKernelArg(kernel, 1, sizeof f.height, &f.height), "clSetKernelArg");
    check(clSetKernelArg(kernel, 2, sizeof f.frame, &f.frame), "clSetKernelArg");
    check(clSetKernelArg(kernel, 3, sizeof out, &out), "clSetKernelArg");
    const std::size_t words = (std::size_t{f.width} * f.height + 3) / 4;
    const std::size_t local = 256, global = (words + local - 1) / local * local;
    check(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel");
  }
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// The two count buffers read back (the frame's and the running sum's) against the host's.
bool frame_matches(const Context& c, int frame, cl_mem counts_buffer, cl_mem running_buffer,
                   const std::array<std::uint32_t, 256>& expected,
                   const std::array<std::uint32_t, 256>& running, std::uint32_t pixels) {
  std::array<cl_uint, 256> counts{}, sums{};
  check(clEnqueueReadBuffer(c.queue, counts_buffer, CL_TRUE, 0, sizeof counts, counts.data(), 0,
                            nullptr, nullptr),
        "clEnqueueReadBuffer");
  check(clEnqueueReadBuffer(c.queue, running_buffer, CL_TRUE, 0, sizeof sums, sums.data(), 0,
                            nullptr, nullptr),
        "clEnqueueReadBuffer");
  std::size_t wrong = 0, wrong_sums = 0;
  for (std::size_t b = 0; b < 256; ++b) {
    wrong += counts[b] != expected[b];
    wrong_sums += sums[b] != running[b];
  }
  const auto top =
      static_cast<std::size_t>(std::max_element(counts.begin(), counts.end()) - counts.begin());
  std::printf(
      "frame %d: luma %zu most common (%u of %u pixels), %zu of 256 bins wrong, %zu in the "
      "running sum of frames 0 to %d\n",
      frame, top, counts[top], pixels, wrong, wrong_sums, frame);
  return wrong == 0 && wrong_sums == 0;
}

int run(const Args& args) {
  const cl_device_id device = pick_device(args.device);
  const Context c(device);
  const xr::opencl::Context library(c.context, device);
  std::printf("device: %s\n", device_name(device).c_str());

  // One Histogram for both calls of every frame: the frame's luma, u8 samples in 256 bins.
  const std::uint32_t pixels = args.width * args.height;
  const xr::opencl::Histogram histogram(
      library,
      {.dtype = xr::DType::u8, .count = pixels, .levels = {.bins = 256, .lower = 0, .upper = 256}});
  std::printf("histogram: %s, %ux%u pixels, scratch %llu bytes\n", histogram.variant().c_str(),
              args.width, args.height, static_cast<unsigned long long>(histogram.scratch_size()));
  // The luma in whole words, as the kernel writes it. Both calls share the scratch: the in-order
  // queue runs them one after the other.
  const std::size_t luma_bytes = (std::size_t{pixels} + 3) / 4 * 4;
  constexpr std::size_t kCountsBytes = 256 * 4;
  const Buffer luma(c, luma_bytes), counts(c, kCountsBytes), running(c, kCountsBytes);
  std::optional<Buffer> scratch;
  if (histogram.scratch_size() > 0) scratch.emplace(c, histogram.scratch_size());
  const LumaKernel pass(c, device);
  const cl_uint zero = 0;  // the running sum starts at zero; every frame adds to it
  check(clEnqueueFillBuffer(c.queue, running.mem, &zero, 4, 0, kCountsBytes, 0, nullptr, nullptr),
        "clEnqueueFillBuffer");
  const cl_mem scratch_mem = scratch ? scratch->mem : nullptr;
  const xr::opencl::HistogramBuffers frame_counts{luma.mem, counts.mem, scratch_mem},
      running_counts{luma.mem, running.mem, scratch_mem};
  using xr::opencl::HistogramOutput;

  std::array<std::uint32_t, 256> expected{}, expected_running{};
  std::vector<double> histogram_ms, enqueue_us;
  bool all_match = true;
  for (int frame = 0; frame < args.frames; ++frame) {
    const Frame f{args.width, args.height, static_cast<cl_uint>(frame)};
    pass.enqueue(c.queue, f, luma.mem);
    Event first, last;
    const auto t0 = std::chrono::steady_clock::now();
    histogram.enqueue(c.queue, frame_counts, HistogramOutput::overwrite, {}, &first.e, nullptr);
    histogram.enqueue(c.queue, running_counts, HistogramOutput::accumulate, {}, nullptr, &last.e);
    enqueue_us.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    check(clFlush(c.queue), "clFlush");
    histogram_on_host(f, expected, expected_running);  // while the device renders the same frame
    check(clFinish(c.queue), "clFinish");
    histogram_ms.push_back(
        (last.at(CL_PROFILING_COMMAND_END) - first.at(CL_PROFILING_COMMAND_START)) / 1e6);
    if ((frame + 1) % args.check_every == 0 || frame + 1 == args.frames)
      all_match &=
          frame_matches(c, frame, counts.mem, running.mem, expected, expected_running, pixels);
  }
  std::printf(
      "%d frames: histogram %.4f ms a frame on the device (median, profiling events; overwrite "
      "and accumulate), enqueued in %.1f us on the host (median)\n",
      args.frames, median(histogram_ms), median(enqueue_us));
  return all_match ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<Args> args = parse(argc, argv);
  if (!args) {
    std::fprintf(stderr,
                 "usage: opencl_histogram [--width W] [--height H] [--frames F] [--check-every K] "
                 "[--device NAME]\n"
                 "       (W x H below 2^30 pixels)\n");
    return 2;
  }
  try {
    return run(*args);
  } catch (const xr::Error& e) {
    std::fprintf(stderr, "opencl_histogram: %s\n", e.what());
    return e.category() == xr::ErrorCategory::unsupported ? 3 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "opencl_histogram: %s\n", e.what());
    return 3;
  }
}
