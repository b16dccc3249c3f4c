// The conformance suite: one Catch2 test case per (backend, variant) of every built backend and
// both primitives, registered at run time from the registry, so a backend's variants are covered
// the day it registers them. Names: `conformance/<backend>/<variant id>` for reduce,
// `conformance/<backend>/scan/<variant id>` for scan; tags `[conformance][<backend>][<primitive>]`;
// `conformance/<backend>/backend` checks the backend's arrays and refusals apart from variants.
// Every case drives its variant through xr::Runner and checks it against xr::Expectation, the
// same seam and check the tool uses, so reduce and scan share every case below.
// Past the limits, one case per (backend, variant) at each size of kPastLimits:
//  - `binding/vulkan/<id>` (`[binding][vulkan]`, reduce, run by ctest): n = 2^26 + 5, past what
//    one storage-buffer binding holds (2^25 u32 on lavapipe), so Vulkan runs it by device address;
//  - hidden `large/<backend>/...` (`[.large]`, GPU backends): n = 2^31 + 5, past every signed
//    32-bit index; hidden `huge/<backend>/...` (`[.huge]`): n = 2^32 + 5, past every 32-bit
//    index. Run them by name or tag: `conformance_tests 'huge/vulkan/*'`.
//
// Skipping: a case whose backend is unavailable or whose variant the device does not support
// prints `SKIPPED: <reason>` and counts as skipped; when every case of the run was skipped (ctest
// runs one case per process) the process exits with 77, which ctest reports as skipped through
// SKIP_RETURN_CODE. Deferring the exit code to the end keeps a direct run of many cases going.
//
// Vulkan validation: main() sets XR_VK_VALIDATION=1 (unless already set) before the backends are
// built, so the Vulkan backend enables VK_LAYER_KHRONOS_validation with synchronization
// validation and turns every message into an xr::Error, which fails the case.
//
// XR_TEST_REQUIRE_BACKENDS=vulkan[,cuda...] (environment) turns "unavailable" into a failure for
// the named backends: CI sets it where the device is known to exist (lavapipe), so a missing
// driver or validation layer cannot turn the whole Vulkan suite into skips.
//
// XR_TEST_SEED (environment) changes the seed of the random sizes and data; it is printed.
//
// The cases themselves are core's (xreduce/conformance.hpp), which `xreduce check` runs too.
// Users' kernels: `conformance_tests --kernel FILE [--kernel FILE...] [--kernel-spec WORDS]
// [--kernel-id ID]` adds each as a variant of its backend (docs/kernels.md) before the cases
// are made, so `conformance_tests --kernel my.comp 'conformance/vulkan/user/*'` checks it under
// validation; a kernel that cannot be read or declared is one line on stderr and exit 2.
#include <catch2/catch.hpp>

#include "catch_session.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "xreduce/backend.hpp"
#include "xreduce/check.hpp"
#include "xreduce/conformance.hpp"
#include "xreduce/error.hpp"
#include "xreduce/generate.hpp"
#include "xreduce/histogram_samples.hpp"
#include "xreduce/reference.hpp"
#include "xreduce/registry.hpp"
#include "xreduce/runner.hpp"
#include "xreduce/types.hpp"
#include "xreduce/user_kernel.hpp"

namespace {

std::uint64_t g_seed = 0x5EED2024u;
int g_invoked = 0;
int g_skipped = 0;
std::string g_required;  // ",vulkan,cuda," from XR_TEST_REQUIRE_BACKENDS

bool required(std::string_view backend) {
  return g_required.find("," + std::string(backend) + ",") != std::string::npos;
}

struct SkipCase {
  std::string reason;
};

[[noreturn]] void skip(const std::string& reason) {
  throw SkipCase{reason};
}

// The value a prefix list in the environment gives the case `case_name`:
// `DEFAULT[,PREFIX=VALUE...]` (DEFAULT may be left out), the entry whose PREFIX starts the name,
// the longest winning, else DEFAULT; none where nothing applies. Every value must pass `valid`,
// or the list is refused whole: `format` says what it must be.
std::optional<std::string> prefix_entry(const char* variable, const std::string& case_name,
                                        const char* format, bool (*valid)(const std::string&)) {
  const char* text = std::getenv(variable);
  if (!text || !*text) return std::nullopt;
  std::optional<std::string> value;
  std::size_t matched = 0;
  std::string entry;
  for (std::istringstream list(text); std::getline(list, entry, ',');) {
    const std::size_t equals = entry.find('=');
    const std::string prefix = equals == std::string::npos ? "" : entry.substr(0, equals);
    const std::string here = equals == std::string::npos ? entry : entry.substr(equals + 1);
    if (!valid(here))
      throw xr::Error(xr::ErrorCategory::usage,
                      std::string(variable) + " must be " + format + ", not '" + text + "'");
    if (equals == std::string::npos) {
      if (matched == 0) value = here;
    } else if (case_name.starts_with(prefix) && prefix.size() >= matched) {
      value = here;
      matched = prefix.size();
    }
  }
  return value;
}

bool is_count(const std::string& digits) {
  return !digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos;
}

bool is_options(const std::string& options) {
  return !options.empty();
}

// XR_TEST_SORT_MAX_SIZE: SIZE[,PREFIX=SIZE...], the largest size of a sort's conformance; a case
// whose name starts with PREFIX stops at that entry's size instead (the longest prefix wins). How
// CI keeps to the sizes past every structure a case checks on a CPU device: a sorting network's
// levels past its tile, a ranking's tiles. Unset or empty: no cap.
std::optional<std::uint64_t> sort_size_cap(const std::string& case_name) {
  const auto digits =
      prefix_entry("XR_TEST_SORT_MAX_SIZE", case_name, "SIZE[,PREFIX=SIZE...]", is_count);
  if (!digits) return std::nullopt;
  return std::strtoull(digits->c_str(), nullptr, 10);
}

// XR_TEST_CL_BUILD_OPTIONS: PREFIX=OPTIONS[,PREFIX=OPTIONS...], the OpenCL build options a case
// whose name starts with PREFIX adds to XR_CL_BUILD_OPTIONS while its backend is made. How CI
// builds the programs of the cases that a CPU device's compiler holds up with -cl-opt-disable
// (pocl then builds them in half the time), and leaves optimized the cases its run time holds up.
std::vector<std::pair<const char*, std::string>> case_build_options(const std::string& case_name) {
  const auto options = prefix_entry("XR_TEST_CL_BUILD_OPTIONS", case_name,
                                    "PREFIX=OPTIONS[,PREFIX=OPTIONS...]", is_options);
  if (!options) return {};
  const char* given = std::getenv("XR_CL_BUILD_OPTIONS");
  return {
      {"XR_CL_BUILD_OPTIONS", given && *given ? std::string(given) + " " + *options : *options}};
}

std::string current_case() {
  return Catch::getResultCapture().getCurrentTestName();
}

// The environment's `knobs` set for the scope's life, each restored (or unset) at its end.
class ScopedKnobs {
 public:
  explicit ScopedKnobs(const std::vector<std::pair<const char*, std::string>>& knobs) {
    for (const auto& [name, value] : knobs) {
      const char* before = std::getenv(name);
      saved_.emplace_back(name, before ? std::optional<std::string>(before) : std::nullopt);
      setenv(name, value.c_str(), 1);
    }
  }
  ~ScopedKnobs() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
      if (it->second)
        setenv(it->first, it->second->c_str(), 1);
      else
        unsetenv(it->first);
    }
  }
  ScopedKnobs(const ScopedKnobs&) = delete;
  ScopedKnobs& operator=(const ScopedKnobs&) = delete;

 private:
  std::vector<std::pair<const char*, std::optional<std::string>>> saved_;
};

