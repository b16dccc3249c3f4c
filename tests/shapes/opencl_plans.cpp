// The OpenCL backend's plans follow core's shapes (xreduce/shapes.hpp): every shared id's tile
// over every dtype (or a listed exception), the single pass's one-work-group limit. Plans need
// no device.
#include <catch2/catch.hpp>

#include "cl_reduce_plan.hpp"
#include "cl_scan_plan.hpp"
#include "shape_check.hpp"

namespace {

using namespace xr::opencl;

// The tile a reduce plan launches: work-items of its work-group, and elements per work-item
// from the work-groups its first pass gives an array of 64 tiles of the shared shape.
xr::TileShape planned_reduce(const ReduceSpec& spec, xr::TileShape shared, xr::DType t) {
  const std::uint64_t n = 64 * shared.tile();
  const ReducePlan plan = plan_reduce(spec, n, t, xr::Op::sum);
  const std::uint64_t groups = plan.passes.front().params.groups;
  return {spec.workgroup, static_cast<std::uint32_t>(n / groups / spec.workgroup)};
}

// The tile a scan plan's tile pass (the one running the spec's kernel) works on.
xr::TileShape planned_scan(const ScanSpec& spec, xr::DType t) {
  LookBackPolicy policy;  // the defaults, not this process's knobs
  policy.one_group_max = 0;
  const ScanPlan plan = plan_scan(spec, std::uint64_t{1} << 24, t, xr::Op::sum,
                                  xr::ScanKind::inclusive, policy, 1024);
  for (const Pass& p : plan.passes)
    if (p.key.kernel == spec.kernel) {
      if (spec.family == ScanFamily::bit) return {p.key.workgroup, 1};
      const bool vectors =
          spec.family == ScanFamily::reduce_then_scan || spec.family == ScanFamily::look_back;
      return {p.key.workgroup, vectors ? p.key.unroll * lane_elements(t) : p.key.unroll};
    }
  FAIL("no pass runs " << spec.kernel);
  return {};
}

xr::TileShape expected_scan(const ScanSpec& spec) {
  if (spec.id.starts_with("subgroup/")) return xr::kRegisterScanShape;
  return xr::shared_shape(xr::Primitive::scan, spec.id);
}

}  // namespace

TEST_CASE("every OpenCL reduce tile is core's shared shape", "[shapes][opencl]") {
  for (const ReduceSpec& spec : reduce_table()) {
    const xr::TileShape shared = xr::shared_shape(xr::Primitive::reduce, spec.id);
    if (shared.threads == 0) continue;  // subgroup/*: shapes of their own
    for (xr::DType t : xr::kAllDTypes)
      xrtest::check_shape("opencl", xr::Primitive::reduce, spec.id, t,
                          planned_reduce(spec, shared, t), shared);
  }
}

TEST_CASE("every OpenCL scan tile is core's shared shape or a listed exception",
          "[shapes][opencl]") {
  for (const ScanSpec& spec : scan_table())
    for (xr::DType t : xr::kAllDTypes)
      xrtest::check_shape("opencl", xr::Primitive::scan, spec.id, t, planned_scan(spec, t),
                          expected_scan(spec));
}

TEST_CASE("OpenCL fast/single-pass runs one work-group up to core's one-block limit",
          "[shapes][opencl]") {
  const ReduceSpec& spec = *find_reduce("fast/single-pass");
  CHECK(plan_reduce(spec, xr::kSinglePassOneBlockMax, xr::DType::f32, xr::Op::sum)
            .passes.front()
            .params.groups == 1);
  CHECK(plan_reduce(spec, xr::kSinglePassOneBlockMax + 1, xr::DType::f32, xr::Op::sum)
            .passes.front()
            .params.groups > 1);
}
