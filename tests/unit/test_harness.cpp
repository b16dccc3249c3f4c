// The benchmark harness (harness.hpp) with the cpu backend, a test Reducer that writes its
// input, and a backend that counts (or spoils) its transfers.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "test_support.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/check.hpp"
#include "xreduce/cpu_backend.hpp"
#include "xreduce/error.hpp"
#include "xreduce/generate.hpp"
#include "xreduce/harness.hpp"
#include "xreduce/runner.hpp"

namespace {

// Sums its i32 input, then overwrites it with zeros: the shape of seed 000's in-place kernels.
// `declares` is what it tells the harness; only a variant that declares writes_input is restored.
class ClobberingReducer final : public xr::Reducer {
 public:
  explicit ClobberingReducer(bool declares) {
    info_ = xr::catalog_variant(xr::Primitive::reduce, "global/neighbored", {xr::DType::i32},
                                {xr::Op::sum});
    info_.writes_input = declares;
  }
  const xr::VariantInfo& info() const override { return info_; }
  xr::Reduction reduce(xr::DeviceArray& input, xr::Op op) override {
    const xr::HostArray host = input.read();
    std::int32_t acc = 0;
    for (std::int32_t x : host.as<std::int32_t>()) acc = xr::apply(op, acc, x);
    const xr::HostArray zeros = xr::constant(xr::DType::i32, input.size(), 0.0);
    input.write(zeros.view());
    ++calls;
    return {xr::Value::of(acc), xr::Timing{1.0 + calls % 3, 2.0, true}};
  }
  int calls = 0;

 private:
  xr::VariantInfo info_;
};

// Returns `value` (changed by the test) with a fixed 0.1 ms per call; counts its batches.
class FixedReducer final : public xr::Reducer {
 public:
  FixedReducer() {
    info_ = xr::catalog_variant(xr::Primitive::reduce, "smem/sequential", {xr::DType::i32},
                                {xr::Op::sum});
  }
  const xr::VariantInfo& info() const override { return info_; }
  xr::Reduction reduce(xr::DeviceArray&, xr::Op) override {
    ++singles;
    return {xr::Value::of(value), xr::Timing{0.1, 0.2, true}};
  }
  xr::Reduction reduce_batch(xr::DeviceArray&, xr::Op, int calls) override {
    batch_sizes.push_back(calls);
    if (drift) ++value;  // a later call disagrees with the first
    return {xr::Value::of(value), xr::Timing{0.1, 0.2, true}};
  }
  std::int32_t value = 7;
  bool drift = false;
  int singles = 0;
  std::vector<int> batch_sizes;

 private:
  xr::VariantInfo info_;
};

}  // namespace

TEST_CASE("summarize: median, min, max, mean, spread", "[unit][harness]") {
  const auto s = xr::summarize({3.0, 1.0, 2.0});
  CHECK(s.count == 3);
  CHECK(s.median == 2.0);
  CHECK(s.min == 1.0);
  CHECK(s.max == 3.0);
  CHECK(s.mean == 2.0);
  CHECK(s.rel_spread == 0.5);  // deviations {1, 0, 1}: median 1, / 2
  const auto even = xr::summarize({4.0, 1.0, 2.0, 10.0});
  CHECK(even.median == 3.0);
  CHECK(even.mean == 4.25);
  CHECK(xr::summarize({}).count == 0);
  CHECK(xr::summarize({5.0, 5.0}).rel_spread == 0.0);
}

TEST_CASE("bytes and GB/s", "[unit][harness]") {
  CHECK(xr::bytes_moved({.primitive = xr::Primitive::reduce}, 1000, xr::DType::f32) == 4000.0);
  CHECK(xr::bytes_moved({.primitive = xr::Primitive::scan}, 1000, xr::DType::f32) ==
        8000.0);                        // read + write
  CHECK(xr::gbps(4e9, 1000.0) == 4.0);  // 4 GB in one second
  CHECK(xr::gbps(1.0, 0.0) == 0.0);
}

constexpr xr::Operation kSum{xr::Primitive::reduce, xr::Op::sum};

