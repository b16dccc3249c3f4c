#include "report_fixtures.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/merge.hpp"

#include "xreduce/harness.hpp"
#include "xreduce/primitive.hpp"

namespace xrtest {
namespace {

using xr::DType;
using xr::Operation;
using xr::Primitive;
using xr::ScanKind;
using xr::TimingMode;
using xr::app::CompareReport;
using xr::app::DeviceRecord;
using xr::app::ResultRow;
using xr::app::RowStatus;
using json = nlohmann::ordered_json;

constexpr std::uint64_t K = 1024, M = K * K;
constexpr Operation kReduceSum{Primitive::reduce, xr::Op::sum};
constexpr Operation kReduceMax{Primitive::reduce, xr::Op::max};
constexpr Operation kInclusiveSum{Primitive::scan, xr::Op::sum, ScanKind::inclusive};
constexpr Operation kExclusiveSum{Primitive::scan, xr::Op::sum, ScanKind::exclusive};
constexpr Operation kInclusiveMax{Primitive::scan, xr::Op::max, ScanKind::inclusive};

const std::string kSameGpuUuid = "0123456789abcdef0123456789abcdef";

// One variant of one backend with a made-up cost: a fixed latency plus bytes at a bandwidth.
struct Lane {
  std::string backend, variant;
  double latency_ms, gbps;
  std::string timing = "device";
};

// One section of a report: every lane at every size and mode.
struct SectionSpec {
  Operation operation;
  DType dtype;
  std::vector<std::uint64_t> ns;
  std::vector<TimingMode> modes;
  std::vector<Lane> lanes;
};

// A correct row as measure_row makes one; batch mode hides three quarters of the latency.
ResultRow measured(const Lane& lane, const SectionSpec& s, std::uint64_t n, TimingMode mode) {
  ResultRow row;
  row.backend = lane.backend;
  row.variant = lane.variant;
  row.operation = s.operation;
  row.dtype = s.dtype;
  row.n = n;
  row.mode = mode;
  const double bytes = xr::bytes_moved(s.operation, n, s.dtype);
  const double latency = mode == TimingMode::batch ? lane.latency_ms / 4 : lane.latency_ms;
  const double ms = latency + bytes / (lane.gbps * 1e6);
  row.status = RowStatus::ok;
  row.ms = {ms, ms * 0.97, ms * 1.08, ms * 1.01, 0.004, mode == TimingMode::batch ? 5 : 9};
  row.host_ms = {ms + 0.012, ms + 0.01, ms + 0.02, ms + 0.013, 0.01, 9};
  row.batch_calls = mode == TimingMode::batch ? 64 : 0;
  row.timing = lane.timing;
  row.result = row.reference = std::to_string(n * 3 + 1);
  if (lane.variant == "fast/decoupled-lookback") row.diagnostics = "fallbacks=3, spins=\"12\"";
  if (lane.backend != "cpu") {  // the GPUs' SM clock: at the reference, a sample a little under
    row.clock_min_mhz = mode == TimingMode::batch ? 1980.0 : 1965.0;
    row.clock_median_mhz = 1980.0;
  }
  return row;
}

void add_section(CompareReport& r, const SectionSpec& s) {
  for (std::uint64_t n : s.ns)
    for (const Lane& lane : s.lanes)
      for (TimingMode mode : s.modes) r.rows.push_back(measured(lane, s, n, mode));
}

ResultRow& row_at(CompareReport& r, const std::string& backend, const std::string& variant,
                  Operation operation, DType dtype, std::uint64_t n,
                  TimingMode mode = TimingMode::cold) {
  for (auto& row : r.rows)
    if (row.backend == backend && row.variant == variant && row.operation == operation &&
        row.dtype == dtype && row.n == n && row.mode == mode)
      return row;
  throw std::logic_error("report fixture: no row " + backend + " " + variant);
}

void fail(ResultRow& row, const std::string& reason, const std::string& result) {
  row.status = RowStatus::failed;
  row.reason = reason;
  row.result = result;
}

// What measure_row leaves of a point the variant cannot run: its identity and the reason.
void unsupport(ResultRow& row, const std::string& reason) {
  ResultRow bare;
  bare.backend = row.backend;
  bare.variant = row.variant;
  bare.operation = row.operation;
  bare.dtype = row.dtype;
  bare.n = row.n;
  bare.mode = row.mode;
  bare.status = RowStatus::unsupported;
  bare.reason = reason;
  row = bare;
}

DeviceRecord device(const std::string& backend, int index, const std::string& name,
                    const std::string& uuid, std::optional<double> read_peak,
                    std::optional<double> copy_peak) {
  DeviceRecord d;
  d.backend = backend;
  d.info.index = index;
  d.info.name = name;
  d.info.uuid = uuid;
  d.read_peak_gbps = read_peak;
  d.copy_peak_gbps = copy_peak;
  return d;
}

DeviceRecord cpu_device(std::optional<double> read_peak, std::optional<double> copy_peak) {
  DeviceRecord d =
      device("cpu", 0, "AMD EPYC 9654 96-Core Processor (2 threads)", "", read_peak, copy_peak);
  // Whole strings: GCC 12's -Wrestrict misreads a literal assigned here (GCC bug 105651).
  d.info.api_version = std::string("TBB 2021.8");
  d.info.driver_version = std::string("-");
  d.info.memory_bytes = 128 * M * K;
  d.info.properties = {{"threads", "2"}};
  d.clock = xr::kClockNotMeasuredCpu;
  return d;
}

DeviceRecord gpu_device(const std::string& backend, const std::string& uuid,
                        std::optional<double> read_peak, std::optional<double> copy_peak) {
  DeviceRecord d = device(backend, 0, "NVIDIA H200", uuid, read_peak, copy_peak);
  d.info.api_version = backend == "cuda"     ? "CUDA runtime 12.8"
                       : backend == "vulkan" ? "Vulkan 1.3.277"
                                             : "OpenCL 3.0 CUDA 12.8.90";
  d.info.driver_version = "570.86.15";
  d.info.memory_bytes = 143771 * M;
  d.info.properties = {{"compute capability", "9.0"}, {"subgroup size", "32"}};
  d.reference_clock_mhz = 1980;
  d.clock = backend == "cuda"     ? "clock64 against %globaltimer"
            : backend == "vulkan" ? "VK_KHR_shader_clock: subgroup clock against the device clock"
                                  : "not measured: no clock query in this OpenCL backend";
  if (backend == "opencl") d.reference_clock_mhz.reset();
  return d;
}

const std::vector<Lane> kReduceLanes = {
    {"cpu", "cpu/sequential", 0.001, 8, "host"},
    {"cpu", "cpu/parallel", 0.002, 20, "host"},
    {"cuda", "smem/interleaved-divergent", 0.006, 400},
    {"cuda", "smem/sequential", 0.005, 900},
    {"cuda", "fast/single-pass", 0.004, 2600},
    {"cuda", "lib/cub", 0.0045, 2500},
    // Out of ladder order on purpose: the tables sort by the catalog.
    {"vulkan", "fast/single-pass", 0.0009, 2400},
    {"vulkan", "smem/interleaved-divergent", 0.0012, 350},
    {"vulkan", "smem/sequential", 0.001, 800},
    {"vulkan", "subgroup/arithmetic", 0.001, 2000},
};

const std::vector<Lane> kScanLanes = {
    {"cpu", "cpu/sequential", 0.001, 5, "host"},
    {"cpu", "cpu/parallel", 0.003, 12, "host"},
    {"cuda", "blelloch/bcao", 0.01, 900},
    {"cuda", "fast/decoupled-lookback", 0.005, 2300},
    {"cuda", "lib/cub", 0.005, 2350},
    {"vulkan", "blelloch/bcao", 0.002, 700},
    {"vulkan", "fast/decoupled-lookback", 0.0015, 2000},
};

// cuda, vulkan and opencl: smem/first-add on cuda and opencl only, subgroup/arithmetic on vulkan
// and opencl only (no cuda row beside it); OpenCL's single pass the fastest at 16M.
const std::vector<Lane> kThreeApiLanes = {
    {"cpu", "cpu/parallel", 0.002, 20, "host"},
    {"cuda", "smem/sequential", 0.005, 900},
    {"cuda", "smem/first-add", 0.0045, 1600},
    {"cuda", "fast/single-pass", 0.004, 2600},
    {"cuda", "lib/cub", 0.0045, 2500},
    {"vulkan", "smem/sequential", 0.001, 800},
    {"vulkan", "fast/single-pass", 0.0009, 2400},
    {"vulkan", "subgroup/arithmetic", 0.001, 2000},
    {"opencl", "smem/sequential", 0.006, 850},
    {"opencl", "smem/first-add", 0.0055, 1500},
    {"opencl", "fast/single-pass", 0.005, 3000},
    {"opencl", "subgroup/arithmetic", 0.0052, 2100},
};

// `lanes` with `extra_ms` more latency on `backend`: a section where it loses to the CPU.
std::vector<Lane> slower(std::vector<Lane> lanes, const std::string& backend, double extra_ms) {
  for (auto& lane : lanes)
    if (lane.backend == backend) lane.latency_ms += extra_ms;
  return lanes;
}

std::vector<Lane> only(const std::vector<Lane>& lanes, const std::vector<std::string>& variants) {
  std::vector<Lane> out;
  for (const auto& lane : lanes)
    if (std::find(variants.begin(), variants.end(), lane.variant) != variants.end())
      out.push_back(lane);
  return out;
}

CompareReport header(const std::string& command) {
  CompareReport r;
  r.version = "0.9.0-golden";
  r.command = command;
  r.stats = "adaptive reps (5..1000, until the median's spread < 1% or 2 s per point)";
  r.seed = 42;
  r.dist = "small";
  return r;
}

xr::app::TransferTable cuda_transfers() {
  xr::app::TransferTable t;
  t.link = {1024 * M, 25.125, 26.5, 5, "cudaMemcpyAsync from/to cudaMallocHost memory, events"};
  t.rows = {{M, 8.25, 7.5, 5}, {64 * M, 21.0, 24.75, 5}, {768 * M, 22.5, 18.125, 3}};
  t.notes = {"1 GiB clamped to 768 MiB: the largest u32 array the device holds",
             "2 GiB left out: the source and the read-back need 4 GiB of host memory, 3 GiB is "
             "available"};
  return t;
}

// A Vulkan device whose link could not be timed: shares are left empty.
xr::app::TransferTable vulkan_transfers() {
  xr::app::TransferTable t;
  t.link = {64 * M, 0, 0, 0, "vkCmdCopyBuffer, no timestamp on the transfer queue"};
  t.rows = {{M, 6.5, 5.25, 5}, {64 * M, 19.5, 11.0, 5}};
  return t;
}

void add_ladder_sections(CompareReport& r) {
  const std::vector<TimingMode> both = {TimingMode::cold, TimingMode::batch};
  add_section(r, {kReduceSum, DType::i32, {K, M, 16 * M}, both, kReduceLanes});
  add_section(
      r, {kReduceMax, DType::f32, {K, M}, {TimingMode::cold}, slower(kReduceLanes, "vulkan", 1.0)});
  add_section(r, {kInclusiveSum, DType::i32, {K, 16 * M}, {TimingMode::cold}, kScanLanes});
  add_section(r, {kExclusiveSum, DType::f32, {M}, both, kScanLanes});
}

void spoil_ladder_rows(CompareReport& r) {
  fail(row_at(r, "vulkan", "smem/sequential", kReduceSum, DType::i32, M),
       "got 524288, expected \"524289\", off by 1,\nfirst wrong element at 3", "524288");
  fail(row_at(r, "cuda", "fast/decoupled-lookback", kExclusiveSum, DType::f32, M),
       "repetitions returned different results", "3145729.5");
  for (auto& row : r.rows)
    if (row.variant == "subgroup/arithmetic" && row.operation == kReduceMax)
      unsupport(row, "no op max (it supports: sum), dtype f32 (it supports: \"i32\", u32)");
  for (TimingMode mode : {TimingMode::cold, TimingMode::batch})
    unsupport(row_at(r, "vulkan", "subgroup/arithmetic", kReduceSum, DType::i32, 16 * M, mode),
              "subgroup size 8, needs \"arithmetic\" ops,\nnot on lavapipe");
  // An idle-clocked point: retaken until its budget ran out, then kept and flagged.
  ResultRow& idle = row_at(r, "vulkan", "smem/interleaved-divergent", kReduceSum, DType::i32, K);
  idle.clock_min_mhz = 345;
  idle.clock_median_mhz = 525;
  idle.clock_retaken = 27;
  idle.throttled = true;
  // A point whose first two samples were retaken, then measured at clock.
  row_at(r, "cuda", "lib/cub", kReduceSum, DType::i32, 16 * M).clock_retaken = 2;
}

}  // namespace

namespace {

// One pass's compiled facts, as compare reads them from inspect().
xr::app::PassFacts pass(const std::string& kernel, std::uint32_t block, std::uint64_t grid,
                        int registers, std::uint64_t shared, double occupancy, int blocks,
                        const std::string& binds) {
  xr::app::PassFacts p;
  p.kernel = kernel;
  p.block = block;
  p.grid = grid;
  p.registers = registers;
  p.shared_bytes = shared;
  p.local_bytes = 0;
  p.occupancy = occupancy;
  p.blocks_per_sm = blocks;
  p.binds = binds;
  return p;
}

// The compiled facts of two points of both GPU APIs: a look-back whose registers, shared memory
// and occupancy differ, and a two-pass ladder step compiled alike (no difference); one Vulkan row
// on a driver that reports nothing (no compiled table row without both sides).
void add_compiled_facts(CompareReport& r) {
  using xr::app::RowCompiled;
  row_at(r, "cuda", "fast/decoupled-lookback", kInclusiveSum, DType::i32, 16 * M).compiled =
      RowCompiled{{pass("scan_decoupled_lookback<unsigned int>", 128, 4096, 68, 28, 0.4375, 7,
                        "registers")},
                  ""};
  row_at(r, "vulkan", "fast/decoupled-lookback", kInclusiveSum, DType::i32, 16 * M).compiled =
      RowCompiled{{pass("scan_lookback_clock.i32", 128, 4096, 64, 4112, 0.5, 8, "registers")}, ""};
  for (const char* backend : {"cuda", "vulkan"})
    for (TimingMode mode : {TimingMode::cold, TimingMode::batch})
      row_at(r, backend, "smem/sequential", kReduceSum, DType::i32, 16 * M, mode).compiled =
          RowCompiled{{pass("smem_sequential", 256, 65536, 16, 1024, 1, 8, "threads"),
                       pass("smem_sequential", 256, 256, 16, 1024, 1, 8, "threads")},
                      ""};
  xr::app::PassFacts bare;
  bare.kernel = "fast_single_pass.i32";
  bare.block = 256;
  bare.grid = 32768;
  bare.not_reported = "not reported by this driver";
  row_at(r, "vulkan", "fast/single-pass", kReduceSum, DType::i32, 16 * M).compiled =
      RowCompiled{{bare}, ""};
}

// The three GPU APIs at 16M: the single pass compiled by all three (OpenCL's with more
// registers), the ladder step by CUDA and Vulkan only (OpenCL's columns show "-").
void add_three_api_compiled_facts(CompareReport& r) {
  using xr::app::RowCompiled;
  const auto at = [&](const char* backend, const char* variant) -> ResultRow& {
    return row_at(r, backend, variant, kReduceSum, DType::i32, 16 * M);
  };
  at("cuda", "fast/single-pass").compiled =
      RowCompiled{{pass("fast_single_pass<int>", 256, 1024, 32, 132, 1, 8, "threads")}, ""};
  at("vulkan", "fast/single-pass").compiled =
      RowCompiled{{pass("fast_single_pass.i32", 256, 1024, 32, 132, 1, 8, "threads")}, ""};
  at("opencl", "fast/single-pass").compiled =
      RowCompiled{{pass("fast_single_pass_i32", 256, 1024, 72, 132, 0.375, 3, "registers")}, ""};
  for (const char* backend : {"cuda", "vulkan"})
    at(backend, "smem/sequential").compiled =
        RowCompiled{{pass("smem_sequential", 256, 65536, 16, 1024, 1, 8, "threads")}, ""};
}

}  // namespace

std::string peers_json() {
  const std::string torch_uuid = "ffeeddccbbaa99887766554433221100";
  json devices = json::array(
      {{{"backend", "torch"},
        {"name", "NVIDIA H200"},
        {"uuid", torch_uuid},
        {"api_version", "PyTorch 2.5.1+cu124"},
        {"driver_version", "570.86.15"},
        {"read_peak_gbps", 4100.5}},
       {{"backend", "cupy"}, {"name", "NVIDIA H200, MIG \"3g.71gb\""}, {"uuid", kSameGpuUuid}}});
  auto reduce = [](const char* backend, const char* variant, const char* op, const char* dtype,
                   std::uint64_t n, const char* mode, double ms) {
    return json{{"backend", backend},
                {"variant", variant},
                {"primitive", "reduce"},
                {"scan", nullptr},
                {"op", op},
                {"dtype", dtype},
                {"n", n},
                {"mode", mode},
                {"status", "ok"},
                {"median_ms", ms},
                {"min_ms", ms * 0.95},
                {"max_ms", ms * 1.1},
                {"rel_spread", 0.002},
                {"reps", 11},
                {"host_median_ms", ms + 0.02},
                {"timing", "device"},
                {"result", "3"},
                {"reference", "3"}};
  };
  json results = json::array({reduce("torch", "torch.sum", "sum", "i32", K, "cold", 0.011),
                              reduce("torch", "torch.sum", "sum", "i32", M, "cold", 0.0141),
                              reduce("torch", "torch.sum", "sum", "i32", 16 * M, "cold", 0.0352),
                              reduce("torch", "torch.sum", "sum", "i32", 16 * M, "batch", 0.0301)});
  results.back()["batch_calls"] = 64;
  results.push_back({{"backend", "torch"},
                     {"variant", "torch.cumsum"},
                     {"primitive", "scan"},
                     {"scan", "inclusive"},
                     {"op", "sum"},
                     {"dtype", "i32"},
                     {"n", 16 * M},
                     {"status", "ok"},
                     {"median_ms", 0.071}});
  results.push_back({{"backend", "cupy"},
                     {"variant", "cupy.sum"},
                     {"primitive", "reduce"},
                     {"op", "sum"},
                     {"dtype", "i32"},
                     {"n", M},
                     {"mode", "cold"},
                     {"status", "ok"},
                     {"median_ms", 0.0122}});
  results.push_back({{"backend", "cupy"},
                     {"variant", "cupy.sum"},
                     {"primitive", "reduce"},
                     {"op", "sum"},
                     {"dtype", "i32"},
                     {"n", 16 * M},
                     {"status", "failed"},
                     {"reason", "got 1, expected 2"},
                     {"median_ms", 0.0333}});
  results.push_back({{"backend", "cupy"},
                     {"variant", "cupy.max"},
                     {"primitive", "reduce"},
                     {"op", "max"},
                     {"dtype", "f32"},
                     {"n", K},
                     {"status", "unsupported"},
                     {"reason", "cupy.max, f32: \"not built\""}});
  return json{{"devices", devices}, {"results", results}}.dump(2);
}

CompareReport ladders_report() {
  CompareReport r = header(
      "xreduce compare --primitive all --scan inclusive,exclusive --op sum,max --dtype i32,f32 "
      "--n 1K,1M,16M --mode all --overheads --transfers --merge bench/out/peers.json");
  r.commit = "0123abcd0123abcd0123abcd0123abcd0123abcd";
  r.primitives = {Primitive::reduce, Primitive::scan};
  r.modes = {TimingMode::cold, TimingMode::batch};
  r.devices.push_back(cpu_device(std::nullopt, 11.0));
  r.devices.push_back(gpu_device("cuda", kSameGpuUuid, 2000, 1900));
  r.devices.back().overheads = {{xr::OverheadKind::dispatch_gpu, "empty dispatch, GPU time",
                                 "stream launches", 2.125, 1.875, 100, "one empty kernel"},
                                {xr::OverheadKind::round_trip, "round trip", "CUDA graph", 9.5,
                                 8.25, 50, "launch, sync, read 4 bytes back"}};
  r.devices.back().transfers = cuda_transfers();
  r.devices.push_back(gpu_device("vulkan", kSameGpuUuid, 1950, std::nullopt));
  r.devices.back().overheads = {{xr::OverheadKind::submit_host, "submit, host time", "fence wait",
                                 14.0, 11.5, 100, "vkQueueSubmit to the fence"}};
  r.devices.back().transfers = vulkan_transfers();
  r.skipped = {{"metal", "not built: Metal is macOS only"},
               {"opencl", "unavailable: no ICD, \"libOpenCL.so\" not found"}};
  add_ladder_sections(r);
  spoil_ladder_rows(r);
  add_compiled_facts(r);
  return r;
}

CompareReport three_apis_report() {
  CompareReport r = header("xreduce compare --op sum,max --dtype i32,f32 --n 1K,16M");
  r.primitives = {Primitive::reduce};
  r.modes = {TimingMode::cold};
  r.devices.push_back(cpu_device(22.5, std::nullopt));
  for (const char* backend : {"cuda", "vulkan", "opencl"})
    r.devices.push_back(gpu_device(backend, kSameGpuUuid, 4000, std::nullopt));
  add_section(r, {kReduceSum, DType::i32, {K, 16 * M}, {TimingMode::cold}, kThreeApiLanes});
  add_section(r, {kReduceMax,
                  DType::f32,
                  {K, 4 * K, 64 * K, M, 16 * M},
                  {TimingMode::cold},
                  only(kThreeApiLanes, {"cpu/parallel", "smem/sequential", "fast/single-pass"})});
  // OpenCL has no clock here; its rows say so instead of a clock.
  for (auto& row : r.rows)
    if (row.backend == "opencl") row.clock_min_mhz = row.clock_median_mhz = std::nullopt;
  add_three_api_compiled_facts(r);
  return r;
}

CompareReport matrix_report() {
  CompareReport r = header(
      "xreduce compare --primitive all --op sum,max --dtype i32,u32 --sweep "
      "1K..256M --reps 10 --hot");
  r.stats = "10 reps after 1 warm-up";
  r.cold = false;
  r.primitives = {Primitive::reduce, Primitive::scan};
  r.modes = {TimingMode::cold};
  r.devices.push_back(cpu_device(22.5, 12.25));
  r.devices.push_back(gpu_device("cuda", kSameGpuUuid, 3200, 3000));
  r.devices.push_back(gpu_device("vulkan", "fedcba9876543210fedcba9876543210", 3150.5, {}));
  // A report made with knobs set: the header says so.
  r.devices.back().knobs = {{"XR_VK_ADDRESSING", "address"}, {"XR_VK_LOOKBACK_POLLS", "0"}};
  const std::vector<std::uint64_t> six = {K, 4 * K, 64 * K, M, 16 * M, 256 * M};
  add_section(
      r, {kReduceSum,
          DType::i32,
          six,
          {TimingMode::cold},
          only(kReduceLanes, {"cpu/parallel", "smem/sequential", "fast/single-pass", "lib/cub"})});
  // Only at the two largest sizes: the smaller columns show "-".
  add_section(r, {kReduceSum,
                  DType::i32,
                  {16 * M, 256 * M},
                  {TimingMode::cold},
                  {{"vulkan", "subgroup/shuffle-down", 0.002, 1500}}});
  add_section(r, {kInclusiveMax,
                  DType::u32,
                  {K, 4 * K, 64 * K, M, 16 * M},
                  {TimingMode::cold},
                  only(kScanLanes, {"cpu/parallel", "blelloch/bcao", "lib/cub"})});
  std::erase_if(r.rows, [](const ResultRow& row) {
    return row.backend == "vulkan" && row.operation.primitive == Primitive::scan;
  });
  unsupport(row_at(r, "vulkan", "fast/single-pass", kReduceSum, DType::i32, 256 * M),
            "accepts at most 128M elements");
  fail(row_at(r, "cuda", "smem/sequential", kReduceSum, DType::i32, 64 * K), "got 0, expected 7",
       "0");
  return r;
}

CompareReport end_to_end_report() {
  CompareReport r = header("xreduce compare --n 1K,1M --include-transfer --merge peers.json");
  r.include_transfer = true;
  r.primitives = {Primitive::reduce};
  r.modes = {TimingMode::cold};
  r.devices.push_back(cpu_device(21.0, std::nullopt));
  r.devices.push_back(gpu_device("cuda", "", 2000, std::nullopt));
  r.devices.push_back(gpu_device("vulkan", "aabbccddeeff00112233445566778899", 1950, {}));
  add_section(r, {kReduceSum,
                  DType::i32,
                  {K, M},
                  {TimingMode::cold},
                  {{"cpu", "cpu/parallel", 0.002, 20, "host"},
                   {"cuda", "smem/sequential", 0.05, 20, "end-to-end"},
                   {"cuda", "lib/cub", 0.05, 22, "end-to-end"},
                   {"vulkan", "smem/sequential", 0.08, 18, "end-to-end"}}});
  return r;
}

CompareReport single_point_report() {
  CompareReport r = header("xreduce compare --backend cpu --n 1K --seed 7 --dist full");
  r.seed = 7;
  r.dist = "full";
  r.primitives = {Primitive::reduce};
  r.modes = {TimingMode::cold};
  r.devices.push_back(cpu_device(15.5, std::nullopt));
  add_section(r, {kReduceSum,
                  DType::i32,
                  {K},
                  {TimingMode::cold},
                  only(kReduceLanes, {"cpu/sequential", "cpu/parallel"})});
  r.rows.insert(r.rows.begin() + 1, r.rows.front());
  r.rows[1].variant = "cpu/recursive";
  return r;
}

BaselinePair baseline_pair() {
  CompareReport now = header("xreduce compare --backend cuda,vulkan --primitive all --n 1K,1M");
  now.commit = "0123abcd0123abcd0123abcd0123abcd0123abcd";
  now.primitives = {Primitive::reduce, Primitive::scan};
  now.modes = {TimingMode::cold, TimingMode::batch};
  now.devices.push_back(gpu_device("cuda", kSameGpuUuid, 2000, 1900));
  now.devices.push_back(gpu_device("vulkan", kSameGpuUuid, 1950, 1800));
  now.devices.back().knobs = {{"XR_VK_LOOKBACK_POLLS", "8"}};
  add_section(now, {kReduceSum,
                    DType::i32,
                    {K, M},
                    {TimingMode::cold, TimingMode::batch},
                    only(kReduceLanes, {"smem/sequential", "fast/single-pass"})});
  add_section(now, {kInclusiveSum,
                    DType::i32,
                    {M},
                    {TimingMode::cold},
                    only(kScanLanes, {"fast/decoupled-lookback"})});
  // Milliseconds rather than the lanes' microseconds: the band's µs floor plays no part here
  // (test_report_baseline.cpp covers it).
  for (auto& row : now.rows)
    for (double* t : {&row.ms.median, &row.ms.min, &row.ms.max, &row.ms.mean}) *t *= 1000;

  CompareReport old = now;
  old.command = "xreduce compare --backend cuda,vulkan --primitive all --n 1K,1M --max-time 0.5";
  old.commit = "feedfacefeedfacefeedfacefeedfacefeedface";
  old.devices[0].info.driver_version = "565.57.01";
  old.devices[1].knobs.clear();
  const auto reduce_sum = [&](CompareReport& r, const char* backend, const char* variant,
                              std::uint64_t n, TimingMode mode = TimingMode::cold) -> ResultRow& {
    return row_at(r, backend, variant, kReduceSum, DType::i32, n, mode);
  };
  // 1.5x slower now, far beyond the 0.4 % spreads.
  reduce_sum(old, "cuda", "fast/single-pass", M).ms.median /= 1.5;
  // 1.25x faster now.
  reduce_sum(old, "vulkan", "fast/single-pass", M).ms.median *= 1.25;
  // 1.5 % slower: inside the 2 % floor.
  reduce_sum(old, "cuda", "smem/sequential", M).ms.median /= 1.015;
  // 10 % slower, but the old run's 5 % spread puts the band at 16.2 %.
  ResultRow& noisy = reduce_sum(old, "vulkan", "smem/sequential", K);
  noisy.ms.median /= 1.10;
  noisy.ms.rel_spread = 0.05;
  // 3 % slower against a 2.4 % band: slower, and under --fail-above 5.
  reduce_sum(old, "cuda", "smem/sequential", K, TimingMode::batch).ms.median /= 1.03;
  // The 1.5x slower row's kernel now takes more registers: its occupancy fell (the diff's
  // "compiled changes").
  reduce_sum(old, "cuda", "fast/single-pass", M).compiled =
      xr::app::RowCompiled{{pass("fast_single_pass", 256, 1024, 32, 132, 1, 8, "threads")}, ""};
  reduce_sum(now, "cuda", "fast/single-pass", M).compiled = xr::app::RowCompiled{
      {pass("fast_single_pass", 256, 1024, 72, 132, 0.375, 3, "registers")}, ""};
  // Failed in the baseline: listed, not timed against this run.
  fail(reduce_sum(old, "cuda", "fast/single-pass", K), "got 1, expected 2", "1");
  // A row of each run alone, and a key the baseline holds twice.
  std::erase_if(old.rows, [](const ResultRow& row) {
    return row.backend == "vulkan" && row.variant == "fast/decoupled-lookback";
  });
  ResultRow retired = reduce_sum(old, "cuda", "smem/sequential", K);
  retired.variant = "smem/retired";
  old.rows.push_back(retired);
  old.rows.push_back(reduce_sum(old, "cuda", "smem/sequential", M));
  return {std::move(old), std::move(now)};
}

void merge(xr::app::CompareReport& r, const std::string& text, const std::string& path) {
  xr::app::fold_merged(r, xr::app::parse_saved_report(text, path, "--merge"));
}

}  // namespace xrtest
