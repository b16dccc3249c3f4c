#include "xreduce/conformance.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <span>

#include "xreduce/check.hpp"
#include "xreduce/error.hpp"
#include "xreduce/generate.hpp"
#include "xreduce/histogram_samples.hpp"
#include "xreduce/reference.hpp"
#include "xreduce/runner.hpp"

namespace xr {
namespace {

// Edge sizes around powers of two, block and subgroup multiples, just past fast/single-pass's
// one-block limit (16384), and past 2^20.
constexpr std::size_t kEdgeSizes[] = {0,    1,    2,     3,     7,     31,    32,
                                      33,   255,  256,   257,   1000,  1023,  1024,
                                      1025, 4097, 16385, 65535, 65536, 65537, (1u << 20) + 3};
constexpr int kRandomSizes = 3;
constexpr std::size_t kMaxRandomSize = 1u << 20;
// Above this size one data kind per dtype is run (random over the full range, which exercises
// wrapping sums and the float bound): keeps the Vulkan suite on lavapipe under validation fast.
constexpr std::size_t kAllKindsUpTo = 70000;
// A sort's checks cost a host sort each: every kind and operation runs up to this size (past
// reduce-then-scan's tile of 3840 keys), two kinds and three operations above it (the sizes
// from 16385 cross onesweep's tiles of 5760 to 10240 keys).
constexpr std::size_t kAllSortKindsUpTo = 4097;
// A histogram's sizes: its edges (a subgroup, a block, a vector load's head and tail, past a
// block's samples and past 2^20) without the reduce ladder's one-pass limits, every
// distribution up to kAllHistogramKindsUpTo, then the spread and the worst contention, with
// three of its operations (kLargeHistogramOperations).
constexpr std::size_t kHistogramEdgeSizes[] = {
    0, 1, 2, 3, 15, 31, 33, 255, 257, 1023, 1025, 4097, 16385, 65537, (1u << 20) + 3};
constexpr std::size_t kAllHistogramKindsUpTo = 70000;

// The data kinds: random, constant and extreme values for every primitive, and for sort the keys
// that stress a radix sort (generate.hpp): few distinct, sorted, reversed, one digit varying.
enum class Kind {
  random_small,
  random_full,
  constant,
  extremes,
  few,
  sorted,
  reversed,
  top_digit,
  bottom_digit,
  uniform,  // the histogram's (histogram_samples.hpp), over its conformance range
  one_bin,
  skewed,
  image,
  part_out,
};

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::random_small:
      return "random/small";
    case Kind::random_full:
      return "random/full";
    case Kind::constant:
      return "constant";
    case Kind::extremes:
      return "extremes";
    case Kind::few:
      return "few";
    case Kind::sorted:
      return "sorted";
    case Kind::reversed:
      return "reversed";
    case Kind::top_digit:
      return "top-digit";
    case Kind::bottom_digit:
      return "bottom-digit";
    case Kind::uniform:
      return "uniform";
    case Kind::one_bin:
      return "one-bin";
    case Kind::skewed:
      return "skewed";
    case Kind::image:
      return "image";
    case Kind::part_out:
      return "part-out";
  }
  return "?";
}

// The kinds run at `n`: every kind of the primitive up to kAllKindsUpTo, random over the full
// range above it (and, for sort, keys differing in the top digit only: the scatter's worst case).
std::vector<Kind> kinds_for(Primitive primitive, std::size_t n) {
  if (primitive == Primitive::histogram) {
    if (n > kAllHistogramKindsUpTo) return {Kind::uniform, Kind::one_bin};
    return {Kind::uniform, Kind::one_bin, Kind::skewed, Kind::image, Kind::part_out};
  }
  if (primitive != Primitive::sort) {
    if (n > kAllKindsUpTo) return {Kind::random_full};
    return {Kind::random_small, Kind::random_full, Kind::constant, Kind::extremes};
  }
  if (n > kAllSortKindsUpTo) return {Kind::random_full, Kind::top_digit};
  return {Kind::random_full, Kind::constant, Kind::extremes,  Kind::few,
          Kind::sorted,      Kind::reversed, Kind::top_digit, Kind::bottom_digit};
}

