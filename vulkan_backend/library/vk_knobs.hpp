// The Vulkan knobs (docs/cli.md, "Environment knobs") as data: the tool reads them from its
// environment once, when its backend is made (vulkan_backend/adapter/vulkan_backend.cpp), and
// hands them to the library's Context (ContextState), so every part of the backend sees the same
// values and a report can say which were set (Backend::knobs). The library reads no environment:
// a caller's Context takes these defaults, the tuned policy. Internal (not installed): the knobs
// are the tool's experiments and test forcings, not an API.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "xreduce/device_timeout.hpp"
#include "xreduce/scan_plan.hpp"
#include "xreduce/shapes.hpp"
#include "xreduce/sort_passes.hpp"

namespace xr::vulkan {

namespace histogram {
// fast/replicated's counters (XR_VK_HISTOGRAM_LAYOUT): the tuning table's choice, lane-banked
// copies wherever the bins fit them, a copy a lane (sliced past one copy), or a copy a lane with
// the bins past one copy counted in global memory, never in slices.
enum class Layout : std::uint8_t { automatic, lane_banked, replicated, global };
}  // namespace histogram

struct VulkanKnobs {
  // XR_VK_VALIDATION=1: the validation layer with synchronization validation; every message
  // fails the call that caused it.
  bool validation = false;
  // XR_VK_ADDRESSING=address: every plan and probe reaches its operands by device address, also
  // where a binding would hold them (tests, the before/after of the address path).
  bool force_address = false;
  // XR_VK_BLOCK_BYTES: the largest allocation an array makes, below maxMemoryAllocationSize, so
  // the several-block path runs on small arrays too. 0: the device's limit.
  std::uint64_t block_bytes = 0;
  // XR_VK_PTX_BARRIER=compute: users' PTX launches (VK_NVX_binary_import) ordered by a compute
  // barrier, as SPIR-V dispatches are, instead of one on all commands: what the full barrier
  // costs. The extension names no stage for its launches, so that order is not guaranteed.
  bool ptx_compute_barriers = false;
  // The look-back's tuning knobs (fast/decoupled-lookback), unset: the tuned defaults.
  std::optional<std::uint32_t> lookback_polls;    // XR_VK_LOOKBACK_POLLS
  std::optional<std::uint32_t> lookback_backoff;  // XR_VK_LOOKBACK_BACKOFF
  std::optional<LookBackShape> lookback_shape;    // XR_VK_LOOKBACK_SHAPE=<workgroup>x<vectors>
  std::optional<std::uint32_t> lookback_window;   // XR_VK_LOOKBACK_WINDOW: words per lane, 1..4
  // XR_VK_LOOKBACK_CLOCK=1 / 0: the back-off counts subgroup-clock cycles (VK_KHR_shader_clock,
  // the closest GLSL gets to __nanosleep), required / never; unset, wherever the device has it.
  std::optional<bool> lookback_clock;
  // XR_VK_SORT_TILE=<threads>x<items>: the radix sorts' digit-pass tile (a multiple of 32 threads
  // from 256 to 1024, 1 to 32 items), its threads kept and its items shrunk to the device's shared
  // memory (vk_sort_plan.cpp refuses one that holds no item); unset, the policy's.
  std::optional<sort::Tile> sort_tile;
  // XR_VK_SORT_RANKING=counting: the radix sorts rank a tile by counting in shared memory, as on a
  // device without subgroup ballots, also where the device has them (tests, its cost); auto: by
  // ballots wherever the device has them.
  bool force_counting = false;
  // XR_VK_SORT_GRIDS=device: a sort whose count is on the device dispatches onesweep's digit
  // passes indirectly over the count's tiles (a grid pass writes them); capacity: it launches
  // its Sort's grids, the workgroups past the count's tiles returning; unset or auto: the
  // tuning table's (vk_sort_plan.cpp).
  std::optional<bool> sort_device_grids;
  // XR_VK_HISTOGRAM_MATCH=ballots: subgroup/aggregated finds a subgroup's invocations of one bin
  // by a ballot loop, as on a device without VK_NV_shader_subgroup_partitioned, also where it has
  // it (tests, its cost); auto: by subgroupPartitionNV wherever the device has it.
  bool force_ballots = false;
  // XR_VK_HISTOGRAM_LAYOUT: fast/replicated's counters lane-banked wherever they fit
  // (lane-banked), a copy a lane (replicated), or a copy a lane with the bins past one copy in
  // global memory (global: as on a device whose shared memory holds no slice of them), also where
  // the tuning table would choose otherwise (tests, their cost); auto: the table's.
  histogram::Layout histogram_layout = histogram::Layout::automatic;
  // XR_SCAN_ONE_GROUP_MAX: the n up to which fast/decoupled-lookback runs as one workgroup.
  ScanOneGroupKnob one_group;
  // XR_DEVICE_TIMEOUT: how long a fence wait lasts before the device counts as lost.
  DeviceTimeout timeout;
  // XR_VK_LOOKBACK_EXPERIMENT=no-wait: every tile takes the identity as its prefix (wrong
  // results, refused by every check): the same shader's cost without the look-back.
  bool lookback_no_wait = false;
  // XR_VK_LOOKBACK_EXPERIMENT=plain-loads: the polls read the status words with plain coherent
  // volatile loads instead of relaxed atomic loads (a data race under the Vulkan memory model;
  // measures what the atomic load costs on a driver, never a default).
  bool lookback_plain_loads = false;
  // XR_VK_CAPTURE_IR=DIR: every pipeline is also made with its internal representations kept
  // (VK_KHR_pipeline_executable_properties), and each is written to DIR as it is created: what
  // a driver shows of its compiled code beyond the statistics (the tail experiment,
  // bench/gpu/tail/run, reads it for the ladder's subgroup tail). Empty: none kept.
  std::string capture_ir_dir;

  // Each knob that took effect, as given (name, value), in the order read: never a malformed or
  // an empty one.
  std::vector<std::pair<std::string, std::string>> set;
  // One line on the first malformed knob of each kind: a device knob (validation, addressing,
  // blocks, the timeout) leaves the backend unavailable; a look-back knob refuses every scanner,
  // a sort knob every sorter and a histogram knob every histogrammer with Error(usage);
  // XR_VK_LOOKBACK_POLLS, the patience of scans and sorts, refuses both.
  std::string device_error;
  std::string scan_error;
  std::string sort_error;
  std::string histogram_error;
};

}  // namespace xr::vulkan
