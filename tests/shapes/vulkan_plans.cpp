// Vulkan's translation of core's plans (vk_reduce_plan, vk_scan_plan, vk_sort_plan): one dispatch
// per pass with the pass's push constants, buffers and items; the wide tile's own module, the
// look-back's clock variant, pauses, window and tickets; grids within the device's limits. And the
// tiles Vulkan runs with its own look-back policy: core's shared shape, or an exception core lists.
// Planned for a synthetic device: no GPU needed.
#include <catch2/catch.hpp>

#include <bit>

#include "shape_check.hpp"
#include "vk_reduce_plan.hpp"
#include "vk_scan_plan.hpp"
#include "vk_sort_plan.hpp"

namespace {

using namespace xr::vulkan;

DeviceFacts synthetic_device() {
  DeviceFacts f;
  f.limits.maxComputeWorkGroupCount = std::array<std::uint32_t, 3>{65535, 65535, 65535};
  f.limits.maxComputeWorkGroupInvocations = 1024;
  f.limits.maxComputeWorkGroupSize = std::array<std::uint32_t, 3>{1024, 1024, 64};
  f.limits.maxComputeSharedMemorySize = 49152;
  return f;
}

const DeviceFacts kDevice = synthetic_device();
const LookBackPolicy kTuned = lookback_policy(VulkanKnobs{});

// The tile a scan's tile pass (the one running the schedule's kernel) works on.
xr::TileShape planned_scan(const ScanSpec& spec, xr::DType t) {
  LookBackPolicy policy = kTuned;
  policy.one_group_max = 0;
  const ScanDispatches plan = scan_dispatches(spec, kDevice, std::uint64_t{1} << 24, t, policy);
  for (const ScanDispatch& p : plan.passes)
    if (p.shader == spec.schedule.kernel || p.shader == "scan_lookback_clock")
      return xrtest::scan_tile(spec.schedule.family, p.workgroup, p.unroll, t);
  FAIL("no pass runs " << spec.schedule.kernel);
  return {};
}

}  // namespace

TEST_CASE("every Vulkan reduce is core's schedule and plan, in dispatches", "[shapes][vulkan]") {
  for (const ReduceSpec& spec : reduce_table()) {
    const xr::ReduceSchedule core = xr::reduce_schedule(spec.id());
    REQUIRE(core.id == spec.id());
    CHECK(spec.schedule.threads == core.threads);
    for (std::uint64_t n : {1ull, 65537ull, (1ull << 26) + 5}) {
      const xr::ReducePlan plan = xr::plan_reduce(core, n, 4, 65535);
      const ReduceDispatches d = reduce_dispatches(spec, kDevice, n, 4);
      CAPTURE(std::string(spec.id()), n);
      REQUIRE(d.passes.size() == plan.passes.size());
      CHECK(d.scratch_bytes == plan.scratch_bytes);
      for (std::size_t i = 0; i < d.passes.size(); ++i) {
        CHECK(d.passes[i].pass.args.groups == plan.passes[i].args.groups);
        CHECK(std::uint64_t{d.passes[i].grid.x} * d.passes[i].grid.y >=
              d.passes[i].pass.args.groups);
        CHECK(d.passes[i].grid.x <= 65535);
      }
    }
  }
}

TEST_CASE("Vulkan scans are core's plans, pass for pass, in dispatches", "[shapes][vulkan]") {
  for (const ScanSpec& spec : scan_table())
    for (xr::DType t : {xr::DType::i32, xr::DType::f16, xr::DType::f64})
      for (std::uint64_t n : {1ull, 100000ull, (1ull << 24) + 7}) {
        const xr::ScanPlan plan =
            xr::plan_scan(spec.schedule, n, t, scan_plan_options(kTuned, kDevice, t));
        const ScanDispatches d = scan_dispatches(spec, kDevice, n, t, kTuned);
        CAPTURE(std::string(spec.id()), std::string(xr::to_string(t)), n);
        REQUIRE(d.passes.size() == plan.passes.size());
        CHECK(d.scratch_bytes == plan.scratch_bytes);
        CHECK(d.fallbacks_at == plan.fallbacks_at);
        for (std::size_t i = 0; i < d.passes.size(); ++i) {
          const xr::ScanPassPlan& p = plan.passes[i];
          const ScanDispatch& v = d.passes[i];
          CHECK(v.workgroup == p.threads);
          CHECK(v.unroll == p.items);
          CHECK(v.roles == p.buffers);
          CHECK(v.takes_kind == p.takes_kind);
          CHECK(v.reads_accumulators == p.reads_accumulators());
          CHECK(v.push.n == p.args.n);
          CHECK(v.push.param == p.args.param);
          if (p.stage == xr::ScanStage::wide_tile) {
            CHECK(v.shader == spec.wide_shader);
          } else if (p.stage != xr::ScanStage::look_back) {
            CHECK(v.shader == p.kernel);
            CHECK(v.push.groups == p.args.groups);
          }
        }
      }
}

