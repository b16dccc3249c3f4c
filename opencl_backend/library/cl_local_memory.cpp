#include "cl_local_memory.hpp"

#include <algorithm>
#include <exception>

#include "cl_check.hpp"
#include "cl_device_facts.hpp"
#include "cl_handles.hpp"
#include "cl_programs.hpp"
#include "xreduce/error.hpp"

namespace xr::opencl {
namespace {

// Each work-group writes words[i] = pattern(group, i), holds its memory through SPIN rounds of
// arithmetic (the work-groups resident beside it write theirs meanwhile) and reads every word
// back through the next work-item's index, counting the words that are not its own.
constexpr const char* kProbe = R"(
uint pattern(uint group, uint i) { return ((group + 1u) * 0x9E3779B9u) ^ (i * 0x85EBCA6Bu); }
__kernel void local_memory_probe(__global uint* result, uint spin) {
  __local uint words[WORDS];
  const uint group = get_group_id(0), lane = get_local_id(0), lanes = get_local_size(0);
  for (uint i = lane; i < WORDS; i += lanes) words[i] = pattern(group, i);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint t = lane;
  for (uint k = 0; k < spin; ++k) t = t * 1664525u + 1013904223u;
  uint wrong = 0;
  for (uint i = lane; i < WORDS; i += lanes) {
    const uint j = (i + 1u) % WORDS;
    wrong += words[j] != pattern(group, j);
  }
  if (wrong) atomic_add(&result[0], wrong);
  if (t == 0u && lane == lanes) result[1] = t;  // keeps the spin; never true
})";

constexpr std::size_t kProbeLanes = 256;
constexpr std::size_t kGroupsPerUnit = 4;  // more than fit at once: several resident per unit
constexpr cl_uint kSpin = 4096;

// The probe's steps; throws Error with the failing call, which the caller turns into the answer.
LocalMemoryProbe run_probe(const DeviceFacts& f, std::uint64_t bytes) {
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                         reinterpret_cast<cl_context_properties>(f.platform), 0};
  ContextOwner context(
      XR_CL_CREATE(clCreateContext(props, 1, &f.device, nullptr, nullptr, status)));
  QueueOwner queue(
      XR_CL_CREATE(clCreateCommandQueueWithProperties(context.get(), f.device, nullptr, status)));
  const char* source = kProbe;
  ProgramOwner program(
      XR_CL_CREATE(clCreateProgramWithSource(context.get(), 1, &source, nullptr, status)));
  const std::string options = "-cl-std=CL1.2 -DWORDS=" + std::to_string(bytes / 4) + "u";
  if (const cl_int built =
          clBuildProgram(program.get(), 1, &f.device, options.c_str(), nullptr, nullptr);
      built != CL_SUCCESS) {
    std::string log = build_log(program.get(), f.device);
    std::replace(log.begin(), log.end(), '\n', ' ');
    if (log.size() > 200) log = log.substr(0, 200) + "...";
    return {false, "does not build (" + error_name(built) + ")" + (log.empty() ? "" : ": " + log)};
  }
  KernelOwner kernel(XR_CL_CREATE(clCreateKernel(program.get(), "local_memory_probe", status)));
  const cl_uint zeros[2] = {0, 0};
  MemOwner result(
      XR_CL_CREATE(clCreateBuffer(context.get(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                  sizeof zeros, const_cast<cl_uint*>(zeros), status)));
  const cl_mem result_mem = result.get();
  XR_CL_CHECK(clSetKernelArg(kernel.get(), 0, sizeof result_mem, &result_mem));
  XR_CL_CHECK(clSetKernelArg(kernel.get(), 1, sizeof kSpin, &kSpin));
  const std::size_t local = kProbeLanes;
  const std::size_t global =
      kProbeLanes * kGroupsPerUnit * std::max<std::uint32_t>(f.compute_units, 1);
  if (const cl_int launched = clEnqueueNDRangeKernel(queue.get(), kernel.get(), 1, nullptr, &global,
                                                     &local, 0, nullptr, nullptr);
      launched != CL_SUCCESS)
    return {false, "does not launch (" + error_name(launched) + ")"};
  cl_uint got[2] = {0, 0};
  if (const cl_int read = clEnqueueReadBuffer(queue.get(), result_mem, CL_TRUE, 0, sizeof got, got,
                                              0, nullptr, nullptr);
      read != CL_SUCCESS)
    return {false, "does not run (" + error_name(read) + ")"};
  if (got[0] != 0)
    return {false, std::to_string(got[0]) + " words read back held another work-group's pattern"};
  return {true, {}};
}

std::string cache_key(const DeviceFacts& f, std::uint64_t bytes) {
  return StableHash()
      .add(kProbe)
      .add(f.platform_name)
      .add(f.info.name)
      .add(f.info.driver_version)
      .add(std::to_string(bytes))
      .hex();
}

bool cached_probe(const DeviceFacts& f, const KernelCache& cache, std::uint64_t bytes,
                  std::string& why) {
  const std::string key = cache_key(f, bytes);
  if (auto parts = cache.load(key, ".local", {"works", "why"})) {
    why = parts->at("why");
    return parts->at("works") == "1";
  }
  const LocalMemoryProbe probe = probe_local_memory(f, bytes);
  cache.store(key, ".local", {{"works", probe.works ? "1" : "0"}, {"why", probe.why}});
  why = probe.why;
  return probe.works;
}

}  // namespace

LocalMemoryProbe probe_local_memory(const DeviceFacts& f, std::uint64_t bytes) {
  try {
    return run_probe(f, bytes);
  } catch (const std::exception& e) {
    return {false, e.what()};
  }
}

std::uint64_t working_local_memory(const DeviceFacts& f, const KernelCache& cache,
                                   std::string& note, std::span<const std::uint64_t> candidates) {
  if ((f.type & CL_DEVICE_TYPE_GPU) == 0) {
    note = "as reported (not a GPU: not probed)";
    return f.local_memory;
  }
  std::string failed;
  for (const std::uint64_t bytes : candidates) {
    if (bytes <= f.local_memory) break;
    std::string why;
    if (cached_probe(f, cache, bytes, why)) {
      note = "probed: a kernel of " + std::to_string(bytes) +
             " bytes of __local runs in several work-groups a compute unit, each reading back "
             "a pattern of its own";
      return bytes;
    }
    if (failed.empty()) failed = std::to_string(bytes) + " bytes " + why;
  }
  note = failed.empty() ? "as reported" : "as reported (probed: " + failed + ")";
  return f.local_memory;
}

}  // namespace xr::opencl
