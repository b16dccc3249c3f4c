// A renderer's frame loop over xreduce::opencl's sort, as a Gaussian-splat renderer sorts its
// splats every frame: its own kernel writes the frame's depths of the visible splats and counts
// them on the device, then the library sorts them, depths with the splats' indices, by the count
// the kernel wrote (Sort::enqueue_indirect), on the same in-order queue: nothing is read back to
// enqueue a frame. One Sort made for every splat serves every frame's count. Every --check-every
// frames the program reads the frame back and checks the count and the order on the host; it
// prints the sort's device time per frame (its first and last kernels' profiling events) and the
// host's time to enqueue it.
//
//   opencl_sort [--splats N] [--frames F] [--check-every K] [--device NAME]
//
// --device picks the first device whose name contains NAME (default: the first GPU, else the
// first device). Exit codes: 0 every checked frame matched the host, 1 one did not, 2 bad
// arguments, 3 no OpenCL device that can run it (or an OpenCL error).
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>
#include <xreduce/opencl.hpp>

namespace {

struct Args {
  std::uint32_t splats = 1'000'003;  // not a multiple of any tile
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
    if (flag == "--splats" && number && v < (1ull << 30))
      a.splats = static_cast<std::uint32_t>(v);
    else if (flag == "--frames" && number && v <= 100'000)
      a.frames = static_cast<int>(v);
    else if (flag == "--check-every" && number && v <= 100'000)
      a.check_every = static_cast<int>(v);
    else if (flag == "--device")
      a.device = value;
    else
      return std::nullopt;
  }
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

// One frame's depths, as a renderer's culling pass writes them: splat i sits at a fixed
// pseudo-random place in [-1, 1)^2 of the view plane's axes; its depth along the frame's view
// direction (dx, dz), seen from 0.25 behind the origin, is appended (the depth as the key, i as
// the value) where it is in front of the camera, and the visible splats are counted. No
// contraction, so that the host's count rounds alike.
constexpr const char* kDepthsSource = R"(
#pragma OPENCL FP_CONTRACT OFF
uint hash(uint x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}
float coordinate(uint bits) { return (float)(bits & 0xffffu) / 32768.0f - 1.0f; }
__kernel void splat_depths(float dx, float dz, uint splats, __global uint* visible,
                           __global float* keys, __global uint* values) {
  const uint i = (uint)get_global_id(0);
  if (i >= splats) return;
  const uint h = hash(i);
  const float along_x = coordinate(h) * dx;
  const float along_z = coordinate(h >> 16) * dz;
  const float depth = along_x + along_z + 0.25f;
  if (depth <= 0.0f) return;
  const uint slot = atomic_inc(visible);
  keys[slot] = depth;
  values[slot] = i;
}
)";

// The same arithmetic on the host.
std::uint32_t hash(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}
float coordinate(std::uint32_t bits) {
  return static_cast<float>(bits & 0xffffu) / 32768.0f - 1.0f;
}
// The frame's view direction: a turn of the camera about the vertical axis every 90 frames.
struct View {
  float dx, dz;
};
View view_of(int frame) {
  const double a = 2 * 3.14159265358979 * frame / 90;
  return {static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a))};
}
std::uint32_t visible_on_host(const View& v, std::uint32_t splats) {
  std::uint32_t count = 0;
  for (std::uint32_t i = 0; i < splats; ++i) {
    const std::uint32_t h = hash(i);
    const volatile float along_x = coordinate(h) * v.dx;  // each product rounded, as the kernel's
    const volatile float along_z = coordinate(h >> 16) * v.dz;
    const volatile float sum = along_x + along_z;
    count += sum + 0.25f > 0.0f;
  }
  return count;
}