// The backend `name` made with `knobs` set: a backend reads its knobs once, when it is made, so
// it comes from a registry of its own. `backend` is null where no such backend is built.
struct KnobbedBackend {
  xr::Registry registry;
  xr::Backend* backend = nullptr;
};
std::unique_ptr<KnobbedBackend> backend_with_knobs(
    std::string_view name, const std::vector<std::pair<const char*, std::string>>& knobs) {
  const ScopedKnobs set(knobs);
  auto k = std::make_unique<KnobbedBackend>();
  xr::register_builtin_backends(k->registry);
  k->backend = k->registry.find(name);
  if (k->backend) (void)k->backend->available();  // made while the knobs are set
  return k;
}

enum class Mode { conformance, past_limit, contract };

// A size past a limit (GPU backends only): the case's name prefix, its tags, whether only
// Vulkan runs it, whether only reduce's sum runs, n, and where the distinct minimum and maximum
// go (just past the limits an index could wrap at).
struct PastLimit {
  const char* prefix;
  const char* tags;
  bool vulkan_only;
  bool sum_only;
  std::size_t n;
  std::size_t at_min;
  std::size_t at_max;
};
constexpr std::size_t kPow(int k) {
  return std::size_t{1} << k;
}
const PastLimit kPastLimits[] = {
    // In CI on lavapipe, whose loads by device address go element by element: reduce's sum
    // alone (its closed form still sees both markers and every element), 2-40 s per case
    // instead of up to 120 s for the three ops of the smem ladder; no scan (bit/one-layer's
    // one submission passes the 60 s fence limit there). The CLI tests run every scan by
    // address on lavapipe (XR_VK_ADDRESSING=address); huge/ runs them past 2^32 on a GPU.
    {"binding/", "[binding]", true, true, kPow(26) + 5, kPow(26) + 1, kPow(25) + 1},
    {"large/", "[.large]", false, false, kPow(31) + 5, kPow(31) + 1, kPow(31) + 4},
    {"huge/", "[.huge]", false, false, kPow(32) + 5, kPow(32) + 1, kPow(31) + 1},
};

class VariantCase final : public Catch::ITestInvoker {
 public:
  VariantCase(xr::Backend* backend, xr::Primitive primitive, std::string id, Mode mode,
              const PastLimit* limit = nullptr, std::uint64_t max_size = 0)
      : backend_(backend),
        primitive_(primitive),
        id_(std::move(id)),
        mode_(mode),
        limit_(limit),
        max_size_(max_size) {}

  void invoke() const override {
    ++g_invoked;
    try {
      if (!backend_->available()) {
        if (required(backend_->name()))
          FAIL(backend_->name() << " is unavailable but XR_TEST_REQUIRE_BACKENDS requires it: "
                                << backend_->unavailable_reason());
        skip(backend_->unavailable_reason());
      }
      if (mode_ == Mode::contract) return run_contract();
      if (auto why = backend_->unsupported_reason(primitive_, id_); !why.empty()) skip(why);
      if (mode_ == Mode::past_limit)
        run_past_limit(*limit_);
      else
        run_conformance();
    } catch (const SkipCase& s) {
      ++g_skipped;
      std::cout << "SKIPPED: " << backend_->name() << " " << id_ << ": " << s.reason << std::endl;
    }
  }

 private:
  // One call of `runner` on `array`: restores the input of a variant that writes it (after the
  // first call) and poisons a scan's output first. Returns a copy of the outcome.
  struct Caller {
    xr::Runner& runner;
    xr::DeviceArray& array;
    xr::HostView pristine;
    bool dirty = false;
    std::optional<xr::HostArray> poisoned;

    xr::Outcome operator()(const xr::Operation& op) {
      if (dirty && runner.info().writes_input) array.write(pristine);
      dirty = true;
      if (xr::DeviceArray* out = runner.prepare_output(array.dtype(), array.size())) {
        if (!poisoned) poisoned = xr::poison(array.dtype(), array.size());
        out->write(poisoned->view());
      }
      runner.run(array, op);
      return runner.outcome();
    }
    // `calls` calls back to back (batch mode): the last one's outcome.
    xr::Outcome batch(const xr::Operation& op, int calls) {
      if (xr::DeviceArray* out = runner.prepare_output(array.dtype(), array.size())) {
        if (!poisoned) poisoned = xr::poison(array.dtype(), array.size());
        out->write(poisoned->view());
      }
      runner.run_batch(array, op, calls);
      return runner.outcome();
    }
  };

  // The cases of core's run_conformance (xreduce check runs the same), every check a CHECK.
  void run_conformance() const {
    struct CatchListener final : xr::ConformanceListener {
      void check(bool ok, const xr::CheckContext& where, std::string_view what,
                 std::string_view message) override {
        const std::string context = where.backend + " " + where.id + " on " + where.device + ": " +
                                    where.describe() + ": " + std::string(what);
        INFO(context);
        INFO(message);
        CHECK(ok);
      }
    } listener;
    xr::ConformanceOptions options;
    options.seed = g_seed;
    options.every_size = std::getenv("XR_TEST_EVERY_SIZE") != nullptr;
    if (const char* cap = std::getenv("XR_TEST_MAX_SIZE"); cap && *cap)
      options.max_size = std::strtoull(cap, nullptr, 10);
    if (max_size_)
      options.max_size = options.max_size ? std::min(options.max_size, max_size_) : max_size_;
    // A sort's sizes may stop lower: each size's check is a host sort, and a CPU device's radix
    // passes cost more per key than a reduce or a scan.
    if (primitive_ == xr::Primitive::sort)
      if (const auto sort_cap = sort_size_cap(current_case()))
        options.max_size = options.max_size ? std::min(options.max_size, *sort_cap) : *sort_cap;
    // The case's own build options (XR_TEST_CL_BUILD_OPTIONS) need a backend made with them.
    xr::Backend* backend = backend_;
    std::unique_ptr<KnobbedBackend> knobbed;
    if (const auto knobs = case_build_options(current_case()); !knobs.empty()) {
      knobbed = backend_with_knobs(backend_->name(), knobs);
      backend = knobbed->backend;
    }
    const xr::ConformanceSummary summary =
        xr::run_conformance(*backend, primitive_, id_, options, listener);
    CHECK(summary.checks > 0);
    if (summary.stopped) FAIL("too many failures, stopping this case");
  }