TEST_CASE("measure with the cpu backend gives sane statistics", "[unit][harness]") {
  auto backend = xr::cpu::make_backend();
  xr::Runner runner(*backend, xr::Primitive::reduce, "cpu/sequential");
  const auto data = xr::generate(xr::DType::i32, 100000, 5);
  auto array = backend->upload(data.view());
  xr::MeasureOptions options;
  options.min_reps = 4;
  options.max_reps = 9;
  options.target_rel_spread = 0;  // always max_reps
  const auto m = xr::measure(*backend, runner, *array, data.view(), kSum, options);
  CHECK(m.device_ms.count == 9);
  CHECK(m.host_ms.count == 9);
  CHECK(m.deterministic);
  CHECK(m.result.value.bitwise_equal(xr::reference_reduce(data.view(), xr::Op::sum).value));
  for (const auto* s : {&m.device_ms, &m.host_ms}) {
    CHECK(s->min > 0);
    CHECK(s->min <= s->median);
    CHECK(s->median <= s->max);
    CHECK(s->min <= s->mean);
    CHECK(s->mean <= s->max);
    CHECK(s->rel_spread >= 0);
  }

  options.max_reps = 1000;
  options.max_seconds = 0;  // stop right after min_reps
  const auto quick = xr::measure(*backend, runner, *array, data.view(),
                                 xr::Operation{xr::Primitive::reduce, xr::Op::max}, options);
  CHECK(quick.device_ms.count == options.min_reps);
  CHECK(quick.result.value.get<std::int32_t>() == 255);
}

TEST_CASE("measure a scan: the first output is kept, repetitions compared", "[unit][harness]") {
  auto backend = xr::cpu::make_backend();
  const auto data = xr::generate(xr::DType::f32, 200003, 8);
  auto array = backend->upload(data.view());
  xr::MeasureOptions options;
  options.min_reps = 3;
  options.max_reps = 3;
  for (const char* id : {"cpu/sequential", "cpu/parallel"}) {
    INFO(id);
    xr::Runner runner(*backend, xr::Primitive::scan, id);
    for (xr::ScanKind kind : xr::kAllScanKinds) {
      const xr::Operation op{xr::Primitive::scan, xr::Op::sum, kind};
      const auto m = xr::measure(*backend, runner, *array, data.view(), op, options);
      CHECK(m.device_ms.count == 3);
      CHECK(m.deterministic);
      REQUIRE(m.result.array.size() == data.size());
      const xr::Expectation expected(data.view(), op);
      const xr::Verdict v = expected.check(m.result);
      INFO(v.message);
      CHECK(v.ok);
      // The CPU scans accumulate in double like the reference: every element is exact.
      const auto ref = xr::reference_scan(data.view(), xr::Op::sum, kind);
      CHECK(std::memcmp(ref.data(), m.result.array.data(), ref.bytes()) == 0);
      CHECK(m.result.headline(xr::Primitive::scan)->bitwise_equal(*expected.headline()));
    }
  }
}

TEST_CASE("measure_end_to_end times upload, run and read-back of either primitive",
          "[unit][harness]") {
  auto backend = xr::cpu::make_backend();
  const auto data = xr::generate(xr::DType::i32, 70001, 3);
  xr::MeasureOptions options;
  options.min_reps = 2;
  options.max_reps = 2;
  xr::Runner reduce(*backend, xr::Primitive::reduce, "cpu/parallel");
  const auto r = xr::measure_end_to_end(*backend, reduce, data.view(), kSum, options);
  CHECK_FALSE(r.device_timer);
  CHECK(r.device_ms.count == 2);
  CHECK(r.result.value.bitwise_equal(xr::reference_reduce(data.view(), xr::Op::sum).value));
  xr::Runner scan(*backend, xr::Primitive::scan, "cpu/parallel");
  const xr::Operation op{xr::Primitive::scan, xr::Op::max, xr::ScanKind::exclusive};
  const auto s = xr::measure_end_to_end(*backend, scan, data.view(), op, options);
  CHECK(s.deterministic);
  CHECK(xr::Expectation(data.view(), op).check(s.result).ok);
}

