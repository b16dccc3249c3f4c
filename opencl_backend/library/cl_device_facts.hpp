// What the library knows of a device, queried once: identity (name, UUID by cl_khr_device_uuid),
// versions, extensions, limits, and how its kernels reach sub-groups (kernels/group.cl).
#pragma once

#include <CL/cl.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "xreduce/backend.hpp"

namespace xr::opencl {

// How kernels reach sub-groups (kernels/group.cl): NVIDIA's warps by inline PTX (where a probe
// kernel with it builds), or sub-groups of one work-item (neither NVIDIA's driver nor pocl 3.1 has
// cl_khr_subgroups).
enum class SubgroupPath { single, nvidia_ptx };

struct DeviceFacts {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  DeviceInfo info;  // name, uuid ("" without cl_khr_device_uuid), versions, memory, properties
  std::string vendor;
  std::string platform_name;
  std::string c_version;  // "OpenCL C 1.2 ..."
  std::vector<std::string> extensions;
  cl_device_type type = 0;
  std::uint64_t global_memory = 0;
  std::uint64_t max_allocation = 0;  // CL_DEVICE_MAX_MEM_ALLOC_SIZE
  std::uint64_t local_memory = 0;    // bytes per work-group, CL_DEVICE_LOCAL_MEM_SIZE
  // What a sort's tiles may take, at least local_memory (cl_local_memory.hpp), and how it was
  // found.
  std::uint64_t working_local_memory = 0;
  std::string local_memory_note;
  std::uint64_t cache_bytes = 0;  // CL_DEVICE_GLOBAL_MEM_CACHE_SIZE (L2 on NVIDIA)
  std::size_t max_work_group = 0;
  std::uint32_t compute_units = 0;
  std::uint32_t max_clock_mhz = 0;  // CL_DEVICE_MAX_CLOCK_FREQUENCY
  std::uint64_t timer_resolution_ns = 0;
  int compute_major = 0, compute_minor = 0;  // cl_nv_device_attribute_query, else 0
  SubgroupPath subgroups = SubgroupPath::single;
  std::string subgroup_note;  // why an NVIDIA device has no warps here (a knob, a failed probe)

  bool has(std::string_view extension) const;
  bool fp64() const { return has("cl_khr_fp64"); }
  // NVIDIA's OpenCL takes PTX as a program binary (clCreateProgramWithBinary); others take none.
  bool builds_ptx() const { return platform_name.find("NVIDIA") != std::string::npos; }
  bool int64_atomics() const { return has("cl_khr_int64_base_atomics"); }
  int subgroup_size() const { return subgroups == SubgroupPath::nvidia_ptx ? 32 : 1; }
  std::uint64_t working_local() const { return std::max(local_memory, working_local_memory); }
};

// How query_facts learns what the device's tiles may take.
struct FactsOptions {
  // Sub-groups of one work-item even where NVIDIA's warps build (OpenClKnobs::single_subgroups).
  bool single_subgroups = false;
  // The local memory a work-group gets, probed (cl_local_memory.hpp); false: the reported size
  // (OpenClKnobs::reported_local_memory).
  bool probe_local_memory = true;
};

DeviceFacts query_facts(cl_platform_id platform, cl_device_id device, int index,
                        const FactsOptions& options = {});

// clGetDeviceInfo / clGetPlatformInfo of a string.
std::string device_string(cl_device_id device, cl_device_info what);
std::string platform_string(cl_platform_id platform, cl_platform_info what);

}  // namespace xr::opencl