  // n past a limit (PastLimit). Constant data with a distinct minimum and maximum placed
  // just past the limits, so an index that wraps or a dropped element changes the result. Reduce
  // checks every op of i32 and u32 in closed form; scan checks every element of an inclusive sum
  // and an exclusive max of u32 against the host reference (reading back and checking 2^31
  // elements per operation is what a case costs, so one dtype covers both kinds).
  void run_past_limit(const PastLimit& limit) const {
    xr::Backend& b = *backend_;
    xr::Runner runner(b, primitive_, id_);
    const xr::VariantInfo& info = runner.info();
    const std::size_t n = limit.n;
    const std::string backend_name(b.name());
    CAPTURE(backend_name, id_, n);
    if (primitive_ == xr::Primitive::sort) return run_sort_past_limit(runner, limit);
    if (primitive_ == xr::Primitive::histogram) return run_histogram_past_limit(runner, limit);
    const std::uint64_t arrays = primitive_ == xr::Primitive::scan ? 2 : 1;
    bool ran = false;
    std::string why_not;
    for (xr::DType dtype : {xr::DType::i32, xr::DType::u32}) {
      if (!info.claims(dtype)) continue;
      if (limit.sum_only && dtype != xr::DType::u32 && info.claims(xr::DType::u32)) continue;
      // Scan: one dtype, since reading back and checking 2^31 elements is what a case costs.
      if (primitive_ == xr::Primitive::scan && dtype != xr::DType::u32) continue;
      const std::string dtype_name(xr::to_string(dtype));
      if (n > info.max_elements) {
        why_not = id_ + " accepts at most " + std::to_string(info.max_elements) + " elements";
        continue;
      }
      if (n > b.max_elements(dtype) / arrays) {
        why_not = "the device holds at most " + std::to_string(b.max_elements(dtype)) + " " +
                  dtype_name + " elements, " + std::to_string(arrays * n) + " needed";
        continue;
      }
      CAPTURE(dtype_name);
      xr::HostArray data = xr::constant(dtype, n, 3.0);
      const std::size_t at_max = limit.at_max, at_min = limit.at_min;
      xr::visit_element_dtype(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        auto xs = data.as<T>();
        xs[at_max] = static_cast<T>(1000);
        xs[at_min] = dtype == xr::DType::i32 ? static_cast<T>(-7) : static_cast<T>(2);
      });
      auto array = b.upload(data.view());
      Caller call{runner, *array, data.view(), false, std::nullopt};
      if (primitive_ == xr::Primitive::scan) {
        for (const xr::Operation op :
             {xr::Operation{xr::Primitive::scan, xr::Op::sum, xr::ScanKind::inclusive},
              xr::Operation{xr::Primitive::scan, xr::Op::max, xr::ScanKind::exclusive}}) {
          if (!xr::claims(info, dtype, op)) continue;
          const std::string operation = op.describe();
          CAPTURE(operation);
          const xr::Verdict v = xr::Expectation(data.view(), op).check(call(op));
          INFO(v.message);
          CHECK(v.ok);
          ran = true;
        }
        continue;
      }
      for (xr::Op op : info.ops) {
        if (limit.sum_only && op != xr::Op::sum) continue;
        const std::string op_name(xr::to_string(op));
        CAPTURE(op_name);
        const xr::Value got = call(xr::Operation{xr::Primitive::reduce, op}).value;
        // Expected values in closed form: 3 * (n - 2) + 1000 + min element, modulo 2^32.
        const std::int64_t low = dtype == xr::DType::i32 ? -7 : 2;
        const std::uint32_t sum =
            static_cast<std::uint32_t>(3ull * (n - 2) + 1000ull + static_cast<std::uint64_t>(low));
        xr::Value expected = dtype == xr::DType::i32
                                 ? xr::Value::of(op == xr::Op::sum ? static_cast<std::int32_t>(sum)
                                                 : op == xr::Op::min ? std::int32_t{-7}
                                                                     : std::int32_t{1000})
                                 : xr::Value::of(op == xr::Op::sum   ? sum
                                                 : op == xr::Op::min ? std::uint32_t{2}
                                                                     : std::uint32_t{1000});
        INFO("got " << got.to_string() << ", expected " << expected.to_string());
        CHECK(got.bitwise_equal(expected));
      }
      ran = true;
    }
    if (!ran) skip(why_not.empty() ? id_ + " claims neither i32 nor u32" : why_not);
  }

  // A sort past a limit: u32 keys, all 3 but a 2 and a 1000 placed past the limits, sorted as
  // pairs (the values are the input positions, modulo 2^32): the output is checked in closed
  // form, in O(n) on the host (a reference sort of 2^31 keys would cost more than the case): the 2
  // first from its position, the 3s in input order, the 1000 last.
  void run_sort_past_limit(xr::Runner& runner, const PastLimit& limit) const {
    xr::Backend& b = *backend_;
    const std::size_t n = limit.n;
    if (n > runner.info().max_elements)
      skip(id_ + " accepts at most " + std::to_string(runner.info().max_elements) + " keys");
    // The largest allocation a sort makes is its scratch: the alternate keys and values, 2n u32.
    if (2 * n > b.max_elements(xr::DType::u32))
      skip("the device's largest array holds " + std::to_string(b.max_elements(xr::DType::u32)) +
           " u32 elements, the sort's scratch " + std::to_string(2 * n));
    xr::HostArray data = xr::constant(xr::DType::u32, n, 3.0);
    data.as<std::uint32_t>()[limit.at_max] = 1000;
    data.as<std::uint32_t>()[limit.at_min] = 2;
    xr::Operation op{.primitive = xr::Primitive::sort};
    op.values = xr::SortValues::u32;
    try {  // six arrays of n words in all: a device short of that says so
      auto array = b.upload(data.view());
      runner.run(*array, op);
    } catch (const xr::Error& e) {
      if (e.category() != xr::ErrorCategory::out_of_memory) throw;
      skip(std::string("the device cannot hold the sort: ") + e.what());
    }
    const xr::Outcome& got = runner.outcome();
    const auto keys = got.array.as<std::uint32_t>();
    const auto positions = got.values.as<std::uint32_t>();
    REQUIRE(keys.size() == n);
    REQUIRE(positions.size() == n);
    // A u32 value holds its position modulo 2^32 (past 2^32 keys, the keys' markers and the 3s in
    // every place still say where each key went).
    const auto position = [](std::size_t i) { return static_cast<std::uint32_t>(i); };
    CHECK(keys[0] == 2);
    CHECK(positions[0] == position(limit.at_min));
    CHECK(keys[n - 1] == 1000);
    CHECK(positions[n - 1] == position(limit.at_max));
    std::size_t wrong = 0, first_wrong = n, expected = 0;
    for (std::size_t j = 1; j + 1 < n; ++j, ++expected) {
      while (expected == limit.at_min || expected == limit.at_max) ++expected;
      if (keys[j] != 3 || positions[j] != position(expected)) {
        if (wrong++ == 0) first_wrong = j;
      }
    }
    INFO(wrong << " keys out of place, the first at " << first_wrong);
    CHECK(wrong == 0);
  }

  // A histogram past a limit: u8 samples, all 3 but a 0 and a 255 placed past the limits, in 256
  // bins over [0, 256) with u64 counts (past 2^32 samples a u32 counter would wrap): bin 3 holds
  // n - 2, bins 0 and 255 one each, the rest none, checked in closed form.
  void run_histogram_past_limit(xr::Runner& runner, const PastLimit& limit) const {
    xr::Backend& b = *backend_;
    const std::size_t n = limit.n;
    if (n > runner.info().max_elements)
      skip(id_ + " accepts at most " + std::to_string(runner.info().max_elements) + " samples");
    if (n > b.max_elements(xr::DType::u8))
      skip("the device's largest array holds " + std::to_string(b.max_elements(xr::DType::u8)) +
           " u8 elements");
    xr::HostArray data = xr::constant(xr::DType::u8, n, 3.0);
    data.as<std::uint8_t>()[limit.at_min] = 0;
    data.as<std::uint8_t>()[limit.at_max] = 255;
    xr::Operation op{.primitive = xr::Primitive::histogram};
    op.levels = {.bins = 256, .lower = 0, .upper = 256, .counts = xr::HistogramCounts::u64};
    try {
      auto array = b.upload(data.view());
      runner.run(*array, op);
    } catch (const xr::Error& e) {
      if (e.category() != xr::ErrorCategory::out_of_memory) throw;
      skip(std::string("the device cannot hold the samples: ") + e.what());
    }
    const auto counts = runner.outcome().array.as<std::uint64_t>();
    REQUIRE(counts.size() == 256);
    CHECK(counts[0] == 1);
    CHECK(counts[3] == n - 2);
    CHECK(counts[255] == 1);
    std::size_t others = 0;
    for (std::size_t bin = 0; bin < counts.size(); ++bin)
      if (bin != 0 && bin != 3 && bin != 255) others += counts[bin];
    CHECK(others == 0);
  }

  // The backend's own contract, apart from any variant: arrays round-trip through upload, write
  // and read; wrong writes and unknown ids/devices are refused with the documented category.
  void run_contract() const {
    xr::Backend& b = *backend_;
    const std::string backend_name(b.name());
    CAPTURE(backend_name);
    CHECK_FALSE(b.devices().empty());
    // 32 lowercase hex digits on every GPU backend (how Vulkan's device is matched to CUDA's);
    // the host CPU has no UUID and may leave it empty, and so may an OpenCL device without
    // cl_khr_device_uuid (pocl), which says so in its properties.
    for (const xr::DeviceInfo& d : b.devices()) {
      INFO("device " << d.index << " " << d.name << " uuid '" << d.uuid << "'");
      const bool hex32 =
          d.uuid.size() == 32 && d.uuid.find_first_not_of("0123456789abcdef") == std::string::npos;
      bool says_none = false;
      for (const auto& [key, value] : d.properties)
        says_none |= key == "UUID" && value.find("not reported") != std::string::npos;
      CHECK((hex32 || (d.uuid.empty() && (backend_name == "cpu" || says_none))));
    }
    for (xr::DType dtype : xr::kAllDTypes) {
      const std::string dtype_name(xr::to_string(dtype));
      CHECK(b.max_elements(dtype) >= (std::uint64_t{1} << 20));
      for (std::size_t n : {0, 1, 3, 1025, 65537}) {
        CAPTURE(dtype_name, n);
        const xr::HostArray data = xr::generate(dtype, n, g_seed + n, xr::Distribution::full);
        const xr::HostArray other = xr::generate(dtype, n, g_seed + n + 1, xr::Distribution::full);
        auto array = b.upload(data.view());
        CHECK(array->dtype() == dtype);
        CHECK(array->size() == n);
        CHECK(array->bytes() == n * xr::size_of(dtype));
        CHECK(xr::bytes_mismatch(array->read(), data).empty());
        array->write(other.view());
        CHECK(xr::bytes_mismatch(array->read(), other).empty());
        const xr::HostArray longer = xr::generate(dtype, n + 1, 1);
        CHECK_THROWS_MATCHES(array->write(longer.view()), xr::Error,
                             category_is(xr::ErrorCategory::usage));
        const xr::DType wrong = dtype == xr::DType::f32 ? xr::DType::i32 : xr::DType::f32;
        const xr::HostArray retyped = xr::generate(wrong, n, 1);
        CHECK_THROWS_MATCHES(array->write(retyped.view()), xr::Error,
                             category_is(xr::ErrorCategory::usage));
        CHECK(xr::bytes_mismatch(array->read(), other).empty());  // a refused write changes nothing
      }
    }
    // A scan's output: allocated with the asked dtype and size, then writable and readable.
    for (xr::DType dtype : xr::kAllDTypes) {
      const xr::HostArray data = xr::generate(dtype, 4099, g_seed, xr::Distribution::full);
      auto out = b.allocate(dtype, data.size());
      CHECK(out->dtype() == dtype);
      CHECK(out->size() == data.size());
      out->write(data.view());
      CHECK(xr::bytes_mismatch(out->read(), data).empty());
      xr::HostArray wrong(dtype, data.size() + 1);
      CHECK_THROWS_MATCHES(out->read_into(wrong), xr::Error, category_is(xr::ErrorCategory::usage));
    }
    CHECK(b.allocate(xr::DType::i32, 0)->size() == 0);
    // The peaks of "% peak": reduce's read bandwidth, scan's copy bandwidth (read + written).
    for (const auto& peak : {b.measure_read_bandwidth_gbps(), b.measure_copy_bandwidth_gbps()})
      if (peak) CHECK(*peak > 0);
    CHECK_THROWS_MATCHES(b.make_reducer("no/such-variant"), xr::Error,
                         category_is(xr::ErrorCategory::usage));
    CHECK_THROWS_MATCHES(b.make_scanner("no/such-variant"), xr::Error,
                         category_is(xr::ErrorCategory::usage));
    const xr::DeviceInfo before = b.device();
    CHECK_THROWS_MATCHES(b.select_device(xr::DeviceChoice{"no-such-device-xyz", ""}), xr::Error,
                         category_is(xr::ErrorCategory::usage));
    CHECK(b.device().uuid == before.uuid);  // a refused selection keeps the device
  }

  struct CategoryIs : Catch::MatcherBase<xr::Error> {
    explicit CategoryIs(xr::ErrorCategory c) : category(c) {}
    bool match(const xr::Error& e) const override { return e.category() == category; }
    std::string describe() const override {
      return "has category " + std::string(xr::to_string(category));
    }
    xr::ErrorCategory category;
  };
  static CategoryIs category_is(xr::ErrorCategory c) { return CategoryIs(c); }

  xr::Backend* backend_;
  xr::Primitive primitive_;
  std::string id_;
  Mode mode_;
  const PastLimit* limit_;  // Mode::past_limit
  std::uint64_t max_size_;  // a case's own cap on its sizes (0: none)
};