TEST_CASE("Vulkan's look-back: clock, pauses past pause_tiles, window, a ticket per workgroup",
          "[shapes][vulkan]") {
  const ScanSpec& spec = *find_scan("fast/decoupled-lookback");
  DeviceFacts clocked = kDevice;
  clocked.shader_clock = true;
  const std::uint64_t n = std::uint64_t{1} << 28;
  const ScanDispatches d = scan_dispatches(spec, clocked, n, xr::DType::i32, kTuned);
  REQUIRE(d.passes.size() == 1);
  const ScanDispatch& p = d.passes[0];
  CHECK(p.shader == "scan_lookback_clock");
  CHECK(p.backoff == kTuned.four.backoff);  // 2^28 / 4096 tiles, past pause_tiles
  CHECK(p.mode == kTuned.window);
  CHECK(p.push.groups == p.grid.x * p.grid.y);  // a 2-D grid dispatches more than the tiles
  CHECK(p.push.groups >= d.tiles);
  CHECK(p.push.limit == kTuned.polls);
  // Without the clock the pauses would be integer steps: none, unless asked for.
  const ScanDispatches plain = scan_dispatches(spec, kDevice, n, xr::DType::i32, kTuned);
  CHECK(plain.passes[0].shader == "scan_lookback");
  CHECK(plain.passes[0].backoff == 0);
  LookBackPolicy required = kTuned;
  required.clock = LookBackClock::on;
  CHECK_THROWS_AS(scan_dispatches(spec, kDevice, n, xr::DType::i32, required), xr::Error);
  // 8-byte accumulators take their own tile (core's kShapeExceptions).
  const ScanDispatches wide = scan_dispatches(spec, clocked, n, xr::DType::f64, kTuned);
  CHECK(wide.passes[0].workgroup == kTuned.eight.shape.workgroup);
  // Up to the one-group limit: reduce-then-scan's tile pass over all of n.
  CHECK(scan_dispatches(spec, kDevice, 4096, xr::DType::i32, kTuned).passes[0].shader ==
        "scan_rts_tiles");
}

TEST_CASE("every Vulkan scan tile is core's shared shape or a listed exception",
          "[shapes][vulkan]") {
  for (const ScanSpec& spec : scan_table())
    for (xr::DType t : xr::kAllDTypes)
      xrtest::check_shape("vulkan", xr::Primitive::scan, spec.id(), t, planned_scan(spec, t),
                          xrtest::expected_scan_tile(spec.id()));
}

TEST_CASE("Vulkan bitonic/smem runs core's bitonic plan in a tile the device holds",
          "[shapes][vulkan][sort]") {
  const SortSpec& spec = *find_sort("bitonic/smem");
  CHECK(spec.family == xr::SortFamily::bitonic);
  DeviceFacts device = kDevice;
  device.limits.maxStorageBufferRange = 1u << 30;
  const std::uint64_t n = 100000;
  for (const std::uint32_t shared : {49152u, 16384u})
    for (const xr::DType t : {xr::DType::f16, xr::DType::u32, xr::DType::f64})
      for (const bool pairs : {false, true}) {
        device.limits.maxComputeSharedMemorySize = shared;
        const SortDispatches d = sort_dispatches(spec, device, n, t, xr::SortOrder::descending,
                                                 {0, std::uint32_t(8 * xr::size_of(t))}, pairs, 64);
        CAPTURE(shared, std::string(xr::to_string(t)), pairs);
        const std::uint64_t item_bytes = xr::bitonic_item_bytes(t);
        // CUDA's 512 x 8 (512 x 4 for 64-bit keys), items halved until shared memory holds them.
        const std::uint32_t items = (item_bytes == 8 ? 8u : 4u) / (shared == 16384 ? 2 : 1);
        const std::string width = ".k" + std::to_string(8 * xr::size_of(t));
        const SortDispatch& tiles = d.passes.front();
        CHECK(tiles.module == "sort_bitonic_tiles" + width);
        CHECK(tiles.workgroup == 512);
        CHECK(tiles.items == items);
        CHECK(tiles.workgroup * tiles.items * item_bytes <= shared);
        CHECK(tiles.sort_mode == (xr::is_integer(t) ? 4u : 6u));
        const xr::SortCallPlan& plan = d.layout;
        REQUIRE(d.passes.size() == plan.passes.size());
        for (std::size_t i = 0; i < d.passes.size(); ++i) {
          CHECK(d.passes[i].push.stage == plan.passes[i].args.stage);
          CHECK(d.passes[i].push.stride == plan.passes[i].args.stride);
          CHECK(d.passes[i].bindings == plan.passes[i].bindings);
          CHECK(std::uint64_t{d.passes[i].grid.x} * d.passes[i].grid.y >= plan.passes[i].groups);
        }
        CHECK(d.passes.back().module == "sort_bitonic_gather" + width + (pairs ? ".pairs" : ""));
        CHECK(plan.items_bytes == std::bit_ceil(n) * item_bytes);
      }
  device.limits.maxStorageBufferRange = 1u << 20;  // 2^17 items of 8 bytes take all of it
  CHECK_NOTHROW(sort_dispatches(spec, device, 1u << 17, xr::DType::u32, xr::SortOrder::ascending,
                                {0, 32}, false, 64));
  CHECK_THROWS(sort_dispatches(spec, device, (1u << 17) + 1, xr::DType::u32,
                               xr::SortOrder::ascending, {0, 32}, false, 64));
}
