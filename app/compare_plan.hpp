// Stage 1 of `xreduce compare`, the plan: every flag checked, backends, devices and variants
// chosen, the --merge files read and parsed, and the capacity checked, before anything is
// allocated or measured, so a mistake fails in a second rather than after a long run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "output_targets.hpp"
#include "report/inspect.hpp"
#include "report/merge.hpp"
#include "xreduce/backend.hpp"
#include "xreduce/generate.hpp"
#include "xreduce/harness.hpp"
#include "xreduce/registry.hpp"

namespace xr::app {

struct PlannedBackend {
  Backend* backend;
  std::vector<VariantInfo> variants;  // matching the globs and primitives, in ladder order
  LimitsSource limits;                // what its rows' occupancy is computed against
};

struct ComparePlan {
  std::vector<Operation> operations;  // by primitive, then scan kind, then op (a histogram's bins)
  std::vector<Primitive> primitives;
  std::vector<DType> dtypes;
  std::vector<std::uint64_t> ns;
  std::string dist;  // --dist as given: each primitive's default where empty (parse_dist_arg)
  MeasureOptions measure;
  std::vector<TimingMode> modes;        // each point is measured in each, cold first
  std::vector<SavedReport> merges;      // --merge: parsed now, folded in after measuring
  std::optional<SavedReport> baseline;  // --baseline: parsed now, compared after measuring
  std::vector<PlannedBackend> backends;
  std::vector<std::pair<std::string, std::string>> skipped;  // backend, why
  std::vector<std::uint64_t> transfer_bytes;  // --transfers: ascending; empty without it
  OutputTargets outputs;                      // --out, --save-json and --plot, resolved
};

// The operations of a compare: --primitive's, each with the flags that apply to it (--op and
// --scan; a sort's --order, --values, --bits and --count; a histogram's --bins, --range,
// --counters and --count). Error(usage) for a flag given to no primitive that takes it. Shared
// with inspect, whose flags are the same.
std::vector<Operation> parse_operations(const CompareOptions& o,
                                        const std::vector<Primitive>& primitives);
// The dtypes of --dtype, or the default: u8 where a histogram is the only primitive, else i32.
std::vector<DType> parse_dtypes(const std::optional<std::string>& dtypes,
                                const std::vector<Primitive>& primitives);

// The plan of `options`, with each backend's device selected. Error(usage) for a bad flag or
// --merge or --baseline file, Error(unavailable) when no backend can run, Error(unsupported) for
// variants the backends do not implement, Error(out_of_memory) for a size a device or the host
// cannot hold.
ComparePlan plan_compare(const Registry& registry, const CompareOptions& options);

}  // namespace xr::app