// A runner of `id` on a backend made with `knobs` set (and the case's build options,
// XR_TEST_CL_BUILD_OPTIONS), which it keeps alive. Null (after a FAIL where the backend is
// required, else a WARN) where the backend or the variant cannot run.
struct KnobbedRunner {
  std::unique_ptr<KnobbedBackend> made;
  xr::Backend* backend = nullptr;
  std::unique_ptr<xr::Runner> runner;
};
std::unique_ptr<KnobbedRunner> runner_with_knobs(
    const char* backend, xr::Primitive primitive, const char* id,
    std::vector<std::pair<const char*, std::string>> knobs) {
  for (auto& knob : case_build_options(current_case())) knobs.push_back(std::move(knob));
  auto k = std::make_unique<KnobbedRunner>();
  {
    const ScopedKnobs set(knobs);
    k->made = backend_with_knobs(backend, {});
    k->backend = k->made->backend;
    xr::Backend* b = k->backend;
    if (b && b->available() && b->unsupported_reason(primitive, id).empty())
      k->runner = std::make_unique<xr::Runner>(*b, primitive, id);
  }
  xr::Backend* b = k->backend;
  if (!b || !b->available()) {
    if (required(backend)) FAIL(backend << " is required but unavailable");
    WARN(backend << " unavailable: " << (b ? b->unavailable_reason() : "not built"));
    return nullptr;
  }
  if (!k->runner) {
    WARN(b->unsupported_reason(primitive, id));
    return nullptr;
  }
  return k;
}

