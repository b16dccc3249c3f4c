// The OpenCL scan variants as data: kernels, work-group size, items and requirements of each id,
// and the look-back's tuning. Vulkan's table (vk_scan_table.hpp) in OpenCL C, shapes from core.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "cl_device_facts.hpp"
#include "xreduce/backend.hpp"
#include "xreduce/shapes.hpp"

namespace xr::opencl {

enum class ScanFamily {
  tiled,             // a work-group scans a tile and writes its total; the totals are scanned by
                     // the same kernel level by level, then added back down (scan_uniform_add)
  bit,               // seed 001's Fenwick tree: build in-block, build above, query
  reduce_then_scan,  // fast/reduce-then-scan: reduce chunks, scan the partials, rescan chunks
  look_back,         // fast/decoupled-lookback: one pass with the decoupled fallback
};

struct ScanSpec {
  std::string_view id;
  ScanFamily family = ScanFamily::tiled;
  std::string_view kernel;    // tiled: the tile scan; bit: the in-block build; fast/*: the tile
  std::string_view levels{};  // bit: the build above the block
  std::string_view query{};   // bit: the query
  std::uint32_t workgroup = 256;
  std::uint32_t items = 1;  // tiled: elements per work-item; fast/*: 4-element vectors per item
  std::uint32_t local_bytes = 0;  // the most local memory one of its kernels declares (4-byte
                                  // accumulators; 8-byte ones take twice)
  std::uint32_t needs = 0;
  bool deterministic = true;
};

// fast/decoupled-lookback's tile and patience: Vulkan's 32-bit shape (128 x 8 vectors of 4), kept
// by OpenCL's own sweep (XR_CL_LOOKBACK_SHAPE, bench/gpu/opencl/run; H100, 2^28, cold, i32 / f32
// ms: 128x8 0.775 / 0.765, 128x16 0.762 / 0.762, 256x8 0.760 / 0.767, 64x8 0.786 / 0.798, 128x4
// 0.847 / 0.857, 256x4 0.840 / 0.842: within 2 % of the best, which varies by type); polls of an
// incomplete window before the work-group reduces the missing predecessors itself (the
// decoupled fallback).
struct LookBackPolicy {
  std::uint32_t workgroup = 128;
  std::uint32_t vectors = 8;
  std::uint32_t polls = 512;
  std::uint64_t one_group_max = kScanOneGroupMax;
};

std::span<const ScanSpec> scan_table();
const ScanSpec* find_scan(std::string_view id);
VariantInfo scan_info(const ScanSpec& spec);
std::string scan_unsupported_reason(const ScanSpec& spec, const DeviceFacts& facts);

}  // namespace xr::opencl
