// Core's plans (xreduce/reduce_plan.hpp, scan_plan.hpp, sort_plan.hpp), one per family, against
// what each id promises (xreduce/shapes.hpp): the reduce chain over partials and the single pass's
// one-block limit; the tiled scan's levels, flags and scratch; the BIT's levels; reduce-then-scan's
// chunks; the look-back's tiles, status words and one-group limit; the radix sorts' digit passes,
// chunks and portions and the bitonic network. The backends' translators are
// checked beside their own tests (vulkan_plans.cpp, opencl_plans.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>

#include "shape_check.hpp"
#include "xreduce/reduce_plan.hpp"
#include "xreduce/scan_plan.hpp"
#include "xreduce/sort_passes.hpp"
#include "xreduce/sort_plan.hpp"

namespace {

using xr::DType;
using xr::ScanStage;
namespace sort = xr::sort;

const xr::ScanPlanOptions kOptions{.look_back = {128, 8}, .polls = 512, .one_group_max = 4096};

// The tile a scan schedule's plan works on for `t`: its tile pass's threads and elements per
// thread (vectors of lane_elements for the fast/* families).
xr::TileShape planned_scan_tile(const xr::ScanSchedule& s, DType t) {
  xr::ScanPlanOptions options = kOptions;
  options.one_group_max = 0;
  const xr::ScanPlan plan = xr::plan_scan(s, std::uint64_t{1} << 24, t, options);
  for (const xr::ScanPassPlan& p : plan.passes)
    if (p.kernel == s.kernel && p.stage != ScanStage::bit_levels) {
      if (s.family == xr::ScanFamily::bit) return {p.threads, 1};
      const bool vectors =
          s.family == xr::ScanFamily::reduce_then_scan || s.family == xr::ScanFamily::look_back;
      return {p.threads, vectors ? p.items * xr::lane_elements(t) : p.items};
    }
  FAIL("no pass runs " << s.kernel);
  return {};
}

}  // namespace

TEST_CASE("every reduce schedule's plan works on its id's shared tile", "[shapes][core]") {
  for (const xr::ReduceSchedule& s : xr::kReduceSchedules) {
    const xr::TileShape shared = xr::shared_shape(xr::Primitive::reduce, s.id);
    const xr::TileShape expected = shared.threads ? shared : xr::TileShape{256, 2};  // subgroup/*
    const std::uint64_t n = 64 * expected.tile();
    const xr::ReducePlan plan = xr::plan_reduce(s, n, 4);
    CAPTURE(std::string(s.id));
    CHECK(xr::TileShape{s.threads, static_cast<std::uint32_t>(n / plan.passes.front().args.groups /
                                                              s.threads)} == expected);
  }
}

TEST_CASE("reduce plans are core's chain over the partials", "[shapes][core]") {
  const xr::ReduceSchedule s = xr::reduce_schedule("smem/sequential");
  for (std::uint64_t n : {1ull, 256ull, 257ull, 65537ull, (1ull << 26) + 5}) {
    CAPTURE(n);
    const xr::ReducePlan plan = xr::plan_reduce(s, n, 4);
    const auto chain = xr::reduce_passes(n, 4, [&](std::uint64_t m) { return (m + 255) / 256; });
    REQUIRE(plan.passes.size() == chain.size());
    for (std::size_t i = 0; i < chain.size(); ++i) {
      const bool last = i + 1 == chain.size();
      CHECK(plan.passes[i].from_input == (i == 0));
      CHECK(plan.passes[i].to_output == last);  // the result: element 0 of the caller's output
      CHECK(plan.passes[i].args.n == chain[i].count);
      CHECK(plan.passes[i].args.in_offset == chain[i].in_offset);
      CHECK(plan.passes[i].args.out_offset == (last ? 0 : chain[i].out_offset));
      CHECK(plan.passes[i].args.groups == chain[i].blocks);
      CHECK(plan.passes[i].buffers()[0] ==
            (i == 0 ? xr::BufferRole::input : xr::BufferRole::scratch));
    }
    CHECK(plan.scratch_bytes == std::max<std::uint64_t>(16, xr::scratch_elements(chain, 4) * 4));
  }
}