// The fallbacks the runner's variant counted, from its "look-back fallbacks: N ..." line.
std::uint64_t fallbacks_counted(const xr::Runner& runner) {
  const std::string counted = runner.diagnostics();
  const std::size_t at = counted.find("fallbacks: ");
  REQUIRE(at != std::string::npos);
  return std::strtoull(counted.c_str() + at + 11, nullptr, 10);
}

// The decoupled fallback of a look-back, forced: with its polls knob at 0 a tile that finds any
// predecessor unpublished reduces that predecessor's input at once, instead of only when a
// scheduler starves it. Hundreds of tiles, both kinds, exact integer types and floats of each
// status layout (a packed word for 4-byte accumulators, f16's float among them; two words for
// 8-byte ones, whose fallback keeps its total unpublished). How often a predecessor is still
// unpublished depends on the scheduler (lavapipe and pocl run workgroups serially when their
// other thread is busy), so the fallbacks are summed over every configuration, which must hold
// some; each configuration's count is printed. `knobs` are set while the backend is made.
void check_forced_fallback(const char* backend,
                           const std::vector<std::pair<const char*, std::string>>& knobs) {
  const auto made =
      runner_with_knobs(backend, xr::Primitive::scan, "fast/decoupled-lookback", knobs);
  if (!made) return;
  xr::Backend* b = made->backend;
  xr::Runner* runner = made->runner.get();
  REQUIRE(runner->diagnostics().find("(0 polls before falling back") != std::string::npos);
  std::uint64_t fallbacks = 0;
  std::string counts;
  for (xr::DType dtype :
       {xr::DType::u32, xr::DType::f32, xr::DType::f16, xr::DType::u64, xr::DType::f64}) {
    for (std::size_t n : {std::size_t{4096} * 300 + 5, (std::size_t{1} << 20) + 3}) {
      const xr::HostArray data =
          xr::generate(dtype, n, xr::element_hash(g_seed, n), xr::Distribution::full);
      auto array = b->upload(data.view());
      std::uint64_t here = 0;
      for (xr::ScanKind kind : xr::kAllScanKinds) {
        const xr::Operation op{xr::Primitive::scan, xr::Op::sum, kind};
        CAPTURE(std::string(xr::to_string(dtype)), n, op.describe());
        runner->prepare_output(dtype, n)->write(xr::poison(dtype, n).view());
        runner->run(*array, op);
        const xr::Verdict verdict = xr::Expectation(data.view(), op).check(runner->outcome());
        INFO(verdict.message);
        CHECK(verdict.ok);
        // Vulkan counts per (n, dtype, op), OpenCL per call.
        const std::uint64_t count = fallbacks_counted(*runner);
        here = std::string_view(backend) == "vulkan" ? count : here + count;
      }
      fallbacks += here;
      // Appended piece by piece, as below (GCC 12's -Wrestrict misfires on `" " + std::string`).
      counts.append(" ").append(xr::to_string(dtype)).append("/").append(std::to_string(n));
      counts.append(": ").append(std::to_string(here));
    }
  }
  std::cout << backend << " forced look-back fallbacks:" << counts << std::endl;
  INFO("fallbacks per dtype/n:" << counts);
  CHECK(fallbacks > 0);
}