TEST_CASE("a runner refuses an operation of the other primitive", "[unit][harness]") {
  auto backend = xr::cpu::make_backend();
  const auto data = xr::generate(xr::DType::i32, 10, 3);
  auto array = backend->upload(data.view());
  xr::Runner scan(*backend, xr::Primitive::scan, "cpu/sequential");
  CHECK_THROWS_AS(scan.run(*array, kSum), xr::Error);
  CHECK(scan.prepare_output(xr::DType::i32, 10)->size() == 10);
  xr::Runner reduce(*backend, xr::Primitive::reduce, "cpu/sequential");
  CHECK(reduce.prepare_output(xr::DType::i32, 10) == nullptr);
}

TEST_CASE("measure restores the input of a variant that writes it", "[unit][harness]") {
  auto backend = xr::cpu::make_backend();
  const auto data = xr::generate(xr::DType::i32, 1000, 11);
  const auto expected = xr::reference_reduce(data.view(), xr::Op::sum).value;
  xr::MeasureOptions options;
  options.warmup = 2;
  options.min_reps = 5;
  options.max_reps = 5;

  SECTION("declared writes_input: every run sees the original data, and so does the caller") {
    auto owned = std::make_unique<ClobberingReducer>(/*declares=*/true);
    ClobberingReducer& reducer = *owned;
    xr::Runner runner(*backend, std::move(owned));
    auto array = backend->upload(data.view());
    const auto m = xr::measure(*backend, runner, *array, data.view(), kSum, options);
    CHECK(reducer.calls == 7);
    CHECK(m.deterministic);
    CHECK(m.result.value.bitwise_equal(expected));
    CHECK(m.device_ms.min == 1.0);
    CHECK(m.device_ms.max == 3.0);
    const auto after = array->read();
    CHECK(std::memcmp(after.data(), data.data(), data.bytes()) == 0);
  }
  SECTION("undeclared: the harness does not restore, and the repetitions disagree") {
    xr::Runner runner(*backend, std::make_unique<ClobberingReducer>(/*declares=*/false));
    auto array = backend->upload(data.view());
    const auto m = xr::measure(*backend, runner, *array, data.view(), kSum, options);
    CHECK_FALSE(m.deterministic);
    CHECK(m.result.value.bitwise_equal(expected));  // the first run still saw the data
    CHECK(array->read().as<std::int32_t>()[0] == 0);
  }
}

TEST_CASE("measure in batch mode calibrates the calls per sample and checks the last call",
          "[unit][harness]") {
  auto backend = xr::cpu::make_backend();
  const auto data = xr::generate(xr::DType::i32, 1000, 5);
  auto array = backend->upload(data.view());
  auto owned = std::make_unique<FixedReducer>();
  FixedReducer& fixed = *owned;
  xr::Runner runner(*backend, std::move(owned));
  xr::MeasureOptions options;
  options.mode = xr::TimingMode::batch;
  options.min_reps = options.max_reps = 4;
  options.target_rel_spread = 0;
  options.batch_target_ms = 1.0;  // 0.1 ms per call: 10 calls per sample
  auto m = xr::measure(*backend, runner, *array, data.view(), kSum, options);
  CHECK(m.mode == xr::TimingMode::batch);
  CHECK(m.batch_calls == 10);
  CHECK(fixed.singles == 2);  // the checked call and a second one for the calibration
  CHECK(fixed.batch_sizes == std::vector<int>(5, 10));  // one untimed batch, then 4 timed
  CHECK(m.device_ms.count == 4);
  CHECK(m.device_ms.median == 0.1);
  CHECK(m.deterministic);
  CHECK(m.result.value.get<std::int32_t>() == 7);

  options.max_batch_calls = 3;  // the cap wins over the target
  fixed.drift = true;
  m = xr::measure(*backend, runner, *array, data.view(), kSum, options);
  CHECK(m.batch_calls == 3);
  CHECK_FALSE(m.deterministic);

  CHECK(xr::parse_timing_mode("batch") == xr::TimingMode::batch);
  CHECK_THROWS_AS(xr::parse_timing_mode("hot"), xr::Error);
  // The default batch of a Reducer: calls one after another, the time per call.
  xr::Runner plain(*backend, xr::Primitive::reduce, "cpu/sequential");
  const xr::Timing t = plain.run_batch(*array, kSum, 5);
  CHECK(t.device_ms > 0);
  CHECK(plain.outcome().value.bitwise_equal(xr::reference_reduce(data.view(), xr::Op::sum).value));
  CHECK_THROWS_AS(plain.run_batch(*array, kSum, 0), xr::Error);
}

