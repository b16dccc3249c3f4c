// OpenCL's histogram plans for synthetic devices (no device needed): every threshold from the
// device's limits (the work-group within CL_DEVICE_MAX_WORK_GROUP_SIZE, the counters within
// CL_DEVICE_LOCAL_MEM_SIZE, copies within the cache, a wave from the compute units), the match
// by NVIDIA's warps or in local memory, 64-bit atomics where the device has them, and the bin
// rule's constants as EvenBins computes them.
#include <catch2/catch.hpp>

#include <bit>
#include <string>

#include "cl_histogram_plan.hpp"
#include "xreduce/histogram.hpp"

namespace {

using namespace xr::opencl;

// An H200 as NVIDIA's OpenCL reports it: 48 KiB of local memory, warps by inline PTX.
DeviceFacts nvidia(int major = 9) {
  DeviceFacts f;
  f.info.name = "NVIDIA H200";
  f.type = CL_DEVICE_TYPE_GPU;
  f.local_memory = 48 * 1024;
  f.cache_bytes = 60 * 1024 * 1024;
  f.max_work_group = 1024;
  f.compute_units = 132;
  f.compute_major = major;
  f.subgroups = SubgroupPath::nvidia_ptx;
  f.extensions = {"cl_khr_int64_base_atomics", "cl_khr_fp64"};
  return f;
}

// pocl on two cores: 1 MiB of local memory, no sub-groups, no 64-bit atomics here.
DeviceFacts cpu() {
  DeviceFacts f;
  f.info.name = "pocl";
  f.type = CL_DEVICE_TYPE_CPU;
  f.local_memory = 1024 * 1024;
  f.cache_bytes = 32 * 1024 * 1024;
  f.max_work_group = 4096;
  f.compute_units = 2;
  return f;
}

histogram::Plan plan_of(std::string_view id, const DeviceFacts& f, std::uint32_t bins,
                        xr::HistogramCounts counts = xr::HistogramCounts::u32,
                        std::uint64_t n = 1u << 24, xr::DType t = xr::DType::u8) {
  const histogram::Spec* spec = find_histogram(id);
  REQUIRE(spec);
  xr::HistogramDesc desc{.dtype = t, .count = n, .variant = std::string(id)};
  desc.levels = {.bins = bins, .lower = 0, .upper = 256, .counts = counts};
  if (t == xr::DType::u32) desc.levels.upper = 0x1p32;
  if (t == xr::DType::f32) desc.levels = {.bins = bins, .lower = -2.5, .upper = 23.2};
  return histogram_launches(*spec, f, desc);
}

bool has(const std::string& defines, const std::string& define) {
  return (" " + defines + " ").find(" " + define + " ") != std::string::npos;
}

}  // namespace

TEST_CASE("fast/replicated's sub-histograms fit the local memory, its copies the cache",
          "[shapes][opencl]") {
  const histogram::Plan gpu = plan_of("fast/replicated", nvidia(), 256);
  CHECK(gpu.main.kernel == "histogram_replicated");
  CHECK(gpu.main.workgroup == 1024);
  CHECK(gpu.args.copies == 32);  // a sub-histogram a lane
  CHECK(gpu.args.stride % 32 == 1);
  CHECK(gpu.local_bytes == 32u * gpu.args.stride * 4);
  CHECK(gpu.local_bytes <= 48 * 1024);
  CHECK(gpu.groups == 132 * 2);  // a wave: two work-groups of 1024 an SM
  CHECK_FALSE(gpu.merge);
  CHECK(gpu.scratch_bytes == 0);
  CHECK(has(gpu.main.defines, "-DXR_HIST_ATOM64"));
  CHECK(has(gpu.main.defines, "-DHS_U8"));
  // 4096 bins: two copies of 4097 counters fit 48 KiB, four do not.
  CHECK(plan_of("fast/replicated", nvidia(), 4096).args.copies == 2);
  // 65536 u64 counters: copies in global memory within half the cache, summed by the merge.
  const histogram::Plan past =
      plan_of("fast/replicated", nvidia(), 65536, xr::HistogramCounts::u64);
  CHECK(past.counters_in_global);
  CHECK(has(past.main.defines, "-DGLOBAL_COPIES"));
  CHECK(past.args.copies == 60);  // 30 MiB / 512 KiB
  CHECK(past.scratch_bytes == 60u * 65536 * 8);
  REQUIRE(past.merge);
  CHECK(past.merge_groups == 65536 / 256);
  // A CPU: its work-group within the tuning row's, four sub-histograms, a wave of four a core.
  const histogram::Plan host = plan_of("fast/replicated", cpu(), 65536);
  CHECK(host.main.workgroup == 256);
  CHECK(host.args.copies == 2);  // four copies of 65537 counters pass 1 MiB
  CHECK(host.groups == 8);
  CHECK_FALSE(has(host.main.defines, "-DXR_HIST_ATOM64"));
  // A device of smaller work-groups runs fast/replicated in them.
  DeviceFacts small = nvidia();
  small.max_work_group = 256;
  CHECK(plan_of("fast/replicated", small, 256).main.workgroup == 256);
}

