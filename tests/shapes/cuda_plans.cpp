// The CUDA backend's plans follow core's shapes (xreduce/shapes.hpp): every shared id's tile over
// every dtype (or a listed exception), the reduce chain over the partials and the tiled scans'
// levels and scratch. Planned for a synthetic device: the plans that ask the driver for
// occupancy (fast/*) are checked through their policies, and their one-block limit only where a
// device is present.
#include <catch2/catch.hpp>

#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <utility>

#include "reduce_dispatch.hpp"
#include "scan_dispatch.hpp"
#include "shape_check.hpp"
#include "sort_dispatch.hpp"
#include "xreduce/error.hpp"

namespace {

using namespace xr::cuda;

DeviceLimits synthetic_device() {
  DeviceLimits d;
  d.cc_major = 9;
  d.sm_count = 132;
  d.max_threads_per_sm = 2048;
  d.max_threads_per_block = 1024;
  d.shared_per_block = 48 << 10;
  d.l2_bytes = 50 << 20;
  d.cooperative_launch = true;
  return d;
}

const DeviceLimits kDevice = synthetic_device();

// The shared reduce ids CUDA implements, and their kernels.
const std::pair<const char*, ReduceKernel> kReduces[] = {
    {"smem/interleaved-divergent", ReduceKernel::smem_interleaved_divergent},
    {"smem/interleaved-strided", ReduceKernel::smem_interleaved_strided},
    {"smem/sequential", ReduceKernel::smem_sequential},
    {"smem/first-add", ReduceKernel::smem_first_add},
    {"smem/unroll-last-warp", ReduceKernel::smem_unroll_last_warp},
    {"smem/complete-unroll", ReduceKernel::smem_complete_unroll},
    {"smem/multi-element", ReduceKernel::smem_multi_element},
    {"fast/vectorized", ReduceKernel::fast_vectorized},
    {"fast/single-pass", ReduceKernel::fast_single_pass},
};

// The shared scan ids CUDA implements (warp/shuffle-up: the register scan), and their kernels.
const std::pair<const char*, ScanKernel> kScans[] = {
    {"smem/hillis-steele", ScanKernel::smem_hillis_steele},
    {"bit/one-layer", ScanKernel::bit_one_layer},
    {"bit/between-blocks", ScanKernel::bit_between_blocks},
    {"bit/smem", ScanKernel::bit_smem},
    {"bit/unrolled", ScanKernel::bit_unrolled},
    {"blelloch/bcao", ScanKernel::blelloch_bcao},
    {"warp/shuffle-up", ScanKernel::warp_shuffle_up},
    {"fast/reduce-then-scan", ScanKernel::fast_reduce_then_scan},
    {"fast/decoupled-lookback", ScanKernel::fast_decoupled_lookback},
};

// Elements per thread of a policy over `t`: vectorised policies load `vector_bytes` at a time,
// so their items (stated for 4-byte elements) scale with the element; the rest are elements.
std::uint32_t items_over(const Policy& p, xr::DType t) {
  if (p.vector_bytes <= 4) return static_cast<std::uint32_t>(p.items_per_thread);
  return static_cast<std::uint32_t>(p.items_per_thread * 4 / xr::size_of(t));
}

// The look-back's policy states its 4-byte tile; 8-byte accumulators take their own (planned).
xr::TileShape planned_scan(ScanKernel k, xr::DType t) {
  const Policy p = scan_policy(k, kDevice);
  if (k == ScanKernel::fast_decoupled_lookback && xr::size_of(xr::accumulator_of(t)) == 8) {
    const ScanPlan plan = make_scan_plan(k, t, xr::Op::sum, std::size_t{1} << 20, kDevice);
    return {plan.block, static_cast<std::uint32_t>(plan.tile / plan.block)};
  }
  return {static_cast<std::uint32_t>(p.block_threads), items_over(p, t)};
}

}  // namespace

TEST_CASE("every CUDA reduce tile is core's shared shape or a listed exception", "[shapes][cuda]") {
  for (const auto& [id, kernel] : kReduces) {
    const Policy p = reduce_policy(kernel, kDevice);
    for (xr::DType t : xr::kElementDTypes)
      xrtest::check_shape("cuda", xr::Primitive::reduce, id, t,
                          {static_cast<std::uint32_t>(p.block_threads), items_over(p, t)},
                          xr::shared_shape(xr::Primitive::reduce, id));
  }
}

