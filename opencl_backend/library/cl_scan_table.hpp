// The OpenCL scan variants as data: the local memory and requirements of each id, and the
// look-back's tuning; each id's schedule (family, tile, kernels, passes) is core's
// (xreduce/scan_plan.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "cl_device_facts.hpp"
#include "xreduce/backend.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/scan_plan.hpp"
#include "xreduce/shapes.hpp"

namespace xr::opencl {

// A scan id in OpenCL: core's schedule (xreduce/scan_plan.hpp: family, tile, kernels, each kernel
// kernels/<name>.cl), its local memory and what it needs of the device.
struct ScanSpec {
  ScanSchedule schedule;
  std::uint32_t group_bytes = 0;  // the most local memory one of its kernels declares (4-byte
                                  // accumulators; 8-byte ones take twice)
  std::uint32_t needs = 0;
  std::string_view id() const { return schedule.id; }
};

// fast/decoupled-lookback's tile and patience: Vulkan's 32-bit shape (128 x 8 vectors of 4), kept
// by OpenCL's own sweep (XR_CL_LOOKBACK_SHAPE, bench/gpu/opencl/run; the whole sweep is in
// docs/results/H100/tuning-notes.md): within noise of the best, which varies by type; polls of an
// incomplete window before the work-group reduces the missing predecessors itself (the
// decoupled fallback).
struct LookBackPolicy {
  LookBackShape shape{128, 8};
  std::uint32_t polls = 512;
  std::uint64_t one_group_max = kScanOneGroupMax;
  // The measurement that kept the shape.
  std::string_view evidence =
      "H100, 2^28 i32 / f32, cold: 128x8 0.775 / 0.765 ms, 256x8 0.760 / 0.767, 128x16 0.762 / "
      "0.762";
};

std::span<const ScanSpec> scan_table();
inline const ScanSpec* find_scan(std::string_view id) {
  return find_row(scan_table(), id);
}

}  // namespace xr::opencl
