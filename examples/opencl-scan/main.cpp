// An OpenCL program of its own that uses xreduce as a library: it picks a device, makes its
// context, queue and buffers, uploads n int32 values, enqueues an inclusive scan, a sum and a
// sort of float keys with u32 values (a splat renderer's depths and indices) with
// xreduce::opencl, checks each against the host, and with --reps times the scan as `xreduce
// compare` does (L2 flushed, the call's profiling events, the median).
//
//   opencl_scan [--n N] [--reps R] [--variant ID] [--sort-variant ID] [--device NAME]
//
// --device picks the first device whose name contains NAME (default: the first GPU, else the
// first device). Exit codes: 0 the results match, 1 they do not, 2 bad arguments, 3 no OpenCL
// device that can run it (or an OpenCL error).
#include <CL/cl.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>
#include <xreduce/opencl.hpp>

namespace {

struct Args {
  std::uint64_t n = 1'000'003;  // not a multiple of any tile: the tails run too
  int reps = 0;
  std::string variant;
  std::string sort_variant;
  std::string device;
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
    } else if (flag == "--sort-variant" && has_value) {
      a.sort_variant = argv[++i];
    } else if (flag == "--device" && has_value) {
      a.device = argv[++i];
    } else {
      return std::nullopt;
    }
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
    mem = clCreateBuffer(c.context, CL_MEM_READ_WRITE, std::max<std::size_t>(bytes, 1), nullptr,
                         &status);
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

// The median device time of one scan over `reps` calls, each after an L2 flush (a fill of a
// buffer larger than any L2), from the call's first command's start to its last one's end.
double time_scan_ms(const xr::opencl::Scan& scan, const Context& c, cl_mem in, cl_mem out,
                    cl_mem scratch, int reps) {
  const Buffer flush(c, 256u << 20);
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    const cl_uint value = static_cast<cl_uint>(r);
    check(clEnqueueFillBuffer(c.queue, flush.mem, &value, sizeof value, 0, 256u << 20, 0, nullptr,
                              nullptr),
          "clEnqueueFillBuffer");
    Event first, last;
    scan.enqueue(c.queue, in, out, scratch, {}, &first.e, &last.e);
    check(clFinish(c.queue), "clFinish");
    ms.push_back(static_cast<double>(last.at(CL_PROFILING_COMMAND_END) -
                                     first.at(CL_PROFILING_COMMAND_START)) /
                 1e6);
  }
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2];
}

// A splat renderer's sort: the values as float depths (many equal), each with its index, stable
// and ascending; the library's Sort against the host's stable sort.
bool sort_matches(const xr::opencl::Context& library, const Context& c,
                  const std::vector<std::int32_t>& data, const std::string& variant) {
  const std::size_t n = data.size();
  std::vector<float> depth(n);
  std::vector<std::uint32_t> index(n);
  for (std::size_t i = 0; i < n; ++i) {
    depth[i] = 0.25f * static_cast<float>(data[i]);
    index[i] = static_cast<std::uint32_t>(i);
  }
  const xr::opencl::Sort sort(
      library,
      {.dtype = xr::DType::f32, .count = n, .values = xr::SortValues::u32, .variant = variant});
  const Buffer keys(c, n * 4), keys_out(c, n * 4), values(c, n * 4), values_out(c, n * 4);
  const Buffer scratch(c, sort.scratch_size());
  check(clEnqueueWriteBuffer(c.queue, keys.mem, CL_FALSE, 0, n * 4, depth.data(), 0, nullptr,
                             nullptr),
        "clEnqueueWriteBuffer");
  check(clEnqueueWriteBuffer(c.queue, values.mem, CL_FALSE, 0, n * 4, index.data(), 0, nullptr,
                             nullptr),
        "clEnqueueWriteBuffer");
  sort.enqueue_scratch_init(c.queue, scratch.mem);  // once, before its first call
  sort.enqueue(c.queue, {.keys_in = keys.mem,
                         .keys_out = keys_out.mem,
                         .values_in = values.mem,
                         .values_out = values_out.mem,
                         .scratch = scratch.mem});
  std::vector<float> got_keys(n);
  std::vector<std::uint32_t> got_values(n);
  check(clEnqueueReadBuffer(c.queue, keys_out.mem, CL_FALSE, 0, n * 4, got_keys.data(), 0, nullptr,
                            nullptr),
        "clEnqueueReadBuffer");
  check(clEnqueueReadBuffer(c.queue, values_out.mem, CL_TRUE, 0, n * 4, got_values.data(), 0,
                            nullptr, nullptr),
        "clEnqueueReadBuffer");
  std::vector<std::uint32_t> order(index);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return depth[a] < depth[b]; });
  bool ok = got_values == order;
  for (std::size_t j = 0; ok && j < n; ++j) ok = got_keys[j] == depth[order[j]];
  std::printf("sort of %llu f32 keys with u32 values (%s): %s\n",
              static_cast<unsigned long long>(n), sort.variant().c_str(),
              ok ? "matches the host" : "WRONG");
  return ok;
}