TEST_CASE("fast/replicated's copies are lane-banked for many bytes over few bins on NVIDIA",
          "[shapes][opencl]") {
  const std::uint64_t many = std::uint64_t{1} << 27;
  const histogram::Plan banked =
      plan_of("fast/replicated", nvidia(), 256, xr::HistogramCounts::u32, many);
  CHECK(banked.lane_banked);
  CHECK(has(banked.main.defines, "-DLANE_BANKED"));
  CHECK(banked.args.copies == 1);  // 256 bins and the discard bin of 32 counters: 32896 bytes
  CHECK(banked.args.stride == 257 * 32);
  CHECK(banked.local_bytes == 32896);
  CHECK_THAT(banked.tuning, Catch::Contains("lane-banked"));
  CHECK_FALSE(
      plan_of("fast/replicated", nvidia(), 256, xr::HistogramCounts::u32, many / 2).lane_banked);
  CHECK_FALSE(plan_of("fast/replicated", cpu(), 256, xr::HistogramCounts::u32, many).lane_banked);
  // The knob, wherever 32 counters a bin fit: pocl's 1 MiB holds four copies of 256 bins.
  const histogram::Spec* spec = find_histogram("fast/replicated");
  REQUIRE(spec);
  xr::HistogramDesc desc{.dtype = xr::DType::u8, .count = 1000};
  const histogram::Plan forced =
      histogram_launches(*spec, cpu(), desc, xr::opencl::HistogramLayout::lane_banked);
  CHECK(forced.lane_banked);
  CHECK(forced.args.copies == 4);
  desc.count = many;
  CHECK_FALSE(histogram_launches(*spec, nvidia(), desc, xr::opencl::HistogramLayout::replicated)
                  .lane_banked);
}

TEST_CASE("the ladder counts in local memory where its bins fit, in global memory past it",
          "[shapes][opencl]") {
  // 12288 u32 counters are 48 KiB exactly.
  const histogram::Plan fits = plan_of("atomic/privatized", nvidia(), 12288);
  CHECK(fits.args.privatized == 1);
  CHECK(fits.local_bytes == 12288 * 4);
  CHECK(fits.groups == (1u << 24) / 256);  // one work-item a sample
  const histogram::Plan past = plan_of("atomic/privatized", nvidia(), 12289);
  CHECK(past.args.privatized == 0);
  CHECK(past.counters_in_global);
  CHECK_THAT(past.note, Catch::Contains("global atomics instead"));
  CHECK(plan_of("atomic/global", nvidia(), 16).args.privatized == 0);
  // The coarsened rungs: a wave of 256-item work-groups, more where one would pass 2^31 samples.
  CHECK(plan_of("atomic/coarsened", nvidia(), 256).groups == 132 * 8);
  CHECK(plan_of("atomic/coarsened", cpu(), 256, xr::HistogramCounts::u64, std::uint64_t{1} << 36)
            .groups == 32);
  CHECK(plan_of("atomic/aggregated", cpu(), 256).main.defines.find("-DAGG=1") != std::string::npos);
}

TEST_CASE("subgroup/aggregated matches by NVIDIA's warps, in local memory elsewhere",
          "[shapes][opencl]") {
  const histogram::Plan volta = plan_of("subgroup/aggregated", nvidia(9), 256);
  CHECK(has(volta.main.defines, "-DAGG=2"));
  CHECK(has(volta.main.defines, "-DXR_HIST_MATCH_ANY"));
  CHECK(volta.local_bytes == 256 * 4);  // the counters alone
  const histogram::Plan pascal = plan_of("subgroup/aggregated", nvidia(6), 256);
  CHECK_FALSE(has(pascal.main.defines, "-DXR_HIST_MATCH_ANY"));  // ballots
  CHECK(pascal.args.bin_bits == 9);  // 0 to 256 (no bin, bins 0-255 as bin + 1)
  const histogram::Plan host = plan_of("subgroup/aggregated", cpu(), 256);
  CHECK(has(host.main.defines, "-DMATCH=32"));
  CHECK(host.local_bytes == 256 * 4 + 256 * 4);  // the counters and a slot a work-item
}

TEST_CASE("the bin rule's constants are EvenBins's", "[shapes][opencl]") {
  CHECK(plan_of("atomic/global", cpu(), 256).path == histogram::IntegerPath::identity);
  CHECK(plan_of("atomic/global", cpu(), 255).path == histogram::IntegerPath::narrow);
  const histogram::Plan u32 =
      plan_of("atomic/global", cpu(), 256, xr::HistogramCounts::u32, 100, xr::DType::u32);
  CHECK(u32.path == histogram::IntegerPath::wide);
  CHECK(u32.args.last == 0xffffffffu);
  CHECK(u32.args.width_hi == 1);
  const histogram::Plan f32 =
      plan_of("atomic/global", cpu(), 7, xr::HistogramCounts::u32, 100, xr::DType::f32);
  const float scale = 7.0f / (23.2f - -2.5f);
  CHECK(f32.args.scale_lo == std::bit_cast<std::uint32_t>(scale));
  CHECK(f32.args.lower_lo == std::bit_cast<std::uint32_t>(-2.5f));
  CHECK(f32.args.upper_lo == std::bit_cast<std::uint32_t>(23.2f));
}
