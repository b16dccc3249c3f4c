// One plan per reduce id: its schedule (how it maps n elements to blocks, the tile of one block,
// the vector loads in flight) and the passes one call over n elements runs. The GPU backends that
// launch core's plans (Vulkan, OpenCL) translate each pass into their own arguments and grids;
// CUDA's dispatch follows the same chain over partials (reduce_passes in shapes.hpp).
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "xreduce/pass_args.hpp"
#include "xreduce/primitive.hpp"
#include "xreduce/shapes.hpp"

namespace xr {

// How a reduce maps n elements to blocks.
enum class ReduceShape {
  per_block,    // one block per tile, run again over the partials until one value remains
  grid_stride,  // at most `max_groups` blocks walk the input; run again likewise
  single_pass,  // grid-stride, and the last block folds the partials in the same launch
};

struct ReduceSchedule {
  std::string_view id;  // catalog id
  ReduceShape shape = ReduceShape::per_block;
  std::uint32_t threads = 256;   // per block, a power of two
  std::uint32_t items = 1;       // elements per thread per tile (per_block) or iteration
  std::uint32_t unroll = 1;      // vector loads in flight per thread (fast/*)
  std::uint32_t max_groups = 0;  // grid_stride, single_pass: blocks of the first pass
};

// A reduce id in a GPU API's table: core's schedule, the API's program that runs it (an OpenCL C
// kernel, a GLSL shader: its name in the API's sources) and what it needs of the device (the
// API's requirement bits).
struct ReduceRow {
  ReduceSchedule schedule;
  std::string_view program;
  std::uint32_t needs = 0;
  std::string_view id() const { return schedule.id; }
};

// Shared (local) memory of a group of `schedule`'s shaders and kernels: one 4-byte accumulator
// per thread (sdata, or a subgroup's partial) plus a few words of flags.
constexpr std::uint32_t reduce_group_memory_bytes(const ReduceSchedule& schedule) {
  return schedule.threads * 4 + 64;
}

// Blocks of the grid-stride reduces' first pass: enough to keep every SM of a 132-SM GPU busy in
// one wave (8 blocks of 256 each), and few enough that one block folds the partials in the
// second pass. Chosen by that reasoning, not swept; the check that it streams near the read
// probe is in docs/results/H200/tuning-notes.md.
inline constexpr std::uint32_t kGridGroups = 1024;

namespace detail {

// A schedule of core's shared shape for `id`.
constexpr ReduceSchedule shared_reduce(std::string_view id, ReduceShape shape,
                                       std::uint32_t unroll = 1, std::uint32_t max_groups = 0) {
  const TileShape s = shared_shape(Primitive::reduce, id);
  return {.id = id,
          .shape = shape,
          .threads = s.threads,
          .items = s.items,
          .unroll = unroll,
          .max_groups = max_groups};
}

// The subgroup family (Vulkan's and OpenCL's alone: CUDA has warp/*): two elements per thread
// over a grid-stride loop, as smem/multi-element. Not swept.
constexpr ReduceSchedule subgroup_reduce(std::string_view id) {
  return {.id = id,
          .shape = ReduceShape::grid_stride,
          .threads = 256,
          .items = 2,
          .max_groups = kGridGroups};
}

}  // namespace detail

// Every reduce id a plan of core serves, in catalog order: core's shared shapes (shapes.hpp) for
// the ids CUDA shares, the subgroup family's own. fast/*: 4 lanes x 4 vector loads in flight per
// thread and iteration.
inline constexpr ReduceSchedule kReduceSchedules[] = {
    detail::shared_reduce("smem/interleaved-divergent", ReduceShape::per_block),
    detail::shared_reduce("smem/interleaved-strided", ReduceShape::per_block),
    detail::shared_reduce("smem/sequential", ReduceShape::per_block),
    detail::shared_reduce("smem/first-add", ReduceShape::per_block),
    detail::shared_reduce("smem/unroll-last-warp", ReduceShape::per_block),
    detail::shared_reduce("smem/complete-unroll", ReduceShape::per_block),
    detail::shared_reduce("smem/multi-element", ReduceShape::grid_stride, 1, kGridGroups),
    detail::subgroup_reduce("subgroup/shuffle-down"),
    detail::subgroup_reduce("subgroup/shuffle-xor"),
    detail::subgroup_reduce("subgroup/arithmetic"),
    detail::shared_reduce("fast/vectorized", ReduceShape::grid_stride, 4, kGridGroups),
    detail::shared_reduce("fast/single-pass", ReduceShape::single_pass, 4, kGridGroups),
};

// The schedule of `id`; an empty one (id "") for an id no plan of core serves. constexpr: each
// backend's table of kernels takes its ids' schedules at compile time.
constexpr ReduceSchedule reduce_schedule(std::string_view id) {
  for (const ReduceSchedule& s : kReduceSchedules)
    if (s.id == id) return s;
  return {};
}

// One pass: from the input (the first) or the partials in scratch, to the partials or (the last)
// element 0 of the caller's output.
struct ReducePassPlan {
  bool from_input = true;
  bool to_output = false;
  PassArgs args;
  PassBuffers buffers() const {
    return {from_input ? BufferRole::input : BufferRole::scratch,
            to_output ? BufferRole::output : BufferRole::scratch, BufferRole::scratch};
  }
};

struct ReducePlan {
  std::vector<ReducePassPlan> passes;
  std::uint64_t scratch_bytes = 16;
};

// n >= 1. Partials are accumulators of `acc_bytes` at four-element-aligned offsets of scratch;
// fast/single-pass keeps its ticket in scratch's first 16 bytes, its partials after. `group_limit`
// caps the blocks of a grid-stride pass (a device's one-dimensional dispatch).
ReducePlan plan_reduce(const ReduceSchedule& schedule, std::uint64_t n, std::size_t acc_bytes,
                       std::uint64_t group_limit = std::numeric_limits<std::uint64_t>::max());

}  // namespace xr