TEST_CASE("grid-stride reduces cap their first pass; the single pass is one block up to its limit",
          "[shapes][core]") {
  const xr::ReduceSchedule vectorized = xr::reduce_schedule("fast/vectorized");
  CHECK(xr::plan_reduce(vectorized, 1ull << 28, 4).passes.front().args.groups == xr::kGridGroups);
  CHECK(xr::plan_reduce(vectorized, 1ull << 28, 4, 100).passes.front().args.groups == 100);
  const xr::ReduceSchedule single = xr::reduce_schedule("fast/single-pass");
  const xr::ReducePlan one = xr::plan_reduce(single, xr::kSinglePassOneBlockMax, 8);
  REQUIRE(one.passes.size() == 1);
  CHECK(one.passes[0].args.groups == 1);
  CHECK(one.scratch_bytes == 16 + 4 * 8);  // the ticket, then the partials rounded to four
  const xr::ReducePlan many = xr::plan_reduce(single, xr::kSinglePassOneBlockMax + 1, 4);
  REQUIRE(many.passes.size() == 1);
  CHECK(many.passes[0].args.groups > 1);
  CHECK(many.passes[0].to_output);
}

TEST_CASE("every scan schedule's plan works on its id's shared tile", "[shapes][core]") {
  for (const xr::ScanSchedule& s : xr::kScanSchedules)
    for (DType t : {DType::i32, DType::u32, DType::f32, DType::i64, DType::f64}) {
      const xr::TileShape expected = s.id.starts_with("subgroup/")
                                         ? xr::kRegisterScanShape
                                         : xr::shared_shape(xr::Primitive::scan, s.id);
      CAPTURE(std::string(s.id), std::string(xr::to_string(t)));
      CHECK(planned_scan_tile(s, t) == expected);
    }
  // 16-bit elements: a lane's vector holds 8 of them, as CUDA's (kShapeExceptions says why).
  const xr::ScanSchedule rts = xr::scan_schedule("fast/reduce-then-scan");
  CHECK(planned_scan_tile(rts, DType::f16).tile() == 2 * rts.threads * rts.items * 4);
}

TEST_CASE("tiled scans run core's levels, flags and scratch", "[shapes][core]") {
  for (const char* id : {"smem/hillis-steele", "blelloch/bcao", "subgroup/shuffle-up"})
    for (DType t : {DType::f32, DType::f16, DType::i64})
      for (std::uint64_t n : {1ull, 4096ull, 1000003ull, (1ull << 25) + 7}) {
        const xr::ScanSchedule s = xr::scan_schedule(id);
        const std::size_t acc = xr::size_of(xr::accumulator_of(t));
        const xr::TiledScanLayout layout =
            xr::tiled_scan_layout(n, s.threads * s.items, acc, xr::accumulator_of(t) != t, 4 * acc);
        const xr::ScanPlan plan = xr::plan_scan(s, n, t, kOptions);
        const std::size_t levels = layout.levels();
        CAPTURE(id, n, std::string(xr::to_string(t)), levels);
        REQUIRE(plan.passes.size() == 2 * levels - 1);
        CHECK(plan.scratch_bytes == std::max<std::uint64_t>(16, layout.scratch_bytes));
        for (std::size_t level = 0; level < levels; ++level) {
          const xr::ScanPassPlan& p = plan.passes[level];
          CHECK(p.args.n == layout.counts[level]);
          CHECK(p.takes_kind == (level == 0));  // only the first level writes the output
          CHECK(((p.args.flags & xr::kScanExclusive) != 0) == (level > 0));
          CHECK(((p.args.flags & xr::kScanWriteTotals) != 0) == (level + 1 < levels));
          if (level > 0) {
            CHECK(p.args.in_offset == layout.totals[level - 1] / acc);
            CHECK(p.buffers == xr::kScratchBuffers);
            CHECK(p.reads_accumulators());
          }
        }
        const xr::ScanPassPlan& first = plan.passes.front();
        CHECK(first.stage == (layout.wide ? ScanStage::wide_tile : ScanStage::tile));
        if (layout.wide) {
          CHECK(first.buffers == xr::kWideBuffers);
          CHECK(first.args.out_offset == *layout.wide / acc);
          CHECK(plan.passes.back().args.flags == xr::kScanFromWide);
        }
        for (std::size_t i = levels; i < plan.passes.size(); ++i)
          CHECK(plan.passes[i].stage == ScanStage::uniform_add);
        CHECK(plan.passes.back().writes_elements());
      }
}