// Exactly representable constants: every float summation order gives the same exact sum (at most
// 3 * (2^20 + 3) < 2^24, exact in every accumulator: f16/bf16 accumulate in float); integer ones
// wrap (INT32_MAX, UINT32_MAX, 2^62, 2^64 - 2048) or go negative.
double constant_for(DType t, std::size_t size_index) {
  static const double kFloat[] = {1.0, -0.5, 3.0};
  static const double kI32[] = {-3.0, 2147483647.0, 1.0};
  static const double kU32[] = {4294967295.0, 7.0, 1.0};
  static const double kI64[] = {-3.0, 0x1p62, 1.0};
  static const double kU64[] = {0x1p64 - 2048, 7.0, 1.0};
  const std::size_t k = size_index % 3;
  switch (t) {
    case DType::i32:
      return kI32[k];
    case DType::u32:
      return kU32[k];
    case DType::i64:
      return kI64[k];
    case DType::u64:
      return kU64[k];
    default:
      return kFloat[k];
  }
}

// Whether a constant input's result must be exact, bit for bit: every element of an f32 or f64
// scan (the constants' prefixes are exact in any order), and the one rounding of a 16-bit reduce
// (its float accumulator holds the exact sum). A 16-bit scan may round twice (float_sum_bound).
bool constant_is_exact(DType t, Primitive primitive) {
  if (t == DType::f32 || t == DType::f64) return true;
  return !is_integer(t) && primitive == Primitive::reduce;
}

// Every size for the 32-bit types; up to kAllKindsUpTo for the others unless every_size; all of
// them capped by max_size. The sizes up to 65537 cross every tile, block and one-pass limit.
std::vector<std::size_t> test_sizes(Primitive primitive, DType t, const ConformanceOptions& o) {
  const bool all = o.every_size || std::find(std::begin(k32BitDTypes), std::end(k32BitDTypes), t) !=
                                       std::end(k32BitDTypes);
  std::size_t largest = all ? SIZE_MAX : kAllKindsUpTo;
  if (o.max_size) largest = std::min<std::size_t>(largest, std::max<std::uint64_t>(o.max_size, 1));
  std::vector<std::size_t> sizes;
  const std::span<const std::size_t> edges = primitive == Primitive::histogram
                                                 ? std::span<const std::size_t>(kHistogramEdgeSizes)
                                                 : std::span<const std::size_t>(kEdgeSizes);
  for (std::size_t n : edges)
    if (n <= largest) sizes.push_back(n);
  for (int k = 0; k < kRandomSizes; ++k) {
    const std::uint64_t h = element_hash(o.seed ^ 0xA5A5u, k);
    sizes.push_back(1 + h % std::min(kMaxRandomSize, largest));
  }
  return sizes;
}