TEST_CASE("every CUDA scan tile is core's shared shape or a listed exception", "[shapes][cuda]") {
  for (const auto& [id, kernel] : kScans)
    for (xr::DType t : xr::kElementDTypes)
      xrtest::check_shape("cuda", xr::Primitive::scan, id, t, planned_scan(kernel, t),
                          xrtest::expected_scan_tile(id));
}

TEST_CASE("CUDA reduce launches are core's chain over the partials", "[shapes][cuda]") {
  for (std::uint64_t n : {1ull, 256ull, 257ull, 65537ull, (1ull << 26) + 5}) {
    CAPTURE(n);
    const ReducePlan plan =
        make_reduce_plan(ReduceKernel::smem_sequential, xr::DType::f32, xr::Op::sum, n, kDevice);
    const auto chain = xr::reduce_passes(n, 4, [](std::uint64_t m) { return (m + 255) / 256; });
    REQUIRE(plan.launches.size() == chain.size());
    for (std::size_t i = 0; i < chain.size(); ++i) {
      CHECK(plan.launches[i].elems == chain[i].count);
      CHECK(plan.launches[i].grid == chain[i].blocks);
      CHECK(plan.launches[i].src == (i == 0 ? ReduceLaunch::kInput : chain[i].in_offset));
      CHECK(plan.launches[i].dst ==
            (i + 1 == chain.size() ? ReduceLaunch::kResult : chain[i].out_offset));
    }
    CHECK(plan.scratch_bytes == chain.back().out_offset * 4);
  }
}

TEST_CASE("CUDA tiled scans dispatch core's levels and scratch", "[shapes][cuda]") {
  for (const auto& [id, k] : {std::pair{"smem/hillis-steele", ScanKernel::smem_hillis_steele},
                              std::pair{"blelloch/bcao", ScanKernel::blelloch_bcao},
                              std::pair{"warp/shuffle-up", ScanKernel::warp_shuffle_up}})
    for (xr::DType t : {xr::DType::f32, xr::DType::f16, xr::DType::i64})
      for (std::size_t n :
           {std::size_t{1}, std::size_t{4096}, std::size_t{1000003}, (std::size_t{1} << 25) + 7}) {
        const ScanPlan plan = make_scan_plan(k, t, xr::Op::sum, n, kDevice);
        const std::size_t acc = xr::size_of(xr::accumulator_of(t));
        const xr::TiledScanLayout layout =
            xr::tiled_scan_layout(n, plan.tile, acc, xr::accumulator_of(t) != t, 256);
        CAPTURE(plan.describe(), n, std::string(xr::to_string(t)));
        CHECK(plan.tile == xrtest::expected_scan_tile(id).tile());
        REQUIRE(plan.counts.size() == layout.levels());
        for (std::size_t level = 0; level < layout.levels(); ++level)
          CHECK(plan.counts[level] == layout.counts[level]);
        for (std::size_t level = 1; level < layout.levels(); ++level) {
          CHECK(plan.offsets[2 * (level - 1)] == layout.totals[level - 1]);
          CHECK(plan.offsets[2 * (level - 1) + 1] == layout.scanned[level - 1]);
        }
        CHECK((plan.offsets.size() > 2 * (layout.levels() - 1)) == layout.wide.has_value());
        CHECK(plan.scratch_bytes == layout.scratch_bytes);
      }
}

TEST_CASE("fast/single-pass runs one block up to core's one-block limit", "[shapes][cuda]") {
  // Its plan asks the driver for the kernel's occupancy: only where a device is present.
  const auto groups = [](std::uint64_t n) {
    return make_reduce_plan(ReduceKernel::fast_single_pass, xr::DType::f32, xr::Op::sum, n, kDevice)
        .launches.front()
        .grid;
  };
  unsigned at_limit = 0, past_limit = 0;
  try {
    at_limit = groups(xr::kSinglePassOneBlockMax);
    past_limit = groups(xr::kSinglePassOneBlockMax + 1);
  } catch (const xr::Error& e) {
    WARN("not checked without a CUDA device: " << e.what());
    return;
  }
  CHECK(at_limit == 1);
  CHECK(past_limit > 1);
}