TEST_CASE("a BIT builds one level per launch or every level in one block", "[shapes][core]") {
  const std::uint64_t n = 1'000'003;
  const xr::ScanPlan one_layer =
      xr::plan_scan(xr::scan_schedule("bit/one-layer"), n, DType::i32, kOptions);
  // Levels from 2 x 256 up to n: 2^9 .. 2^19.
  REQUIRE(one_layer.passes.size() == 2 + 11);
  CHECK(one_layer.passes[1].args.param == 9);  // a level as its exponent
  CHECK(one_layer.passes.back().stage == ScanStage::bit_query);
  CHECK(one_layer.passes.back().takes_kind);
  const xr::ScanPlan between =
      xr::plan_scan(xr::scan_schedule("bit/between-blocks"), n, DType::i32, kOptions);
  REQUIRE(between.passes.size() == 3);
  CHECK(between.passes[1].args.groups == 1);
  CHECK(between.passes[1].args.param == 512);
  CHECK(between.scratch_bytes == n * 4);
  // One block's worth: no level above it.
  CHECK(xr::plan_scan(xr::scan_schedule("bit/smem"), 300, DType::i32, kOptions).passes.size() == 2);
}

TEST_CASE("reduce-then-scan reduces at most kGridGroups chunks, then scans from their prefixes",
          "[shapes][core]") {
  const xr::ScanSchedule s = xr::scan_schedule("fast/reduce-then-scan");
  xr::ScanPlanOptions small_device = kOptions;
  small_device.max_threads = 256;
  const xr::ScanPlan plan = xr::plan_scan(s, 1ull << 28, DType::i32, small_device);
  REQUIRE(plan.passes.size() == 3);
  CHECK(plan.passes[0].stage == ScanStage::rts_reduce);
  CHECK(plan.passes[0].args.groups <= xr::kGridGroups);
  CHECK(plan.passes[1].stage == ScanStage::rts_partials);
  CHECK(plan.passes[1].threads == 256);  // the device's largest block
  CHECK(plan.passes[2].args.flags == xr::kScanHasPrefix);
  CHECK(plan.passes[2].takes_kind);
  CHECK(plan.scratch_bytes == xr::round_up4(plan.passes[0].args.groups) * 4);
  // One chunk: the tile pass alone, from no prefix.
  const xr::ScanPlan one = xr::plan_scan(s, 4096, DType::i32, kOptions);
  REQUIRE(one.passes.size() == 1);
  CHECK(one.passes[0].args.flags == 0);
}

