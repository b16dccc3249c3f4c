// What `xreduce inspect` and compare's compiled facts share: whose per-SM limits a backend's
// occupancy is computed against, and a call's passes with their occupancy.
#pragma once

#include <vector>

#include "report/inspect.hpp"
#include "xreduce/backend.hpp"

namespace xr::app {

// The limits occupancy is computed against: the backend's own, else (Vulkan) those of `cuda`'s
// selected device when it is the same GPU by UUID (its selection is left as it is), else none and
// why. `cuda` may be null: compare borrows only from a CUDA backend it runs anyway, so that a
// Vulkan-only process makes no CUDA context (one holds the GPU's clock: docs/cli.md).
LimitsSource limits_for(Backend& b, Backend* cuda);

// The call's passes, each with its occupancy where `limits` are known.
std::vector<InspectedPass> with_occupancy(CompiledCall&& call, const LimitsSource& limits);

}  // namespace xr::app
