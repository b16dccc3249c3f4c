// Vulkan's histogram plans for synthetic devices (no device needed): every threshold from the
// device's limits (the bins in shared memory within maxComputeSharedMemorySize, fast/replicated's
// copies of the bins there or in global memory within one binding, the samples by address past
// one binding or 2^31 of them, a wave from the driver's resident invocations), the match by
// subgroupPartitionNV or by ballots, every module a plan names embedded, the passes of a call,
// and the bin rule's constants as EvenBins computes them.
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <string>

#include "vk_histogram_plan.hpp"
#include "xreduce/spirv_modules.hpp"

namespace {

using namespace xr::vulkan;
using xr::DType;
using xr::HistogramCounts;
using xr::HistogramDesc;
using xr::HistogramOutput;

// An H200 as NVIDIA's Vulkan driver reports it: 48 KiB of shared memory a workgroup, 132 SMs of
// 64 warps (VK_NV_shader_sm_builtins), the NV subgroup partition.
DeviceFacts nvidia() {
  DeviceFacts f;
  f.info.name = "NVIDIA H200";
  f.type = vk::PhysicalDeviceType::eDiscreteGpu;
  f.limits.maxComputeWorkGroupCount = std::array<std::uint32_t, 3>{0x7fffffff, 65535, 65535};
  f.limits.maxComputeWorkGroupInvocations = 1024;
  f.limits.maxComputeWorkGroupSize = std::array<std::uint32_t, 3>{1024, 1024, 64};
  f.limits.maxComputeSharedMemorySize = 49152;
  f.limits.maxStorageBufferRange = 0xffffffffu;
  f.subgroup_partitioned = true;
  f.resident_invocations = 132 * 64 * 32;
  return f;
}

// lavapipe: 32 KiB of shared memory, 128 MiB a binding, a CPU device, no partition.
DeviceFacts lavapipe() {
  DeviceFacts f;
  f.info.name = "llvmpipe";
  f.type = vk::PhysicalDeviceType::eCpu;
  f.limits.maxComputeWorkGroupCount = std::array<std::uint32_t, 3>{65535, 65535, 65535};
  f.limits.maxComputeWorkGroupInvocations = 1024;
  f.limits.maxComputeWorkGroupSize = std::array<std::uint32_t, 3>{1024, 1024, 1024};
  f.limits.maxComputeSharedMemorySize = 32768;
  f.limits.maxStorageBufferRange = 1u << 27;
  return f;
}

HistogramDesc desc_of(DType t, std::uint64_t n, std::uint32_t bins,
                      HistogramCounts counts = HistogramCounts::u32) {
  HistogramDesc d{.dtype = t, .count = n};
  d.levels = {
      .bins = bins, .lower = 0, .upper = t == DType::u8 ? 256.0 : 65536.0, .counts = counts};
  return d;
}

histogram::Plan plan(std::string_view id, const DeviceFacts& f, const HistogramDesc& d,
                     histogram::Knobs knobs = {}) {
  const histogram::Spec* spec = find_histogram(id);
  REQUIRE(spec);
  return histogram_plan(*spec, f, d, knobs);
}

}  // namespace