HostArray data_for(Kind kind, DType t, std::size_t n, std::size_t size_index, std::uint64_t seed) {
  const std::uint64_t data_seed = element_hash(seed, n * 8 + static_cast<int>(kind));
  switch (kind) {
    case Kind::random_small:
      return generate(t, n, data_seed, Distribution::small);
    case Kind::random_full:
      return generate(t, n, data_seed, Distribution::full);
    case Kind::extremes:
      return generate(t, n, data_seed, Distribution::extremes);
    case Kind::few:
      return generate(t, n, data_seed, Distribution::few);
    case Kind::sorted:
      return generate(t, n, data_seed, Distribution::sorted);
    case Kind::reversed:
      return generate(t, n, data_seed, Distribution::reversed);
    case Kind::top_digit:
      return generate(t, n, data_seed, Distribution::top_digit);
    case Kind::bottom_digit:
      return generate(t, n, data_seed, Distribution::bottom_digit);
    case Kind::uniform:
      return histogram_samples(t, n, data_seed, SampleDistribution::uniform,
                               histogram_conformance_levels(t));
    case Kind::one_bin:
      return histogram_samples(t, n, data_seed, SampleDistribution::one_bin,
                               histogram_conformance_levels(t));
    case Kind::skewed:
      return histogram_samples(t, n, data_seed, SampleDistribution::skewed,
                               histogram_conformance_levels(t));
    case Kind::image:
      return histogram_samples(t, n, data_seed, SampleDistribution::image,
                               histogram_conformance_levels(t));
    case Kind::part_out:
      return histogram_samples(t, n, data_seed, SampleDistribution::part_out,
                               histogram_conformance_levels(t));
    case Kind::constant:
      break;
  }
  return constant(t, n, constant_for(t, size_index));
}

struct Stop {};  // max_failures reached

// One call of `runner` on `array`: restores the input of a variant that writes it (after the
// first call) and poisons a scan's or sort's output (and a sort's values) first.
struct Caller {
  Runner& runner;
  DeviceArray& array;
  HostView pristine;
  bool dirty = false;
  std::optional<HostArray> poisoned;
  std::optional<HostArray> poisoned_values;

  void poison_output(const Operation& op) {
    if (op.primitive == Primitive::histogram) {
      // Counts of another shape than the samples: poisoned afresh for each operation's levels.
      DeviceArray* counts = runner.prepare_counts(op.levels);
      counts->write(poison(counts->dtype(), counts->size()).view());
      return;
    }
    if (DeviceArray* out = runner.prepare_output(array.dtype(), array.size())) {
      if (!poisoned) poisoned = poison(array.dtype(), array.size());
      out->write(poisoned->view());
    }
    if (op.primitive == Primitive::sort && op.pairs()) {
      const DType t = op.values == SortValues::u64 ? DType::u64 : DType::u32;
      if (!poisoned_values || poisoned_values->dtype() != t)
        poisoned_values = poison(t, array.size());
      runner.prepare_sorted_values(array.size(), op.values)->write(poisoned_values->view());
    }
  }
  Outcome operator()(const Operation& op) {
    if (dirty && runner.info().writes_input) array.write(pristine);
    dirty = true;
    poison_output(op);
    runner.run(array, op);
    return runner.outcome();
  }
  // `calls` calls back to back (batch mode): the last one's outcome.
  Outcome batch(const Operation& op, int calls) {
    poison_output(op);
    runner.run_batch(array, op, calls);
    return runner.outcome();
  }
};

class Case {
 public:
  Case(Backend& backend, Primitive primitive, std::string_view id, const ConformanceOptions& o,
       ConformanceListener& listener)
      : backend_(backend), runner_(backend, primitive, id), options_(o), listener_(listener) {
    ctx_.backend = std::string(backend.name());
    ctx_.device = backend.device().name;
    ctx_.id = std::string(id);
  }

  ConformanceSummary run() {
    try {
      check_info();
      check_refusals();
      for (DType t : kAllDTypes)
        if (runner_.info().claims(t)) check_dtype(t);
    } catch (const Stop&) {
      summary_.stopped = true;
    }
    return summary_;
  }

 private:
  void check(bool ok, std::string_view what, std::string_view message = {}) {
    ++summary_.checks;
    listener_.check(ok, ctx_, what, message);
    if (!ok && ++summary_.failures >= static_cast<std::uint64_t>(options_.max_failures))
      throw Stop{};
  }

  void check_info() {
    const VariantInfo& info = runner_.info();
    check(info.id == ctx_.id, "the variant's id is the one asked for", info.id);
    const Primitive p = runner_.primitive();
    check(!info.dtypes.empty(), "claims a dtype");
    check(info.ops.empty() == (p == Primitive::sort || p == Primitive::histogram),
          "claims an op exactly when it has one");
    check((info.max_bins > 0) == (p == Primitive::histogram),
          "claims its most bins exactly when it is a histogram");
    check(info.scan_kinds.empty() == (p != Primitive::scan),
          "claims scan kinds exactly when it is a scan");
  }