TEST_CASE("the look-back runs one block up to the one-group limit, else one per tile",
          "[shapes][core]") {
  const xr::ScanSchedule s = xr::scan_schedule("fast/decoupled-lookback");
  for (DType t : {DType::i32, DType::f16, DType::f64}) {
    CAPTURE(std::string(xr::to_string(t)));
    const xr::ScanPlan one = xr::plan_scan(s, 4096, t, kOptions);
    REQUIRE(one.passes.size() == 1);
    CHECK(one.passes[0].stage == ScanStage::rts_tiles);
    CHECK(one.passes[0].args.groups == 1);
    CHECK(one.passes[0].args.param == 4096);  // one chunk: all of it
    CHECK_FALSE(one.fallbacks_at.has_value());
    const xr::ScanPlan many = xr::plan_scan(s, 4097, t, kOptions);
    REQUIRE(many.passes.size() == 1);
    const xr::ScanPassPlan& p = many.passes[0];
    CHECK(p.stage == ScanStage::look_back);
    CHECK(p.threads == 128);
    CHECK(p.items == 8);
    const std::uint32_t words = xr::size_of(xr::accumulator_of(t)) == 8 ? 2 : 1;
    CHECK(many.tiles == xr::ceil_div32(4097, 128 * 8 * xr::lane_elements(t)));
    CHECK(p.args.param == many.tiles * words);  // the ticket's word
    CHECK(p.args.limit == 512);
    CHECK(many.scratch_bytes == (std::uint64_t{p.args.param} + 2) * 8);
    CHECK(many.fallbacks_at == (std::uint64_t{p.args.param} + 1) * 8);
    CHECK(many.zero_scratch);
  }
  xr::ScanPlanOptions never = kOptions;
  never.one_group_max = 0;  // XR_SCAN_ONE_GROUP_MAX=0
  CHECK(xr::plan_scan(s, 1, DType::i32, never).passes[0].stage == ScanStage::look_back);
  // The one-group pass takes n as a 32-bit chunk: 2^32 takes the look-back whatever the limit.
  xr::ScanPlanOptions always = kOptions;
  always.one_group_max = std::uint64_t{1} << 32;
  CHECK(xr::plan_scan(s, std::uint64_t{1} << 32, DType::i32, always).passes[0].stage ==
        ScanStage::look_back);
}

TEST_CASE("radix digit passes: 8 bits each from the range's start, ending in the output",
          "[shapes][core][sort]") {
  for (xr::DType t : {DType::f16, DType::f32, DType::u64}) {
    const std::uint32_t width = static_cast<std::uint32_t>(8 * xr::size_of(t));
    for (std::uint32_t begin = 0; begin < width; begin += 3)
      for (std::uint32_t end = begin + 1; end <= width; end += 5) {
        const auto passes = xr::radix_digit_passes({begin, end});
        REQUIRE(passes.size() == xr::radix_passes({begin, end}, t));
        std::uint32_t covered = begin;
        for (std::size_t p = 0; p < passes.size(); ++p) {
          CHECK(passes[p].shift == covered);
          CHECK(passes[p].width >= 1);
          CHECK(passes[p].width <= 8);
          covered += passes[p].width;
          CHECK(passes[p].reads == (p == 0 ? sort::Buffer::input : passes[p - 1].writes));
          CHECK(passes[p].writes != sort::Buffer::input);
          CHECK(passes[p].reads != passes[p].writes);
        }
        CHECK(covered == end);
        CHECK(passes.back().writes == sort::Buffer::output);
        CHECK(xr::needs_alternate(passes) == (passes.size() > 1));
      }
  }
  CHECK_THROWS(xr::radix_digit_passes({4, 4}));
}

TEST_CASE("radix chunks: one wave of blocks over whole tiles, none past its counters",
          "[shapes][core][sort]") {
  const auto c = xr::radix_chunks(1000000, 3840, 528, std::size_t{1} << 31);
  CHECK(c.tiles == 261);
  CHECK(c.tiles_per_block == 1);
  CHECK(c.blocks == 261);
  const auto big = xr::radix_chunks(std::size_t{1} << 28, 3840, 528, std::size_t{1} << 31);
  CHECK(big.blocks <= 528);
  CHECK(big.blocks * big.tiles_per_block >= big.tiles);
  CHECK((big.blocks - 1) * big.tiles_per_block < big.tiles);  // no block without a tile
  // A chunk never counts more than its counters hold, however few blocks a wave has.
  const std::size_t max_keys = 4 * 3840;
  const auto capped = xr::radix_chunks(100 * 3840, 3840, 2, max_keys);
  CHECK(capped.tiles_per_block * 3840 <= max_keys);
  CHECK(capped.blocks * capped.tiles_per_block >= capped.tiles);
}

