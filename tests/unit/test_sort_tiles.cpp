// Core's sort tiles (xreduce/sort_tiles.hpp) on the limits of the devices the APIs meet: a CPU
// Vulkan driver (lavapipe: subgroups of 8, 32 or 64 KiB of shared memory), a GPU's Vulkan and
// OpenCL (subgroups of 32, 48 KiB), a CPU OpenCL (pocl: no sub-groups, 512 KiB of local memory,
// work-groups of 4096) and devices smaller than any of them. The byte layouts are Vulkan's and
// OpenCL's tile kernels' (vk_sort_plan.cpp, cl_sort_plan.cpp), the wanted tiles their policies;
// the expected tiles are what their translators pick (tests/unit/test_sort_tile_devices.cpp checks
// the translators against the same numbers).
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "xreduce/error.hpp"
#include "xreduce/sort_plan.hpp"
#include "xreduce/sort_tiles.hpp"

namespace {

using xr::DType;
namespace sort = xr::sort;

xr::sort::Limits limits(std::uint64_t shared, std::uint32_t threads, std::uint32_t subgroup,
                        bool cpu) {
  return {.shared_bytes = shared, .max_threads = threads, .subgroup = subgroup, .cpu = cpu};
}
const xr::sort::Limits kLavapipe32 = limits(32768, 1024, 8, true);
const xr::sort::Limits kLavapipe64 = limits(65536, 1024, 8, true);
const xr::sort::Limits kGpu48 = limits(49152, 1024, 32, false);
const xr::sort::Limits kPocl = limits(524288, 4096, 1, true);

// Vulkan's digit tile: the staged keys (4 or 8 bytes a key) beside 1344 bytes (2368 in the wide
// form) and the ranking's counters: by ballots 512 bytes a subgroup, by counting 20 an invocation
// and 4 a key. The policy's 768 invocations drop to 256 where their rows crowd the memory.
xr::DigitTileRequest vulkan(bool counting, std::uint32_t key_bytes, bool wide,
                            std::optional<sort::Tile> knob = {}) {
  xr::sort::TileBytes b{.fixed = wide ? 2368u : 1344u, .per_key = key_bytes};
  if (counting) {
    b.per_thread = 20;
    b.per_key += 4;
  } else {
    b.per_subgroup = 512;
  }
  const sort::Tile policy = counting ? sort::Tile{256, key_bytes == 8 ? 10u : 20u}
                                     : sort::Tile{768, key_bytes == 8 ? 5u : 10u};
  return {.wanted = knob.value_or(policy), .bytes = b, .crowded_threads = knob ? 0u : 256u};
}

// OpenCL's: with sub-groups 129 words a sub-group, without 18 words a work-item and two a key;
// capped by the work-group.
xr::DigitTileRequest opencl(bool subgroups, std::uint32_t key_words, bool wide,
                            std::optional<sort::Tile> knob = {}) {
  const std::uint64_t firsts = wide ? 512 : 256;
  const xr::sort::TileBytes b =
      subgroups ? xr::sort::TileBytes{.fixed = 4 * (firsts + 4),
                                      .per_subgroup = 4 * 129,
                                      .per_key = 4 * std::uint64_t{key_words}}
                : xr::sort::TileBytes{.fixed = 4 * (firsts + 2),
                                      .per_thread = 4 * 18,
                                      .per_key = 4 * (std::uint64_t{key_words} + 2)};
  const sort::Tile policy =
      !subgroups ? sort::Tile{256, 8} : sort::Tile{512, key_words == 2 ? 9u : 18u};
  return {.wanted = knob.value_or(policy), .bytes = b, .capped = true};
}

sort::Tile fitted(const xr::sort::Limits& l, const xr::DigitTileRequest& r) {
  const xr::sort::TileChoice c = xr::fit_digit_tile(l, r);
  INFO(c.why);
  REQUIRE(c.fits());
  return c.tile;
}

bool same(sort::Tile a, sort::Tile b) {
  return a.threads == b.threads && a.items == b.items;
}

}  // namespace

