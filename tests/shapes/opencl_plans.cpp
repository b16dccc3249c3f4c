// OpenCL's translation of core's plans (cl_reduce_plan, cl_scan_plan): one launch per pass, each
// kernel built for what its pass reads (the accumulator over scratch) and writes (the caller's
// elements), a wide tile by -DXR_WIDE_DST, the call's kind on the passes that take it; and the
// tiles OpenCL runs with its look-back policy: core's shared shape, or a listed exception. Plans
// need no device.
#include <catch2/catch.hpp>

#include "cl_reduce_plan.hpp"
#include "cl_scan_plan.hpp"
#include "shape_check.hpp"

namespace {

using namespace xr::opencl;

// The defaults, not this process's knobs.
const LookBackPolicy kPolicy{};

// The tile a scan's tile pass (the one running the schedule's kernel) works on.
xr::TileShape planned_scan(const ScanSpec& spec, xr::DType t) {
  LookBackPolicy policy = kPolicy;
  policy.one_group_max = 0;
  const Launches plan = scan_launches(spec, std::uint64_t{1} << 24, t, xr::Op::sum,
                                      xr::ScanKind::inclusive, policy, 1024);
  for (const Pass& p : plan.passes)
    if (p.key.kernel == spec.schedule.kernel)
      return xrtest::scan_tile(spec.schedule.family, p.key.workgroup, p.key.unroll, t);
  FAIL("no pass runs " << spec.schedule.kernel);
  return {};
}

}  // namespace

TEST_CASE("every OpenCL reduce is core's schedule and plan, in launches", "[shapes][opencl]") {
  for (const ReduceSpec& spec : reduce_table())
    for (xr::DType t : {xr::DType::i32, xr::DType::f16, xr::DType::f64}) {
      const xr::ReduceSchedule core = xr::reduce_schedule(spec.id());
      REQUIRE(core.id == spec.id());
      const std::uint64_t n = (1ull << 24) + 5;
      const xr::ReducePlan plan = xr::plan_reduce(core, n, xr::size_of(xr::accumulator_of(t)));
      const Launches l = reduce_launches(spec, n, t, xr::Op::max);
      CAPTURE(std::string(spec.id()), std::string(xr::to_string(t)));
      REQUIRE(l.passes.size() == plan.passes.size());
      CHECK(l.scratch_bytes == plan.scratch_bytes);
      for (std::size_t i = 0; i < l.passes.size(); ++i) {
        const Pass& p = l.passes[i];
        CHECK(p.key.kernel == spec.program);
        CHECK(p.key.workgroup == core.threads);
        CHECK(p.key.unroll == core.unroll);
        CHECK(p.key.op == xr::Op::max);
        // The later passes read partials: the accumulator's kernel.
        CHECK(p.key.dtype == (i == 0 ? t : xr::accumulator_of(t)));
        CHECK(p.roles == plan.passes[i].buffers());
        CHECK(p.params.n == plan.passes[i].args.n);
        CHECK(p.groups == plan.passes[i].args.groups);
      }
    }
}

TEST_CASE("OpenCL scans are core's plans, pass for pass, in launches", "[shapes][opencl]") {
  for (const ScanSpec& spec : scan_table())
    for (xr::DType t : {xr::DType::i32, xr::DType::f16, xr::DType::f64})
      for (std::uint64_t n : {1ull, 100000ull, (1ull << 24) + 7}) {
        const xr::ScanPlan plan = xr::plan_scan(spec.schedule, n, t,
                                                {.look_back = kPolicy.shape,
                                                 .polls = kPolicy.polls,
                                                 .one_group_max = kPolicy.one_group_max,
                                                 .max_threads = 1024});
        const Launches l =
            scan_launches(spec, n, t, xr::Op::sum, xr::ScanKind::exclusive, kPolicy, 1024);
        CAPTURE(std::string(spec.id()), std::string(xr::to_string(t)), n);
        REQUIRE(l.passes.size() == plan.passes.size());
        CHECK(l.scratch_bytes == plan.scratch_bytes);
        CHECK(l.zero_scratch == plan.zero_scratch);
        CHECK(l.fallbacks_at == plan.fallbacks_at);
        for (std::size_t i = 0; i < l.passes.size(); ++i) {
          const xr::ScanPassPlan& p = plan.passes[i];
          const Pass& c = l.passes[i];
          CHECK(c.key.kernel == p.kernel);
          CHECK(c.key.workgroup == p.threads);
          CHECK(c.key.unroll == p.items);
          CHECK(c.key.dtype == (p.reads_accumulators() ? xr::accumulator_of(t) : t));
          CHECK(c.key.dst_elements == p.writes_elements());
          CHECK((c.key.defines == "-DXR_WIDE_DST") == (p.stage == xr::ScanStage::wide_tile));
          CHECK(c.roles == p.buffers);
          // An exclusive call: the passes that write its output take the flag.
          CHECK(c.params.flags == (p.args.flags | (p.takes_kind ? xr::kScanExclusive : 0u)));
          CHECK(c.groups == std::max<std::uint32_t>(p.args.groups, 1));
        }
      }
}

TEST_CASE("every OpenCL scan tile is core's shared shape or a listed exception",
          "[shapes][opencl]") {
  for (const ScanSpec& spec : scan_table())
    for (xr::DType t : xr::kElementDTypes)
      xrtest::check_shape("opencl", xr::Primitive::scan, spec.id(), t, planned_scan(spec, t),
                          xrtest::expected_scan_tile(spec.id()));
}