TEST_CASE("every module a histogram plan names is embedded", "[histogram]") {
  for (const DeviceFacts& f : {nvidia(), lavapipe()})
    for (const histogram::Spec& spec : histogram_table())
      for (const DType t : xr::kHistogramSampleDTypes)
        for (const bool address : {false, true})
          for (const std::uint32_t bins : {256u, 65536u}) {
            HistogramDesc d{.dtype = t, .count = 100'000};
            d.levels.bins = bins;
            d.levels.upper = t == DType::u8 ? 256 : 65536;
            const histogram::Plan p = histogram_plan(spec, f, d, {.force_address = address});
            CAPTURE(spec.id(), std::string(xr::to_string(t)), address, bins);
            CHECK(p.by_address == address);
            CHECK(xr::vulkan::spirv::find(p.count.module));
            CHECK(xr::vulkan::spirv::find(p.zero.module));
            if (p.copies_bytes) CHECK(xr::vulkan::spirv::find(p.sum.module));
          }
}

TEST_CASE("the rungs count in shared memory where the bins fit it, in the counts past it",
          "[histogram]") {
  const DeviceFacts f = nvidia();
  // 12288 u32 counters are the 49152 bytes exactly.
  const histogram::Plan fits = plan("atomic/privatized", f, desc_of(DType::u16, 1000, 12288));
  CHECK_FALSE(fits.counters_in_global);
  CHECK(fits.shared_bytes == 49152);
  const histogram::Plan past = plan("atomic/privatized", f, desc_of(DType::u16, 1000, 12289));
  CHECK(past.counters_in_global);
  CHECK(past.shared_bytes == 0);
  CHECK_THAT(past.note, Catch::Contains("pass the 49152 bytes of shared memory"));
  // Few bins declare the least counters, a power of two of them beside: fewer pipelines.
  CHECK(plan("atomic/coarsened", f, desc_of(DType::u8, 1000, 2)).count.shared_words == 256);
  CHECK(plan("atomic/coarsened", f, desc_of(DType::u8, 1000, 257)).count.shared_words == 512);
  CHECK(plan("atomic/global", f, desc_of(DType::u8, 1000, 2)).counters_in_global);
}

TEST_CASE("the coarsened rungs' wave: the driver's resident invocations, else the device's kind",
          "[histogram]") {
  const std::uint64_t n = std::uint64_t{1} << 28;
  CHECK(plan("atomic/coarsened", nvidia(), desc_of(DType::u8, n, 256)).groups ==
        132 * 64 * 32 / 256);
  CHECK(plan("atomic/coarsened", lavapipe(), desc_of(DType::u8, n, 256)).groups == 16);
  // One sample an invocation: as many workgroups as the samples take, within the grid's limit.
  CHECK(plan("atomic/global", nvidia(), desc_of(DType::u8, n, 256)).groups == n / 256);
  CHECK(plan("atomic/global", lavapipe(), desc_of(DType::u8, n, 256)).groups == 65535);
  // A call of fewer samples, fewer workgroups.
  const histogram::Plan p = plan("fast/replicated", nvidia(), desc_of(DType::u8, n, 256));
  CHECK(histogram_count_groups(p, nvidia(), 1) == 1);
  CHECK(histogram_count_groups(p, nvidia(), 1024 * p.vectors * 16 + 1) == 2);
}

TEST_CASE("fast/replicated: as many sub-histograms as the shared memory holds, then slices",
          "[histogram]") {
  // 32 copies of 257 counters (256 bins rounded up to 32, plus one) are 32896 bytes.
  const histogram::Plan h200 = plan("fast/replicated", nvidia(), desc_of(DType::u8, 1 << 20, 256));
  CHECK(h200.copies == 32);
  CHECK(h200.slices == 1);
  CHECK(h200.rule.copy_stride == 257);
  CHECK(h200.count.workgroup == 1024);
  CHECK(h200.vectors == 2);
  const histogram::Plan cpu = plan("fast/replicated", lavapipe(), desc_of(DType::u8, 1 << 20, 256));
  CHECK(cpu.copies == 16);
  // One copy needs no spacing: 8192 counters are lavapipe's 32768 bytes exactly.
  const histogram::Plan one = plan("fast/replicated", lavapipe(), desc_of(DType::u16, 1000, 8192));
  CHECK(one.copies == 1);
  CHECK(one.slices == 1);
  CHECK_FALSE(one.counters_in_global);
  // Past one copy: the fewest slices of the bins whose copy fits, a grid row each; 65536 bins in
  // six slices of 10923 on NVIDIA's 48 KiB, in eight of 8192 on lavapipe's 32 KiB.
  const std::uint64_t n = std::uint64_t{1} << 28;
  const histogram::Plan sliced = plan("fast/replicated", nvidia(), desc_of(DType::u16, n, 65536));
  CHECK_FALSE(sliced.counters_in_global);
  CHECK(sliced.slices == 6);
  CHECK(sliced.rule.slice_bins == 10923);
  CHECK(sliced.copies == 1);
  CHECK(sliced.copies_bytes == 0);
  CHECK(sliced.groups == 132 * 64 * 32 / 1024 / 6);  // the wave, over the rows
  const histogram::Call call =
      histogram_call(sliced, nvidia(), n, false, HistogramOutput::overwrite);
  REQUIRE(call.size == 2);
  CHECK(call.passes[1].rows == 6);
  CHECK(call.passes[1].args.slice_bins == 10923);
  CHECK_THAT(sliced.note, Catch::Contains("6 slices of 10923"));
  const histogram::Plan eight =
      plan("fast/replicated", lavapipe(), desc_of(DType::u16, 1000, 65536));
  CHECK(eight.slices == 8);
  CHECK(eight.rule.slice_bins == 8192);
  // Without slices (XR_VK_HISTOGRAM_LAYOUT=global) or past eight of them: copies in scratch as the
  // samples pay for (1/8 of their bytes), within the wave; with fewer samples, the counts.
  const HistogramDesc big = desc_of(DType::u16, n, 65536, HistogramCounts::u64);
  const histogram::Plan global =
      plan("fast/replicated", nvidia(), big, {.layout = histogram::Layout::global});
  CHECK(global.counters_in_global);
  CHECK(global.slices == 1);
  CHECK(global.copies == 128);  // 2^29 bytes / 8 / 512 KiB a copy
  CHECK(global.copies_bytes == 128ull * 65536 * 8);
  CHECK(global.scratch_bytes == global.copies_bytes);
  CHECK((global.count.mode & (1u << 6)) != 0);
  const histogram::Plan past =
      plan("fast/replicated", nvidia(), desc_of(DType::f32, n, 1 << 20, HistogramCounts::u64));
  CHECK(past.counters_in_global);
  CHECK(past.copies == 16);  // 2^30 bytes / 8 / 8 MiB a copy
  const histogram::Plan direct = plan("fast/replicated", nvidia(), desc_of(DType::u16, 1000, 65536),
                                      {.layout = histogram::Layout::global});
  CHECK(direct.copies == 1);
  CHECK(direct.copies_bytes == 0);
  CHECK(direct.scratch_bytes == 16);
  // At most one a resident workgroup: lavapipe's wave is 4 workgroups of 1024 invocations.
  CHECK(plan("fast/replicated", lavapipe(), big, {.layout = histogram::Layout::global}).copies ==
        4);
}

TEST_CASE("fast/replicated: lane-banked copies for many bytes over few bins, or by the knob",
          "[histogram]") {
  const std::uint64_t many = std::uint64_t{1} << 27;
  // 256 bins and the discard bin of 32 counters are 32896 bytes: one copy within NVIDIA's 48 KiB.
  const histogram::Plan banked = plan("fast/replicated", nvidia(), desc_of(DType::u8, many, 256));
  CHECK(banked.lane_banked);
  CHECK(banked.copies == 1);
  CHECK(banked.rule.copy_stride == 257 * 32);
  CHECK(banked.shared_bytes == 32896);
  CHECK(banked.vectors == 4);
  CHECK((banked.count.mode & (1u << 7)) != 0);
  CHECK_THAT(banked.tuning, Catch::Contains("lane-banked"));
  CHECK_THAT(banked.note, Catch::Contains("1 lane-banked copies"));
  // Fewer samples, more bins or another type: a copy a lane.
  CHECK_FALSE(plan("fast/replicated", nvidia(), desc_of(DType::u8, many / 2, 256)).lane_banked);
  CHECK_FALSE(plan("fast/replicated", nvidia(), desc_of(DType::u8, many, 257)).lane_banked);
  CHECK_FALSE(plan("fast/replicated", nvidia(), desc_of(DType::u16, many, 256)).lane_banked);
  // The knob: wherever 32 counters a bin fit, at any count; past them, a copy a lane.
  const histogram::Knobs forced{.layout = histogram::Layout::lane_banked};
  const histogram::Plan few =
      plan("fast/replicated", nvidia(), desc_of(DType::f32, 1000, 64), forced);
  CHECK(few.lane_banked);
  CHECK(few.copies == 4);  // 4 x 65 x 32 counters are 33280 bytes
  CHECK_FALSE(
      plan("fast/replicated", nvidia(), desc_of(DType::u16, 1000, 512), forced).lane_banked);
  const histogram::Knobs replicated{.layout = histogram::Layout::replicated};
  CHECK_FALSE(
      plan("fast/replicated", nvidia(), desc_of(DType::u8, many, 256), replicated).lane_banked);
}

TEST_CASE("subgroup/aggregated matches by subgroupPartitionNV where the device has it",
          "[histogram]") {
  const HistogramDesc d = desc_of(DType::u8, 1000, 256);
  const histogram::Plan partition = plan("subgroup/aggregated", nvidia(), d);
  CHECK(partition.match == histogram::Match::partition);
  CHECK(partition.count.module == "histogram_partition.u8");
  CHECK_THAT(partition.tuning, Catch::Contains("subgroupPartitionNV"));
  const histogram::Plan forced = plan("subgroup/aggregated", nvidia(), d, {.force_ballots = true});
  CHECK(forced.match == histogram::Match::ballots);
  CHECK(forced.count.module == "histogram_ballot.u8");
  CHECK(plan("subgroup/aggregated", lavapipe(), d).match == histogram::Match::ballots);
  CHECK(plan("atomic/aggregated", nvidia(), d).match == histogram::Match::none);
  CHECK(plan("atomic/aggregated", nvidia(), d).count.module == "histogram_atomic.u8");
}

TEST_CASE("the samples by address past one binding or 2^31 of them", "[histogram]") {
  // 2^27 bytes is lavapipe's binding: 2^27 u8 samples fit it, one more word does not.
  CHECK_FALSE(plan("atomic/global", lavapipe(), desc_of(DType::u8, 1u << 27, 256)).by_address);
  CHECK(plan("atomic/global", lavapipe(), desc_of(DType::u8, (1u << 27) + 1, 256)).by_address);
  const histogram::Plan wide =
      plan("fast/replicated", nvidia(),
           desc_of(DType::u8, std::uint64_t{1} << 31, 256, HistogramCounts::u64));
  CHECK(wide.by_address);
  CHECK(wide.count.module == "histogram_fast.u8.addr");
}

TEST_CASE("a call's passes: zero, count, and the copies' sum", "[histogram]") {
  const DeviceFacts f = nvidia();
  const histogram::Plan shared = plan("fast/replicated", f, desc_of(DType::u8, 1000, 256));
  const auto stages = [](const histogram::Call& c) {
    std::string s;
    for (const histogram::Pass& p : c.view())
      s += p.stage == histogram::Stage::zero    ? (p.zeroes_copies ? "z*" : "z")
           : p.stage == histogram::Stage::count ? "c"
                                                : "s";
    return s;
  };
  CHECK(stages(histogram_call(shared, f, 1000, false, HistogramOutput::overwrite)) == "zc");
  CHECK(stages(histogram_call(shared, f, 1000, false, HistogramOutput::accumulate)) == "c");
  CHECK(stages(histogram_call(shared, f, 0, false, HistogramOutput::overwrite)) == "z");
  CHECK(stages(histogram_call(shared, f, 0, false, HistogramOutput::accumulate)).empty());
  const histogram::Call counted = histogram_call(shared, f, 1000, true, HistogramOutput::overwrite);
  CHECK(counted.passes[1].args.counted == 1);
  CHECK(counted.passes[1].groups == shared.groups);
  CHECK(counted.passes[0].args.words == 256);
  const histogram::Plan copies =
      plan("fast/replicated", f, desc_of(DType::u16, std::uint64_t{1} << 28, 65536),
           {.layout = histogram::Layout::global});
  for (const HistogramOutput o : {HistogramOutput::overwrite, HistogramOutput::accumulate}) {
    const histogram::Call c = histogram_call(copies, f, 1 << 20, false, o);
    CHECK(stages(c) == "z*cs");
    CHECK(c.passes[2].args.flags ==
          (o == HistogramOutput::accumulate ? histogram::kAccumulate : 0));
  }
  // u64 counts zero two words a bin.
  const histogram::Plan wide =
      plan("atomic/global", f, desc_of(DType::u8, 1000, 256, HistogramCounts::u64));
  CHECK(histogram_call(wide, f, 10, false, HistogramOutput::overwrite).passes[0].args.words == 512);
}

TEST_CASE("the bin rule's constants are EvenBins's", "[histogram]") {
  const DeviceFacts f = nvidia();
  HistogramDesc d{.dtype = DType::f32, .count = 10};
  d.levels = {.bins = 256, .lower = -2.5, .upper = 23.2};
  const histogram::Plan p = plan("atomic/global", f, d);
  const float width = 23.2f - -2.5f;
  const float scale = 256.0f / width;
  CHECK(p.rule.lower_low == std::bit_cast<std::uint32_t>(-2.5f));
  CHECK(p.rule.upper_low == std::bit_cast<std::uint32_t>(23.2f));
  CHECK(p.rule.scale_low == std::bit_cast<std::uint32_t>(scale));
  d.dtype = DType::f64;
  const histogram::Plan q = plan("atomic/global", f, d);
  const auto scale64 = std::bit_cast<std::uint64_t>(256.0 / (23.2 - -2.5));
  CHECK(q.rule.scale_low == static_cast<std::uint32_t>(scale64));
  CHECK(q.rule.scale_high == static_cast<std::uint32_t>(scale64 >> 32));
  // Integers: lower's low 32 bits, the width less one, the width, the exact path.
  HistogramDesc i{.dtype = DType::i32, .count = 10};
  i.levels = {.bins = 256, .lower = -100000, .upper = 900000};
  const histogram::Plan r = plan("atomic/global", f, i);
  CHECK(r.rule.lower_low == static_cast<std::uint32_t>(-100000));
  CHECK(r.rule.upper_low == 999'999);
  CHECK(r.rule.scale_low == 1'000'000);
  CHECK(r.path == histogram::IntegerPath::narrow);
  i.dtype = DType::u32;
  i.levels = {.bins = 256, .lower = 0, .upper = 0x1p32};
  const histogram::Plan u = plan("atomic/global", f, i);
  CHECK(u.rule.scale_low == 0);
  CHECK(u.rule.scale_high == 1);
  CHECK(u.path == histogram::IntegerPath::wide);
  CHECK(plan("atomic/global", f, desc_of(DType::u8, 10, 256)).path ==
        histogram::IntegerPath::identity);
}