namespace {

// The transfers counted over every array of a CountingBackend.
struct TransferCounts {
  int writes = 0, reads = 0;
};

// A DeviceArray of the cpu backend that counts its transfers and, when asked, reads back one
// wrong element: what measure_transfers must time and check.
class CountingArray final : public xr::DeviceArray {
 public:
  CountingArray(std::unique_ptr<xr::DeviceArray> inner, TransferCounts& counts, bool corrupt)
      : inner_(std::move(inner)), counts_(counts), corrupt_(corrupt) {}
  xr::DType dtype() const override { return inner_->dtype(); }
  std::size_t size() const override { return inner_->size(); }
  void write(xr::HostView src) override {
    ++counts_.writes;
    inner_->write(src);
  }
  void read_into(xr::HostArray& dst) const override {
    ++counts_.reads;
    inner_->read_into(dst);
    if (corrupt_ && dst.size() > 0) dst.as<std::uint32_t>().back() ^= 1u;
  }

 private:
  std::unique_ptr<xr::DeviceArray> inner_;
  TransferCounts& counts_;
  bool corrupt_;
};

// The cpu backend, whose allocate() hands out CountingArrays and records their sizes.
class CountingBackend final : public xr::Backend {
 public:
  explicit CountingBackend(bool corrupt) : cpu_(xr::cpu::make_backend()), corrupt_(corrupt) {}
  std::string_view name() const override { return "counting"; }
  bool available() const override { return true; }
  std::string unavailable_reason() const override { return {}; }
  std::vector<xr::DeviceInfo> devices() const override { return cpu_->devices(); }
  std::vector<xr::VariantInfo> variants() const override { return cpu_->variants(); }
  void select_device(const xr::DeviceChoice& c) override { cpu_->select_device(c); }
  xr::DeviceInfo device() const override { return cpu_->device(); }
  std::string unsupported_reason(xr::Primitive p, std::string_view id) const override {
    return cpu_->unsupported_reason(p, id);
  }
  std::unique_ptr<xr::Reducer> make_reducer(std::string_view id) override {
    return cpu_->make_reducer(id);
  }
  std::unique_ptr<xr::Scanner> make_scanner(std::string_view id) override {
    return cpu_->make_scanner(id);
  }
  std::unique_ptr<xr::DeviceArray> upload(xr::HostView data) override { return cpu_->upload(data); }
  std::unique_ptr<xr::DeviceArray> allocate(xr::DType t, std::size_t n) override {
    allocated.push_back(n);
    return std::make_unique<CountingArray>(cpu_->allocate(t, n), counts, corrupt_);
  }
  std::uint64_t max_elements(xr::DType t) const override { return cpu_->max_elements(t); }

  std::vector<std::size_t> allocated;  // elements of each allocate(), in order
  TransferCounts counts;

 private:
  std::unique_ptr<xr::Backend> cpu_;
  bool corrupt_;
};

}  // namespace

TEST_CASE("measure_transfers times write and read_into at each size", "[unit][harness]") {
  auto backend = xr::cpu::make_backend();
  xr::TransferPolicy policy;
  policy.warmup = 1;
  policy.runs = 5;
  policy.long_runs = 2;
  policy.long_from = std::uint64_t{3} << 20;  // the last size takes the long policy
  const std::vector<std::uint64_t> sizes = {4096, std::uint64_t{1} << 20, std::uint64_t{3} << 20};
  const auto rows = xr::measure_transfers(*backend, sizes, policy);
  REQUIRE(rows.size() == sizes.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CAPTURE(i);
    CHECK(rows[i].bytes == sizes[i]);
    CHECK(rows[i].upload_gbps > 0);
    CHECK(rows[i].readback_gbps > 0);
    CHECK(rows[i].samples == (i + 1 < rows.size() ? 5 : 2));
  }
  CHECK_FALSE(backend->measure_link(std::uint64_t{1} << 20));  // the cpu has no host link
}

