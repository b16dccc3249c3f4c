// The sort tiles Vulkan's and OpenCL's translators (vk_sort_plan.cpp, cl_sort_plan.cpp) pick for
// synthetic devices through core's fitting (xreduce/sort_tiles.hpp): lavapipe (subgroups of 8,
// 32 or 64 KiB of shared memory), a GPU (subgroups of 32, 48 KiB), pocl (no sub-groups, 512 KiB
// of local memory). White-box: it links each backend's internals, and runs without a device.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "xreduce/sort_plan.hpp"

#ifdef XR_TEST_VULKAN
#include "vk_sort_plan.hpp"
#endif
#ifdef XR_TEST_OPENCL
#include "cl_local_memory.hpp"
#include "cl_sort_plan.hpp"
#endif

namespace {

bool same(xr::sort::Tile a, xr::sort::Tile b) {
  return a.threads == b.threads && a.items == b.items;
}

}  // namespace

#ifdef XR_TEST_VULKAN
namespace {

xr::vulkan::DeviceFacts vulkan_device(std::uint32_t subgroup, std::uint32_t shared, bool cpu) {
  xr::vulkan::DeviceFacts f;
  f.limits.maxComputeWorkGroupCount = std::array<std::uint32_t, 3>{65535, 65535, 65535};
  f.limits.maxComputeWorkGroupInvocations = 1024;
  f.limits.maxComputeWorkGroupSize = std::array<std::uint32_t, 3>{1024, 1024, 64};
  f.limits.maxComputeSharedMemorySize = shared;
  f.limits.maxStorageBufferRange = cpu ? 134217728u : 4294967295u;
  f.subgroup_size = f.min_subgroup_size = f.max_subgroup_size = subgroup;
  f.type = cpu ? xr_vkhpp::PhysicalDeviceType::eCpu : xr_vkhpp::PhysicalDeviceType::eDiscreteGpu;
  return f;
}

struct VulkanCase {
  const char* device;
  std::uint32_t subgroup, shared;
  bool cpu;
  xr::vulkan::sort::Ranking ranking;
  xr::DType t;
  xr::sort::Tile tile;
  // Where 64-bit addressing's firsts cost an item; else `tile`.
  std::optional<xr::sort::Tile> wide_tile{};
};

}  // namespace

TEST_CASE("Vulkan's digit and bitonic tiles on lavapipe and a GPU", "[unit][sort][vulkan]") {
  using R = xr::vulkan::sort::Ranking;
  using xr::DType;
  const VulkanCase cases[] = {
      {"lavapipe 32 KiB",
       8,
       32768,
       true,
       R::ballots,
       DType::u32,
       {256, 14},
       xr::sort::Tile{256, 13}},
      {"lavapipe 32 KiB", 8, 32768, true, R::ballots, DType::u64, {256, 5}},
      {"lavapipe 32 KiB", 8, 32768, true, R::counting, DType::f16, {256, 12}},
      {"lavapipe 32 KiB", 8, 32768, true, R::counting, DType::i64, {256, 8}},
      {"lavapipe 64 KiB",
       8,
       65536,
       true,
       R::ballots,
       DType::f32,
       {512, 15},
       xr::sort::Tile{512, 14}},
      {"lavapipe 64 KiB", 8, 65536, true, R::counting, DType::u32, {256, 20}},
      {"lavapipe 64 KiB", 8, 65536, true, R::counting, DType::f64, {256, 10}},
      {"GPU 48 KiB", 32, 49152, false, R::ballots, DType::u32, {512, 19}, xr::sort::Tile{512, 18}},
      {"GPU 48 KiB", 32, 49152, false, R::ballots, DType::u64, {768, 5}},
      {"GPU 48 KiB", 32, 49152, false, R::counting, DType::bf16, {256, 20}},
      {"GPU 48 KiB", 32, 49152, false, R::counting, DType::u64, {256, 10}},
  };
  for (const VulkanCase& c : cases)
    for (const bool wide : {false, true}) {
      CAPTURE(c.device, std::string(xr::to_string(c.t)), wide, int(c.ranking));
      const auto f = vulkan_device(c.subgroup, c.shared, c.cpu);
      xr::vulkan::sort::Knobs knobs;
      knobs.polls = 9;
      const xr::sort::ScheduleOptions o =
          xr::vulkan::sort_plan_options(f, xr::sort::Family::onesweep, c.t, wide, c.ranking, knobs);
      CAPTURE(o.tile.threads, o.tile.items);
      CHECK(same(o.tile, wide ? c.wide_tile.value_or(c.tile) : c.tile));
      CHECK(o.wave == (c.cpu ? 16u : 256u));
      CHECK(o.scan_threads == 1024);
      CHECK(o.polls == 9);
      const xr::sort::ScheduleOptions b =
          xr::vulkan::sort_plan_options(f, xr::sort::Family::bitonic, c.t, false, c.ranking, knobs);
      CHECK(
          same(b.bitonic, xr::size_of(c.t) == 8 ? xr::sort::Tile{512, 4} : xr::sort::Tile{512, 8}));
    }
  // A knob's tile keeps its invocations: lavapipe's 32 KiB hold 768 of them by counting alone.
  auto lavapipe = vulkan_device(8, 32768, true);
  xr::vulkan::sort::Knobs knobs;
  knobs.tile = xr::sort::Tile{768, 10};
  CHECK(same(xr::vulkan::sort_plan_options(lavapipe, xr::sort::Family::onesweep, DType::u32, false,
                                           R::counting, knobs)
                 .tile,
             {768, 2}));
  CHECK_THROWS_WITH(xr::vulkan::sort_plan_options(lavapipe, xr::sort::Family::onesweep, DType::u32,
                                                  false, R::ballots, knobs),
                    "XR_VK_SORT_TILE=768x10: a sort tile needs more than the 32768 bytes of "
                    "shared memory this device has: 768 invocations ranking by subgroup ballots "
                    "leave no room for one item; at most 448 invocations do");
}