  // What a variant does not claim is refused with Error(unsupported), never computed wrongly.
  void check_refusals() {
    for (DType t : kAllDTypes)
      for (const Operation& op : all_operations(runner_.primitive())) {
        if (claims(runner_.info(), t, op)) continue;
        set_context(t, 33, "constant", op);
        const HostArray data = constant(t, 33, 1.0);
        auto array = backend_.upload(data.view());
        try {
          (void)runner_.run(*array, op);
          check(false, "refuses what it does not claim", "it accepted the combination");
        } catch (const Error& e) {
          check(e.category() == ErrorCategory::unsupported, "refuses what it does not claim",
                e.what());
        }
      }
  }

  void check_dtype(DType t) {
    // A scan holds two arrays; a sort of pairs two of keys and two of values, u64 at most (as
    // many bytes as 16 / size_of(t) more arrays of keys).
    const Primitive p = runner_.primitive();
    const std::uint64_t arrays = p == Primitive::reduce || p == Primitive::histogram ? 1
                                 : p == Primitive::scan                              ? 2
                                                        : 2 + 16 / size_of(t);
    const auto sizes = test_sizes(p, t, options_);
    for (std::size_t si = 0; si < sizes.size(); ++si) {
      const std::size_t n = sizes[si];
      if (n > runner_.info().max_elements || n > backend_.max_elements(t) / arrays) continue;
      for (Kind kind : kinds_for(runner_.primitive(), n))
        check_data(data_for(kind, t, n, si, options_.seed), kind);
    }
  }

  // One upload per (dtype, n, data); every operation runs on it.
  void check_data(const HostArray& data, Kind kind) {
    const HostView view = data.view();
    auto array = backend_.upload(view);
    set_context(data.dtype(), data.size(), kind_name(kind), {});
    check(array->size() == data.size() && array->dtype() == data.dtype(),
          "upload keeps n and dtype");
    Caller call{runner_, *array, view, false, std::nullopt, std::nullopt};
    std::vector<Operation> operations = claimed_operations(runner_.info(), data.dtype());
    // Past kAllSortKindsUpTo a sort runs three of its operations (ascending keys, descending pairs
    // of u64 values, pairs over a bit range inside digits): every combination has run at the sizes
    // below, whose tiles the large ones only repeat, and a sort's check costs a host sort per
    // operation.
    if (runner_.primitive() == Primitive::sort && data.size() > kAllSortKindsUpTo)
      operations = {operations[0], operations[3], operations[5]};
    // Past kAllHistogramKindsUpTo a histogram runs the operations whose kernels differ (a block's
    // bins in shared memory, a count on the device, copies past shared memory with u64 counts).
    if (runner_.primitive() == Primitive::histogram && data.size() > kAllHistogramKindsUpTo)
      operations = {operations[3], operations[4], operations[6]};
    for (const Operation& op : operations) {
      set_context(data.dtype(), data.size(), kind_name(kind), op);
      check_operation(call, view, kind, op, &op == &operations.front());
    }
    // A variant that does not declare writes_input must leave the caller's data intact.
    if (!runner_.info().writes_input) {
      const std::string changed = bytes_mismatch(array->read(), data);
      check(changed.empty(), "leaves its input unchanged", changed);
    }
  }