TEST_CASE("measure_transfers goes through the backend's own arrays, warm-up included",
          "[unit][harness]") {
  CountingBackend backend(false);
  xr::TransferPolicy policy;
  policy.warmup = 2;
  policy.runs = 3;
  const auto rows = xr::measure_transfers(backend, {64, 8192}, policy);
  REQUIRE(rows.size() == 2);
  CHECK(backend.allocated == std::vector<std::size_t>{16, 2048});  // u32 elements, one per size
  CHECK(backend.counts.writes == 2 * (2 + 3));
  CHECK(backend.counts.reads == 2 * (2 + 3));
  CHECK(rows[0].samples == 3);
  CHECK(rows[1].bytes == 8192);
}

TEST_CASE("measure_transfers checks the read-back and refuses partial elements",
          "[unit][harness]") {
  CountingBackend corrupting(true);
  xrtest::require_error([&] { xr::measure_transfers(corrupting, {4096}); },
                        xr::ErrorCategory::check_failed, "read back other data");
  auto backend = xr::cpu::make_backend();
  xrtest::require_error([&] { xr::measure_transfers(*backend, {1002}); }, xr::ErrorCategory::usage,
                        "not a whole number of u32 elements");
  xrtest::require_error([&] { xr::measure_transfers(*backend, {0}); }, xr::ErrorCategory::usage,
                        "0 bytes");
}

// ---- the clock around every sample (clock.hpp) -------------------------------------------------

namespace {

// The cpu backend with a scripted clock probe: the harness's clock logic on any machine (no
// timing assertions; the probe's readings are the script's).
class ClockedCpu final : public xr::Backend {
 public:
  ClockedCpu(double reference, std::vector<double> readings)
      : inner_(xr::cpu::make_backend()),
        probe_(xr::ClockScript{reference, std::move(readings), "test", ""}) {}
  std::string_view name() const override { return inner_->name(); }
  bool available() const override { return inner_->available(); }
  std::string unavailable_reason() const override { return inner_->unavailable_reason(); }
  std::vector<xr::DeviceInfo> devices() const override { return inner_->devices(); }
  std::vector<xr::VariantInfo> variants() const override { return inner_->variants(); }
  void select_device(const xr::DeviceChoice& c) override { inner_->select_device(c); }
  xr::DeviceInfo device() const override { return inner_->device(); }
  std::string unsupported_reason(xr::Primitive p, std::string_view id) const override {
    return inner_->unsupported_reason(p, id);
  }
  std::unique_ptr<xr::Reducer> make_reducer(std::string_view id) override {
    return inner_->make_reducer(id);
  }
  std::unique_ptr<xr::Scanner> make_scanner(std::string_view id) override {
    return inner_->make_scanner(id);
  }
  std::unique_ptr<xr::DeviceArray> upload(xr::HostView data) override {
    return inner_->upload(data);
  }
  std::unique_ptr<xr::DeviceArray> allocate(xr::DType t, std::size_t n) override {
    return inner_->allocate(t, n);
  }
  std::uint64_t max_elements(xr::DType t) const override { return inner_->max_elements(t); }
  xr::ClockProbe* clock_probe() override { return &probe_; }

 private:
  std::unique_ptr<xr::Backend> inner_;
  xr::ScriptedClock probe_;
};

xr::Measurement measure_clocked(ClockedCpu& backend, xr::MeasureOptions options) {
  xr::Runner runner(backend, xr::Primitive::reduce, "cpu/sequential");
  const auto data = xr::generate(xr::DType::i32, 1000, 5);
  auto array = backend.upload(data.view());
  options.min_reps = options.max_reps = 5;
  options.target_rel_spread = 0;
  options.settle_seconds = 0;  // one reading before the samples: the script stays countable
  return xr::measure(backend, runner, *array, data.view(), kSum, options);
}

}  // namespace

