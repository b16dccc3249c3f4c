#include "cl_requirements.hpp"

#include "xreduce/error.hpp"

namespace xr::opencl {

std::vector<DType> opencl_dtypes() {
  return {std::begin(kElementDTypes), std::end(kElementDTypes)};
}

std::vector<std::string> requirement_words(std::uint32_t needs) {
  std::vector<std::string> words;
  if (needs & need_subgroup_shuffle)
    words.push_back("sub-group shuffles (NVIDIA's warps by inline PTX; cl_khr_subgroups not used)");
  if (needs & need_int64_atomics) words.push_back("cl_khr_int64_base_atomics");
  words.push_back("f64: cl_khr_fp64");
  return words;
}

std::string missing_reason(std::uint32_t needs, std::uint32_t workgroup,
                           std::uint32_t local_bytes_4, const DeviceFacts& f) {
  if ((needs & need_subgroup_shuffle) && f.subgroups != SubgroupPath::nvidia_ptx)
    return "needs sub-group shuffles, which " + f.info.name +
           " does not give OpenCL C: no cl_khr_subgroups, and not NVIDIA's (whose warps are "
           "reached by inline PTX)";
  if ((needs & need_int64_atomics) && !f.int64_atomics())
    return "needs cl_khr_int64_base_atomics, which " + f.info.name + " lacks";
  if (workgroup > f.max_work_group)
    return "needs work-groups of " + std::to_string(workgroup) + ", " + f.info.name + " allows " +
           std::to_string(f.max_work_group);
  if (local_bytes_4 > f.local_memory)
    return "needs " + std::to_string(local_bytes_4) + " bytes of local memory, " + f.info.name +
           " has " + std::to_string(f.local_memory);
  return {};
}

std::string dtype_missing(DType t, const DeviceFacts& f) {
  if (t == DType::f64 && !f.fp64()) return "f64 needs cl_khr_fp64, which " + f.info.name + " lacks";
  return {};
}

void require_dtype(std::string_view id, DType t, const DeviceFacts& f) {
  if (const std::string why = dtype_missing(t, f); !why.empty())
    throw Error(ErrorCategory::unsupported, std::string(id) + " on " + f.info.name + ": " + why);
}

}  // namespace xr::opencl
