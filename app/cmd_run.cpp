// `xreduce run`: one variant of either primitive on one backend, checked against the host
// reference and timed; a scan's output can be saved as .npy.
#include <cmath>
#include <cstdio>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "xreduce/check.hpp"
#include "xreduce/error.hpp"
#include "xreduce/generate.hpp"
#include "xreduce/io.hpp"
#include "xreduce/runner.hpp"
#include "xreduce/size.hpp"

namespace xr::app {
namespace {

using json = nlohmann::ordered_json;

// A Value as a JSON number: integers exact, floats as the double of the float.
json value_json(const std::optional<Value>& v) {
  if (!v) return nullptr;
  return visit_dtype(v->dtype(), [&](auto tag) -> json {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      return static_cast<double>(v->get<T>());
    } else {
      return v->get<T>();
    }
  });
}

std::string value_text(const std::optional<Value>& v) {
  return v ? v->to_string() : "(empty)";
}

// The operation the flags ask for; --scan and --output only make sense for scan.
Operation parse_operation(const RunOptions& o) {
  Operation op;
  op.primitive = parse_primitive_arg(o.primitive);
  op.op = parse_op_arg(o.op);
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

}  // namespace

int run_run(const Registry& registry, const RunOptions& o) {
  // Everything the user typed is checked before a device is touched.
  if (o.format != "text" && o.format != "json")
    throw Error(ErrorCategory::usage,
                fmt::format("unknown --format '{}' for run (expected text or json)", o.format));
  const Operation operation = parse_operation(o);
  const Primitive primitive = operation.primitive;
  std::optional<DType> dtype_flag;
  if (o.dtype) dtype_flag = parse_dtype_arg(*o.dtype);
  const Distribution dist = parse_distribution_arg(o.dist);
  if (parse_modes(o.stats.mode).size() != 1)
    throw Error(ErrorCategory::usage,
                fmt::format("run measures one --mode, cold or batch, not '{}'", o.stats.mode));
  const MeasureOptions mopts = measure_options(o.stats);
  if (!o.n && !o.input) throw Error(ErrorCategory::usage, "run needs --n N or --input FILE");
  std::optional<std::uint64_t> n_flag;
  if (o.n) n_flag = parse_count(*o.n);
  if (o.output) {
    const auto ext = std::filesystem::path(*o.output).extension();
    if (ext != ".npy" && ext != ".bin")
      throw Error(ErrorCategory::usage,
                  fmt::format("--output '{}': expected a .npy or .bin file name", *o.output));
    check_output_path(*o.output);
  }

  Backend& backend = get_available_backend(registry, o.backend, o.device);
  const VariantInfo variant = find_variant(backend, primitive, o.variant);

  // The input: read (its dtype wins, and must agree with --dtype) or generated.
  HostArray data;
  DType dtype = dtype_flag.value_or(DType::i32);
  if (o.input) {
    data = read_input(*o.input, dtype_flag);
    dtype = data.dtype();
  }
  if (o.output && dtype == DType::bf16 && std::filesystem::path(*o.output).extension() == ".npy")
    throw Error(
        ErrorCategory::usage,
        fmt::format("--output '{}': bf16 has no NumPy type; use a .bin file name", *o.output));
  check_claims(backend, variant, dtype, operation);
  if (std::string why = backend.unsupported_reason(primitive, variant.id); !why.empty())
    throw Error(ErrorCategory::unsupported,
                fmt::format("{} variant '{}' is unsupported on {}: {}", backend.name(), variant.id,
                            backend.device().name, why));
  const std::uint64_t n = o.input ? data.size() : *n_flag;
  if (n > variant.max_elements)
    throw Error(ErrorCategory::unsupported,
                fmt::format("{} variant '{}' accepts at most {} elements, not {}", backend.name(),
                            variant.id, format_count(variant.max_elements), format_count(n)));
  // Host: the input unless read already, plus a scan's first and last outputs read back.
  const int host_copies = (o.input ? 0 : 1) + (primitive == Primitive::scan ? 2 : 0);
  check_capacity(backend, dtype, n, host_copies, device_arrays(primitive));
  if (!o.input) data = generate(dtype, static_cast<std::size_t>(n), o.seed, dist);

  const Expectation expected(data.view(), operation);
  auto device_array = backend.upload(data.view());
  Runner runner(backend, primitive, variant.id);
  const Measurement m = measure(backend, runner, *device_array, data.view(), operation, mopts);
  const Verdict verdict = expected.check(m.result);
  const bool must_repeat = variant.deterministic_for(dtype);
  const bool ok = verdict.ok && (m.deterministic || !must_repeat);
  std::string problem = verdict.message;
  if (!m.deterministic && must_repeat)
    problem += std::string(problem.empty() ? "" : "; ") +
               "repetitions returned different results (not deterministic)";
  if (o.output) write_output(*o.output, m.result.array.view());
  const DeviceInfo dev = backend.device();
  const double bw = gbps(bytes_moved(primitive, n, dtype), m.device_ms.median);
  const std::optional<Value> got = m.result.headline(primitive);
  const std::optional<Value> want = expected.headline();

  if (o.format == "json") {
    json j = {{"backend", backend.name()},
              {"variant", variant.id},
              {"primitive", to_string(primitive)},
              {"scan", primitive == Primitive::scan ? json(to_string(operation.scan)) : json()},
              {"device", dev.name},
              {"device_index", dev.index},
              {"device_uuid", dev.uuid},
              {"op", to_string(operation.op)},
              {"dtype", to_string(dtype)},
              {"n", n},
              {"input", o.input ? json(*o.input) : json(nullptr)},
              {"seed", o.input ? json(nullptr) : json(o.seed)},
              {"dist", o.input ? json(nullptr) : json(to_string(dist))},
              {"result", value_json(got)},
              {"reference", value_json(want)},
              {"output", o.output ? json(*o.output) : json(nullptr)},
              {"ok", ok},
              {"deterministic", m.deterministic},
              {"error", verdict.error},
              {"bound", verdict.bound},
              {"message", problem},
              {"device_ms", m.device_ms.median},
              {"min_ms", m.device_ms.min},
              {"max_ms", m.device_ms.max},
              {"host_ms", m.host_ms.median},
              {"reps", m.device_ms.count},
              {"rel_spread", m.device_ms.rel_spread},
              {"device_timer", m.device_timer},
              {"gbps", bw},
              {"cache", mopts.flush_cache && m.mode == TimingMode::cold ? "cold" : "hot"},
              {"mode", to_string(m.mode)},
              {"batch_calls", m.batch_calls ? json(m.batch_calls) : json(nullptr)},
              {"diagnostics", runner.diagnostics()}};
    std::string s = j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
    std::fwrite(s.data(), 1, s.size(), stdout);
  } else {
    const Style st = style_for(stdout, false);
    std::string input =
        o.input ? fmt::format("{} ({} elements of {})", *o.input, format_n(n), to_string(dtype))
                : fmt::format("n = {} {}, seed {}, {} distribution", format_n(n), to_string(dtype),
                              o.seed, to_string(dist));
    std::string verdict_text = ok ? st.good("ok") : st.bad("FAILED: " + one_line(problem));
    const bool scan = primitive == Primitive::scan;
    std::string out;
    out += fmt::format("backend    {} (device {}: {})\n", backend.name(), dev.index, dev.name);
    out += fmt::format("variant    {} · {}\n", variant.id, variant.mirrors);
    out += fmt::format("input      {}\n", input);
    out += fmt::format("operation  {}\n", operation.describe());
    out += fmt::format("{}{}\n", scan ? "last       " : "result     ", value_text(got));
    out += fmt::format("reference  {}  {}\n", value_text(want), verdict_text);
    if (scan)
      out += fmt::format("checked    every element{}\n",
                         m.deterministic ? ""
                         : must_repeat   ? ""
                                         : "; float results vary run to run (declared)");
    if (o.output) out += fmt::format("output     {}\n", *o.output);
    const std::string how = m.mode == TimingMode::batch
                                ? fmt::format("batch of {} calls, per call", m.batch_calls)
                                : fmt::format("cold, {} L2", mopts.flush_cache ? "flushed" : "hot");
    out += fmt::format("{}ms  {} median  (min {}, max {}; {} reps, {}{})\n",
                       m.device_timer ? "device " : "host   ", format_ms(m.device_ms.median),
                       format_ms(m.device_ms.min), format_ms(m.device_ms.max), m.device_ms.count,
                       how, m.device_timer ? "" : "; no device timer");
    out += fmt::format("host ms    {} median\n", format_ms(m.host_ms.median));
    out += fmt::format("bandwidth  {:.2f} GB/s{}\n", bw, scan ? " (read + write)" : "");
    if (const std::string d = runner.diagnostics(); !d.empty())
      out += fmt::format("counted    {}\n", d);
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
  return ok ? 0 : exit_code(ErrorCategory::check_failed);
}

}  // namespace xr::app
