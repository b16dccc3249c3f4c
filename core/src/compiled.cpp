#include "xreduce/compiled.hpp"

#include <algorithm>
#include <climits>

namespace xr {

std::string_view to_string(OccupancyLimit l) {
  switch (l) {
    case OccupancyLimit::registers:
      return "registers";
    case OccupancyLimit::shared_memory:
      return "shared memory";
    case OccupancyLimit::threads:
      return "threads";
    case OccupancyLimit::blocks:
      return "blocks";
  }
  return "?";
}

std::string binding_words(const Occupancy& o) {
  std::string s;
  for (OccupancyLimit l : o.binding) s += (s.empty() ? "" : ", ") + std::string(to_string(l));
  return s;
}

namespace {

std::uint64_t round_up(std::uint64_t x, std::uint64_t unit) {
  return unit ? (x + unit - 1) / unit * unit : x;
}

// Registers go to warps in units of register_alloc_unit, each SM partition holding its share;
// a block past the per-block file (counted over whole partitions, as the hardware checks) or
// past the per-thread maximum cannot launch.
int blocks_by_registers(const SmLimits& sm, int registers, int warps_per_block) {
  if (registers <= 0) return INT_MAX;
  const auto per_warp =
      static_cast<int>(round_up(std::uint64_t(registers) * sm.warp_size, sm.register_alloc_unit));
  const int parts = std::max(1, sm.sub_partitions);
  const int assumed_warps = static_cast<int>(round_up(warps_per_block, parts));
  if (registers > sm.max_registers_per_thread ||
      per_warp * warps_per_block > sm.registers_per_block ||
      per_warp * assumed_warps > sm.registers_per_block)
    return 0;
  const int warps = (sm.registers_per_sm / parts / per_warp) * parts;
  return warps / warps_per_block;
}

// Shared memory per block: what it declares, what the launch adds and the driver's reserve,
// rounded to the allocation unit; past the per-block limit (the opt-in one when it needs more
// than the default) it cannot launch.
int blocks_by_shared(const SmLimits& sm, std::uint64_t allocated, std::uint64_t used) {
  const std::uint64_t limit =
      (used > sm.shared_per_block ? sm.shared_per_block_optin : sm.shared_per_block) +
      sm.reserved_shared_per_block;
  if (allocated > limit) return 0;
  if (allocated == 0) return INT_MAX;
  return static_cast<int>(sm.shared_per_sm / allocated);
}

}  // namespace

std::optional<Occupancy> occupancy(const SmLimits& sm, const CompiledPass& pass) {
  if (!pass.registers || !pass.static_shared || pass.block == 0 || sm.warp_size <= 0)
    return std::nullopt;
  const int block = static_cast<int>(pass.block);
  const int warps_per_block = (block + sm.warp_size - 1) / sm.warp_size;
  Occupancy o;
  const std::uint64_t used = *pass.static_shared + pass.dynamic_shared;
  o.shared_per_block = round_up(used + sm.reserved_shared_per_block, sm.shared_alloc_unit);
  o.by_registers = blocks_by_registers(sm, *pass.registers, warps_per_block);
  o.by_shared = blocks_by_shared(sm, o.shared_per_block, used);
  o.by_threads =
      block > sm.max_threads_per_block ? 0 : sm.max_threads_per_sm / sm.warp_size / warps_per_block;
  o.by_blocks = sm.max_blocks_per_sm;
  o.blocks_per_sm = std::min({o.by_registers, o.by_shared, o.by_threads, o.by_blocks});
  o.warps_per_sm = o.blocks_per_sm * warps_per_block;
  const int max_warps = sm.max_threads_per_sm / sm.warp_size;
  o.fraction = max_warps > 0 ? static_cast<double>(o.warps_per_sm) / max_warps : 0;
  const std::pair<OccupancyLimit, int> limits[] = {{OccupancyLimit::registers, o.by_registers},
                                                   {OccupancyLimit::shared_memory, o.by_shared},
                                                   {OccupancyLimit::threads, o.by_threads},
                                                   {OccupancyLimit::blocks, o.by_blocks}};
  for (const auto& [limit, blocks] : limits)
    if (blocks == o.blocks_per_sm) o.binding.push_back(limit);
  return o;
}

}  // namespace xr