// Twice: with the policy's window, and with three words per lane (the windowed fallback's
// bookkeeping at a width no policy uses).
TEST_CASE("vulkan/scan/fast/decoupled-lookback/forced-fallback", "[conformance][vulkan][scan]") {
  const std::string window = GENERATE(std::string(), std::string("3"));
  CAPTURE(window);
  std::vector<std::pair<const char*, std::string>> knobs{{"XR_VK_LOOKBACK_POLLS", "0"}};
  if (!window.empty()) knobs.emplace_back("XR_VK_LOOKBACK_WINDOW", window);
  check_forced_fallback("vulkan", knobs);
}

// OpenCL promises no forward progress between work-groups either: its look-back's fallback, forced.
TEST_CASE("opencl/scan/fast/decoupled-lookback/forced-fallback", "[conformance][opencl][scan]") {
  check_forced_fallback("opencl", {{"XR_CL_LOOKBACK_POLLS", "0"}});
}

// One sort of `data` (uploaded as `array`) in `order`, keys or pairs, its count given on the host
// or on the device, into outputs poisoned first, checked against the host element by element.
void check_one_sort(xr::Runner& runner, xr::DeviceArray& array, const xr::HostArray& data,
                    xr::SortOrder order, xr::SortValues values, bool count_on_device = false) {
  const xr::DType dtype = data.view().dtype;
  const std::size_t n = data.view().size;
  xr::Operation op{.primitive = xr::Primitive::sort};
  op.order = order;
  op.values = values;
  op.count_on_device = count_on_device;
  CAPTURE(std::string(xr::to_string(dtype)), n, op.describe());
  runner.prepare_output(dtype, n)->write(xr::poison(dtype, n).view());
  if (op.pairs()) {
    const xr::DType value_type = values == xr::SortValues::u64 ? xr::DType::u64 : xr::DType::u32;
    runner.prepare_sorted_values(n, values)->write(xr::poison(value_type, n).view());
  }
  runner.run(array, op);
  const xr::Verdict verdict = xr::Expectation(data.view(), op).check(runner.outcome());
  INFO(verdict.message);
  CHECK(verdict.ok);
}

// Onesweep's decoupled fallback, forced: with the polls knob at 0 a tile takes no predecessor's
// count short of its prefix and counts every other predecessor's digits itself. Hundreds
// of tiles of every key width, keys and pairs, both orders; the fallbacks are summed over every
// configuration, which must hold some (as the scan's above). `knobs` join the polls knob.
void check_sort_forced_fallback(const char* backend, const char* polls_knob,
                                std::vector<std::pair<const char*, std::string>> knobs = {}) {
  knobs.emplace_back(polls_knob, "0");
  const auto made = runner_with_knobs(backend, xr::Primitive::sort, "radix/onesweep", knobs);
  if (!made) return;
  xr::Backend* b = made->backend;
  xr::Runner* runner = made->runner.get();
  std::uint64_t fallbacks = 0;
  std::string counts;
  for (xr::DType dtype : {xr::DType::u32, xr::DType::f32, xr::DType::f16, xr::DType::i64}) {
    const std::size_t n = 200003;
    const xr::HostArray data =
        xr::generate(dtype, n, xr::element_hash(g_seed, n), xr::Distribution::full);
    auto array = b->upload(data.view());
    for (xr::SortOrder order : xr::kAllSortOrders)
      for (xr::SortValues values : {xr::SortValues::none, xr::SortValues::u32}) {
        check_one_sort(*runner, *array, data, order, values);
        const std::uint64_t here = fallbacks_counted(*runner);
        fallbacks += here;
        const xr::Operation op{.primitive = xr::Primitive::sort, .order = order, .values = values};
        // Appended piece by piece (GCC 12's -Wrestrict misfires on `" " + std::string`).
        counts.append(" ").append(xr::to_string(dtype)).append("/").append(op.describe());
        counts.append(": ").append(std::to_string(here));
      }
  }
  std::cout << backend << " forced onesweep fallbacks:" << counts << std::endl;
  INFO("fallbacks per dtype/operation:" << counts);
  CHECK(fallbacks > 0);
}

// Twice: ranking by ballots (lavapipe has them), and by counting (its fallback counts into the
// same shared memory the ranking's columns take).
TEST_CASE("vulkan/sort/radix/onesweep/forced-fallback", "[conformance][vulkan][sort]") {
  const std::string ranking = GENERATE(std::string("auto"), std::string("counting"));
  CAPTURE(ranking);
  check_sort_forced_fallback("vulkan", "XR_VK_LOOKBACK_POLLS", {{"XR_VK_SORT_RANKING", ranking}});
}

// The radix sorts ranking a tile by counting in shared memory, as they do on a device without
// subgroup ballots, shuffles or arithmetic (XR_VK_SORT_RANKING=counting forces it here): core's
// whole conformance run, every size, key type, order, bit range and pairs, on a backend made with
// the knob; then one call says which ranking ran. One case per sort, so ctest runs them side by
// side.
void check_counting_ranking(const char* id) {
  CAPTURE(id);
  const auto made =
      runner_with_knobs("vulkan", xr::Primitive::sort, id, {{"XR_VK_SORT_RANKING", "counting"}});
  if (!made) return;
  VariantCase(made->backend, xr::Primitive::sort, id, Mode::conformance).invoke();
  const xr::HostArray data = xr::generate(xr::DType::u32, 1000, g_seed, xr::Distribution::full);
  auto array = made->backend->upload(data.view());
  made->runner->prepare_output(xr::DType::u32, 1000);
  made->runner->run(*array, xr::Operation{.primitive = xr::Primitive::sort});
  const std::string said = made->runner->diagnostics();
  INFO(said);
  CHECK(said.find("ranks tiles by counting") != std::string::npos);
}

