// Vulkan's translation of core's plans (vk_reduce_plan, vk_scan_plan, vk_sort_plan): one dispatch
// per pass with the pass's push constants, buffers and items; the wide tile's own module, the
// look-back's clock variant, pauses, window and tickets; grids within the device's limits. And the
// tiles Vulkan runs with its own look-back policy: core's shared shape, or an exception core lists.
// Planned for a synthetic device: no GPU needed.
#include <catch2/catch.hpp>

#include <bit>
#include <string>
#include <string_view>

#include "shape_check.hpp"
#include "vk_reduce_plan.hpp"
#include "vk_scan_plan.hpp"
#include "vk_sort_plan.hpp"
#include "xreduce/spirv_modules.hpp"

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
// A sort's knobs: the look-back's patience alone.
const sort::Knobs kPatient = [] {
  sort::Knobs k;
  k.polls = 64;
  return k;
}();

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
    for (xr::DType t : xr::kElementDTypes)
      xrtest::check_shape("vulkan", xr::Primitive::scan, spec.id(), t, planned_scan(spec, t),
                          xrtest::expected_scan_tile(spec.id()));
}

TEST_CASE("Vulkan bitonic/smem runs core's bitonic plan in a tile the device holds",
          "[shapes][vulkan][sort]") {
  const sort::Spec& spec = *find_sort("bitonic/smem");
  CHECK(spec.family == xr::sort::Family::bitonic);
  DeviceFacts device = kDevice;
  device.limits.maxStorageBufferRange = 1u << 30;
  const std::uint64_t n = 100000;
  for (const std::uint32_t shared : {49152u, 16384u})
    for (const xr::DType t : {xr::DType::f16, xr::DType::u32, xr::DType::f64})
      for (const xr::SortValues values : xr::kAllSortValues) {
        device.limits.maxComputeSharedMemorySize = shared;
        const sort::Plan d =
            sort_dispatches(spec, device, n, t, xr::SortOrder::descending,
                            {0, std::uint32_t(8 * xr::size_of(t))}, values, kPatient);
        CAPTURE(shared, std::string(xr::to_string(t)), std::string(xr::to_string(values)));
        const std::uint64_t item_bytes = xr::bitonic_item_bytes(t);
        // CUDA's 512 x 8 (512 x 4 for 64-bit keys), items halved until shared memory holds them.
        const std::uint32_t items = (item_bytes == 8 ? 8u : 4u) / (shared == 16384 ? 2 : 1);
        const std::string width = ".k" + std::to_string(8 * xr::size_of(t));
        const sort::Dispatch& tiles = d.passes.front();
        CHECK(tiles.module == "sort_bitonic_tiles" + width);
        CHECK(tiles.workgroup == 512);
        CHECK(tiles.items == items);
        CHECK(tiles.workgroup * tiles.items * item_bytes <= shared);
        CHECK(tiles.sort_mode == (xr::is_integer(t) ? 4u : 6u));
        const xr::sort::Schedule& plan = d.layout;
        REQUIRE(d.passes.size() == plan.passes.size());
        for (std::size_t i = 0; i < d.passes.size(); ++i) {
          // Each pipeline is its core pass's (a record takes the args and bindings from it).
          CHECK(d.passes[i].stage == plan.passes[i].stage);
          CHECK(d.passes[i].workgroup == plan.passes[i].threads);
          CHECK(d.passes[i].items == plan.passes[i].items);
          CHECK(std::uint64_t{d.passes[i].grid.x} * d.passes[i].grid.y >= plan.passes[i].groups);
        }
        const std::string form = values == xr::SortValues::u64   ? ".pairs64"
                                 : values == xr::SortValues::u32 ? ".pairs"
                                                                 : "";
        CHECK(d.passes.back().module == "sort_bitonic_gather" + width + form);
        CHECK(plan.items_bytes == std::bit_ceil(n) * item_bytes);
      }
  device.limits.maxStorageBufferRange = 1u << 20;  // 2^17 items of 8 bytes take all of it
  CHECK_NOTHROW(sort_dispatches(spec, device, 1u << 17, xr::DType::u32, xr::SortOrder::ascending,
                                {0, 32}, xr::SortValues::none, kPatient));
  CHECK_THROWS(sort_dispatches(spec, device, (1u << 17) + 1, xr::DType::u32,
                               xr::SortOrder::ascending, {0, 32}, xr::SortValues::none, kPatient));
}

namespace {

// The subgroup operations a module declares (SPIR-V's GroupNonUniform* capabilities, 61 to 68).
int subgroup_capabilities(const xr::vulkan::spirv::Module& m) {
  constexpr std::uint32_t kOpCapability = 17;
  int found = 0;
  for (std::size_t at = 5; at < m.words.size();) {
    const std::uint32_t word_count = m.words[at] >> 16, opcode = m.words[at] & 0xffffu;
    if (word_count == 0) break;
    if (opcode == kOpCapability && m.words[at + 1] >= 61 && m.words[at + 1] <= 68) ++found;
    at += word_count;
  }
  return found;
}

bool ranks_a_tile(const sort::Dispatch& d) {
  return d.module.starts_with("sort_onesweep") || d.module.starts_with("sort_rts_scatter");
}

}  // namespace

