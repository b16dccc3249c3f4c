// The OpenCL knobs (docs/cli.md, "Environment knobs") as data: the experiments that chose (or
// will choose) the library's policies, and the fallback forced for tests. The tool reads them
// from its environment once (opencl_backend/adapter/cl_env_knobs.cpp) and hands them to each
// device's library Context (make_context); a library caller's Context has the defaults and the
// library reads no knob from the environment. Internal (not installed): experiments and test
// forcings, not an API.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cl_device_facts.hpp"
#include "cl_scan_table.hpp"
#include "xreduce/sort_passes.hpp"

namespace xr::opencl {

// fast/replicated's local counters (XR_CL_HISTOGRAM_LAYOUT): the tuning table's choice,
// lane-banked copies wherever the bins fit them, or a copy a lane.
enum class HistogramLayout : std::uint8_t { automatic, lane_banked, replicated };

struct OpenClKnobs {
  // XR_CL_VECTOR_LOADS=vload: the kernels' vector accesses through vload4/vstore4 (element
  // alignment) instead of vector pointers (the vector's own alignment): the experiment beside
  // the default (common.cl says why both exist; the measurement that chose vector pointers is in
  // docs/results/H100/opencl).
  bool vload = false;
  // XR_CL_BUILD_OPTIONS: appended to every built-in program's build options, e.g. the register cap
  // -cl-nv-maxrregcount 64 on NVIDIA (the look-back's occupancy experiment, bench/gpu/opencl/run);
  // an option the compiler refuses fails the build with its log.
  std::string build_options;
  // XR_CL_LOOKBACK_POLLS (0 forces the fallback at the first incomplete window),
  // XR_CL_LOOKBACK_SHAPE (<workgroup>x<vectors>) and XR_SCAN_ONE_GROUP_MAX over the defaults.
  LookBackPolicy lookback;
  // XR_CL_LOOKBACK_POLLS as given: the sorts' look-back has its own default patience.
  std::optional<std::uint32_t> polls_given;
  // XR_CL_SORT_TILE=<threads>x<items>: a digit pass's tile over the policy's (the tile sweep).
  std::optional<sort::Tile> sort_tile;
  // XR_CL_SORT_WIDE=1: the radix sorts in core's wide form (64-bit indices and counts) at any n,
  // as they run past 2^32 - 2^16 keys (the tests' way to run that form on small arrays).
  bool sort_wide = false;
  // XR_CL_SORT_MODE=built|argument: the sorts' stages that read keys by their order built per
  // key kind and order, or once per key width with the kind and order an argument, over the
  // device's policy (cl_sort_plan.cpp; `auto`, unset, keeps it).
  std::optional<bool> sort_per_mode;
  // XR_CL_SUBGROUPS=single: sub-groups of one work-item on every device, NVIDIA's too, whose
  // warps otherwise reach OpenCL C by inline PTX: what warps give OpenCL kernels (the experiment).
  bool single_subgroups = false;
  // XR_CL_LOCAL_MEMORY=reported: the sorts' tiles within CL_DEVICE_LOCAL_MEM_SIZE, not the
  // probed working size (cl_local_memory.hpp): the experiment beside the default.
  bool reported_local_memory = false;
  // XR_CL_HISTOGRAM_LAYOUT=lane-banked|replicated: fast/replicated's local copies in that layout
  // wherever they fit, also where the tuning table would choose otherwise (tests, their cost).
  HistogramLayout histogram_layout = HistogramLayout::automatic;
  // The knobs that took effect, as given: never a malformed or an empty one.
  std::vector<std::pair<std::string, std::string>> set;
  std::string error;  // the first malformed value's line; every reduce, scan and sort is refused

  // What every built-in program is built with beyond its own options (-DXR_VLOAD,
  // build_options).
  std::string program_options() const;
  FactsOptions facts_options() const {
    return {.single_subgroups = single_subgroups, .probe_local_memory = !reported_local_memory};
  }
};

}  // namespace xr::opencl