  void check_operation(Caller& call, HostView view, Kind kind, const Operation& op, bool first) {
    const Expectation expected(view, op);
    Outcome got;
    try {
      got = call(op);
    } catch (const Error& e) {
      check(false, "runs",
            std::string("threw ") + std::string(to_string(e.category())) + ": " + e.what());
      return;
    }
    const Verdict verdict = expected.check(got);
    check(verdict.ok, "result", verdict.message);
    if (kind == Kind::constant && op.primitive != Primitive::sort &&
        constant_is_exact(view.dtype, op.primitive))
      check_exact(view, op, got, expected);
    const VariantInfo& info = runner_.info();
    // Run-to-run determinism on random data: same input, same device, same bits.
    if (info.deterministic_for(view.dtype) && (kind == Kind::random_full || kind == Kind::uniform ||
                                               (kind == Kind::random_small && view.size > 1000)))
      check(call(op).bitwise_equal(got), "a second run gives the same bits");
    // Batch mode computes what one call does; a variant that writes its input reduces its
    // partials after the first call, so only the others are checked; once per (dtype, n).
    if ((kind == Kind::random_full || kind == Kind::uniform) && !info.writes_input && first) {
      const Outcome batched = call.batch(op, 2);
      const Verdict bv = expected.check(batched);
      check(bv.ok, "the last call of a batch of 2", bv.message);
      if (info.deterministic_for(view.dtype))
        check(batched.bitwise_equal(got), "a batch's last call gives one call's bits");
    }
  }

  // Constant floats are exact in every combination order: so must the result be.
  void check_exact(HostView view, const Operation& op, const Outcome& got,
                   const Expectation& expected) {
    bool exact;
    if (op.primitive == Primitive::reduce) {
      exact = got.value.as_double() == expected.headline()->as_double();
    } else {
      const HostArray want = reference_scan(view, op.op, op.scan);
      exact = got.array.size() == view.size &&
              (view.size == 0 || std::memcmp(got.array.data(), want.data(), want.bytes()) == 0);
    }
    check(exact, "constant data gives the exact result");
  }

  void set_context(DType t, std::uint64_t n, std::string distribution,
                   std::optional<Operation> op) {
    ctx_.dtype = std::string(to_string(t));
    ctx_.n = n;
    ctx_.distribution = std::move(distribution);
    ctx_.operation = op ? op->describe() : std::string();
  }

  Backend& backend_;
  Runner runner_;
  const ConformanceOptions& options_;
  ConformanceListener& listener_;
  CheckContext ctx_;
  ConformanceSummary summary_;
};

}  // namespace

std::string CheckContext::describe() const {
  std::string s = dtype + " n=" + std::to_string(n) + " " + distribution;
  if (!operation.empty()) s += ", " + operation;
  return s;
}

ConformanceSummary run_conformance(Backend& backend, Primitive primitive, std::string_view id,
                                   const ConformanceOptions& options,
                                   ConformanceListener& listener) {
  return Case(backend, primitive, id, options, listener).run();
}

std::vector<Operation> sort_operations(DType t) {
  const std::uint32_t width = static_cast<std::uint32_t>(8 * size_of(t));
  auto sort = [](SortOrder order, SortValues values, BitRange bits) {
    Operation op{.primitive = Primitive::sort};
    op.order = order;
    op.values = values;
    op.bits = bits;
    return op;
  };
  using enum SortValues;
  // Each order of keys alone and of pairs, ascending with u32 values and descending with u64 (a
  // value moves the same in either order, and each order's pairs then build one form: Vulkan's
  // pipelines and OpenCL's programs per order are as many as with one width of values).
  std::vector<Operation> out;
  out.push_back(sort(SortOrder::ascending, none, {}));
  out.push_back(sort(SortOrder::ascending, u32, {}));
  out.push_back(sort(SortOrder::descending, none, {}));
  out.push_back(sort(SortOrder::descending, u64, {}));
  // The bottom digit alone; a range that starts and ends inside digits; the upper half.
  out.push_back(sort(SortOrder::ascending, none, {0, 8}));
  out.push_back(sort(SortOrder::ascending, u32, {3, width - 5}));
  out.push_back(sort(SortOrder::descending, u64, {width / 2, width}));
  return out;
}