TEST_CASE("onesweep portions: whole tiles, at most the status words' keys, bins by turns",
          "[shapes][core][sort]") {
  const auto one =
      xr::onesweep_portion_split(std::size_t{1} << 28, 3840, (std::size_t{1} << 30) - 1);
  REQUIRE(one.count() == 1);
  CHECK(one.at(0).tiles == 69906);
  CHECK(one.at(0).bins_in == 0);
  CHECK(one.at(0).bins_out == 1);
  const std::size_t n = (std::size_t{1} << 31) + 5, max_keys = (std::size_t{1} << 30) - 1;
  const auto parts = xr::onesweep_portion_split(n, 3840, max_keys);
  REQUIRE(parts.count() == 3);
  std::size_t next = 0;
  for (std::size_t i = 0; i < parts.count(); ++i) {
    CHECK(parts.at(i).first_tile == next);
    CHECK(parts.at(i).tiles * 3840 <= max_keys);
    CHECK(parts.at(i).bins_in == i % 2);
    CHECK(parts.at(i).bins_out == 1 - i % 2);
    next += parts.at(i).tiles;
  }
  CHECK(next == (n + 3839) / 3840);
}

TEST_CASE("the bitonic network: tile sort, then per stage global strides and one tile merge",
          "[shapes][core][sort]") {
  const auto small = xr::bitonic_schedule(100, 4096);
  CHECK(small.padded == 4096);
  CHECK(small.stages == 0);
  REQUIRE(small.steps.size() == 1);
  CHECK(small.steps[0].kind == xr::BitonicStepKind::sort_tiles);
  const auto s = xr::bitonic_schedule(5 * 4096, 4096);
  CHECK(s.padded == 8 * 4096);
  CHECK(s.tiles == 8);
  CHECK(s.stages == 3);
  // Stages 2, 4 and 8 tiles: 1 + 2 + 3 global strides, each stage closed by a tile merge.
  std::size_t global = 0, merges = 0;
  for (const auto& step : s.steps) {
    if (step.kind == xr::BitonicStepKind::merge_global) {
      ++global;
      CHECK(step.stride >= 4096);
      CHECK(step.stride < step.stage);
    }
    merges += step.kind == xr::BitonicStepKind::merge_tiles;
  }
  CHECK(global == 6);
  CHECK(merges == 3);
  CHECK(s.steps.back().kind == xr::BitonicStepKind::merge_tiles);
  CHECK(s.steps.back().stage == s.padded);
}

