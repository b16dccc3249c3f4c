#include "cl_device.hpp"

#include <chrono>
#include <cstdlib>
#include <string_view>
#include <thread>

#include "cl_internal.hpp"
#include "xreduce/error.hpp"
#include "xreduce/kernel_cache.hpp"

namespace xr::opencl {
namespace {

// pocl compiles each program into a cache of its own (~/.cache/pocl by default), and reads
// POCL_CACHE_DIR once, when the loader first loads it. Kept inside xreduce's kernel cache, one
// "clear the cache" clears both: a damaged entry of pocl's crashes every later build of that
// program, whatever xreduce's own entries hold. A POCL_CACHE_DIR the user set is left alone, and
// where xreduce keeps no cache (XR_KERNEL_CACHE=0, or a folder that cannot hold one) pocl keeps
// its own where it would: a POCL_CACHE_DIR it cannot make leaves pocl with no device.
void keep_pocl_cache_inside_ours() {
  if (std::getenv("POCL_CACHE_DIR")) return;
  const KernelCache cache = KernelCache::from_environment();
  if (cache.enabled()) ::setenv("POCL_CACHE_DIR", (cache.dir() + "/pocl").c_str(), 0);
}

// The line of a call that passed the timeout.
std::string stopped_answering(const char* what, const DeviceTimeout& timeout) {
  return std::string("opencl: ") + what + " did not finish within " + timeout.describe() +
         ": the device stopped answering (a kernel that never finishes?); XR_DEVICE_TIMEOUT "
         "sets the limit";
}

}  // namespace

Platforms enumerate_devices(const FactsOptions& facts_options) {
  keep_pocl_cache_inside_ours();
  Platforms out;
  cl_uint count = 0;
  const cl_int status = clGetPlatformIDs(0, nullptr, &count);
  if (status != CL_SUCCESS || count == 0) {
    if (status != CL_SUCCESS && status != -1001)  // -1001: the loader found no ICD
      out.problems.push_back("clGetPlatformIDs: " + error_name(status));
    return out;
  }
  std::vector<cl_platform_id> platforms(count);
  XR_CL_CHECK(clGetPlatformIDs(count, platforms.data(), nullptr));
  for (cl_platform_id platform : platforms) {
    cl_uint n = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &n) != CL_SUCCESS) continue;
    std::vector<cl_device_id> ids(n);
    XR_CL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, n, ids.data(), nullptr));
    for (cl_device_id id : ids) {
      try {
        out.devices.push_back(
            query_facts(platform, id, static_cast<int>(out.devices.size()), facts_options));
      } catch (const std::exception& e) {
        out.problems.push_back(e.what());
      }
    }
  }
  return out;
}

DeviceWatchdog Device::watchdog(const char* what) const {
  return DeviceWatchdog((facts_.type & CL_DEVICE_TYPE_CPU) != 0, timeout_.limit,
                        stopped_answering(what, timeout_));
}

Device::Device(const DeviceFacts& facts, DeviceTimeout timeout, OpenClKnobs knobs, GateKind gate)
    : facts_(facts), timeout_(std::move(timeout)), gate_(gate) {
  cl_device_id device = facts.device;
  const cl_context_properties props[] = {
      CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(facts.platform), 0};
  context_ =
      ContextOwner(XR_CL_CREATE(clCreateContext(props, 1, &device, nullptr, nullptr, status)));
  // Profiling: every timed interval is read from the kernels' own events.
  const cl_queue_properties queue_props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  queue_ = QueueOwner(XR_CL_CREATE(
      clCreateCommandQueueWithProperties(context_.get(), device, queue_props, status)));
  library_ = std::make_unique<Context>(make_context(context_.get(), device, std::move(knobs)));
  if (gate_ == GateKind::automatic) {
    choose_gate();
    return;
  }
  gate_why_ = "XR_CL_GATE=" + knob_value(gate_);
  if (gate_ == GateKind::kernel) kernel_gate_ = std::make_unique<KernelGate>(*this);
}