HistogramLevels histogram_conformance_levels(DType t) {
  switch (t) {
    case DType::u8:
      return {.bins = 256, .lower = 0, .upper = 256};
    case DType::u16:
      return {.bins = 256, .lower = 0, .upper = 65536};
    case DType::i32:
      return {.bins = 256, .lower = -100000, .upper = 900000};
    case DType::u32:
      return {.bins = 256, .lower = 0, .upper = 0x1p32};
    default:  // a width that no power of two divides: bins' edges round
      return {.bins = 256, .lower = -2.5, .upper = 23.2};
  }
}

std::vector<Operation> histogram_operations(DType t) {
  const HistogramLevels range = histogram_conformance_levels(t);
  auto histogram = [&](std::uint32_t bins, HistogramCounts counts = HistogramCounts::u32) {
    Operation op{.primitive = Primitive::histogram};
    op.levels = range;
    op.levels.bins = bins;
    op.levels.counts = counts;
    return op;
  };
  std::vector<Operation> out;
  for (std::uint32_t bins : {1u, 2u, 255u, 256u, 257u, 4096u}) out.push_back(histogram(bins));
  out.push_back(histogram(65536, HistogramCounts::u64));
  // A range inside the data's, with a lower level that is not the type's least: part of every
  // distribution falls out of it.
  Operation inner = histogram(256);
  const double width = range.upper - range.lower;
  inner.levels.lower = is_integer(t) ? std::floor(range.lower + width / 7) : range.lower + 1.75;
  inner.levels.upper = is_integer(t) ? std::floor(range.upper - width / 5) : range.upper - 3.1;
  out.push_back(inner);
  return out;
}

std::vector<Operation> claimed_operations(const VariantInfo& info, DType t) {
  if (info.primitive == Primitive::histogram) {
    std::vector<Operation> out = histogram_operations(t);
    for (Operation& op : out) op.levels.bins = std::min(op.levels.bins, info.max_bins);
    out[4].count_on_device = info.count_on_device;
    return out;
  }
  if (info.primitive == Primitive::sort) {
    // The pairs over a range inside digits with their count on the device, where the variant
    // takes one: one of the three operations every size runs.
    std::vector<Operation> out = sort_operations(t);
    out[5].count_on_device = info.count_on_device;
    return out;
  }
  std::vector<Operation> out;
  for (Op op : info.ops) {
    if (info.primitive == Primitive::reduce)
      out.push_back({Primitive::reduce, op});
    else
      for (ScanKind k : info.scan_kinds) out.push_back({Primitive::scan, op, k});
  }
  return out;
}

std::vector<Operation> all_operations(Primitive p) {
  if (p == Primitive::sort || p == Primitive::histogram) return {Operation{.primitive = p}};
  std::vector<Operation> out;
  for (Op op : kAllOps) {
    if (p == Primitive::reduce)
      out.push_back({p, op});
    else
      for (ScanKind k : kAllScanKinds) out.push_back({p, op, k});
  }
  return out;
}

bool claims(const VariantInfo& info, DType t, const Operation& op) {
  if (op.primitive == Primitive::sort || op.primitive == Primitive::histogram)
    return info.claims(t);
  return info.claims(t) && info.claims(op.op) &&
         (op.primitive == Primitive::reduce || info.claims(op.scan));
}

HostArray poison(DType t, std::size_t n) {
  HostArray a(t, n);
  if (a.bytes()) std::memset(a.data(), 0xA5, a.bytes());
  return a;
}

std::string bytes_mismatch(const HostArray& a, const HostArray& b) {
  if (a.size() != b.size() || a.dtype() != b.dtype()) return "size or dtype changed";
  if (a.bytes() == 0 || std::memcmp(a.data(), b.data(), a.bytes()) == 0) return {};
  return "input changed by a variant that does not declare writes_input";
}

}  // namespace xr
