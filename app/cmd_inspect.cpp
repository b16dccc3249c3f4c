// `xreduce inspect`: the selection of compare (backends, devices, variants, operations, dtypes,
// sizes: compare_plan), then for each point the variant's own inspect() on arrays of that size,
// each pass's occupancy from its backend's per-SM limits, and the report in one of four formats.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "compare_output.hpp"
#include "compare_plan.hpp"
#include "inspect_call.hpp"
#include "report/inspect.hpp"
#include "xreduce/conformance.hpp"
#include "xreduce/error.hpp"
#include "xreduce/runner.hpp"

namespace xr::app {
namespace {

// Every available backend but the CPU's, which compiles nothing for a device.
std::string gpu_backends(const Registry& registry) {
  std::string out;
  for (const auto& b : registry.backends())
    if (b->available() && b->name() != "cpu")
      out += (out.empty() ? "" : ",") + std::string(b->name());
  if (out.empty())
    throw Error(ErrorCategory::unavailable,
                "no GPU backend is available to inspect (see xreduce list)");
  return out;
}

CompareOptions selection_of(const Registry& registry, const InspectOptions& o) {
  CompareOptions c;
  c.kernels = o.kernels;
  c.backends = o.backends.empty() ? gpu_backends(registry) : o.backends;
  c.variants = o.variants;
  c.primitives = o.primitives.empty() && o.kernels.files.empty() ? "all" : o.primitives;
  c.scans = o.scans;
  c.orders = o.orders;
  c.values = o.values;
  c.bits = o.bits;
  c.counts = o.counts;
  c.histogram = o.histogram;
  c.ops = o.ops;
  c.dtypes = o.dtypes;
  c.n = o.n;
  c.device = o.device;
  c.format = o.format;
  c.out = o.out;
  return c;
}

// One point: the variant's inspect() on arrays of n elements, or the reason it cannot run.
InspectRow inspect_point(Backend& b, const VariantInfo& v, const Operation& op, DType t,
                         std::uint64_t n, const LimitsSource& limits) {
  InspectRow row{std::string(b.name()), b.device().name, v.id, op, t, n, {}, {}, {}};
  if (std::string why = b.unsupported_reason(v.primitive, v.id); !why.empty())
    return row.note = "cannot run here: " + why, row;
  std::unique_ptr<DeviceArray> input = b.allocate(t, n);
  Runner runner(b, v.primitive, v.id);
  CompiledCall call = runner.inspect(*input, op);
  row.note = call.note;
  row.tuning = call.tuning;
  row.passes = with_occupancy(std::move(call), limits);
  return row;
}

InspectReport collect(const Registry& registry, const ComparePlan& plan) {
  InspectReport report;
  for (const PlannedBackend& pb : plan.backends) {
    report.limits.push_back(limits_for(*pb.backend, registry.find("cuda")));
    for (const VariantInfo& v : pb.variants)
      for (const Operation& op : plan.operations)
        for (DType t : plan.dtypes)
          for (std::uint64_t n : plan.ns)
            if (v.primitive == op.primitive && claims(v, t, op))
              report.rows.push_back(inspect_point(*pb.backend, v, op, t, n, report.limits.back()));
  }
  return report;
}

std::string render(const InspectReport& r, const InspectOptions& o, bool to_file) {
  if (o.format == "md") return inspect_markdown(r);
  if (o.format == "csv") return inspect_csv(r);
  if (o.format == "json") return inspect_json(r);
  return inspect_text(r, style_for(stdout, to_file).enabled);
}

}  // namespace

int run_inspect(const Registry& registry, const InspectOptions& o) {
  check_output_format(o.format, "inspect");
  std::vector<NamedInput> inputs;  // --out may be none of the --kernel files it reads
  for (const std::string& k : o.kernels.files) inputs.push_back({"--kernel", k});
  const OutputTargets targets = resolve_output_files({o.out, "", "", true}, inputs);
  const WithKernelDefaults<CompareOptions> selection =
      with_kernel_defaults(add_user_kernels(registry, o.kernels), selection_of(registry, o));
  const ComparePlan plan = plan_compare(registry, selection.options);
  const std::string out = render(collect(registry, plan), o, !o.out.empty());
  write_outputs(out, {}, targets);
  return 0;
}

}  // namespace xr::app