TEST_CASE("every sample's clock is recorded against the reference", "[unit][harness][clock]") {
  // The reading before the samples, then each sample's before and after.
  ClockedCpu backend(1980, {1980, 1960, 1980});
  const auto m = measure_clocked(backend, {});
  REQUIRE(m.clock.measured);
  CHECK(m.clock.reference_mhz == 1980);
  CHECK(m.clock.mhz.count == 5);
  CHECK(m.clock.mhz.min == 1960);  // a sample's clock: the lower of its before and after
  CHECK(m.clock.retaken == 0);
  CHECK_FALSE(m.clock.throttled);
  // The cpu backend measures no clock: nothing recorded, nothing retaken.
  auto cpu = xr::cpu::make_backend();
  xr::Runner runner(*cpu, xr::Primitive::reduce, "cpu/sequential");
  const auto data = xr::generate(xr::DType::i32, 1000, 5);
  auto array = cpu->upload(data.view());
  CHECK_FALSE(xr::measure(*cpu, runner, *array, data.view(), kSum, {}).clock.measured);
}

TEST_CASE("a sample under the threshold is retaken after a warm-up", "[unit][harness][clock]") {
  // The reading before the samples, the first sample's before and after at idle clock, the
  // reading of its retake's settling, the second sample's after under the threshold (one
  // reading under it throttles a sample), then the working clock for good.
  ClockedCpu backend(1980, {1980, 345, 345, 1980, 1980, 1000, 1980});
  const auto m = measure_clocked(backend, {});
  CHECK(m.clock.retaken == 2);
  CHECK(m.clock.mhz.count == 5);
  CHECK(m.clock.mhz.min == 1980);
  CHECK_FALSE(m.clock.throttled);
  CHECK(m.device_ms.count == 5);  // the retaken samples are not among the kept ones
}

TEST_CASE("a point that cannot be measured at clock is kept and flagged",
          "[unit][harness][clock]") {
  SECTION("its retakes used up") {
    ClockedCpu backend(1980, {345});
    const auto m = measure_clocked(backend, {});
    CHECK(m.clock.retaken == 15);  // three per repetition, whatever the time budget
    CHECK(m.clock.throttled);
    CHECK(m.clock.throttled_samples == 5);
    CHECK(m.clock.mhz.median == 345);
    CHECK(m.device_ms.count == 5);
  }
  SECTION("its time budget used up") {
    ClockedCpu backend(1980, {345});
    xr::MeasureOptions options;
    options.max_seconds = 0;
    const auto m = measure_clocked(backend, options);
    CHECK(m.clock.retaken == 0);
    CHECK(m.clock.throttled);
    CHECK(m.clock.throttled_samples == 5);
  }
  SECTION("a threshold of 0 keeps every sample unflagged") {
    ClockedCpu backend(1980, {345});
    xr::MeasureOptions options;
    options.throttle_threshold = 0;
    const auto m = measure_clocked(backend, options);
    CHECK(m.clock.retaken == 0);
    CHECK_FALSE(m.clock.throttled);
    CHECK(m.clock.mhz.median == 345);
  }
}

TEST_CASE("XR_CLOCK_SCRIPT: the synthetic clock source of tests", "[unit][clock]") {
  setenv("XR_CLOCK_SCRIPT", "1980:345,1980.5", 1);
  auto s = xr::read_clock_script();
  CHECK(s.error.empty());
  CHECK(s.reference_mhz == 1980);
  CHECK(s.readings == std::vector<double>{345, 1980.5});
  xr::ScriptedClock probe(s);
  CHECK(probe.read_mhz() == 345);
  CHECK(probe.read_mhz() == 1980.5);
  CHECK(probe.read_mhz() == 1980.5);  // the last reading from then on
  for (const char* bad : {"1980", "x:1", "1980:", "1980:1,,2", "0:5", "1980:-3"}) {
    setenv("XR_CLOCK_SCRIPT", bad, 1);
    CAPTURE(bad);
    CHECK_FALSE(xr::read_clock_script().error.empty());
  }
  unsetenv("XR_CLOCK_SCRIPT");
  CHECK(xr::read_clock_script().given.empty());
}