TEST_CASE("Vulkan's sort dispatches take core's window, mode and smallest subgroup",
          "[unit][sort][vulkan]") {
  const auto f = vulkan_device(8, 32768, true);
  const xr::vulkan::sort::Spec& spec = *xr::vulkan::find_sort("radix/onesweep");
  xr::vulkan::sort::Knobs knobs;
  knobs.polls = 64;
  knobs.force_counting = true;
  const xr::vulkan::sort::Plan d =
      xr::vulkan::sort_dispatches(spec, f, 100000, xr::DType::i64, xr::SortOrder::descending,
                                  {0, 64}, xr::SortValues::u64, knobs);
  REQUIRE_FALSE(d.passes.empty());
  for (const xr::vulkan::sort::Dispatch& p : d.passes) {
    CAPTURE(p.module);
    CHECK(p.window == xr::kSortLookBackWindow);
    CHECK(p.sort_mode == 5);  // signed, descending
    CHECK(p.min_subgroup == 8);
  }
  CHECK(d.passes.back().module == "sort_onesweep.k64.pairs64.count");
  CHECK(d.passes.back().workgroup == 256);
  CHECK(d.passes.back().items == 8);
}
#endif

#ifdef XR_TEST_OPENCL
namespace {

xr::opencl::DeviceFacts opencl_device(const char* name, bool warps, std::uint64_t local,
                                      std::size_t work_group, bool cpu) {
  xr::opencl::DeviceFacts f;
  f.info.name = name;
  f.subgroups = warps ? xr::opencl::SubgroupPath::nvidia_ptx : xr::opencl::SubgroupPath::single;
  f.local_memory = local;
  f.max_work_group = work_group;
  f.type = cpu ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
  return f;
}

}  // namespace

