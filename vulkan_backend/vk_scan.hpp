// The scan half of the Vulkan dispatch layer: the scan variant table (data: shaders, workgroup
// size, items, requirements) and the scanner that plans a variant's passes once per (n, dtype,
// op), records them once per (input, output, kind) into one command buffer and resubmits it.
// The same ids and the same algorithms as the CUDA ladder (cuda_backend/scan_dispatch.hpp),
// with subgroups where CUDA has warps.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vk_context.hpp"
#include "xreduce/backend.hpp"

namespace xr::vulkan {

enum class ScanFamily {
  tiled,             // a workgroup scans a tile and writes its total; the totals are scanned by
                     // the same shader level by level, then added back down (scan_uniform_add)
  bit,               // seed 001's Fenwick tree: build in-block, build above, query
  reduce_then_scan,  // fast/reduce-then-scan: reduce chunks, scan the partials, rescan chunks
  look_back,         // fast/decoupled-lookback: one pass with the decoupled fallback
};

// One row of the scan table. Shader names are algorithm names in shaders/ (modules
// "<shader>.<dtype>.<op>").
struct ScanSpec {
  std::string_view id;
  ScanFamily family;
  std::string_view shader;     // tiled: the tile scan; bit: the in-block build
  std::string_view levels;     // bit: the build above the block (one layer per pass, or one
                               // workgroup for all)
  std::string_view query;      // bit: the query
  std::uint32_t workgroup;     // invocations (specialization constant 0), a power of two
  std::uint32_t items;         // tiled: elements per invocation; fast/*: 4-element vectors per
                               // invocation (specialization constant 1; 16 bytes for 32-bit
                               // types, 8 for f16/bf16, 32 for 64-bit ones)
  std::uint32_t shared_bytes;  // the most shared memory one of its shaders declares, with 4-byte
                               // accumulators (8-byte ones: twice, vk_requirements.hpp)
  std::uint32_t needs;         // Need bits (vk_requirements.hpp)
  bool deterministic = true;   // float results bitwise the same run to run
};

std::span<const ScanSpec> scan_table();
const ScanSpec* find_scan(std::string_view id);
std::vector<VariantInfo> scan_infos();
// Why the device cannot run `spec`, in words; empty when it can.
std::string scan_unsupported_reason(const ScanSpec& spec, const DeviceFacts& facts);

std::unique_ptr<Scanner> make_scanner(std::shared_ptr<Device> device, const ScanSpec& spec);

}  // namespace xr::vulkan