TEST_CASE("Vulkan's digit tiles fit lavapipe's and a GPU's shared memory", "[core][sort]") {
  // Per device, the policy's tiles fitted: by ballots and by counting, for 4- and 8-byte keys.
  // lavapipe: 768 invocations' ballot rows (96 subgroups of 8) take 48 KiB, so 256 of them.
  struct Case {
    const char* device;
    xr::sort::Limits limits;
    sort::Tile ballots4, ballots8, counting4, counting8;
    std::uint32_t knob_items;  // a knob's 1024 invocations, by counting, 4-byte keys
  };
  const Case cases[] = {
      {"lavapipe 32 KiB", kLavapipe32, {256, 10}, {256, 5}, {256, 12}, {256, 8}, 1},
      {"lavapipe 64 KiB", kLavapipe64, {256, 10}, {256, 5}, {256, 20}, {256, 10}, 5},
      {"GPU 48 KiB", kGpu48, {768, 10}, {768, 5}, {256, 20}, {256, 10}, 3},
  };
  for (const bool wide : {false, true})
    for (const Case& c : cases) {
      CAPTURE(c.device, wide);
      CHECK(same(fitted(c.limits, vulkan(false, 4, wide)), c.ballots4));
      CHECK(same(fitted(c.limits, vulkan(false, 8, wide)), c.ballots8));
      CHECK(same(fitted(c.limits, vulkan(true, 4, wide)), c.counting4));
      CHECK(same(fitted(c.limits, vulkan(true, 8, wide)), c.counting8));
      // A knob's tile keeps its invocations and loses items to the memory.
      CHECK(same(fitted(c.limits, vulkan(true, 4, wide, sort::Tile{1024, 32})),
                 {1024, c.knob_items}));
    }
  CHECK(same(fitted(kLavapipe32, vulkan(true, 4, false, sort::Tile{768, 10})), {768, 2}));
  CHECK(same(fitted(kLavapipe64, vulkan(false, 4, true, sort::Tile{768, 10})), {768, 4}));
  // Narrow and wide differ where the 1 KiB of 64-bit firsts costs an item.
  const xr::sort::Limits small = limits(16384, 256, 4, false);
  CHECK(same(fitted(small, vulkan(true, 8, false)), {256, 3}));
  CHECK(same(fitted(small, vulkan(true, 8, true)), {256, 2}));
  CHECK(same(fitted(limits(20000, 768, 32, false), vulkan(true, 4, false)), {256, 6}));
}

TEST_CASE("a digit tile no shared memory holds says why", "[core][sort]") {
  // A knob's 768 invocations keep their 48 KiB of ballot rows: past lavapipe's 32 KiB.
  const xr::sort::TileChoice c =
      xr::fit_digit_tile(kLavapipe32, vulkan(false, 4, false, sort::Tile{768, 10}));
  CHECK_FALSE(c.fits());
  CHECK(c.why == "a sort tile needs more than the 32768 bytes of shared memory this device has");
  CHECK_FALSE(xr::fit_digit_tile(limits(16384, 256, 4, false), vulkan(false, 4, false)).fits());
  CHECK_FALSE(xr::fit_digit_tile(limits(8192, 512, 16, false), vulkan(true, 4, true)).fits());
  xr::sort::Limits named = limits(4096, 1024, 1, false);
  named.memory = "local";
  named.device = "a small device";
  CHECK(xr::fit_digit_tile(named, opencl(false, 1, false)).why ==
        "a sort tile needs more than the 4096 bytes of local memory a small device has");
  named = limits(49152, 128, 32, false);
  named.workgroups = "work-groups";
  named.device = "a narrow device";
  CHECK(xr::fit_digit_tile(named, opencl(true, 1, false)).why ==
        "a sort tile needs work-groups of 256, a narrow device allows 128");
  CHECK_THROWS_AS(xr::sort_plan_options(named, sort::Family::onesweep, DType::u32, false, 64,
                                        opencl(true, 1, false)),
                  xr::Error);
  // bitonic/smem takes no digit tile: the same device runs it.
  CHECK(same(xr::sort_plan_options(named, sort::Family::bitonic, DType::u32, false, 64,
                                   opencl(true, 1, false))
                 .bitonic,
             {128, 8}));
}