TEST_CASE("OpenCL's digit and bitonic tiles on pocl and a GPU", "[unit][sort][opencl]") {
  using xr::DType;
  namespace sort = xr::sort;
  const auto pocl = opencl_device("pocl", false, 524288, 4096, true);
  const auto gpu = opencl_device("gpu", true, 49152, 1024, false);
  for (const bool wide : {false, true}) {
    CAPTURE(wide);
    const auto tile = [&](const xr::opencl::DeviceFacts& f, DType t,
                          std::optional<sort::Tile> knob = {}) {
      return xr::opencl::sort_plan_options(f, sort::Family::reduce_then_scan, t, wide, 64, knob)
          .tile;
    };
    CHECK(same(tile(pocl, DType::u32), {256, 8}));
    CHECK(same(tile(pocl, DType::f64), {256, 8}));
    CHECK(same(tile(pocl, DType::u64, sort::Tile{1024, 32}), {1024, 27}));
    CHECK(same(tile(gpu, DType::f32), {512, 18}));
    CHECK(same(tile(gpu, DType::i64), {512, 9}));
    CHECK(same(tile(gpu, DType::u32, sort::Tile{1024, 32}), {1024, 7}));
  }
  const xr::sort::ScheduleOptions o =
      xr::opencl::sort_plan_options(pocl, sort::Family::bitonic, DType::u64, false, 64, {});
  CHECK(same(o.bitonic, {512, 4}));
  CHECK(o.wave == 16);
  CHECK(o.scan_threads == 1024);
  CHECK(
      xr::opencl::sort_plan_options(gpu, sort::Family::onesweep, DType::u32, false, 64, {}).wave ==
      256);
  CHECK_THROWS_WITH(
      xr::opencl::sort_plan_options(opencl_device("narrow", true, 49152, 128, false),
                                    sort::Family::onesweep, DType::u32, false, 64, {}),
      "a sort tile needs work-groups of 256, narrow allows 128");
  CHECK_THROWS_WITH(
      xr::opencl::sort_plan_options(opencl_device("small", false, 4096, 1024, false),
                                    sort::Family::onesweep, DType::u32, false, 64, {}),
      "a sort tile needs more than the 4096 bytes of local memory small has");
}

TEST_CASE("OpenCL's onesweep builds with core's window and mode", "[unit][sort][opencl]") {
  const auto gpu = opencl_device("gpu", true, 49152, 1024, false);
  const xr::opencl::sort::Spec& spec = *xr::opencl::find_sort("radix/onesweep");
  const xr::opencl::sort::Plan l =
      xr::opencl::sort_launches(spec, gpu, 100000, xr::DType::f32, xr::SortOrder::descending,
                                {0, 32}, xr::SortValues::none, 64);
  CHECK(l.mode == 6);  // float, descending
  // On a device with sub-groups the stages that read keys by their order build with the key's
  // kind and order; the others without, one build for every kind.
  std::set<std::string> kernels;
  for (const xr::opencl::sort::Launch& p : l.passes) {
    kernels.insert(p.key.kernel);
    if (p.key.kernel == "sort_onesweep") {
      CHECK(p.key.defines ==
            "-DK32 -DSORT_MODE=6 -DWINDOW=" + std::to_string(xr::kSortLookBackWindow));
      CHECK(p.key.workgroup == 512);
      CHECK(p.key.unroll == 18);
    }
    if (p.key.kernel == "sort_histogram") CHECK(p.key.defines == "-DK32 -DSORT_MODE=6");
    if (p.key.kernel == "sort_bins" || p.key.kernel == "sort_init")
      CHECK(p.key.defines.find("SORT_MODE") == std::string::npos);
  }
  CHECK(kernels ==
        std::set<std::string>{"sort_init", "sort_histogram", "sort_bins", "sort_onesweep"});
}

TEST_CASE("OpenCL's sorts build per key kind and order by the device's policy or as asked",
          "[unit][sort][opencl]") {
  const auto gpu = opencl_device("gpu", true, 49152, 1024, false);
  const auto cpu = opencl_device("cpu", false, 49152, 1024, true);
  const std::string id =
      GENERATE(std::string("radix/onesweep"), std::string("radix/reduce-then-scan"),
               std::string("bitonic/smem"));
  CAPTURE(id);
  const xr::opencl::sort::Spec& spec = *xr::opencl::find_sort(id);
  const auto plan = [&](const xr::opencl::DeviceFacts& f, std::optional<bool> per_mode) {
    return xr::opencl::sort_launches(spec, f, 100000, xr::DType::i32, xr::SortOrder::ascending,
                                     {0, 32}, xr::SortValues::none, 64, {}, false, per_mode);
  };
  // How many of the plan's builds name the key's mode (i32 ascending: 1); only the stages that
  // read keys by their order may.
  const auto moded = [](const xr::opencl::sort::Plan& l) {
    CHECK(l.mode == 1);
    int n = 0;
    for (const xr::opencl::sort::Launch& p : l.passes) {
      const bool named = p.key.defines.find("-DSORT_MODE=1") != std::string::npos;
      CHECK((!named || xr::sort_stage_forms(p.key.kernel)->ordered));
      n += named;
    }
    return n;
  };
  const xr::opencl::sort::Plan gpu_policy = plan(gpu, {}), cpu_policy = plan(cpu, {});
  const xr::opencl::sort::Plan cpu_built = plan(cpu, true);
  CHECK(moded(gpu_policy) > 0);
  CHECK(moded(cpu_policy) == 0);
  CHECK(moded(plan(gpu, false)) == 0);
  CHECK(moded(cpu_built) > 0);
  // The plan's tuning says which, with the row's measurement or the knob.
  CHECK_THAT(gpu_policy.layout.tuning,
             Catch::Contains("; the key's kind and order built in (H200, "));
  CHECK_THAT(cpu_policy.layout.tuning,
             Catch::Contains("; the key's kind and order an argument (pocl "));
  CHECK_THAT(cpu_built.layout.tuning, Catch::EndsWith("built in (the tool's XR_CL_SORT_MODE)"));
}