// subgroup/aggregated matching a bin's invocations by ballots, as on a device without
// VK_NV_shader_subgroup_partitioned (XR_VK_HISTOGRAM_MATCH=ballots forces it on one that has
// it): core's whole conformance run on a backend made with the knob, then one call says which
// match ran. A device without the partition runs the ballots in the plain case already.
TEST_CASE("vulkan/histogram/subgroup/aggregated/ballots", "[conformance][vulkan][histogram]") {
  const char* id = "subgroup/aggregated";
  const xr::Operation op{.primitive = xr::Primitive::histogram};
  const xr::HostArray data = xr::histogram_samples(xr::DType::u8, 1000, g_seed,
                                                   xr::SampleDistribution::uniform, op.levels);
  const auto plain = runner_with_knobs("vulkan", xr::Primitive::histogram, id, {});
  if (!plain) return;
  auto plain_array = plain->backend->upload(data.view());
  plain->runner->run(*plain_array, op);
  const std::string plain_match = plain->runner->diagnostics();
  if (plain_match.find("subgroup ballots") != std::string::npos) {
    CHECK(plain_match.find("subgroup partition") == std::string::npos);
    WARN(
        "the device matches by ballots already (no subgroup partition): the plain case runs "
        "them");
    return;
  }
  const auto made = runner_with_knobs("vulkan", xr::Primitive::histogram, id,
                                      {{"XR_VK_HISTOGRAM_MATCH", "ballots"}});
  if (!made) return;
  VariantCase(made->backend, xr::Primitive::histogram, id, Mode::conformance).invoke();
  auto array = made->backend->upload(data.view());
  made->runner->run(*array, op);
  const std::string said = made->runner->diagnostics();
  INFO(said);
  CHECK(said.find("subgroup ballots") != std::string::npos);
}

// The forced-layout cases' sizes stop past four grid-stride rounds of lavapipe's and pocl's wave
// of 32-bit samples: the layout's paths, without the plain cases' sizes again.
constexpr std::uint64_t kLayoutCaseMaxSize = (std::uint64_t{1} << 18) + 3;

