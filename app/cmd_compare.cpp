// `xreduce compare`: the variant ladders of several backends over primitives, sizes, dtypes and
// ops, in stages that reduce and scan go through alike:
//   plan_compare     every flag checked, backends, devices and variants chosen, --merge files
//                    parsed, capacity checked (compare_plan.cpp)
//   start_report     the report's header and each backend's measured peaks (compare_devices.cpp)
//   measure_points   data generated once per (dtype, n) and uploaded once per backend; every
//                    variant measured and checked against one expectation per operation
//                    (compare_measure.cpp)
//   fold + analyze   the merged reports folded in, the derived numbers computed once
//                    (report/merge.cpp, report/analysis.cpp), and with --baseline the diff
//                    against it (report/baseline.cpp)
//   write_outputs    the renderings written whole (compare_output.cpp); --fail-above's rows
//                    named (baseline_gate.cpp)
#include <optional>

#include "baseline_gate.hpp"
#include "commands.hpp"
#include "compare_devices.hpp"
#include "compare_measure.hpp"
#include "compare_output.hpp"
#include "compare_plan.hpp"
#include "progress.hpp"
#include "report/analysis.hpp"
#include "report/baseline.hpp"
#include "report/merge.hpp"
#include "xreduce/error.hpp"

namespace xr::app {

namespace {

// --baseline: this run against the saved one, row by row.
std::optional<BaselineDiff> diff_with_baseline(const ComparePlan& plan, const CompareReport& r,
                                               const CompareOptions& o) {
  if (!plan.baseline) return std::nullopt;
  const CompareReport& old = plan.baseline->data;
  return diff_reports(old, {plan.baseline->path, old.version, old.commit, old.command}, r,
                      {"", r.version, r.commit, r.command}, "--baseline", {o.fail_above});
}

}  // namespace

// The --kernel files' defaults: --primitive (reduce, or the kernels' primitives; one given must
// hold every kernel's), and --dtype, --op and --scan where not given (their shared first claims,
// which the header then states).
WithKernelDefaults<CompareOptions> with_kernel_defaults(const std::vector<UserKernel>& kernels,
                                                        CompareOptions o) {
  if (o.primitives.empty()) {
    bool reduce = kernels.empty(), scan = false;
    for (const UserKernel& k : kernels) (k.primitive == Primitive::scan ? scan : reduce) = true;
    o.primitives = reduce && scan ? "all" : scan ? "scan" : "reduce";
  } else {
    const std::vector<Primitive> asked = parse_primitive_list(o.primitives);
    for (const UserKernel& k : kernels) check_kernel_primitive(k, asked, o.primitives);
  }
  const ClaimDefaults d =
      claim_defaults(kernels, {.dtype = bool(o.dtypes), .op = bool(o.ops), .kind = bool(o.scans)});
  if (d.dtype) o.dtypes = std::string(to_string(*d.dtype));
  if (d.op) o.ops = std::string(to_string(*d.op));
  if (d.kind) o.scans = std::string(to_string(*d.kind));
  return {std::move(o), d.note};
}

int run_compare(const Registry& registry, const CompareOptions& options) {
  const WithKernelDefaults<CompareOptions> defaults =
      with_kernel_defaults(add_user_kernels(registry, options.kernels), options);
  const CompareOptions& o = defaults.options;
  const ComparePlan plan = plan_compare(registry, o);
  Progress progress(!o.quiet && is_terminal(stderr), total_weight(plan));
  CompareReport report = start_report(plan, o, progress);
  if (!defaults.note.empty()) report.notes.push_back(defaults.note);
  const bool failed = measure_points(plan, o, report, progress);
  reprobe_peaks(plan, report, progress);
  progress.clear();
  for (const auto& merged : plan.merges) fold_merged(report, merged);
  const Analysis analysis = analyze(report);
  const std::optional<BaselineDiff> diff = diff_with_baseline(plan, report, o);
  write_outputs({report, analysis, diff ? &*diff : nullptr}, o, plan.outputs);
  const bool over_limit = diff && report_over_limit(*diff);
  return failed || over_limit ? exit_code(ErrorCategory::check_failed) : 0;
}

}  // namespace xr::app
