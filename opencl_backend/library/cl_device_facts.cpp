#include "cl_device_facts.hpp"

#include <CL/cl_ext.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "cl_check.hpp"
#include "cl_local_memory.hpp"

namespace xr::opencl {
namespace {

template <class V>
V device_value(cl_device_id device, cl_device_info what) {
  V v{};
  XR_CL_CHECK(clGetDeviceInfo(device, what, sizeof v, &v, nullptr));
  return v;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// 32 lowercase hex digits, core's spelling on every backend.
std::string uuid_of(cl_device_id device) {
  unsigned char bytes[CL_UUID_SIZE_KHR] = {};
  XR_CL_CHECK(clGetDeviceInfo(device, CL_DEVICE_UUID_KHR, sizeof bytes, bytes, nullptr));
  std::string hex;
  char two[3];
  for (unsigned char b : bytes) {
    std::snprintf(two, sizeof two, "%02x", b);
    hex += two;
  }
  return hex;
}

std::string type_words(cl_device_type t) {
  if (t & CL_DEVICE_TYPE_GPU) return "GPU";
  if (t & CL_DEVICE_TYPE_CPU) return "CPU";
  if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

void add_properties(DeviceFacts& f) {
  auto& p = f.info.properties;
  p.emplace_back("platform", f.platform_name);
  p.emplace_back("type", type_words(f.type));
  if (f.compute_major)
    p.emplace_back("compute capability",
                   std::to_string(f.compute_major) + "." + std::to_string(f.compute_minor));
  p.emplace_back("compute units", std::to_string(f.compute_units));
  p.emplace_back("OpenCL C", f.c_version);
  p.emplace_back("sub-groups", f.subgroups == SubgroupPath::nvidia_ptx
                                   ? "warps of 32 by inline PTX (no cl_khr_subgroups)"
                                   : "none (sub-groups of one work-item)" +
                                         (f.subgroup_note.empty() ? "" : ": " + f.subgroup_note));
  p.emplace_back("fp64", f.fp64() ? "yes" : "no (cl_khr_fp64 missing)");
  p.emplace_back("64-bit atomics", f.int64_atomics() ? "yes" : "no");
  p.emplace_back("PTX program binaries", f.builds_ptx() ? "yes (--kernel FILE.ptx runs here)"
                                                        : "no (NVIDIA's OpenCL alone takes PTX)");
  p.emplace_back("UUID", f.info.uuid.empty() ? "not reported (no cl_khr_device_uuid)" : "yes");
  p.emplace_back("max work-group", std::to_string(f.max_work_group));
  p.emplace_back("local memory", std::to_string(f.local_memory) + " bytes reported, " +
                                     std::to_string(f.working_local()) +
                                     " working: " + f.local_memory_note);
  p.emplace_back("timer resolution", std::to_string(f.timer_resolution_ns) + " ns");
}

// A kernel with one warp shuffle and one warp barrier by inline PTX: whether the device's compiler
// takes what kernels/group.cl's XR_SG_PTX path is made of. Empty when it builds, else why not.
constexpr const char* kPtxProbe = R"(
__kernel void probe(__global uint* out) {
  uint r, x = out[get_local_id(0)];
  __asm__ volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, -1;" : "=r"(r) : "r"(x), "r"(1u));
  __asm__ volatile("bar.warp.sync -1;" ::: "memory");
  out[get_local_id(0)] = r;
})";

std::string ptx_refusal(cl_platform_id platform, cl_device_id device) {
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                         reinterpret_cast<cl_context_properties>(platform), 0};
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(props, 1, &device, nullptr, nullptr, &status);
  if (status != CL_SUCCESS) return "no context to build the probe in: " + error_name(status);
  const char* source = kPtxProbe;
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
  std::string why;
  if (status == CL_SUCCESS) {
    status = clBuildProgram(program, 1, &device, "-cl-std=CL1.2", nullptr, nullptr);
    if (status != CL_SUCCESS) why = "the inline-PTX probe did not build: " + error_name(status);
    clReleaseProgram(program);
  } else {
    why = "clCreateProgramWithSource: " + error_name(status);
  }
  clReleaseContext(context);
  return why;
}

// `single`: sub-groups of one work-item on every device (XR_CL_SUBGROUPS=single, the experiment
// that measures what NVIDIA's warps give OpenCL kernels); else warps where they build.
void choose_subgroups(DeviceFacts& f, bool single) {
  if (!f.has("cl_nv_device_attribute_query")) return;
  if (single) {
    f.subgroup_note = "XR_CL_SUBGROUPS=single";
    return;
  }
  f.subgroup_note = ptx_refusal(f.platform, f.device);
  if (f.subgroup_note.empty()) f.subgroups = SubgroupPath::nvidia_ptx;
}

}  // namespace

bool DeviceFacts::has(std::string_view extension) const {
  return std::find(extensions.begin(), extensions.end(), extension) != extensions.end();
}

std::string device_string(cl_device_id device, cl_device_info what) {
  std::size_t size = 0;
  XR_CL_CHECK(clGetDeviceInfo(device, what, 0, nullptr, &size));
  std::string s(size, '\0');
  XR_CL_CHECK(clGetDeviceInfo(device, what, size, s.data(), nullptr));
  return trimmed(s);
}

std::string platform_string(cl_platform_id platform, cl_platform_info what) {
  std::size_t size = 0;
  XR_CL_CHECK(clGetPlatformInfo(platform, what, 0, nullptr, &size));
  std::string s(size, '\0');
  XR_CL_CHECK(clGetPlatformInfo(platform, what, size, s.data(), nullptr));
  return trimmed(s);
}

DeviceFacts query_facts(cl_platform_id platform, cl_device_id device, int index,
                        const FactsOptions& options) {
  DeviceFacts f;
  f.platform = platform;
  f.device = device;
  f.info.index = index;
  f.info.name = device_string(device, CL_DEVICE_NAME);
  f.vendor = device_string(device, CL_DEVICE_VENDOR);
  f.platform_name = platform_string(platform, CL_PLATFORM_NAME);
  f.info.api_version = device_string(device, CL_DEVICE_VERSION);
  f.info.driver_version = device_string(device, CL_DRIVER_VERSION);
  f.c_version = device_string(device, CL_DEVICE_OPENCL_C_VERSION);
  f.extensions = words(device_string(device, CL_DEVICE_EXTENSIONS));
  f.type = device_value<cl_device_type>(device, CL_DEVICE_TYPE);
  f.global_memory = device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE);
  f.info.memory_bytes = f.global_memory;
  f.max_allocation = device_value<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  f.local_memory = device_value<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE);
  f.cache_bytes = device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
  f.max_work_group = device_value<std::size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  f.compute_units = device_value<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
  f.max_clock_mhz = device_value<cl_uint>(device, CL_DEVICE_MAX_CLOCK_FREQUENCY);
  f.timer_resolution_ns = device_value<std::size_t>(device, CL_DEVICE_PROFILING_TIMER_RESOLUTION);
  if (f.has("cl_khr_device_uuid")) f.info.uuid = uuid_of(device);
  if (f.has("cl_nv_device_attribute_query")) {
    f.compute_major =
        static_cast<int>(device_value<cl_uint>(device, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV));
    f.compute_minor =
        static_cast<int>(device_value<cl_uint>(device, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV));
  }
  // NVIDIA's compiler takes inline PTX in OpenCL C: its warps are the sub-groups.
  choose_subgroups(f, options.single_subgroups);
  if (options.probe_local_memory) {
    f.working_local_memory =
        working_local_memory(f, KernelCache::from_environment(), f.local_memory_note);
  } else {
    f.working_local_memory = f.local_memory;
    f.local_memory_note = "as reported (XR_CL_LOCAL_MEMORY=reported)";
  }
  add_properties(f);
  return f;
}

}  // namespace xr::opencl