TEST_CASE("CUDA fast/decoupled-lookback runs one block up to core's one-group limit",
          "[shapes][cuda]") {
  for (xr::DType t : {xr::DType::i32, xr::DType::f16, xr::DType::f64}) {
    CAPTURE(std::string(xr::to_string(t)));
    const ScanPlan one = make_scan_plan(ScanKernel::fast_decoupled_lookback, t, xr::Op::sum,
                                        xr::kScanOneGroupMax, kDevice);
    CHECK(one.one_block);
    CHECK(one.grid == 1);
    CHECK(one.counts == std::vector<std::size_t>{xr::kScanOneGroupMax});
    const ScanPlan many = make_scan_plan(ScanKernel::fast_decoupled_lookback, t, xr::Op::sum,
                                         xr::kScanOneGroupMax + 1, kDevice);
    CHECK_FALSE(many.one_block);
    CHECK(many.grid == many.tiles);
  }
  CHECK_FALSE(make_scan_plan(ScanKernel::fast_decoupled_lookback, xr::DType::i32, xr::Op::sum, 1,
                             kDevice, 0)
                  .one_block);
}

TEST_CASE("CUDA bitonic/smem launches core's network", "[shapes][cuda][sort]") {
  for (std::size_t n : {std::size_t{1}, std::size_t{5000}, std::size_t{1} << 20}) {
    const xr::SortDesc d{.dtype = xr::DType::u32, .count = n, .bits = {0, 32}};
    const sort::Plan plan = make_sort_plan(sort::Kernel::bitonic_smem, d, kDevice);
    const xr::BitonicSchedule network = xr::bitonic_schedule(n, plan.tile);
    CHECK(plan.padded == network.padded);
    CHECK(plan.passes == network.stages);
    CHECK(plan.tiles == network.tiles);
    // The launches visit core's network over the plan's padded items and tile, step by step.
    std::vector<xr::BitonicStep> launched;
    xr::for_each_bitonic_step(plan.padded, plan.tile,
                              [&](const xr::BitonicStep& s) { launched.push_back(s); });
    REQUIRE(launched.size() == network.steps.size());
    for (std::size_t i = 0; i < network.steps.size(); ++i) {
      CHECK(launched[i].kind == network.steps[i].kind);
      CHECK(launched[i].stage == network.steps[i].stage);
      CHECK(launched[i].stride == network.steps[i].stride);
    }
  }
}

TEST_CASE("lib/cub passes the num_items width its tuning table chose, 64-bit past 2^32 - 1",
          "[shapes][cuda][sort]") {
  // Every entry is found for its own GPU, key and form, and says its evidence.
  for (const CubCountEntry& e : cub_count_table()) {
    DeviceLimits d = kDevice;
    d.cc_major = e.cc / 10;
    d.cc_minor = e.cc % 10;
    const CubCountChoice c = choose_cub_count(d, e.key, e.pairs, 1 << 20, std::nullopt);
    CAPTURE(xr::to_string(e.key), e.pairs);
    CHECK(c.count == e.count);
    CHECK(c.why.find(std::string(e.evidence)) != std::string::npos);
  }
  // u32 keys on sm_90 take the 64-bit count; the same keys with values the 32-bit one.
  CHECK(choose_cub_count(kDevice, xr::DType::u32, false, 1000, std::nullopt).count ==
        CubCount::bits64);
  CHECK(choose_cub_count(kDevice, xr::DType::u32, true, 1000, std::nullopt).count ==
        CubCount::bits32);
  // A GPU without entries: the 32-bit count, said so.
  DeviceLimits other = kDevice;
  other.cc_major = 8;
  const CubCountChoice unknown = choose_cub_count(other, xr::DType::u32, false, 1000, std::nullopt);
  CHECK(unknown.count == CubCount::bits32);
  CAPTURE(unknown.why);
  CHECK(unknown.why.find("no entry for u32 keys on sm_80") != std::string::npos);
  // The knob wins below 2^32; past 2^32 - 1 keys only 64 bits can count them.
  CHECK(choose_cub_count(kDevice, xr::DType::u32, false, 1000, CubCount::bits32).count ==
        CubCount::bits32);
  const std::uint64_t past = std::uint64_t{1} << 32;
  CHECK(choose_cub_count(kDevice, xr::DType::f32, true, past, CubCount::bits32).count ==
        CubCount::bits64);
  CHECK(parse_cub_count("64") == CubCount::bits64);
  CHECK(!parse_cub_count("16"));
}