// fast/replicated on `backend` made with the layout knob `knob`=`layout`: core's whole
// conformance run to kLayoutCaseMaxSize, then one call of 100000 uniform `dtype` samples over
// `levels` whose plan names `said` (and not `not_said`, where given).
void check_histogram_layout(const char* backend, const char* knob, const char* layout,
                            xr::DType dtype, const xr::HistogramLevels& levels,
                            std::string_view said, std::string_view not_said = {}) {
  const char* id = "fast/replicated";
  const auto made = runner_with_knobs(backend, xr::Primitive::histogram, id, {{knob, layout}});
  if (!made) return;
  VariantCase(made->backend, xr::Primitive::histogram, id, Mode::conformance, nullptr,
              kLayoutCaseMaxSize)
      .invoke();
  xr::Operation op{.primitive = xr::Primitive::histogram};
  op.levels = levels;
  const xr::HostArray data =
      xr::histogram_samples(dtype, 100'000, g_seed, xr::SampleDistribution::uniform, op.levels);
  auto array = made->backend->upload(data.view());
  made->runner->run(*array, op);
  const std::string plan = made->runner->diagnostics();
  INFO(plan);
  CHECK(plan.find(said) != std::string::npos);
  if (!not_said.empty()) CHECK(plan.find(not_said) == std::string::npos);
}

// fast/replicated with its bins past one workgroup's shared copy counted in copies in global
// memory (XR_VK_HISTOGRAM_LAYOUT=global), as on a device whose shared memory holds no slice of
// them: 65536 bins take that path, and their plan says it counted past the shared memory.
TEST_CASE("vulkan/histogram/fast/replicated/global-copies", "[conformance][vulkan][histogram]") {
  check_histogram_layout("vulkan", "XR_VK_HISTOGRAM_LAYOUT", "global", xr::DType::u16,
                         {.bins = 65536, .lower = 0, .upper = 65536}, "counters pass the",
                         "slices of");
}

// fast/replicated with lane-banked copies at every size (XR_VK_HISTOGRAM_LAYOUT=lane-banked; the
// tuning table takes them for many samples alone), the bins lane-banked where the shared memory
// holds 32 counters a bin and a discard bin's; the call of 255 bins (lavapipe's 32 KiB hold 256
// of 32 counters) runs lane-banked, its samples of 255 counted nowhere.
TEST_CASE("vulkan/histogram/fast/replicated/lane-banked", "[conformance][vulkan][histogram]") {
  check_histogram_layout("vulkan", "XR_VK_HISTOGRAM_LAYOUT", "lane-banked", xr::DType::u8,
                         {.bins = 255, .lower = 0, .upper = 255}, "lane-banked copies");
}

TEST_CASE("vulkan/sort/radix/counting-ranking/onesweep", "[conformance][vulkan][sort]") {
  check_counting_ranking("radix/onesweep");
}

TEST_CASE("vulkan/sort/radix/counting-ranking/reduce-then-scan", "[conformance][vulkan][sort]") {
  check_counting_ranking("radix/reduce-then-scan");
}

// OpenCL's fast/replicated with lane-banked local copies at every size
// (XR_CL_HISTOGRAM_LAYOUT=lane-banked; the tuning table takes them on NVIDIA for many samples
// alone); the call of 256 bins runs lane-banked.
TEST_CASE("opencl/histogram/fast/replicated/lane-banked", "[conformance][opencl][histogram]") {
  check_histogram_layout("opencl", "XR_CL_HISTOGRAM_LAYOUT", "lane-banked", xr::DType::u8,
                         {.bins = 256, .lower = 0, .upper = 256}, "lane-banked copies");
}

// OpenCL's onesweep, forced the same way (pocl's work-groups really do stall).
TEST_CASE("opencl/sort/radix/onesweep/forced-fallback", "[conformance][opencl][sort]") {
  check_sort_forced_fallback("opencl", "XR_CL_LOOKBACK_POLLS");
}

// Vulkan's onesweep with its count on the device dispatched indirectly over the count's tiles
// (XR_VK_SORT_GRIDS=device: a grid pass writes them), where the tuning table launches the Sort's
// grids: counts from one key to one past a tile's edge to many tiles, keys and pairs (u32 values
// ascending, u64 descending), both orders, under the validation layers' synchronization checks.
TEST_CASE("vulkan/sort/radix/onesweep/indirect-dispatch", "[conformance][vulkan][sort]") {
  const auto made = runner_with_knobs("vulkan", xr::Primitive::sort, "radix/onesweep",
                                      {{"XR_VK_SORT_GRIDS", "device"}});
  if (!made) return;
  for (const std::size_t n : {1, 2, 255, 257, 3841, 7681, 70001})
    for (xr::DType dtype : {xr::DType::u32, xr::DType::f32, xr::DType::u64}) {
      const xr::HostArray data =
          xr::generate(dtype, n, xr::element_hash(g_seed, n), xr::Distribution::full);
      auto array = made->backend->upload(data.view());
      for (xr::SortOrder order : xr::kAllSortOrders)
        for (xr::SortValues values :
             {xr::SortValues::none,
              order == xr::SortOrder::ascending ? xr::SortValues::u32 : xr::SortValues::u64})
          check_one_sort(*made->runner, *array, data, order, values, /*count_on_device=*/true);
    }
}

// The OpenCL sorts built per key kind and order (XR_CL_SORT_MODE=built), as NVIDIA's GPUs build
// them, on any device: every kind in both orders through onesweep, keys and pairs, and each other
// sort's stages that read keys by their order once. A size past one tile and its stages' builds
// per mode, few enough for a CPU device's compiler.
void check_sort_modes_built(const char* id, std::initializer_list<xr::DType> dtypes, std::size_t n,
                            bool pairs_too) {
  CAPTURE(id);
  const auto made =
      runner_with_knobs("opencl", xr::Primitive::sort, id, {{"XR_CL_SORT_MODE", "built"}});
  if (!made) return;
  for (xr::DType dtype : dtypes) {
    const xr::HostArray data =
        xr::generate(dtype, n, xr::element_hash(g_seed, n), xr::Distribution::full);
    auto array = made->backend->upload(data.view());
    for (xr::SortOrder order : xr::kAllSortOrders)
      for (xr::SortValues values : {xr::SortValues::none, xr::SortValues::u32})
        if (values == xr::SortValues::none || pairs_too)
          check_one_sort(*made->runner, *array, data, order, values);
  }
}

TEST_CASE("opencl/sort/modes-built", "[conformance][opencl][sort]") {
  using enum xr::DType;
  check_sort_modes_built("radix/onesweep", {u32, i32, f32, f16, i64, f64}, 70001, false);
  check_sort_modes_built("radix/onesweep", {f32}, 70001, true);
  check_sort_modes_built("radix/reduce-then-scan", {i32, f32}, 70001, false);
  check_sort_modes_built("bitonic/smem", {f32}, 17000, false);
}

// --kernel FILE (repeatable), --kernel-spec WORDS, --kernel-id ID: taken out of argv before
// Catch sees it. Returns the kernels' flags in the order given.
struct KernelArgs {
  std::vector<std::string> files;
  std::string spec, id;
};
KernelArgs take_kernel_args(int& argc, char* argv[]) {
  KernelArgs k;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    std::string* into = a == "--kernel-spec" ? &k.spec : a == "--kernel-id" ? &k.id : nullptr;
    if (a == "--kernel" || into) {
      if (i + 1 == argc) throw xr::Error(xr::ErrorCategory::usage, a + " needs a value");
      if (into)
        *into = argv[++i];
      else
        k.files.push_back(argv[++i]);
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  return k;
}

// Users' kernels join the registry before the cases are made from it: each gets its
// conformance/<backend>/<id> case like any variant.
void add_kernels(const xr::Registry& registry, const KernelArgs& args) {
  std::vector<xr::UserKernel> kernels;
  for (const std::string& file : args.files)
    kernels.push_back(xr::load_user_kernel(file, args.spec, args.id));
  xr::check_kernel_ids(kernels);
  for (const xr::UserKernel& k : kernels) registry.add_kernel(k);
}

}  // namespace

int main(int argc, char* argv[]) {
  // Before any backend exists: the Vulkan backend reads this when it creates its instance.
  setenv("XR_VK_VALIDATION", "1", /*overwrite=*/0);
  if (const char* s = std::getenv("XR_TEST_SEED")) g_seed = std::strtoull(s, nullptr, 0);
  if (const char* s = std::getenv("XR_TEST_REQUIRE_BACKENDS"))
    g_required = "," + std::string(s) + ",";

  xr::Registry registry;
  xr::register_builtin_backends(registry);
  try {
    add_kernels(registry, take_kernel_args(argc, argv));
  } catch (const xr::Error& e) {
    std::string line = e.what();
    for (char& c : line)
      if (c == '\n') c = ' ';
    std::cerr << "conformance_tests: error: " << line << std::endl;
    return 2;
  }

  // Catch keeps StringRefs to names and tags: they live here until main returns.
  std::deque<std::string> names;
  std::vector<std::unique_ptr<Catch::AutoReg>> registrations;
  auto add = [&](xr::Backend* b, xr::Primitive p, const std::string& id, Mode mode,
                 const PastLimit* limit = nullptr) {
    const std::string backend(b->name());
    const std::string prefix = limit ? limit->prefix : "conformance/";
    const std::string primitive(xr::to_string(p));
    // Reduce keeps the names it always had; a scan or sort variant's name says which it is.
    names.push_back(prefix + backend + "/" +
                    (p == xr::Primitive::reduce ? std::string() : primitive + "/") + id);
    const std::string& name = names.back();
    // The hidden cases carry no backend tag, so `[cuda]` never pulls in an 8 GiB case by
    // accident; select them by name (`large/cuda/*`) or by tag (`[large]`).
    names.push_back(limit && limit->tags[1] == '.' ? std::string(limit->tags)
                    : limit                        ? std::string(limit->tags) + "[" + backend + "]"
                    : mode == Mode::contract       ? "[conformance][" + backend + "]"
                                             : "[conformance][" + backend + "][" + primitive + "]");
    const std::string& tags = names.back();
    registrations.push_back(std::make_unique<Catch::AutoReg>(
        new VariantCase(b, p, id, mode, limit), CATCH_INTERNAL_LINEINFO, Catch::StringRef(),
        Catch::NameAndTags{Catch::StringRef(name), Catch::StringRef(tags)}));
  };
  for (const auto& backend : registry.backends()) {
    // "backend" is no catalog id (those are family/name), so it cannot collide with a variant.
    add(backend.get(), xr::Primitive::reduce, "backend", Mode::contract);
    for (const xr::VariantInfo& v : backend->variants())
      add(backend.get(), v.primitive, v.id, Mode::conformance);
  }
  // Past the limits: the GPU backends only (the CPU reference is not where index overflow
  // hides, and 8 GiB per array is too much for a CI runner); the binding cases Vulkan only.
  for (const PastLimit& limit : kPastLimits)
    for (const auto& backend : registry.backends()) {
      if (backend->name() == "cpu") continue;
      if (limit.vulkan_only && backend->name() != "vulkan") continue;
      for (const xr::VariantInfo& v : backend->variants())
        if (!limit.sum_only || v.primitive == xr::Primitive::reduce)
          add(backend.get(), v.primitive, v.id, Mode::past_limit, &limit);
    }

  const int failed = xrtest::run_catch(argc, argv, [] {
    std::cout << "conformance seed " << g_seed << " (XR_TEST_SEED)" << std::endl;
  });
  std::cout.flush();
  if (failed == 0 && g_invoked > 0 && g_skipped == g_invoked) return 77;
  if (g_skipped > 0)
    std::cout << g_skipped << " of " << g_invoked << " conformance case(s) skipped" << std::endl;
  return failed;
}