TEST_CASE("the bitonic plan: the tile sort, the network's steps, the gather over the items",
          "[shapes][core][sort]") {
  xr::sort::ScheduleOptions options;
  options.bitonic = {512, 8};
  const std::uint64_t tile = options.bitonic.keys();
  for (const DType t : {DType::f16, DType::f32, DType::i64})
    for (const xr::SortValues values : xr::kAllSortValues)
      for (const std::uint64_t n : {std::uint64_t{1}, std::uint64_t{1000}, tile, 5 * tile + 3}) {
        const bool pairs = values != xr::SortValues::none;
        const xr::BitRange bits{2, static_cast<std::uint32_t>(8 * xr::size_of(t))};
        const auto plan =
            xr::plan_sort_call(xr::sort::Family::bitonic, n, t, values, bits, options);
        const auto& first = plan.passes.front();
        // The options' tile, or below one tile the least number of its items that holds n.
        const std::uint64_t planned = std::uint64_t{first.threads} * first.items;
        CHECK(first.threads == options.bitonic.threads);
        CHECK(std::has_single_bit(planned));
        CHECK(planned ==
              (n >= tile / 2 ? tile : std::max<std::uint64_t>(first.threads, std::bit_ceil(n))));
        const auto network = xr::bitonic_schedule(n, planned);
        REQUIRE(plan.passes.size() == 1 + (network.steps.size() - 1) + 1);
        CHECK(first.stage == sort::Stage::bitonic_tiles);
        CHECK(first.bindings[0] == sort::Operand::keys_in);
        CHECK(first.groups == network.tiles);
        for (std::size_t i = 1; i + 1 < plan.passes.size(); ++i) {
          const auto& p = plan.passes[i];
          const auto& step = network.steps[i];
          CHECK(std::uint64_t{p.threads} * p.items ==
                (p.stage == sort::Stage::bitonic_merge ? planned : p.threads));
          CHECK(p.stage == (step.kind == xr::BitonicStepKind::merge_global
                                ? sort::Stage::bitonic_global
                                : sort::Stage::bitonic_merge));
          CHECK(p.args.stage == step.stage);
          CHECK(p.args.stride == step.stride);
          CHECK(p.values == xr::SortValues::none);
          if (p.stage == sort::Stage::bitonic_global)  // one pair an invocation
            CHECK(p.groups * p.threads >= network.padded / 2);
        }
        const auto& gather = plan.passes.back();
        CHECK(gather.stage == sort::Stage::bitonic_gather);
        CHECK(gather.values == values);
        CHECK(gather.groups * gather.threads >= n);
        CHECK(gather.bindings[1] == sort::Operand::keys_out);
        CHECK((gather.bindings[3] == sort::Operand::values_out) == pairs);
        for (const auto& p : plan.passes) {
          CHECK(p.bindings[4] == sort::Operand::items);
          CHECK(p.args.n == n);
          CHECK(p.args.padded == network.padded);
          CHECK(p.args.begin == bits.begin);
          CHECK(p.args.end == bits.end);
        }
        // The padded items fit the scratch, 8 bytes each (16 for 64-bit keys).
        const std::uint64_t item_bytes = xr::size_of(t) == 8 ? 16 : 8;
        CHECK(plan.items_bytes == network.padded * item_bytes);
        CHECK(plan.items_at + plan.items_bytes <= plan.scratch_bytes);
      }
  xr::sort::ScheduleOptions uneven;
  uneven.bitonic = {384, 8};
  CHECK_THROWS(xr::plan_sort_call(xr::sort::Family::bitonic, 100, DType::u32, xr::SortValues::none,
                                  {0, 32}, uneven));
  CHECK_THROWS(xr::plan_sort_call(xr::sort::Family::bitonic, 0, DType::u32, xr::SortValues::none,
                                  {0, 32}, options));
  CHECK_THROWS(xr::plan_sort_call(xr::sort::Family::bitonic, xr::kBitonicPlanMaxKeys + 1,
                                  DType::u32, xr::SortValues::none, {0, 32}, options));
  CHECK_THROWS(xr::plan_sort_call(xr::sort::Family::bitonic, 100, DType::u32, xr::SortValues::none,
                                  {4, 4}, options));
}

