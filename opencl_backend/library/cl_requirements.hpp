// What an OpenCL variant needs from its device, as data, and the one check that turns what the
// device lacks into words. Shared by the reduce and scan tables.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cl_device_facts.hpp"
#include "xreduce/types.hpp"

namespace xr::opencl {

enum Need : std::uint32_t {
  // Shuffles between the work-items of a sub-group: the subgroup/* ids, which are the shuffles
  // themselves (kernels/group.cl has the paths).
  need_subgroup_shuffle = 1u << 0,
  // 64-bit atomics on global memory: the look-back's status words.
  need_int64_atomics = 1u << 1,
};

// Every variant claims every element type; f64 needs cl_khr_fp64 (dtype_missing).
std::vector<DType> opencl_dtypes();
// For `list`: one phrase per Need bit, then what the element types need.
std::vector<std::string> requirement_words(std::uint32_t needs);
// Why the device cannot run a variant of `needs` in work-groups of `workgroup` with
// `local_bytes_4` of local memory (with 4-byte accumulators; 8-byte ones take twice), in words;
// empty when it can.
std::string missing_reason(std::uint32_t needs, std::uint32_t workgroup,
                           std::uint32_t local_bytes_4, const DeviceFacts& facts);
// What the device lacks for element type `t`, in words; empty when nothing.
std::string dtype_missing(DType t, const DeviceFacts& facts);
// Throws Error(unsupported) naming `id`, `t` and the device when dtype_missing is not empty.
void require_dtype(std::string_view id, DType t, const DeviceFacts& facts);

}  // namespace xr::opencl