int run(const Args& args) {
  const std::uint64_t n = args.n;
  const std::size_t bytes = n * sizeof(std::int32_t);
  std::vector<std::int32_t> data(n);
  std::mt19937 random(7);
  for (auto& x : data) x = static_cast<std::int32_t>(random() % 201) - 100;

  const cl_device_id device = pick_device(args.device);
  const Context c(device);
  // The library's two phases: plan (kernels built, scratch sizes), then enqueue on the queue.
  const xr::opencl::Context library(c.context, device);
  const xr::opencl::Scan scan(
      library, {.variant = args.variant, .dtype = xr::DType::i32, .op = xr::Op::sum, .count = n});
  const xr::opencl::Reduce reduce(library,
                                  {.dtype = xr::DType::i32, .op = xr::Op::sum, .count = n});
  const Buffer in(c, bytes), out(c, bytes), sum(c, 16);
  const Buffer scan_scratch(c, scan.scratch_size()), reduce_scratch(c, reduce.scratch_size());
  // A reduce's scratch is zeroed once, before its first call; the scan zeroes its own.
  reduce.enqueue_scratch_init(c.queue, reduce_scratch.mem);
  check(clEnqueueWriteBuffer(c.queue, in.mem, CL_FALSE, 0, bytes, data.data(), 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");
  scan.enqueue(c.queue, in.mem, out.mem, scan_scratch.mem);
  reduce.enqueue(c.queue, in.mem, sum.mem, reduce_scratch.mem);

  std::vector<std::int32_t> expected(n), got(n);
  std::int32_t total = 0;
  check(clEnqueueReadBuffer(c.queue, out.mem, CL_FALSE, 0, bytes, got.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  check(clEnqueueReadBuffer(c.queue, sum.mem, CL_FALSE, 0, 4, &total, 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  check(clFinish(c.queue), "clFinish");
  std::inclusive_scan(data.begin(), data.end(), expected.begin());
  const auto mismatch = std::mismatch(expected.begin(), expected.end(), got.begin());
  const bool scan_ok = mismatch.first == expected.end();
  const bool sum_ok = total == expected.back();

  std::printf("device: %s\n", library.device_name().c_str());
  std::printf("scan of %llu i32 (%s): %s\n", static_cast<unsigned long long>(n),
              scan.variant().c_str(), scan_ok ? "matches the host" : "WRONG");
  if (!scan_ok)
    std::printf("  first difference at %lld: %d, expected %d\n",
                static_cast<long long>(mismatch.first - expected.begin()), *mismatch.second,
                *mismatch.first);
  std::printf("sum (%s): %d, %s\n", reduce.variant().c_str(), total,
              sum_ok ? "matches the host" : "WRONG");
  if (args.reps > 0) {
    const double ms = time_scan_ms(scan, c, in.mem, out.mem, scan_scratch.mem, args.reps);
    std::printf("scan time: %.4f ms median of %d (cold, L2 flushed), %.1f GB/s\n", ms, args.reps,
                2.0 * static_cast<double>(bytes) / ms / 1e6);
  }
  const bool sort_ok = sort_matches(library, c, data, args.sort_variant);
  return scan_ok && sum_ok && sort_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<Args> args = parse(argc, argv);
  if (!args) {
    std::fprintf(stderr,
                 "usage: opencl_scan [--n N] [--reps R] [--variant ID] [--sort-variant ID] "
                 "[--device NAME]\n");
    return 2;
  }
  try {
    return run(*args);
  } catch (const xr::Error& e) {
    std::fprintf(stderr, "opencl_scan: %s\n", e.what());
    return e.category() == xr::ErrorCategory::usage ? 2 : 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "opencl_scan: %s\n", e.what());
    return 3;
  }
}
