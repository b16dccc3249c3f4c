#include "cl_env_knobs.hpp"

#include "xreduce/kernel_cache.hpp"
#include "xreduce/shapes.hpp"

namespace xr::opencl {
namespace {

void read_opencl_lookback_knobs(OpenClKnobs& k) {
  k.polls_given = read_u32_knob(k.set, k.error, "XR_CL_LOOKBACK_POLLS");
  if (k.polls_given) k.lookback.polls = *k.polls_given;
  if (const auto shape = read_lookback_shape_knob(k.set, k.error, "XR_CL_LOOKBACK_SHAPE"))
    k.lookback.shape = *shape;
  const ScanOneGroupKnob one_group = read_scan_one_group_knob();
  k.lookback.one_group_max = one_group.max;
  if (!one_group.given.empty()) k.set.emplace_back("XR_SCAN_ONE_GROUP_MAX", one_group.given);
  if (!one_group.error.empty()) keep_first_error(k.error, one_group.error);
}

// The library's knobs: the first malformed one's line goes to `error`.
OpenClKnobs read_opencl_knobs() {
  OpenClKnobs k;
  if (const auto vload = read_choice_knob(k.set, k.error, "XR_CL_VECTOR_LOADS", "pointer", "vload"))
    k.vload = *vload;
  if (const char* v = read_text_knob(k.set, "XR_CL_BUILD_OPTIONS")) k.build_options = v;
  read_opencl_lookback_knobs(k);
  k.sort_tile = read_sort_tile_knob(k.set, k.error, "XR_CL_SORT_TILE", "768x10");
  if (const auto single = read_choice_knob(k.set, k.error, "XR_CL_SUBGROUPS", "auto", "single"))
    k.single_subgroups = *single;
  if (const auto reported =
          read_choice_knob(k.set, k.error, "XR_CL_LOCAL_MEMORY", "probe", "reported"))
    k.reported_local_memory = *reported;
  if (const auto wide = read_choice_knob(k.set, k.error, "XR_CL_SORT_WIDE", "0", "1"))
    k.sort_wide = *wide;
  read_auto_choice_knob(k.set, k.error, "XR_CL_SORT_MODE", "argument", "built", k.sort_per_mode);
  std::optional<bool> lane_banked;
  read_auto_choice_knob(k.set, k.error, "XR_CL_HISTOGRAM_LAYOUT", "replicated", "lane-banked",
                        lane_banked);
  if (lane_banked)
    k.histogram_layout = *lane_banked ? HistogramLayout::lane_banked : HistogramLayout::replicated;
  return k;
}

}  // namespace

OpenClBackendKnobs read_opencl_backend_knobs() {
  OpenClBackendKnobs k;
  k.library = read_opencl_knobs();
  k.timeout = read_device_timeout();
  if (!k.timeout.given.empty() && k.timeout.error.empty())
    k.recorded.emplace_back("XR_DEVICE_TIMEOUT", k.timeout.given);
  k.gate = read_gate_knob(k.recorded);
  k.recorded.insert(k.recorded.end(), k.library.set.begin(), k.library.set.end());
  // The library keeps its program binaries there: recorded where it holds them, or is off.
  if (const char* cache = environment_knob("XR_KERNEL_CACHE");
      cache && (std::string_view(cache) == "0" || KernelCache::from_environment().enabled()))
    k.recorded.emplace_back("XR_KERNEL_CACHE", cache);
  return k;
}

}  // namespace xr::opencl