TEST_CASE("OpenCL's digit tiles fit pocl's and a GPU's local memory", "[core][sort]") {
  for (const bool wide : {false, true}) {
    CAPTURE(wide);
    CHECK(same(fitted(kPocl, opencl(false, 1, wide)), {256, 8}));
    CHECK(same(fitted(kPocl, opencl(false, 2, wide)), {256, 8}));
    CHECK(same(fitted(kPocl, opencl(false, 1, wide, sort::Tile{1024, 32})), {1024, 32}));
    CHECK(same(fitted(kPocl, opencl(false, 2, wide, sort::Tile{1024, 32})), {1024, 27}));
    CHECK(same(fitted(kGpu48, opencl(true, 1, wide)), {512, 18}));
    CHECK(same(fitted(kGpu48, opencl(true, 2, wide)), {512, 9}));
    CHECK(same(fitted(kGpu48, opencl(true, 1, wide, sort::Tile{1024, 32})), {1024, 7}));
    CHECK(same(fitted(kGpu48, opencl(true, 2, wide, sort::Tile{1024, 32})), {1024, 3}));
    // Capped at the work-group, the items refitted.
    CHECK(same(fitted(limits(32768, 300, 1, false), opencl(false, 1, wide, sort::Tile{1024, 32})),
               {300, 2}));
    CHECK(same(fitted(limits(16384, 512, 32, false), opencl(true, 2, wide)), {512, 1}));
  }
  CHECK(same(fitted(limits(32768, 1024, 1, false), opencl(false, 1, false)), {256, 4}));
  CHECK(same(fitted(limits(32768, 1024, 1, false), opencl(false, 1, true)), {256, 3}));
  CHECK(same(fitted(limits(16384, 512, 32, false), opencl(true, 1, false)), {512, 3}));
  CHECK(same(fitted(limits(16384, 512, 32, false), opencl(true, 1, true)), {512, 2}));
}

TEST_CASE("bitonic/smem's tile halves its items, then its invocations", "[core][sort]") {
  for (const DType t : {DType::u32, DType::f16, DType::f32}) {
    CHECK(same(xr::fit_bitonic_tile(kLavapipe32, t), {512, 8}));
    CHECK(same(xr::fit_bitonic_tile(kGpu48, t), {512, 8}));
    CHECK(same(xr::fit_bitonic_tile(kPocl, t), {512, 8}));
    CHECK(same(xr::fit_bitonic_tile(limits(16384, 256, 4, false), t), {256, 8}));
    CHECK(same(xr::fit_bitonic_tile(limits(8192, 512, 16, false), t), {512, 2}));
    CHECK(same(xr::fit_bitonic_tile(limits(20000, 768, 32, false), t), {512, 4}));
    CHECK(same(xr::fit_bitonic_tile(limits(4096, 1024, 1, false), t), {512, 1}));
    CHECK(same(xr::fit_bitonic_tile(limits(49152, 128, 32, false), t), {128, 8}));
  }
  for (const DType t : {DType::u64, DType::i64, DType::f64}) {
    CHECK(same(xr::fit_bitonic_tile(kLavapipe32, t), {512, 4}));
    CHECK(same(xr::fit_bitonic_tile(kGpu48, t), {512, 4}));
    CHECK(same(xr::fit_bitonic_tile(limits(16384, 256, 4, false), t), {256, 4}));
    CHECK(same(xr::fit_bitonic_tile(limits(8192, 512, 16, false), t), {512, 1}));
    CHECK(same(xr::fit_bitonic_tile(limits(4096, 1024, 1, false), t), {256, 1}));
  }
}