// The radix sorts rank a tile by subgroup ballots where the device has every subgroup operation
// that ranking takes, by counting otherwise or when XR_VK_SORT_RANKING=counting forces it: the
// ranking passes' modules say which (".count"), and the tile fits the device's shared memory
// with the ranking's counters, down to Vulkan's least (16 KiB).
TEST_CASE("Vulkan radix sorts rank by ballots where the device has them, by counting otherwise",
          "[shapes][vulkan][sort]") {
  using F = vk::SubgroupFeatureFlagBits;
  DeviceFacts ballots = kDevice;
  ballots.limits.maxStorageBufferRange = 1u << 30;
  ballots.subgroup_size = ballots.min_subgroup_size = ballots.max_subgroup_size = 32;
  ballots.subgroup_ops = F::eBasic | F::eVote | F::eArithmetic | F::eBallot | F::eShuffle;
  DeviceFacts no_ballots = ballots;
  no_ballots.subgroup_ops = F::eBasic | F::eVote | F::eArithmetic | F::eShuffle;
  sort::Knobs forced = kPatient;
  forced.force_counting = true;
  struct Way {
    const DeviceFacts* facts;
    const sort::Knobs* knobs;
    sort::Ranking expected;
  };
  for (const char* id : {"radix/onesweep", "radix/reduce-then-scan"})
    for (const Way way : {Way{&ballots, &kPatient, sort::Ranking::ballots},
                          Way{&no_ballots, &kPatient, sort::Ranking::counting},
                          Way{&ballots, &forced, sort::Ranking::counting}})
      for (const std::uint32_t shared : {49152u, 16384u})
        for (const xr::DType t : {xr::DType::u32, xr::DType::u64})
          for (const xr::SortValues values : xr::kAllSortValues) {
            DeviceFacts facts = *way.facts;
            facts.limits.maxComputeSharedMemorySize = shared;
            const std::uint32_t bits = 8 * xr::size_of(t);
            const sort::Plan d =
                sort_dispatches(*find_sort(id), facts, 100000, t, xr::SortOrder::ascending,
                                {0, bits}, values, *way.knobs);
            CAPTURE(id, shared, std::string(xr::to_string(t)), std::string(xr::to_string(values)));
            CHECK(d.ranking == way.expected);
            const bool counting = way.expected == sort::Ranking::counting;
            int ranking_passes = 0;
            for (const sort::Dispatch& p : d.passes) {
              CAPTURE(p.module);
              REQUIRE(xr::vulkan::spirv::find(p.module) != nullptr);
              if (!ranks_a_tile(p)) {
                CHECK(p.module.find(".count") == std::string::npos);
                continue;
              }
              ++ranking_passes;
              CHECK((p.module.find(".count") != std::string::npos) == counting);
              const std::uint64_t key_bytes = xr::size_of(t) == 8 ? 8 : 4;
              // The staged keys and, by counting, a word a slot, 4 counters and a scan word an
              // invocation; by ballots a row of 512 bytes a subgroup.
              const std::uint64_t bytes =
                  counting ? p.workgroup * (p.items * (key_bytes + 4) + 20)
                           : p.workgroup * p.items * key_bytes + p.workgroup / 32 * 512;
              CHECK(bytes <= shared);
              CHECK(p.items >= 1);
              if (counting) CHECK(p.workgroup == 256);
            }
            CHECK(ranking_passes >= 1);
          }
}

// What each form of a radix pass asks of the device: ranking by counting and the passes that
// rank no tile declare no subgroup operation (so they run where the device has none), and
// ranking by ballots declares the ballots it takes.
TEST_CASE("Vulkan sort modules declare subgroup operations only where ranking by ballots",
          "[shapes][vulkan][sort]") {
  int ballot_modules = 0, other_modules = 0;
  for (const xr::vulkan::spirv::Module& m : xr::vulkan::spirv::modules()) {
    if (!m.name.starts_with("sort_")) continue;
    CAPTURE(std::string(m.name));
    const bool ranks =
        m.name.starts_with("sort_onesweep") || m.name.starts_with("sort_rts_scatter");
    if (ranks && m.name.find(".count") == std::string_view::npos) {
      CHECK(subgroup_capabilities(m) >= 4);  // basic, ballot, shuffle, arithmetic
      ++ballot_modules;
    } else {
      CHECK(subgroup_capabilities(m) == 0);
      ++other_modules;
    }
  }
  // 2 passes x 3 widths x keys, u32 and u64 pairs x bound and by address.
  CHECK(ballot_modules == 36);
  CHECK(other_modules > ballot_modules);
}
