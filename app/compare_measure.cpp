#include "compare_measure.hpp"

#include <algorithm>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "inspect_call.hpp"
#include "report/compiled.hpp"
#include "xreduce/check.hpp"
#include "xreduce/error.hpp"
#include "xreduce/runner.hpp"
#include "xreduce/size.hpp"

namespace xr::app {
namespace {

// A point's share of the work: its elements plus what every point costs whatever its size.
double point_weight(std::uint64_t n) {
  return static_cast<double>(n) + 1e6;
}

// What one backend keeps across the variants of one (dtype, n): the uploaded input.
struct PointInput {
  const HostArray& data;
  std::unique_ptr<DeviceArray> array;  // uploaded on first use
};

// One row: `variant` of `b` on the point's data, checked against `expected`. A combination the
// variant or device cannot run becomes an "unsupported" row with the reason.
ResultRow measure_row(Backend& b, const VariantInfo& v, std::unique_ptr<Runner>& runner,
                      PointInput& input, const Operation& operation,
                      std::optional<Expectation>& expected, const MeasureOptions& measure,
                      bool end_to_end) {
  const HostArray& data = input.data;
  ResultRow row;
  row.backend = std::string(b.name());
  row.variant = v.id;
  row.operation = operation;
  row.dtype = data.dtype();
  if (operation.primitive == Primitive::sort)
    row.operation.bits = canonical_bits(operation.bits, row.dtype);
  row.n = data.size();
  row.mode = measure.mode;
  try {
    if (std::string gap = unclaimed(v, row.dtype, operation); !gap.empty())
      throw Error(ErrorCategory::unsupported, "no " + gap);
    if (std::string why = b.unsupported_reason(v.primitive, v.id); !why.empty())
      throw Error(ErrorCategory::unsupported, why);
    if (row.n > v.max_elements)
      throw Error(ErrorCategory::unsupported,
                  fmt::format("accepts at most {} elements", format_count(v.max_elements)));
    if (!runner) runner = std::make_unique<Runner>(b, v.primitive, v.id);
    if (!expected) expected.emplace(data.view(), operation);
    Measurement m;
    if (end_to_end) {
      m = measure_end_to_end(b, *runner, data.view(), operation, measure);
    } else {
      if (!input.array) input.array = b.upload(data.view());
      m = xr::measure(b, *runner, *input.array, data.view(), operation, measure);
    }
    row.batch_calls = m.batch_calls;
    const xr::Verdict verdict = expected->check(m.result);
    const bool repeat_failed = !m.deterministic && v.deterministic_for(row.dtype);
    row.status = verdict.ok && !repeat_failed ? RowStatus::ok : RowStatus::failed;
    row.reason = verdict.message;
    if (repeat_failed)
      row.reason +=
          std::string(row.reason.empty() ? "" : "; ") + "repetitions returned different results";
    row.ms = m.device_ms;
    row.host_ms = m.host_ms;
    row.timing = end_to_end ? "end-to-end" : m.device_timer ? "device" : "host";
    const auto got = m.result.headline(operation.primitive);
    const auto want = expected->headline();
    row.result = got ? got->to_string() : "";
    row.reference = want ? want->to_string() : "";
    row.diagnostics = runner->diagnostics();
    if (m.clock.measured) {
      row.clock_min_mhz = m.clock.mhz.min;
      row.clock_median_mhz = m.clock.mhz.median;
      row.clock_retaken = m.clock.retaken;
      row.throttled = m.clock.throttled;
    }
  } catch (const Error& e) {
    if (e.category() != ErrorCategory::unsupported) throw;
    row.status = RowStatus::unsupported;
    row.reason = e.what();
  }
  return row;
}

// The compiled facts of the call just measured, read once per variant and point after its rows,
// outside every timed interval and with no call of their own: Vulkan reads the pipelines of the
// program it timed, OpenCL the kernels it enqueued, CUDA captures a copy of the plan it ran,
// which runs nothing (compiled_call.hpp).
RowCompiled compiled_facts(Runner& runner, PointInput& input, const Operation& operation,
                           const LimitsSource& limits) {
  RowCompiled c;
  try {
    CompiledCall call = runner.inspect(*input.array, operation);
    c.note = call.note;
    for (const InspectedPass& p : with_occupancy(std::move(call), limits))
      c.passes.push_back(facts_of(p));
  } catch (const Error& e) {
    c.note = std::string("not read: ") + e.what();
  }
  // A variant that writes its input leaves the point's data to the next variant restored, as the
  // harness does after its samples.
  if (runner.info().writes_input) input.array->write(input.data.view());
  return c;
}

// Gives the rows from `first` on that were measured on the device the call's compiled facts.
void add_compiled(std::vector<ResultRow>& rows, std::size_t first, Runner* runner,
                  PointInput& input, const Operation& operation, const LimitsSource& limits) {
  if (!runner || !input.array) return;  // unsupported everywhere, or end to end (no device array)
  std::optional<RowCompiled> facts;
  for (std::size_t i = first; i < rows.size(); ++i)
    if (rows[i].measured()) {
      if (!facts) facts = compiled_facts(*runner, input, operation, limits);
      rows[i].compiled = facts;
    }
}

}  // namespace

namespace {

// The plan's operations that share one input: every operation but a histogram's shares the
// elements' data; a histogram's samples are drawn over its levels, one input per levels.
std::vector<std::vector<std::size_t>> data_groups(const ComparePlan& plan) {
  std::vector<std::vector<std::size_t>> groups;
  std::vector<std::optional<HistogramLevels>> keys;
  for (std::size_t k = 0; k < plan.operations.size(); ++k) {
    const Operation& op = plan.operations[k];
    const std::optional<HistogramLevels> key =
        op.primitive == Primitive::histogram ? std::optional(op.levels) : std::nullopt;
    const auto at = std::find(keys.begin(), keys.end(), key);
    if (at != keys.end()) {
      groups[static_cast<std::size_t>(at - keys.begin())].push_back(k);
    } else {
      keys.push_back(key);
      groups.push_back({k});
    }
  }
  return groups;
}

// The rows of every backend's variants over one input, for the operations of `group`.
bool measure_group(const ComparePlan& plan, const CompareOptions& o, const HostArray& data,
                   const std::vector<std::size_t>& group, CompareReport& report,
                   Progress& progress) {
  bool failed = false;
  // One expectation per operation, made when a variant first needs it and shared by all.
  std::vector<std::optional<Expectation>> expected(plan.operations.size());
  for (const auto& p : plan.backends) {
    Backend& b = *p.backend;
    const bool end_to_end = o.include_transfer && b.name() != "cpu";
    PointInput input{data, nullptr};
    for (const auto& v : p.variants) {
      std::unique_ptr<Runner> runner;  // one per variant, reused by its operations
      for (std::size_t k : group) {
        const Operation& operation = plan.operations[k];
        if (operation.primitive != v.primitive) continue;
        const std::size_t first = report.rows.size();
        for (TimingMode mode : plan.modes) {
          MeasureOptions measure = plan.measure;
          measure.mode = mode;
          progress.note(fmt::format("{} {} {} {} n={} {}", b.name(), v.id, operation.describe(),
                                    to_string(data.dtype()), format_count(data.size()),
                                    to_string(mode)));
          ResultRow row =
              measure_row(b, v, runner, input, operation, expected[k], measure, end_to_end);
          failed |= row.status == RowStatus::failed;
          report.rows.push_back(std::move(row));
          progress.advance(point_weight(data.size()));
        }
        add_compiled(report.rows, first, runner.get(), input, operation, p.limits);
      }
    }
  }
  return failed;
}

}  // namespace

bool measure_points(const ComparePlan& plan, const CompareOptions& o, CompareReport& report,
                    Progress& progress) {
  bool failed = false;
  const auto groups = data_groups(plan);
  for (DType dtype : plan.dtypes)
    for (std::uint64_t n : plan.ns)
      for (const auto& group : groups) {
        const Operation& first = plan.operations[group.front()];
        // A dtype no histogram takes has no samples to draw: its rows say the variants do not
        // claim it, before they would read the (unwritten) array.
        const bool samples =
            first.primitive != Primitive::histogram ||
            std::ranges::find(kHistogramSampleDTypes, dtype) != std::end(kHistogramSampleDTypes);
        progress.note(fmt::format("generating {} {}", format_count(n), to_string(dtype)));
        const HostArray data =
            samples ? generate_input(dtype, static_cast<std::size_t>(n), o.seed,
                                     parse_dist_arg(plan.dist, first.primitive), first)
                    : HostArray(dtype, static_cast<std::size_t>(n));
        failed |= measure_group(plan, o, data, group, report, progress);
      }
  return failed;
}

double total_weight(const ComparePlan& plan) {
  double per_operation = 0;
  for (std::uint64_t n : plan.ns) per_operation += point_weight(n);
  per_operation *= static_cast<double>(plan.dtypes.size());
  double total = 0;
  for (const auto& p : plan.backends)
    for (const auto& v : p.variants)
      for (const auto& op : plan.operations)
        if (op.primitive == v.primitive) total += per_operation;
  return total * static_cast<double>(plan.modes.size());
}

}  // namespace xr::app