// The program's kernel, built by the device's driver.
struct DepthKernel {
  DepthKernel(const Context& c, cl_device_id device) {
    cl_int status = CL_SUCCESS;
    const char* source = kDepthsSource;
    program = clCreateProgramWithSource(c.context, 1, &source, nullptr, &status);
    check(status, "clCreateProgramWithSource");
    check(clBuildProgram(program, 1, &device, "", nullptr, nullptr), "clBuildProgram");
    kernel = clCreateKernel(program, "splat_depths", &status);
    check(status, "clCreateKernel");
  }
  ~DepthKernel() {
    clReleaseKernel(kernel);
    clReleaseProgram(program);
  }
  DepthKernel(const DepthKernel&) = delete;
  DepthKernel& operator=(const DepthKernel&) = delete;
  void enqueue(cl_command_queue queue, const View& v, cl_uint splats, cl_mem visible, cl_mem keys,
               cl_mem values) const {
    check(clSetKernelArg(kernel, 0, sizeof v.dx, &v.dx), "clSetKernelArg");
    check(clSetKernelArg(kernel, 1, sizeof v.dz, &v.dz), "clSetKernelArg");
    check(clSetKernelArg(kernel, 2, sizeof splats, &splats), "clSetKernelArg");
    check(clSetKernelArg(kernel, 3, sizeof visible, &visible), "clSetKernelArg");
    check(clSetKernelArg(kernel, 4, sizeof keys, &keys), "clSetKernelArg");
    check(clSetKernelArg(kernel, 5, sizeof values, &values), "clSetKernelArg");
    const std::size_t local = 256, global = (splats + local - 1) / local * local;
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

// The frame read back: the count, the appended depths and indices (the sort's input) and the
// sorted ones, against the host's count and the stable order of the input.
bool frame_matches(const Context& c, int frame, const View& view, std::uint32_t splats,
                   cl_mem count_buffer, const std::vector<cl_mem>& arrays) {
  cl_uint count = 0;
  check(clEnqueueReadBuffer(c.queue, count_buffer, CL_TRUE, 0, 4, &count, 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  std::vector<std::vector<std::uint32_t>> got(arrays.size(), std::vector<std::uint32_t>(count));
  for (std::size_t k = 0; k < arrays.size() && count > 0; ++k)
    check(clEnqueueReadBuffer(c.queue, arrays[k], CL_TRUE, 0, count * 4ull, got[k].data(), 0,
                              nullptr, nullptr),
          "clEnqueueReadBuffer");
  const auto depth = [](std::uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  };
  const std::vector<std::uint32_t>&keys = got[0], &values = got[1];
  std::vector<std::uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return depth(keys[a]) < depth(keys[b]);
  });
  std::size_t wrong = 0;
  for (std::uint32_t j = 0; j < count; ++j)
    wrong += got[2][j] != keys[order[j]] || got[3][j] != values[order[j]];
  const std::uint32_t expected = visible_on_host(view, splats);
  std::printf("frame %d: %u of %u splats visible (host %u), %zu out of order\n", frame, count,
              splats, expected, wrong);
  return count == expected && wrong == 0;
}

int run(const Args& args) {
  const cl_device_id device = pick_device(args.device);
  const Context c(device);
  const xr::opencl::Context library(c.context, device);
  std::printf("device: %s\n", device_name(device).c_str());

  // One Sort for every frame, made for every splat: each frame sorts the count its kernel wrote.
  const std::uint32_t n = args.splats;
  const xr::opencl::Sort sort(library,
                              {.dtype = xr::DType::f32, .count = n, .values = xr::SortValues::u32});
  std::printf("sort: %s, %u splats at most, scratch %llu bytes\n", sort.variant().c_str(), n,
              static_cast<unsigned long long>(sort.scratch_size()));
  const std::size_t bytes = std::size_t{n} * 4;
  const Buffer count(c, 4), keys(c, bytes), values(c, bytes), sorted_keys(c, bytes),
      sorted_values(c, bytes), scratch(c, sort.scratch_size());
  const DepthKernel depths(c, device);
  sort.enqueue_scratch_init(c.queue, scratch.mem);  // once, for every frame
  const xr::opencl::SortBuffers buffers{keys.mem, sorted_keys.mem, values.mem, sorted_values.mem,
                                        scratch.mem};

  std::vector<double> sort_ms, enqueue_us;
  bool all_match = true;
  for (int frame = 0; frame < args.frames; ++frame) {
    const View view = view_of(frame);
    const cl_uint zero = 0;
    check(clEnqueueFillBuffer(c.queue, count.mem, &zero, 4, 0, 4, 0, nullptr, nullptr),
          "clEnqueueFillBuffer");
    depths.enqueue(c.queue, view, n, count.mem, keys.mem, values.mem);
    Event first, last;
    const auto t0 = std::chrono::steady_clock::now();
    sort.enqueue_indirect(c.queue, count.mem, 0, buffers, {}, &first.e, &last.e);
    enqueue_us.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    check(clFinish(c.queue), "clFinish");
    sort_ms.push_back((last.at(CL_PROFILING_COMMAND_END) - first.at(CL_PROFILING_COMMAND_START)) /
                      1e6);
    if ((frame + 1) % args.check_every == 0 || frame + 1 == args.frames)
      all_match &= frame_matches(c, frame, view, n, count.mem,
                                 {keys.mem, values.mem, sorted_keys.mem, sorted_values.mem});
  }
  std::printf(
      "%d frames: sort %.4f ms a frame on the device (median, profiling events), "
      "enqueued in %.1f us on the host (median)\n",
      args.frames, median(sort_ms), median(enqueue_us));
  return all_match ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<Args> args = parse(argc, argv);
  if (!args) {
    std::fprintf(
        stderr, "usage: opencl_sort [--splats N] [--frames F] [--check-every K] [--device NAME]\n");
    return 2;
  }
  try {
    return run(*args);
  } catch (const xr::Error& e) {
    std::fprintf(stderr, "opencl_sort: %s\n", e.what());
    return e.category() == xr::ErrorCategory::unsupported ? 3 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "opencl_sort: %s\n", e.what());
    return 3;
  }
}
