// A sort's plan in OpenCL: core's passes (xreduce/sort_passes.hpp) translated into launches,
// each a build of its kernel for the key's width (and kind and order, and values), its work-group
// and tile, the operands at its five arguments, its arguments and grid; the tiles this device's
// local memory takes; and the launches enqueued over the caller's buffers.
#pragma once

#include <CL/cl.h>

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cl_device_facts.hpp"
#include "cl_passes.hpp"
#include "cl_programs.hpp"
#include "cl_sort_table.hpp"
#include "xreduce/sort_passes.hpp"

namespace xr::opencl {

namespace sort {
using namespace xr::sort;  // core's schedule vocabulary, beside this API's plan
// A pass's build and the plan's grid for it (a call launches core's passes by stage).
struct Launch {
  KernelKey key;  // kernels/<kernel>.cl built with -DK16|K32|K64 (and -DSORT_MODE, -DPAIRS,
                  // -DVALUE64)
  std::uint64_t groups = 1;
};

struct Plan {
  std::vector<Launch> passes;
  Schedule layout;          // core's plan: the scratch's layout (its passes are translated above)
  ScheduleOptions options;  // what core planned it with: a call of fewer keys is planned alike
  std::uint32_t mode = 0;  // the key's kind and order: every pass's `mode` (kernels/sort_common.cl)
  std::uint32_t key_bytes = 4;
  DType dtype = DType::u32;
  bool per_mode = false;  // the ordered stages built per kind and order
  bool wide = false;      // core's wide form
};
}  // namespace sort

// What a sort of `family` over `t` asks of the device, as data: core's options
// (xreduce/sort_tiles.hpp) for this device's limits, with a digit pass's tile (the policy's for
// keys or for `pairs`, or `tile`, fitted to its work-group and local memory) or core's bitonic
// tile. `polls`: the look-back's patience (0: the forced fallback). `wide`: core's wide form
// (kernels built with -DWIDE).
sort::ScheduleOptions sort_plan_options(const DeviceFacts& facts, sort::Family family, DType t,
                                        bool wide, std::uint32_t polls,
                                        std::optional<sort::Tile> tile, bool pairs = false);

// n in 1..sort_plan_max_keys(spec.family), `bits` effective; Error(unsupported) past it. The
// radix sorts take core's wide form past kSortNarrowMaxKeys keys, or with `force_wide`. The
// stages that read keys by their order are built per key kind and order (-DSORT_MODE) where the
// device's policy says so (cl_sort_plan.cpp), or as `per_mode` says.
sort::Plan sort_launches(const sort::Spec& spec, const DeviceFacts& facts, std::uint64_t n, DType t,
                         SortOrder order, BitRange bits, SortValues values, std::uint32_t polls,
                         std::optional<sort::Tile> tile = {}, bool force_wide = false,
                         std::optional<bool> per_mode = {});

namespace sort {
// Where each sort::Operand lies: a buffer and a byte offset into it.
struct Region {
  cl_mem buffer = nullptr;
  std::uint64_t offset = 0;
};
using Regions = std::array<Region, kOperands>;  // by Operand
}  // namespace sort

// The same plan's call with its count on the device (core's counted form: the capacity's grids,
// the work-groups past the count's tiles returning). Error(unsupported) past
// sort_counted_max_keys.
sort::Plan sort_counted_launches(const sort::Spec& spec, const sort::Plan& direct, BitRange bits,
                                 SortValues values);

namespace sort {
// Each stage's kernel as a plan builds it (its key's width, kind and order, values, form): a call
// of any size launches its passes by stage. Owned by the Programs cache.
using StageKernels = std::array<cl_kernel, kStages>;
// What every launch of one call shares: the kernels, the operands, the count's word (a counted
// call's; any word otherwise, never read), the key's bytes and its kind and order.
struct CallOperands {
  const StageKernels* kernels = nullptr;
  Regions regions{};
  Region count{};
  std::uint32_t key_bytes = 4;
  std::uint32_t mode = 0;
};
}  // namespace sort
// Adds `plan`'s kernels to `kernels`, building them now.
void add_sort_kernels(Programs& programs, const sort::Plan& plan, sort::StageKernels& kernels);

// Enqueues `passes` (core's, of a plan whose kernels `call` holds) in order on an in-order queue.
void enqueue_sort(cl_command_queue queue, std::span<const sort::Pass> passes,
                  const sort::CallOperands& call, const EnqueueEvents& events);

}  // namespace xr::opencl