TEST_CASE("OpenCL's digit tiles take the local memory a probe found past the reported size",
          "[unit][sort][opencl]") {
  using xr::DType;
  namespace sort = xr::sort;
  const auto reported = opencl_device("gpu", true, 49152, 1024, false);
  auto probed = reported;
  probed.working_local_memory = 98304;
  const auto plan = [](const xr::opencl::DeviceFacts& f, std::optional<sort::Tile> knob) {
    return xr::opencl::sort_plan_options(f, sort::Family::onesweep, DType::u32, false, 64, knob);
  };
  // The tuning table's tile fits either way; a knob's larger tile only where the probe found room.
  CHECK(same(plan(probed, {}).tile, {512, 18}));
  CHECK(same(plan(reported, sort::Tile{512, 24}).tile, {512, 19}));
  CHECK(same(plan(probed, sort::Tile{512, 24}).tile, {512, 24}));
  // Pairs take their own row's tile, which needs the probed room; in 48 KiB it keeps its
  // invocations and fewer items.
  const auto pairs = [](const xr::opencl::DeviceFacts& f) {
    return xr::opencl::sort_plan_options(f, sort::Family::onesweep, DType::u32, false, 64, {},
                                         true);
  };
  CHECK(same(pairs(probed).tile, {768, 14}));
  CHECK(same(pairs(reported).tile, {768, 11}));
  CHECK_THAT(pairs(probed).tuning, Catch::Contains("u32 pairs"));
  CHECK_THAT(plan(probed, {}).tuning,
             Catch::Matchers::EndsWith("; local memory 98304 bytes working, 49152 reported"));
  CHECK_THAT(plan(reported, {}).tuning,
             Catch::Matchers::EndsWith("; local memory 49152 bytes as reported"));
}

TEST_CASE("OpenCL's local-memory probe runs on a device and a CPU device keeps its own size",
          "[unit][sort][opencl][device]") {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_uint platforms = 0, devices = 0;
  if (clGetPlatformIDs(1, &platform, &platforms) != CL_SUCCESS || platforms == 0 ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, &devices) != CL_SUCCESS ||
      devices == 0) {
    const char* required = std::getenv("XR_TEST_REQUIRE_BACKENDS");
    if (required && std::string_view(required).find("opencl") != std::string_view::npos)
      FAIL("no OpenCL device, and XR_TEST_REQUIRE_BACKENDS requires one");
    std::puts("skipped: no OpenCL device");
    std::exit(77);
  }
  const xr::opencl::DeviceFacts f =
      xr::opencl::query_facts(platform, device, 0, {.probe_local_memory = false});
  CAPTURE(f.info.name, f.local_memory);
  // Half the reported size, in several work-groups a compute unit: every word its group's own.
  const xr::opencl::LocalMemoryProbe probe =
      xr::opencl::probe_local_memory(f, std::min<std::uint64_t>(f.local_memory / 2, 16384));
  CHECK(probe.works);
  CHECK(probe.why.empty());
  std::string note;
  const std::uint64_t working = xr::opencl::working_local_memory(f, xr::KernelCache(), note);
  if ((f.type & CL_DEVICE_TYPE_GPU) == 0) {
    CHECK(working == f.local_memory);
    CHECK(note == "as reported (not a GPU: not probed)");
  } else {
    CHECK(working >= f.local_memory);
  }
}
#endif