TEST_CASE("the radix plans past 2^31 and 2^32 keys: n's two words, no tile past its indices",
          "[shapes][core]") {
  xr::sort::ScheduleOptions narrow;
  narrow.tile = {1024, 63};  // the largest tile the plans are documented for: under 2^16 keys
  xr::sort::ScheduleOptions wide = narrow;
  wide.wide = true;
  for (const std::uint64_t n : {(std::uint64_t{1} << 31) + 5, xr::kSortNarrowMaxKeys,
                                (std::uint64_t{1} << 32) + 5, std::uint64_t{3} << 33}) {
    CAPTURE(n);
    const bool needs_wide = n > xr::kSortNarrowMaxKeys;
    CHECK(xr::sort_needs_wide(n) == needs_wide);
    for (const xr::sort::Family family :
         {xr::sort::Family::onesweep, xr::sort::Family::reduce_then_scan}) {
      if (needs_wide)
        CHECK_THROWS(
            xr::plan_sort_call(family, n, DType::u32, xr::SortValues::u32, {0, 32}, narrow));
      const xr::sort::Schedule plan = xr::plan_sort_call(family, n, DType::u32, xr::SortValues::u32,
                                                         {0, 32}, needs_wide ? wide : narrow);
      for (const xr::sort::Pass& p : plan.passes) {
        CHECK(((std::uint64_t{p.args.n_high} << 32) | p.args.n) == n);
        // A portion's or block's tiles start below n; in the narrow form the first tile past n
        // still indexes below 2^32 (the shaders stop there).
        CHECK(std::uint64_t{p.args.first_tile} * narrow.tile.keys() < n);
        if (!needs_wide)
          CHECK((n + narrow.tile.keys() - 1) / narrow.tile.keys() * narrow.tile.keys() <
                (std::uint64_t{1} << 32));
      }
    }
  }
  CHECK_THROWS(xr::plan_sort_call(xr::sort::Family::onesweep, xr::kSortWideMaxKeys + 1, DType::u32,
                                  xr::SortValues::none, {0, 32}, wide));
  CHECK_THROWS(xr::plan_sort_call(xr::sort::Family::bitonic, 1000, DType::u32, xr::SortValues::none,
                                  {0, 32}, wide));
}

TEST_CASE("the wide form: every count two words, the rest of the layout as the narrow one",
          "[shapes][core]") {
  xr::sort::ScheduleOptions narrow;
  narrow.tile = {256, 8};
  narrow.wave = 16;
  xr::sort::ScheduleOptions wide = narrow;
  wide.wide = true;
  const std::uint64_t n = 100003;
  for (const xr::sort::Family family :
       {xr::sort::Family::onesweep, xr::sort::Family::reduce_then_scan}) {
    const xr::sort::Schedule a =
        xr::plan_sort_call(family, n, DType::u32, xr::SortValues::u32, {0, 32}, narrow);
    const xr::sort::Schedule b =
        xr::plan_sort_call(family, n, DType::u32, xr::SortValues::u32, {0, 32}, wide);
    REQUIRE(a.passes.size() == b.passes.size());
    CHECK(a.words_at == b.words_at);
    CHECK(b.scratch_bytes > a.scratch_bytes);
    if (family == xr::sort::Family::onesweep) {
      // 4 passes: the histograms and the bins twice the words, the rest moved on by them.
      const std::uint64_t extra = 4 * 256 + 4 * 2 * 256;
      CHECK(b.scratch_bytes - a.scratch_bytes == 4 * extra);
      for (std::size_t i = 0; i < a.passes.size(); ++i)
        if (a.passes[i].stage == xr::sort::Stage::onesweep) {
          CHECK(b.passes[i].args.bins_in - b.passes[i].args.bins ==
                2 * (a.passes[i].args.bins_in - a.passes[i].args.bins));
        }
    } else {
      CHECK(b.scratch_bytes - b.words_at == 2 * (a.scratch_bytes - a.words_at));
    }
  }
}