TEST_CASE("a sort's plan options follow the device", "[core][sort]") {
  const xr::sort::ScheduleOptions lava = xr::sort_plan_options(
      kLavapipe32, sort::Family::onesweep, DType::u32, true, 7, vulkan(false, 4, true));
  CHECK(same(lava.tile, {256, 10}));
  CHECK(lava.wide);
  CHECK(lava.wave == 16);  // a CPU's few threads
  CHECK(lava.scan_threads == 1024);
  CHECK(lava.polls == 7);
  const xr::sort::ScheduleOptions gpu =
      xr::sort_plan_options(limits(20000, 768, 32, false), sort::Family::reduce_then_scan,
                            DType::u64, false, 0, vulkan(false, 8, false));
  CHECK(same(gpu.tile, {256, 5}));
  CHECK(gpu.wave == 256);
  CHECK(gpu.scan_threads == 768);
  CHECK(gpu.polls == 0);
  const xr::sort::ScheduleOptions pocl = xr::sort_plan_options(
      kPocl, sort::Family::bitonic, DType::f64, false, 64, opencl(false, 2, false));
  CHECK(same(pocl.bitonic, {512, 4}));
  CHECK(pocl.scan_threads == 1024);
}

TEST_CASE("a sort's form, refusals and mode", "[core][sort]") {
  const std::uint64_t narrow = xr::kSortNarrowMaxKeys;
  CHECK_FALSE(xr::sort_wide_form(sort::Family::onesweep, narrow, DType::u32, false));
  CHECK(xr::sort_wide_form(sort::Family::onesweep, narrow + 1, DType::u32, false));
  CHECK(xr::sort_wide_form(sort::Family::reduce_then_scan, 10, DType::u32, true));
  CHECK_FALSE(xr::sort_wide_form(sort::Family::bitonic, narrow + 1, DType::u32, true));
  // lavapipe's storage-buffer binding (128 MiB): 2^25 keys of 4 bytes fill it; 16-bit keys' values
  // take 4 bytes each too.
  const std::uint64_t binding = 134217728;
  CHECK_FALSE(xr::sort_wide_form(sort::Family::onesweep, 1u << 25, DType::f32, false, binding));
  CHECK(xr::sort_wide_form(sort::Family::onesweep, (1u << 25) + 1, DType::f16, false, binding));
  CHECK(xr::sort_wide_form(sort::Family::onesweep, (1u << 24) + 1, DType::u64, false, binding));
  // u64 values of 32-bit keys fill it at 2^24.
  CHECK_FALSE(xr::sort_wide_form(sort::Family::onesweep, 1u << 24, DType::f32, false, binding,
                                 xr::SortValues::u64));
  CHECK(xr::sort_wide_form(sort::Family::onesweep, (1u << 24) + 1, DType::f32, false, binding,
                           xr::SortValues::u64));

  CHECK(xr::sort_count_refusal("radix/onesweep", sort::Family::onesweep, xr::kSortWideMaxKeys)
            .empty());
  CHECK(
      xr::sort_count_refusal("radix/onesweep", sort::Family::onesweep, xr::kSortWideMaxKeys + 1) ==
      "radix/onesweep: 1099511627777 keys pass 1099511627776, the most it takes");
  CHECK(xr::sort_count_refusal("bitonic/smem", sort::Family::bitonic, (1ull << 31) + 1) ==
        "bitonic/smem: 2147483649 keys pass 2147483648, the most it takes");
  CHECK(xr::sort_items_refusal("bitonic/smem", 100, DType::u32, 4096, 4096).empty());
  CHECK(xr::sort_items_refusal("bitonic/smem", 1u << 24, DType::u64, 1ull << 28, binding) ==
        "bitonic/smem: 16777216 u64 keys take 268435456 bytes of items, past one storage-buffer "
        "binding (134217728 bytes)");

  using xr::SortOrder;
  CHECK(xr::sort_mode(DType::u32, SortOrder::ascending) == 0);
  CHECK(xr::sort_mode(DType::i32, SortOrder::ascending) == 1);
  CHECK(xr::sort_mode(DType::f32, SortOrder::ascending) == 2);
  CHECK(xr::sort_mode(DType::f16, SortOrder::ascending) == 2);
  CHECK(xr::sort_mode(DType::bf16, SortOrder::ascending) == 2);
  CHECK(xr::sort_mode(DType::u64, SortOrder::descending) == 4);
  CHECK(xr::sort_mode(DType::i64, SortOrder::descending) == 5);
  CHECK(xr::sort_mode(DType::f64, SortOrder::descending) == 6);
  CHECK(xr::kSortLookBackWindow == 8);
}