void Device::choose_gate() {
  gate_ = GateKind::user_event;
  if (!(facts_.type & CL_DEVICE_TYPE_GPU)) {
    gate_why_ = "the default on a device that is not a GPU";  // no launch queue to fill
    return;
  }
  try {
    kernel_gate_ = std::make_unique<KernelGate>(*this);
    gate_ = GateKind::kernel;
    gate_why_ = "a GPU's default";
  } catch (const Error& e) {
    // The gate's kernel did not build, or its release did not reach it: the user event holds.
    if (e.category() != ErrorCategory::unsupported && e.category() != ErrorCategory::usage) throw;
    gate_why_ = "the default where the blocking kernel's trial failed";
  }
}

Device::~Device() = default;

namespace {

[[noreturn]] void throw_device_failure(const char* what, cl_int status) {
  throw Error(ErrorCategory::device_lost,
              std::string("opencl: ") + what + " failed on the device: " + failure_name(status));
}

}  // namespace

void Device::wait(cl_event event, const char* what) const {
  using Clock = std::chrono::steady_clock;
  const bool cpu_device = (facts_.type & CL_DEVICE_TYPE_CPU) != 0;
  const auto start = Clock::now();
  for (;;) {
    cl_int status = CL_QUEUED;
    const cl_int asked =
        clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
    // A faulted kernel shows as its command's status, or (NVIDIA) as the query's own error.
    if (asked != CL_SUCCESS && is_kernel_fault(asked))
      status = asked;
    else
      XR_CL_CHECK(asked);
    if (status == CL_COMPLETE) return;
    if (status < 0) throw_device_failure(what, status);
    const auto waited = Clock::now() - start;
    if (waited > timeout_.limit) device_timed_out(stopped_answering(what, timeout_));
    if (waited > std::chrono::milliseconds(10))
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    else if (cpu_device)
      std::this_thread::yield();  // a CPU device's work runs on this machine's cores: let it
  }
}

void Device::flush_and_wait(cl_event enqueued, const char* what) const {
  const EventOwner event(enqueued);
  XR_CL_CHECK(clFlush(queue_.get()));
  wait(event.get(), what);
}

void Device::finish(const char* what) const {
  cl_event raw = nullptr;
  XR_CL_CHECK(clEnqueueMarkerWithWaitList(queue_.get(), 0, nullptr, &raw));
  flush_and_wait(raw, what);
}

void Device::read(cl_mem buffer, std::uint64_t offset, std::uint64_t bytes, void* host) const {
  cl_event raw = nullptr;
  XR_CL_CHECK(
      clEnqueueReadBuffer(queue_.get(), buffer, CL_FALSE, offset, bytes, host, 0, nullptr, &raw));
  flush_and_wait(raw, "a read-back");
}

void Device::write(cl_mem buffer, std::uint64_t offset, std::uint64_t bytes,
                   const void* host) const {
  cl_event raw = nullptr;
  XR_CL_CHECK(
      clEnqueueWriteBuffer(queue_.get(), buffer, CL_FALSE, offset, bytes, host, 0, nullptr, &raw));
  flush_and_wait(raw, "an upload");
}

MemOwner make_buffer(const Device& device, std::uint64_t bytes, cl_mem_flags flags) {
  if (bytes > device.facts().max_allocation)
    throw Error(ErrorCategory::out_of_memory,
                "opencl: a buffer of " + std::to_string(bytes) + " bytes exceeds the " +
                    std::to_string(device.facts().max_allocation) + " one allocation of " +
                    device.facts().info.name + " may hold (CL_DEVICE_MAX_MEM_ALLOC_SIZE)");
  return MemOwner(XR_CL_CREATE(
      clCreateBuffer(device.context(), flags, std::max<std::uint64_t>(bytes, 1), nullptr, status)));
}

}  // namespace xr::opencl