// A call of fewer keys than its layout's launches over the capacity's offsets: the same scratch,
// its grids, rows and blocks within the capacity's; a counted call launches the capacity's, each
// pass told to read its keys from the count, and onesweep's indirect form adds the grid pass.
TEST_CASE("a call of any count up to the layout's capacity, given or counted", "[shapes][core]") {
  xr::sort::ScheduleOptions options;
  options.tile = {256, 8};
  options.wave = 16;
  options.bitonic = {64, 4};
  const std::uint64_t capacity = 100003;
  for (const xr::sort::Family family :
       {xr::sort::Family::onesweep, xr::sort::Family::reduce_then_scan,
        xr::sort::Family::bitonic}) {
    CAPTURE(static_cast<int>(family));
    const xr::sort::Schedule full =
        xr::plan_sort_call(family, capacity, DType::u32, xr::SortValues::u32, {0, 32}, options);
    CHECK(full.capacity == capacity);
    if (family != xr::sort::Family::bitonic) {
      // u64 values' alternates take 8 bytes a key, u32 values' 4; the passes that move values
      // take their width's module.
      const xr::sort::Schedule wide_values =
          xr::plan_sort_call(family, capacity, DType::u32, xr::SortValues::u64, {0, 32}, options);
      CHECK(full.words_at - full.alternate_values_at == (capacity * 4 + 255) / 256 * 256);
      CHECK(wide_values.words_at - wide_values.alternate_values_at ==
            (capacity * 8 + 255) / 256 * 256);
      int moving = 0;
      for (const xr::sort::Pass& p : wide_values.passes)
        if (p.values != xr::SortValues::none) {
          CHECK(p.values == xr::SortValues::u64);
          ++moving;
        }
      CHECK(moving == 4);  // one a digit pass
    }
    xr::sort::Schedule call;
    for (const std::uint64_t n : {std::uint64_t{1}, std::uint64_t{2047}, std::uint64_t{2048},
                                  std::uint64_t{5000}, capacity - 1}) {
      CAPTURE(n);
      xr::plan_sort_call(call, family, {.n = n, .capacity = capacity}, DType::u32,
                         xr::SortValues::u32, {0, 32}, options);
      CHECK(call.scratch_bytes == full.scratch_bytes);
      CHECK(call.words_at == full.words_at);
      CHECK(call.alternate_values_at == full.alternate_values_at);
      CHECK(call.items_bytes == full.items_bytes);
      for (const xr::sort::Pass& p : call.passes) {
        CHECK(p.args.n == n);
        CHECK(p.args.counted == 0);
        if (p.stage == xr::sort::Stage::onesweep) CHECK(p.groups == (n + 2047) / 2048);
        if (p.stage == xr::sort::Stage::init) {
          // onesweep zeroes the first status set's rows of n's tiles, no more.
          CHECK(p.args.blocks == full.passes[0].args.blocks - (capacity + 2047) / 2048 * 256 +
                                     (n + 2047) / 2048 * 256);
        }
      }
    }
    // The counted form: the capacity's launches, every pass reading the count.
    for (const bool device_grids : {false, true}) {
      xr::sort::ScheduleOptions counted_options = options;
      counted_options.device_grids = device_grids;
      xr::sort::Schedule counted = full;
      xr::plan_counted_call(counted, "radix/x", family, DType::u32, xr::SortValues::u32, {0, 32},
                            counted_options);
      CHECK(counted.scratch_bytes == full.scratch_bytes);
      std::size_t grids = 0, indirect = 0;
      for (const xr::sort::Pass& p : counted.passes) {
        CHECK(p.args.counted == 1);
        CHECK(p.args.n == capacity);
        grids += p.stage == xr::sort::Stage::grid;
        indirect += p.indirect;
      }
      const bool onesweep = family == xr::sort::Family::onesweep;
      CHECK(grids == (onesweep && device_grids ? 1u : 0u));
      CHECK(indirect == (onesweep && device_grids ? 4u : 0u));
    }
  }
  // Past one onesweep launch a digit the count stays on the host; no call past its capacity.
  xr::sort::Schedule big = xr::plan_sort_call(xr::sort::Family::onesweep, std::uint64_t{1} << 31,
                                              DType::u32, xr::SortValues::none, {0, 32}, options);
  CHECK_THROWS_WITH(xr::plan_counted_call(big, "radix/onesweep", xr::sort::Family::onesweep,
                                          DType::u32, xr::SortValues::none, {0, 32}, options),
                    Catch::Contains("radix/onesweep takes a count on the device for at most"));
  xr::sort::Schedule call;
  CHECK_THROWS(xr::plan_sort_call(call, xr::sort::Family::onesweep,
                                  {.n = capacity + 1, .capacity = capacity}, DType::u32,
                                  xr::SortValues::none, {0, 32}, options));
}
