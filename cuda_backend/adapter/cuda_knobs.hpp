// The CUDA backend's environment knobs (docs/cli.md), read once when the backend is made, so a
// report can say which were set (Backend::knobs).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cub_sort_count.hpp"
#include "xreduce/device_timeout.hpp"
#include "xreduce/env_knobs.hpp"
#include "xreduce/shapes.hpp"

namespace xr::cuda {

struct CudaKnobs {
  // XR_CUDA_NO_GATE set to anything but 0: no timing gate, for tools that serialise launches
  // (compute-sanitizer), under which a held stream would wait for the gate's timeout.
  bool gate = true;
  // XR_DEVICE_TIMEOUT: how long the host waits for a timed call before the device counts as lost.
  DeviceTimeout timeout;
  // XR_SCAN_ONE_GROUP_MAX: the n up to which fast/decoupled-lookback runs as one block (a
  // malformed value refuses every scan with its error line).
  ScanOneGroupKnob one_group;
  // XR_CUB_SORT_COUNT: 32 or 64, lib/cub's num_items width instead of the tuning table's choice
  // (the measurement that fills the table); `cub_count_error` refuses every sort when malformed.
  std::optional<CubCount> cub_count;
  std::string cub_count_error;
  // XR_CUDA_HISTOGRAM_LAYOUT: lane-banked or replicated, fast/replicated's shared copies in that
  // layout instead of the tuning table's choice (auto); `histogram_error` refuses every histogram
  // when malformed.
  std::optional<bool> histogram_lane_banked;
  std::string histogram_error;
  // Each knob that took effect, as given (name, value): never a malformed or an empty one.
  KnobsGiven set;
};

inline CudaKnobs read_cuda_knobs() {
  CudaKnobs knobs;
  if (const char* off = read_text_knob(knobs.set, "XR_CUDA_NO_GATE"))
    knobs.gate = std::string_view(off) == "0";
  knobs.timeout = read_device_timeout();
  if (!knobs.timeout.given.empty() && knobs.timeout.error.empty())
    knobs.set.emplace_back("XR_DEVICE_TIMEOUT", knobs.timeout.given);
  knobs.one_group = read_scan_one_group_knob();
  if (!knobs.one_group.given.empty())
    knobs.set.emplace_back("XR_SCAN_ONE_GROUP_MAX", knobs.one_group.given);
  knobs.cub_count =
      read_knob(knobs.set, knobs.cub_count_error, "XR_CUB_SORT_COUNT", "32 or 64", parse_cub_count);
  read_auto_choice_knob(knobs.set, knobs.histogram_error, "XR_CUDA_HISTOGRAM_LAYOUT", "replicated",
                        "lane-banked", knobs.histogram_lane_banked);
  return knobs;
}

}  // namespace xr::cuda
