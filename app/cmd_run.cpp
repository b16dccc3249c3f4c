// `xreduce run`: one variant of either primitive on one backend, checked against the host
// reference and timed; a scan's output can be saved as .npy.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "knobs_json.hpp"

#include "commands.hpp"
#include "xreduce/check.hpp"
#include "xreduce/error.hpp"
#include "xreduce/generate.hpp"
#include "xreduce/io.hpp"
#include "xreduce/output_file.hpp"
#include "xreduce/printable.hpp"
#include "xreduce/runner.hpp"
#include "xreduce/size.hpp"

namespace xr::app {
namespace {

using json = nlohmann::ordered_json;

// A Value as a JSON number: integers exact, floats as the double of the float; a float JSON has
// no number for as the string "nan", "inf" or "-inf" (null is no value: n = 0).
json value_json(const std::optional<Value>& v) {
  if (!v) return nullptr;
  return visit_dtype(v->dtype(), [&](auto tag) -> json {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      const double d = static_cast<double>(v->get<T>());
      if (std::isnan(d)) return "nan";
      if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
      return d;
    } else {
      return v->get<T>();
    }
  });
}

// A point's SM clock as JSON: min and median in MHz, null where none was measured.
json clock_json(const ClockStats& c) {
  if (!c.measured) return nullptr;
  return {{"min", c.mhz.min}, {"median", c.mhz.median}};
}

std::string value_text(const std::optional<Value>& v) {
  return v ? v->to_string() : "(empty)";
}

// A sort's flags: --order, --values, --bits, --values-output; --op and --scan have no meaning.
void parse_sort_flags(const RunOptions& o, Operation& op) {
  check_op_applies(o.op.has_value(), {Primitive::sort});
  if (o.scan) throw Error(ErrorCategory::usage, "--scan applies to --primitive scan, not sort");
  if (o.order) op.order = parse_sort_order_arg(*o.order);
  if (o.values) op.values = parse_values_arg(*o.values);
  if (o.bits) op.bits = parse_bits_arg(*o.bits);
  if (o.values_output && !op.pairs())
    throw Error(ErrorCategory::usage,
                "--values-output needs --values u32 or u64 (a sort of pairs)");
}

// A histogram's flags: --bins, --range, --counters; --op, --scan and the sort's have no meaning.
void parse_histogram_run_flags(const RunOptions& o, Operation& op) {
  check_op_applies(o.op.has_value(), {Primitive::histogram});
  if (o.scan)
    throw Error(ErrorCategory::usage, "--scan applies to --primitive scan, not histogram");
  if (o.order || o.values || o.bits || o.values_output)
    throw Error(ErrorCategory::usage,
                "--order, --values, --bits and --values-output apply to --primitive sort");
  op.levels = parse_histogram_flags(o.histogram);
}

// The operation the flags ask for; --scan and --output only make sense for scan, --order,
// --values, --bits and --values-output for sort, --bins, --range and --counters for histogram
// (--output then saves its counts).
Operation parse_operation(const RunOptions& o) {
  Operation op;
  op.primitive = parse_primitive_arg(o.primitive.value_or("reduce"));
  if (op.primitive == Primitive::histogram) {
    parse_histogram_run_flags(o, op);
    return op;
  }
  refuse_histogram_flags(o.histogram);
  if (op.primitive == Primitive::sort) {
    parse_sort_flags(o, op);
    return op;
  }
  if (o.order || o.values || o.bits || o.values_output)
    throw Error(ErrorCategory::usage,
                "--order, --values, --bits and --values-output apply to --primitive sort");
  op.op = parse_op_arg(o.op.value_or("sum"));
  if (op.primitive == Primitive::reduce) {
    if (o.scan) throw Error(ErrorCategory::usage, "--scan applies to --primitive scan, not reduce");
    if (o.output)
      throw Error(ErrorCategory::usage,
                  "--output saves a scan's output array; a reduce has one value, which run prints");
  } else if (o.scan) {
    op.scan = parse_scan_kind_arg(*o.scan);
  }
  return op;
}

// Everything the user typed, checked before a device is touched.
struct RunRequest {
  std::string defaults;  // what was taken from the --kernel's claims, in words (ClaimDefaults)
  Operation operation;
  std::optional<DType> dtype;
  DataDistribution dist;
  MeasureOptions measure;
  std::optional<std::uint64_t> n;
  std::optional<OutputTarget> output, values_output;  // --output, --values-output
};

// An array's output, named .npy or .bin (its form), resolved before any work.
std::optional<OutputTarget> array_output(const std::optional<std::string>& file,
                                         std::string_view flag) {
  if (!file) return std::nullopt;
  const auto ext = std::filesystem::path(*file).extension();
  if (ext != ".npy" && ext != ".bin")
    throw Error(ErrorCategory::usage,
                fmt::format("{} '{}': expected a .npy or .bin file name", flag, printable(*file)));
  return OutputTarget::resolve(flag, *file);
}

// --output and --values-output: two files, neither of them the --input or a --kernel file.
void resolve_outputs(const RunOptions& o, RunRequest& r) {
  r.output = array_output(o.output, "--output");
  r.values_output = array_output(o.values_output, "--values-output");
  std::vector<OutputTarget> outputs;
  for (const auto* t : {&r.output, &r.values_output})
    if (*t) outputs.push_back(**t);
  std::vector<NamedInput> inputs;
  if (o.input) inputs.push_back({"--input", *o.input});
  for (const std::string& k : o.kernels.files) inputs.push_back({"--kernel", k});
  check_outputs(outputs, inputs);
}

RunRequest parse_request(const RunOptions& o) {
  if (o.format != "text" && o.format != "json")
    throw Error(ErrorCategory::usage,
                fmt::format("unknown --format '{}' for run (expected text or json)", o.format));
  RunRequest r;
  r.operation = parse_operation(o);
  if (o.dtype) r.dtype = parse_dtype_arg(*o.dtype);
  r.dist = parse_dist_arg(o.dist, r.operation.primitive);
  if (parse_modes(o.stats.mode).size() != 1)
    throw Error(ErrorCategory::usage,
                fmt::format("run measures one --mode, cold or batch, not '{}'", o.stats.mode));
  r.measure = measure_options(o.stats);
  if (!o.n && !o.input) throw Error(ErrorCategory::usage, "run needs --n N or --input FILE");
  if (o.n) r.n = parse_count(*o.n);
  resolve_outputs(o, r);
  return r;
}

// The input: read (its dtype wins, and must agree with --dtype) or generated, once the variant
// and the device are known to take it.
HostArray prepare_input(Backend& backend, const VariantInfo& variant, const RunOptions& o,
                        const RunRequest& r) {
  HostArray data;
  const Primitive primitive = r.operation.primitive;
  // A histogram's samples are bytes unless told otherwise: 8-bit pixels, 256 bins over 0:256.
  DType dtype = r.dtype.value_or(primitive == Primitive::histogram ? DType::u8 : DType::i32);
  if (o.input) {
    data = read_input(*o.input, r.dtype);
    dtype = data.dtype();
  }
  if (o.output && dtype == DType::bf16 && std::filesystem::path(*o.output).extension() == ".npy")
    throw Error(ErrorCategory::usage,
                fmt::format("--output '{}': bf16 has no NumPy type; use a .bin file name",
                            printable(*o.output)));
  check_claims(backend, variant, dtype, r.operation);
  if (std::string why = backend.unsupported_reason(primitive, variant.id); !why.empty())
    throw Error(ErrorCategory::unsupported,
                fmt::format("{} variant '{}' is unsupported on {}: {}", backend.name(), variant.id,
                            backend.device().name, why));
  const std::uint64_t n = o.input ? data.size() : *r.n;
  if (n > variant.max_elements)
    throw Error(ErrorCategory::unsupported,
                fmt::format("{} variant '{}' accepts at most {} elements, not {}", backend.name(),
                            variant.id, format_count(variant.max_elements), format_count(n)));
  if (primitive == Primitive::sort) check_sort_bits(r.operation.bits, dtype);
  if (primitive == Primitive::histogram) check_histogram_levels(r.operation.levels, dtype);
  // Host: the input unless read already, plus a scan's or sort's first and last outputs read
  // back (a sort's check holds its order too); a histogram's counts are small beside it.
  const int outputs = primitive == Primitive::reduce || primitive == Primitive::histogram ? 0 : 2;
  const int host_copies = (o.input ? 0 : 1) + outputs + (primitive == Primitive::sort ? 2 : 0);
  check_capacity(backend, dtype, n, host_copies,
                 device_arrays(primitive, dtype, r.operation.values));
  if (!o.input)
    data = generate_input(dtype, static_cast<std::size_t>(n), o.seed, r.dist, r.operation);
  return data;
}

// What one run found, computed once and printed as text or JSON.
struct RunResult {
  Measurement m;
  Verdict verdict;
  bool must_repeat = false;  // the variant's repetitions must agree bitwise
  bool ok = false;
  std::string problem;
  DeviceInfo device;
  double gbps = 0;
  double gkeys_per_s = 0;  // a sort's keys per second, in 10^9
  std::optional<Value> got, want;
  std::string diagnostics;
  std::vector<std::pair<std::string, std::string>> knobs;  // Backend::knobs
  std::string clock_unmeasured;  // why no clock was measured, where none was
};

RunResult measure_run(Backend& backend, const VariantInfo& variant, const HostArray& data,
                      const RunRequest& r) {
  const Operation& operation = r.operation;
  const Expectation expected(data.view(), operation);
  auto device_array = backend.upload(data.view());
  Runner runner(backend, operation.primitive, variant.id);
  RunResult res;
  res.m = measure(backend, runner, *device_array, data.view(), operation, r.measure);
  res.verdict = expected.check(res.m.result);
  res.must_repeat = variant.deterministic_for(data.dtype());
  res.ok = res.verdict.ok && (res.m.deterministic || !res.must_repeat);
  res.problem = res.verdict.message;
  if (!res.m.deterministic && res.must_repeat)
    res.problem += std::string(res.problem.empty() ? "" : "; ") +
                   "repetitions returned different results (not deterministic)";
  res.device = backend.device();
  res.gbps = gbps(bytes_moved(operation, data.size(), data.dtype()), res.m.device_ms.median);
  if (res.m.device_ms.median > 0)
    res.gkeys_per_s = static_cast<double>(data.size()) / (res.m.device_ms.median * 1e6);
  res.got = res.m.result.headline(operation.primitive);
  res.want = expected.headline();
  res.diagnostics = runner.diagnostics();
  res.knobs = printable_knobs(backend);
  if (!res.m.clock.measured) res.clock_unmeasured = backend.clock_unmeasured_reason();
  return res;
}

std::string run_json(const Backend& backend, const VariantInfo& variant, const RunOptions& o,
                     const RunRequest& r, const HostArray& data, const RunResult& res) {
  const Operation& op = r.operation;
  const Measurement& m = res.m;
  const bool sort = op.primitive == Primitive::sort;
  const bool histogram = op.primitive == Primitive::histogram;
  json j = {{"backend", backend.name()},
            {"variant", variant.id},
            {"primitive", to_string(op.primitive)},
            {"scan", op.primitive == Primitive::scan ? json(to_string(op.scan)) : json()},
            {"order", sort ? json(to_string(op.order)) : json()},
            {"values", sort ? json(to_string(op.values)) : json()},
            {"bits", sort ? json(to_string(op.bits, data.dtype())) : json()},
            {"gkeys_per_s", sort ? json(res.gkeys_per_s) : json()},
            {"bins", histogram ? json(op.levels.bins) : json()},
            {"range", histogram ? json(range_text(op.levels)) : json()},
            {"counters", histogram ? json(to_string(op.levels.counts)) : json()},
            {"device", res.device.name},
            {"device_index", res.device.index},
            {"device_uuid", res.device.uuid},
            {"op", sort || histogram ? json() : json(to_string(op.op))},
            {"dtype", to_string(data.dtype())},
            {"n", data.size()},
            {"input", o.input ? json(*o.input) : json(nullptr)},
            {"seed", o.input ? json(nullptr) : json(o.seed)},
            {"dist", o.input ? json(nullptr) : json(dist_name(r.dist, op.primitive))},
            {"result", value_json(res.got)},
            {"reference", value_json(res.want)},
            {"output", o.output ? json(*o.output) : json(nullptr)},
            {"ok", res.ok},
            {"deterministic", m.deterministic},
            {"error", res.verdict.error},
            {"bound", res.verdict.bound},
            {"message", res.problem},
            {"device_ms", m.device_ms.median},
            {"min_ms", m.device_ms.min},
            {"max_ms", m.device_ms.max},
            {"host_ms", m.host_ms.median},
            {"reps", m.device_ms.count},
            {"rel_spread", m.device_ms.rel_spread},
            {"device_timer", m.device_timer},
            {"gbps", res.gbps},
            {"cache", r.measure.flush_cache && m.mode == TimingMode::cold ? "cold" : "hot"},
            {"mode", to_string(m.mode)},
            {"batch_calls", m.batch_calls ? json(m.batch_calls) : json(nullptr)},
            {"diagnostics", res.diagnostics},
            {"knobs", knobs_json(res.knobs)},
            {"kernel_defaults", r.defaults.empty() ? json(nullptr) : json(r.defaults)},
            {"clock_mhz", clock_json(m.clock)},
            {"reference_clock_mhz", m.clock.measured ? json(m.clock.reference_mhz) : json(nullptr)},
            {"clock_retaken", m.clock.retaken},
            {"throttled", m.clock.throttled},
            {"clock_note", res.clock_unmeasured}};
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string run_text(const Backend& backend, const VariantInfo& variant, const RunOptions& o,
                     const RunRequest& r, const HostArray& data, const RunResult& res) {
  const Style st = style_for(stdout, false);
  const Measurement& m = res.m;
  const std::uint64_t n = data.size();
  const std::string input = o.input ? fmt::format("{} ({} elements of {})", printable(*o.input),
                                                  format_n(n), to_string(data.dtype()))
                                    : fmt::format("n = {} {}, seed {}, {} distribution",
                                                  format_n(n), to_string(data.dtype()), o.seed,
                                                  dist_name(r.dist, r.operation.primitive));
  const std::string verdict_text =
      res.ok ? st.good("ok") : st.bad("FAILED: " + one_line(res.problem));
  const bool scan = r.operation.primitive == Primitive::scan;
  const bool sort = r.operation.primitive == Primitive::sort;
  const bool histogram = r.operation.primitive == Primitive::histogram;
  std::string out;
  out += fmt::format("backend    {} (device {}: {})\n", backend.name(), res.device.index,
                     res.device.name);
  for (const auto& [name, value] : res.knobs) out += fmt::format("knob       {}={}\n", name, value);
  if (!r.defaults.empty()) out += fmt::format("defaults   {}\n", r.defaults);
  out += fmt::format("variant    {} · {}\n", variant.id, variant.mirrors);
  out += fmt::format("input      {}\n", input);
  out += fmt::format("operation  {}\n", r.operation.describe());
  out += fmt::format("{}{}\n",
                     scan        ? "last       "
                     : sort      ? "first      "
                     : histogram ? "counted    "
                                 : "result     ",
                     value_text(res.got));
  out += fmt::format("reference  {}  {}\n", value_text(res.want), verdict_text);
  if (sort)
    out += fmt::format("checked    every element, bitwise, against a stable sort{}\n",
                       r.operation.pairs() ? " (values: each key's input position)" : "");
  if (histogram)
    out += fmt::format("checked    every bin's count, exactly, against the bin rule's\n");
  if (scan)
    out += fmt::format(
        "checked    every element{}\n",
        m.deterministic || res.must_repeat ? "" : "; float results vary run to run (declared)");
  if (o.output) out += fmt::format("output     {}\n", printable(*o.output));
  if (o.values_output) out += fmt::format("values     {}\n", printable(*o.values_output));
  const std::string how =
      m.mode == TimingMode::batch
          ? fmt::format("batch of {} calls, per call", m.batch_calls)
          : fmt::format("cold, {} L2", r.measure.flush_cache ? "flushed" : "hot");
  out += fmt::format("{}ms  {} median  (min {}, max {}; {} reps, {}{})\n",
                     m.device_timer ? "device " : "host   ", format_ms(m.device_ms.median),
                     format_ms(m.device_ms.min), format_ms(m.device_ms.max), m.device_ms.count, how,
                     m.device_timer ? "" : "; no device timer");
  out += fmt::format("host ms    {} median\n", format_ms(m.host_ms.median));
  out +=
      fmt::format("clock      {}\n", m.clock.measured ? clock_text(m.clock) : res.clock_unmeasured);
  if (sort)
    out += fmt::format("keys/s     {:.3f} G  ({:.2f} GB/s of the radix bound: {} digit passes)\n",
                       res.gkeys_per_s, res.gbps, radix_passes(r.operation.bits, data.dtype()));
  else
    out += fmt::format("bandwidth  {:.2f} GB/s{}\n", res.gbps,
                       scan        ? " (read + write)"
                       : histogram ? " (samples read)"
                                   : "");
  if (!res.diagnostics.empty()) out += fmt::format("noted      {}\n", res.diagnostics);
  return out;
}

// The primitive of a run: --primitive's, which a --kernel run must declare, else the kernel's,
// else reduce. `run`: the kernels with the run's id and backend.
std::string run_primitive(const std::vector<UserKernel>& run,
                          const std::optional<std::string>& asked) {
  if (run.empty()) return asked.value_or("reduce");
  if (!asked) return std::string(to_string(run.front().primitive));
  const Primitive p = parse_primitive_arg(*asked);
  if (std::none_of(run.begin(), run.end(), [&](const UserKernel& k) { return k.primitive == p; }))
    check_kernel_primitive(run.front(), {p}, *asked);
  return *asked;
}

// --backend and --variant, or one --kernel that names both; the primitive (run_primitive); and for
// a run of a --kernel's variant, --dtype (unless an --input's), --op and --scan from its first
// claims.
WithKernelDefaults<RunOptions> with_kernel_defaults(const std::vector<UserKernel>& kernels,
                                                    RunOptions o) {
  if (o.variant.empty() && kernels.size() == 1) {
    o.variant = kernels[0].id;
    if (o.backend.empty()) o.backend = std::string(backend_of(kernels[0].language));
  }
  if (o.backend.empty() || o.variant.empty())
    throw Error(ErrorCategory::usage,
                "run needs --backend and --variant, or one --kernel FILE that names both");
  std::vector<UserKernel> run;
  for (const UserKernel& k : kernels)
    if (k.id == o.variant && runs_on(k.language, o.backend)) run.push_back(k);
  o.primitive = run_primitive(run, o.primitive);
  const ClaimDefaults d =
      claim_defaults(run, {.dtype = o.dtype || o.input, .op = bool(o.op), .kind = bool(o.scan)});
  if (d.dtype) o.dtype = std::string(to_string(*d.dtype));
  if (d.op) o.op = std::string(to_string(*d.op));
  if (d.kind && o.primitive == "scan") o.scan = std::string(to_string(*d.kind));
  return {std::move(o), d.note};
}

}  // namespace

int run_run(const Registry& registry, const RunOptions& options) {
  const WithKernelDefaults<RunOptions> defaults =
      with_kernel_defaults(add_user_kernels(registry, options.kernels), options);
  const RunOptions& o = defaults.options;
  RunRequest request = parse_request(o);
  request.defaults = defaults.note;
  Backend& backend = get_available_backend(registry, o.backend, o.device);
  const VariantInfo variant = find_variant(backend, request.operation.primitive, o.variant);
  const HostArray data = prepare_input(backend, variant, o, request);
  const RunResult result = measure_run(backend, variant, data, request);
  OutputSet outputs;  // both arrays, or neither
  if (request.output) stage_array(outputs, *request.output, result.m.result.array.view());
  if (request.values_output)
    stage_array(outputs, *request.values_output, result.m.result.values.view());
  outputs.place();
  const std::string text = o.format == "json"
                               ? run_json(backend, variant, o, request, data, result)
                               : run_text(backend, variant, o, request, data, result);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return result.ok ? 0 : exit_code(ErrorCategory::check_failed);
}

}  // namespace xr::app
