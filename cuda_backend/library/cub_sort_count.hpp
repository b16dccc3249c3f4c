// lib/cub's one choice: the integer type of num_items. cub::DeviceRadixSort compiles different
// code for a 32-bit and a 64-bit count (its offset type follows num_items), and which of the two
// sorts faster depends on the key type, the form and the GPU. CUB at its best is the faster one:
// this table holds the choice for each GPU it was measured on, each entry with its evidence.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "device_limits.hpp"
#include "xreduce/types.hpp"

namespace xr::cuda {

enum class CubCount : std::uint8_t { bits32, bits64 };

std::string_view to_string(CubCount c);
// "32" or "64" (XR_CUB_SORT_COUNT); nullopt for anything else.
std::optional<CubCount> parse_cub_count(std::string_view text);

// One measured choice: on GPUs of compute capability `cc` (x 10), `key` keys (with values when
// `pairs`: measured with u32 values, and taken for u64 values too) sort faster with a `count`
// num_items. `evidence`: the GPU, the shape, both medians and the report in docs/results they
// come from.
struct CubCountEntry {
  int cc = 0;
  DType key{};
  bool pairs = false;
  CubCount count{};
  std::string_view evidence;
};
std::span<const CubCountEntry> cub_count_table();

// What lib/cub passes as num_items, and why.
struct CubCountChoice {
  CubCount count{};
  std::string why;
};
// `forced`: the tool's XR_CUB_SORT_COUNT. A count past 2^32 - 1 is 64-bit whatever is asked; a
// GPU with no entry gets the 32-bit int count most callers pass.
CubCountChoice choose_cub_count(const DeviceLimits& device, DType key, bool pairs, std::uint64_t n,
                                std::optional<CubCount> forced);

}  // namespace xr::cuda
