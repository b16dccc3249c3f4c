// `xreduce inspect`: the selection of compare (backends, devices, variants, operations, dtypes,
// sizes: compare_plan), then for each point the variant's own inspect() on arrays of that size,
// each pass's occupancy from its backend's per-SM limits, and the report in one of four formats.
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "compare_output.hpp"
#include "compare_plan.hpp"
#include "report/inspect.hpp"
#include "xreduce/error.hpp"

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
  c.ops = o.ops;
  c.dtypes = o.dtypes;
  c.n = o.n;
  c.device = o.device;
  c.format = o.format;
  c.out = o.out;
  return c;
}

// The limits occupancy is computed against: the backend's own, else (Vulkan) those of the CUDA
// device selected, when it is the same GPU by UUID (CUDA's selection is left as it is), else none
// and why.
LimitsSource limits_for(const Registry& registry, Backend& b) {
  LimitsSource s{std::string(b.name()), b.sm_limits(), ""};
  if (s.limits) return s.from = "the " + std::string(b.name()) + " runtime's device attributes", s;
  if (b.name() == "cpu") return s.from = "none: the CPU has no multiprocessors", s;
  const std::string uuid = b.device().uuid;
  Backend* cuda = registry.find("cuda");
  if (!cuda || !cuda->available())
    return s.from = "unknown: no CUDA device to borrow the limits of (this API reports none)", s;
  if (uuid.empty() || cuda->device().uuid != uuid)
    return s.from = "unknown: the CUDA device selected is another GPU (UUIDs differ)", s;
  s.limits = cuda->sm_limits();
  s.from = "CUDA's limits of the same GPU (UUID " + uuid + ")";
  return s;
}

// One point: the variant's inspect() on arrays of n elements, or the reason it cannot run.
InspectRow inspect_point(Backend& b, const VariantInfo& v, const Operation& op, DType t,
                         std::uint64_t n, const LimitsSource& limits) {
  InspectRow row{std::string(b.name()), b.device().name, v.id, op, t, n, {}, {}};
  if (std::string why = b.unsupported_reason(v.primitive, v.id); !why.empty())
    return row.note = "cannot run here: " + why, row;
  std::unique_ptr<DeviceArray> input = b.allocate(t, n);
  CompiledCall call;
  if (v.primitive == Primitive::reduce) {
    call = b.make_reducer(v.id)->inspect(*input, op.op);
  } else {
    std::unique_ptr<DeviceArray> output = b.allocate(t, n);
    call = b.make_scanner(v.id)->inspect(*input, *output, op.op, op.scan);
  }
  row.note = call.note;
  for (CompiledPass& p : call.passes) {
    std::optional<Occupancy> o;
    if (limits.limits) o = occupancy(*limits.limits, p);
    row.passes.push_back({std::move(p), o});
  }
  return row;
}

bool claims(const VariantInfo& v, const Operation& op, DType t) {
  return v.primitive == op.primitive && v.claims(t) && v.claims(op.op) &&
         (op.primitive == Primitive::reduce || v.claims(op.scan));
}

InspectReport collect(const Registry& registry, const ComparePlan& plan) {
  InspectReport report;
  for (const PlannedBackend& pb : plan.backends) {
    report.limits.push_back(limits_for(registry, *pb.backend));
    for (const VariantInfo& v : pb.variants)
      for (const Operation& op : plan.operations)
        for (DType t : plan.dtypes)
          for (std::uint64_t n : plan.ns)
            if (claims(v, op, t))
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
  const WithKernelDefaults<CompareOptions> selection =
      with_kernel_defaults(add_user_kernels(registry, o.kernels), selection_of(registry, o));
  const ComparePlan plan = plan_compare(registry, selection.options);
  const std::string out = render(collect(registry, plan), o, !o.out.empty());
  if (o.out.empty())
    std::fputs(out.c_str(), stdout);
  else
    write_file_atomically(o.out, out);
  return 0;
}

}  // namespace xr::app
