// The Vulkan backend's plans follow core's shapes (xreduce/shapes.hpp): every shared id's tile
// over every dtype (or a listed exception), the single pass's one-workgroup limit, and the tiled
// scans' levels and scratch. Planned for a synthetic device: no GPU needed.
#include <catch2/catch.hpp>

#include "shape_check.hpp"
#include "vk_reduce_plan.hpp"
#include "vk_scan_plan.hpp"
#include "xreduce/catalog.hpp"

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

// The tile a reduce plan dispatches: threads of its workgroup, and elements per thread from the
// workgroups its first pass gives an array of 64 tiles of the shared shape.
xr::TileShape planned_reduce(const ReduceSpec& spec, xr::TileShape shared) {
  const std::uint64_t n = 64 * shared.tile();
  const ReducePlan plan = plan_reduce(spec, kDevice, n, 4);
  const std::uint64_t groups = plan.passes.front().push.groups;
  return {spec.workgroup, static_cast<std::uint32_t>(n / groups / spec.workgroup)};
}

// The tile a scan plan's tile pass (the one running the spec's shader) works on.
xr::TileShape planned_scan(const ScanSpec& spec, xr::DType t) {
  const ScanPlan plan = plan_scan(spec, kDevice, std::uint64_t{1} << 24, t, kTuned);
  for (const ScanPass& p : plan.passes)
    if (p.shader == spec.shader) {
      if (spec.family == ScanFamily::bit) return {p.workgroup, 1};
      const bool vectors =
          spec.family == ScanFamily::reduce_then_scan || spec.family == ScanFamily::look_back;
      return {p.workgroup, vectors ? p.unroll * lane_elements(t) : p.unroll};
    }
  FAIL("no pass runs " << spec.shader);
  return {};
}

xr::TileShape expected_scan(const ScanSpec& spec) {
  if (spec.id.starts_with("subgroup/")) return xr::kRegisterScanShape;
  return xr::shared_shape(xr::Primitive::scan, spec.id);
}

}  // namespace

TEST_CASE("every Vulkan reduce tile is core's shared shape", "[shapes][vulkan]") {
  for (const ReduceSpec& spec : reduce_table()) {
    const xr::TileShape shared = xr::shared_shape(xr::Primitive::reduce, spec.id);
    if (shared.threads == 0) continue;  // subgroup/*: Vulkan's alone
    for (xr::DType t : xr::kAllDTypes)
      xrtest::check_shape("vulkan", xr::Primitive::reduce, spec.id, t, planned_reduce(spec, shared),
                          shared);
  }
}

TEST_CASE("every Vulkan scan tile is core's shared shape or a listed exception",
          "[shapes][vulkan]") {
  for (const ScanSpec& spec : scan_table())
    for (xr::DType t : xr::kAllDTypes)
      xrtest::check_shape("vulkan", xr::Primitive::scan, spec.id, t, planned_scan(spec, t),
                          expected_scan(spec));
}

TEST_CASE("fast/single-pass runs one workgroup up to core's one-block limit", "[shapes][vulkan]") {
  const ReduceSpec& spec = *find_reduce("fast/single-pass");
  CHECK(plan_reduce(spec, kDevice, xr::kSinglePassOneBlockMax, 4).passes.front().push.groups == 1);
  CHECK(plan_reduce(spec, kDevice, xr::kSinglePassOneBlockMax + 1, 4).passes.front().push.groups >
        1);
}

TEST_CASE("Vulkan reduce passes are core's chain over the partials", "[shapes][vulkan]") {
  const ReduceSpec& spec = *find_reduce("smem/sequential");
  for (std::uint64_t n : {1ull, 256ull, 257ull, 65537ull, (1ull << 26) + 5}) {
    CAPTURE(n);
    const ReducePlan plan = plan_reduce(spec, kDevice, n, 4);
    const auto chain = xr::reduce_passes(n, 4, [&](std::uint64_t m) { return (m + 255) / 256; });
    REQUIRE(plan.passes.size() == chain.size());
    for (std::size_t i = 0; i < chain.size(); ++i) {
      CHECK(plan.passes[i].push.n == chain[i].count);
      CHECK(plan.passes[i].push.in_offset == chain[i].in_offset);
      // The last pass writes the result to element 0 of the caller's output.
      const bool last = i + 1 == chain.size();
      CHECK(plan.passes[i].to_output == last);
      CHECK(plan.passes[i].push.out_offset == (last ? 0 : chain[i].out_offset));
      CHECK(plan.passes[i].push.groups == chain[i].blocks);
    }
    CHECK(plan.scratch_bytes == std::max<std::uint64_t>(16, xr::scratch_elements(chain, 4) * 4));
  }
}

TEST_CASE("Vulkan tiled scans dispatch core's levels and scratch", "[shapes][vulkan]") {
  for (const char* id : {"smem/hillis-steele", "blelloch/bcao", "subgroup/arithmetic"})
    for (xr::DType t : {xr::DType::f32, xr::DType::f16, xr::DType::i64})
      for (std::uint64_t n : {1ull, 4096ull, 1000003ull, (1ull << 25) + 7}) {
        const ScanSpec& spec = *find_scan(id);
        const std::uint32_t tile = spec.workgroup * spec.items;
        const std::size_t acc = xr::size_of(xr::accumulator_of(t));
        const xr::TiledScanLayout layout =
            xr::tiled_scan_layout(n, tile, acc, xr::accumulator_of(t) != t, 4 * acc);
        const ScanPlan plan = plan_scan(spec, kDevice, n, t, kTuned);
        CAPTURE(id, n, std::string(xr::to_string(t)), layout.levels());
        REQUIRE(plan.passes.size() == 2 * layout.levels() - 1);
        CHECK(plan.scratch_bytes == std::max<std::uint64_t>(16, layout.scratch_bytes));
        for (std::size_t level = 0; level < layout.levels(); ++level) {
          CHECK(plan.passes[level].push.n == layout.counts[level]);
          if (level > 0) CHECK(plan.passes[level].push.in_offset == layout.totals[level - 1] / acc);
        }
        if (layout.wide) CHECK(plan.passes.front().push.out_offset == *layout.wide / acc);
      }
}

TEST_CASE("Vulkan fast/decoupled-lookback runs one workgroup up to core's one-group limit",
          "[shapes][vulkan]") {
  const ScanSpec& spec = *find_scan("fast/decoupled-lookback");
  for (xr::DType t : {xr::DType::i32, xr::DType::f16, xr::DType::f64}) {
    CAPTURE(std::string(xr::to_string(t)));
    const ScanPlan one = plan_scan(spec, kDevice, xr::kScanOneGroupMax, t, kTuned);
    REQUIRE(one.passes.size() == 1);
    CHECK(one.passes[0].shader == "scan_rts_tiles");
    CHECK(one.passes[0].push.groups == 1);
    CHECK(one.passes[0].push.param == xr::kScanOneGroupMax);  // one chunk: all of it
    CHECK_FALSE(one.fallbacks_at.has_value());
    const ScanPlan many = plan_scan(spec, kDevice, xr::kScanOneGroupMax + 1, t, kTuned);
    REQUIRE(many.passes.size() == 1);
    CHECK(many.passes[0].shader == "scan_lookback");
    CHECK(many.passes[0].push.groups >= many.tiles);
    CHECK(many.fallbacks_at.has_value());
  }
  LookBackPolicy never = kTuned;
  never.one_group_max = 0;  // XR_SCAN_ONE_GROUP_MAX=0
  CHECK(plan_scan(spec, kDevice, 1, xr::DType::i32, never).passes[0].shader == "scan_lookback");
}
