// `xreduce compare`: the variant ladders of several backends over primitives, sizes, dtypes and
// ops, in four stages that reduce and scan go through alike:
//   plan_compare    every flag checked, backends, devices and variants chosen, capacity checked
//   start_report    the report's header and each backend's measured peaks
//   measure_points  data generated once per (dtype, n) and uploaded once per backend; every
//                   variant measured and checked against one expectation per operation
//   analyze + write the derived numbers (report/analysis.cpp), then the renderings written whole
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "plot.hpp"
#include "progress.hpp"
#include "report/analysis.hpp"
#include "report/merge.hpp"
#include "report/render.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/check.hpp"
#include "xreduce/error.hpp"
#include "xreduce/generate.hpp"
#include "xreduce/runner.hpp"
#include "xreduce/size.hpp"

namespace xr::app {
namespace {

// Default size of compare: seed 000's 2^24 elements.
constexpr std::uint64_t kDefaultN = std::uint64_t{1} << 24;

// --transfers' default sizes in bytes: from 1 MiB, where a transfer's fixed costs show, past
// issue 11's bar (64 MiB and more at 0.8x the host link) to 1 GiB, where they are amortised.
constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr std::uint64_t kDefaultTransferBytes[] = {kMiB, 16 * kMiB, 64 * kMiB, 256 * kMiB,
                                                   1024 * kMiB};

double point_weight(std::uint64_t n) {
  return static_cast<double>(n) + 1e6;
}

struct PlannedBackend {
  Backend* backend;
  std::vector<VariantInfo> variants;  // matching the globs and primitives, in ladder order
};

struct ComparePlan {
  std::vector<Operation> operations;  // by primitive, then scan kind, then op
  std::vector<Primitive> primitives;
  std::vector<DType> dtypes;
  std::vector<std::uint64_t> ns;
  Distribution dist = Distribution::small;
  MeasureOptions measure;
  std::vector<TimingMode> modes;     // each point is measured in each, cold first
  std::vector<MergedReport> merges;  // --merge: parsed now, folded in after measuring
  std::vector<PlannedBackend> backends;
  std::vector<std::pair<std::string, std::string>> skipped;  // backend, why
  std::vector<std::uint64_t> transfer_bytes;  // --transfers: ascending; empty without it
};

// ---- stage 1: the plan ---------------------------------------------------------------------

std::vector<Primitive> parse_primitives(const std::string& text) {
  if (text == "all") return {std::begin(kAllPrimitives), std::end(kAllPrimitives)};
  std::vector<Primitive> out;
  for (const auto& s : split_list(text)) {
    const Primitive p = parse_primitive_arg(s);
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  }
  if (out.empty()) throw Error(ErrorCategory::usage, "--primitive is empty");
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Operation> parse_operations(const CompareOptions& o,
                                        const std::vector<Primitive>& primitives) {
  std::vector<Op> ops;
  for (const auto& s : split_list(o.ops)) ops.push_back(parse_op_arg(s));
  if (ops.empty()) throw Error(ErrorCategory::usage, "--op is empty");
  const bool scan =
      std::find(primitives.begin(), primitives.end(), Primitive::scan) != primitives.end();
  std::vector<ScanKind> kinds{ScanKind::inclusive};
  if (o.scans) {
    if (!scan) throw Error(ErrorCategory::usage, "--scan applies to --primitive scan or all");
    kinds.clear();
    for (const auto& s : split_list(*o.scans)) kinds.push_back(parse_scan_kind_arg(s));
    if (kinds.empty()) throw Error(ErrorCategory::usage, "--scan is empty");
  }
  std::vector<Operation> out;
  for (Primitive p : primitives)
    for (ScanKind k : p == Primitive::scan ? kinds : std::vector<ScanKind>{ScanKind::inclusive})
      for (Op op : ops) out.push_back(Operation{p, op, k});
  return out;
}

void check_output_flags(const CompareOptions& o) {
  if (o.format != "text" && o.format != "md" && o.format != "csv" && o.format != "json")
    throw Error(ErrorCategory::usage,
                fmt::format("unknown --format '{}' for compare (expected text, md, csv or json)",
                            o.format));
  if (!o.out.empty()) check_output_path(o.out);
  if (!o.save_json.empty()) check_output_path(o.save_json);
  if (!o.plot.empty()) {
    const auto ext = std::filesystem::path(o.plot).extension().string();
    if (ext != ".svg" && ext != ".png" && ext != ".pdf")
      throw Error(ErrorCategory::usage,
                  fmt::format("--plot '{}': expected a .svg, .png or .pdf file name", o.plot));
    check_output_path(o.plot);
  }
}

// `all`: every available backend (the others noted in `skipped`); a list: each must be available.
std::vector<Backend*> choose_backends(const Registry& registry, const CompareOptions& o,
                                      ComparePlan& plan) {
  std::vector<Backend*> backends;
  if (o.backends == "all") {
    for (const auto& b : registry.backends()) {
      if (b->available())
        backends.push_back(b.get());
      else
        plan.skipped.emplace_back(std::string(b->name()),
                                  "unavailable: " + b->unavailable_reason());
    }
    for (const auto& [name, why] : not_built_backends(registry))
      plan.skipped.emplace_back(name, "not built: " + why);
  } else {
    for (const auto& name : split_list(o.backends)) {
      Backend& b = get_available_backend(registry, name, "");  // explicit: must be available
      if (std::find(backends.begin(), backends.end(), &b) == backends.end()) backends.push_back(&b);
    }
    if (backends.empty()) throw Error(ErrorCategory::usage, "--backend is empty");
  }
  if (backends.empty())
    throw Error(ErrorCategory::unavailable, "no backend is available on this machine");
  return backends;
}

// --device SEL (every GPU backend) or backend=SEL,...; a chosen CUDA device moves Vulkan's
// default with it, so both still measure the same GPU.
void select_devices(const Registry& registry, const CompareOptions& o,
                    const std::vector<Backend*>& backends) {
  std::map<std::string, std::string> selectors;
  if (!o.device.empty()) {
    if (o.device.find('=') == std::string::npos) {
      for (Backend* b : backends)
        if (b->name() != "cpu") selectors[std::string(b->name())] = o.device;
    } else {
      for (const auto& item : split_list(o.device)) {
        auto eq = item.find('=');
        if (eq == std::string::npos)
          throw Error(
              ErrorCategory::usage,
              fmt::format("--device '{}': expected SEL or backend=SEL[,backend=SEL]", o.device));
        std::string name = item.substr(0, eq);
        if (std::none_of(backends.begin(), backends.end(),
                         [&](Backend* b) { return b->name() == name; }))
          throw Error(ErrorCategory::usage,
                      fmt::format("--device names backend '{}', which is not compared", name));
        selectors[name] = item.substr(eq + 1);
      }
    }
  }
  for (Backend* b : backends)
    if (auto it = selectors.find(std::string(b->name())); it != selectors.end())
      b->select_device(DeviceChoice{it->second, ""});
  Backend* cuda = registry.find("cuda");
  Backend* vulkan = registry.find("vulkan");
  if (cuda && vulkan && selectors.count("cuda") && !selectors.count("vulkan") &&
      vulkan->available())
    vulkan->select_device(DeviceChoice{"", cuda->device().uuid});
}

// The variants of each backend whose primitive is measured and whose id matches a glob; a
// backend without any is noted in `skipped` and left out.
std::vector<PlannedBackend> match_variants(
    const std::vector<Backend*>& backends, const std::vector<Primitive>& primitives,
    const CompareOptions& o, std::vector<std::pair<std::string, std::string>>& skipped) {
  std::string prims;
  for (Primitive p : primitives) prims += (prims.empty() ? "" : ", ") + std::string(to_string(p));
  const auto globs = split_list(o.variants);
  if (globs.empty()) throw Error(ErrorCategory::usage, "--variant is empty");
  auto wanted = [&](Primitive p, std::string_view id) {
    return std::find(primitives.begin(), primitives.end(), p) != primitives.end() &&
           std::any_of(globs.begin(), globs.end(),
                       [&](const std::string& g) { return glob_match(g, id); });
  };
  std::vector<PlannedBackend> plan;
  bool any = false;
  for (Backend* b : backends) {
    PlannedBackend p{b, {}};
    for (const auto& v : b->variants())
      if (wanted(v.primitive, v.id)) p.variants.push_back(v);
    std::stable_sort(p.variants.begin(), p.variants.end(),
                     [](const VariantInfo& a, const VariantInfo& c) {
                       return std::pair(a.primitive, ladder_position(a.primitive, a.id)) <
                              std::pair(c.primitive, ladder_position(c.primitive, c.id));
                     });
    any |= !p.variants.empty();
    plan.push_back(std::move(p));
  }
  // A backend with nothing to measure (Vulkan has no scan variant yet) leaves the report, with a
  // note saying so, instead of a device line and a capacity check for arrays it never allocates.
  for (const auto& p : plan)
    if (p.variants.empty())
      skipped.emplace_back(
          std::string(p.backend->name()),
          fmt::format("has no {} variant matching --variant '{}'", prims, o.variants));
  std::erase_if(plan, [](const PlannedBackend& p) { return p.variants.empty(); });
  if (!any) {
    std::string names;
    for (Backend* b : backends) names += (names.empty() ? "" : ", ") + std::string(b->name());
    const bool in_catalog = std::any_of(catalog().begin(), catalog().end(),
                                        [&](const auto& e) { return wanted(e.primitive, e.id); });
    throw Error(
        in_catalog ? ErrorCategory::unsupported : ErrorCategory::usage,
        fmt::format("--variant '{}' matches no {} variant of {} ({})", o.variants, prims, names,
                    in_catalog ? "the catalog has it, these backends do not implement it"
                               : "see xreduce list"));
  }
  return plan;
}

// --transfer-sizes (or the defaults) in bytes, ascending: each a whole number of u32 elements.
std::vector<std::uint64_t> parse_transfer_sizes(const CompareOptions& o) {
  if (!o.transfer_sizes)
    return {std::begin(kDefaultTransferBytes), std::end(kDefaultTransferBytes)};
  std::vector<std::uint64_t> out;
  try {
    out = parse_count_list(*o.transfer_sizes);
  } catch (const Error&) {  // its message speaks of element counts; these are bytes
    throw Error(ErrorCategory::usage,
                fmt::format("--transfer-sizes '{}': expected bytes such as 1M,64M,1G (K/M/G are "
                            "powers of 1024)",
                            printable(*o.transfer_sizes)));
  }
  if (out.empty()) throw Error(ErrorCategory::usage, "--transfer-sizes is empty");
  for (std::uint64_t bytes : out)
    if (bytes == 0 || bytes % size_of(DType::u32) != 0)
      throw Error(ErrorCategory::usage,
                  fmt::format("--transfer-sizes: {} bytes is not a whole number of u32 elements "
                              "(a positive multiple of 4)",
                              bytes));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

ComparePlan plan_compare(const Registry& registry, const CompareOptions& o) {
  check_output_flags(o);
  ComparePlan plan;
  plan.primitives = parse_primitives(o.primitives);
  plan.operations = parse_operations(o, plan.primitives);
  for (const auto& s : split_list(o.dtypes)) plan.dtypes.push_back(parse_dtype_arg(s));
  if (plan.dtypes.empty()) throw Error(ErrorCategory::usage, "--dtype is empty");
  plan.ns = o.sweep ? parse_sweep(*o.sweep)
            : o.n   ? parse_count_list(*o.n)
                    : std::vector<std::uint64_t>{kDefaultN};
  std::sort(plan.ns.begin(), plan.ns.end());
  plan.ns.erase(std::unique(plan.ns.begin(), plan.ns.end()), plan.ns.end());
  plan.dist = parse_distribution_arg(o.dist);
  plan.measure = measure_options(o.stats);
  plan.modes = parse_modes(o.stats.mode);
  // Read and parsed now: a bad file fails before a long measurement.
  for (const auto& path : o.merge) plan.merges.push_back(read_merged_report(path));
  if (o.transfers) plan.transfer_bytes = parse_transfer_sizes(o);
  if (o.include_transfer && plan.modes != std::vector<TimingMode>{TimingMode::cold})
    throw Error(ErrorCategory::usage,
                "--include-transfer times one call end to end; it takes --mode cold only");

  const std::vector<Backend*> backends = choose_backends(registry, o, plan);
  select_devices(registry, o, backends);
  plan.backends = match_variants(backends, plan.primitives, o, plan.skipped);

  // Capacity, before anything is allocated: the input, a scan's output (and end to end a second
  // input), and on the host the data plus a scan's two read-back outputs.
  const bool scan = plan.primitives.back() == Primitive::scan;
  const int device_copies = device_arrays(plan.primitives.back()) + (o.include_transfer ? 1 : 0);
  for (const auto& p : plan.backends)
    for (DType t : plan.dtypes)
      for (std::uint64_t n : plan.ns) check_capacity(*p.backend, t, n, scan ? 3 : 1, device_copies);
  return plan;
}

// ---- stage 2: header and peaks ---------------------------------------------------------------

std::string stats_words(const MeasureOptions& m, const StatFlags& f) {
  if (f.reps > 0) return fmt::format("{} reps after {} warm-up", f.reps, f.warmup);
  return fmt::format(
      "adaptive reps ({}..{}, until the median's spread < {:g}% or {:g} s per point)", m.min_reps,
      m.max_reps, m.target_rel_spread * 100, m.max_seconds);
}

bool measures(const ComparePlan& plan, Primitive p) {
  return std::find(plan.primitives.begin(), plan.primitives.end(), p) != plan.primitives.end();
}

// The sizes of one backend's transfer table: each of `wanted` clamped to the largest u32 array
// the device holds (sizes that become equal merged), and without those the host cannot hold
// twice (the source and the read-back); every change noted in words.
std::vector<std::uint64_t> fit_transfer_sizes(const Backend& b,
                                              const std::vector<std::uint64_t>& wanted,
                                              std::vector<std::string>& notes) {
  const std::uint64_t element = size_of(DType::u32);
  // In bytes, without wrapping where a backend reports no limit (UINT64_MAX elements).
  const std::uint64_t device_max =
      std::min(b.max_elements(DType::u32), UINT64_MAX / element) * element;
  const std::uint64_t host_have = host_available_bytes();
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t bytes : wanted) {
    std::uint64_t fit = std::min(bytes, device_max);
    if (fit < bytes)
      notes.push_back(fmt::format("{} clamped to {}: the largest u32 array the device holds",
                                  format_bytes(static_cast<double>(bytes)),
                                  format_bytes(static_cast<double>(fit))));
    if (fit == 0) continue;
    if (fit > host_have / 2) {
      notes.push_back(fmt::format(
          "{} left out: the source and the read-back need {} of host memory, {} is available",
          format_bytes(static_cast<double>(fit)), format_bytes(2.0 * static_cast<double>(fit)),
          format_bytes(static_cast<double>(host_have))));
      continue;
    }
    if (sizes.empty() || sizes.back() != fit) sizes.push_back(fit);
  }
  if (sizes.empty())
    throw Error(ErrorCategory::out_of_memory,
                fmt::format("--transfers: {} can hold none of the sizes ({})", b.name(),
                            one_line(notes.empty() ? std::string("none fits") : notes.front())));
  return sizes;
}

// --transfers for one backend: its host link at the largest size, then its own path at each;
// nullopt for a backend without a host link (the CPU's arrays are host memory).
std::optional<TransferTable> measure_transfer_table(Backend& b,
                                                    const std::vector<std::uint64_t>& wanted,
                                                    Progress& progress) {
  TransferTable t;
  const std::vector<std::uint64_t> sizes = fit_transfer_sizes(b, wanted, t.notes);
  progress.note(fmt::format("{}: measuring the host link", b.name()));
  std::optional<LinkRate> link = b.measure_link(sizes.back());
  if (!link) return std::nullopt;
  t.link = std::move(*link);
  progress.note(fmt::format("{}: measuring uploads and read-backs", b.name()));
  t.rows = measure_transfers(b, sizes);
  return t;
}

// The header, and each backend's measured peaks: the read peak for reduce's "% peak", the copy
// peak for scan's (each probed only when its primitive is measured).
CompareReport start_report(const ComparePlan& plan, const CompareOptions& o, Progress& progress) {
  CompareReport report;
  report.version = XR_VERSION;
  report.command = o.command_line;
  report.stats = stats_words(plan.measure, o.stats);
  report.primitives = plan.primitives;
  report.cold = plan.measure.flush_cache;
  report.include_transfer = o.include_transfer;
  report.seed = o.seed;
  report.dist = std::string(to_string(plan.dist));
  report.skipped = plan.skipped;
  report.modes = plan.modes;
  for (const auto& p : plan.backends) {
    DeviceRecord d;
    d.backend = std::string(p.backend->name());
    d.info = p.backend->device();
    if (measures(plan, Primitive::reduce)) {
      progress.note(fmt::format("{}: measuring the read bandwidth", d.backend));
      d.read_peak_gbps = p.backend->measure_read_bandwidth_gbps();
    }
    if (measures(plan, Primitive::scan)) {
      progress.note(fmt::format("{}: measuring the copy bandwidth", d.backend));
      d.copy_peak_gbps = p.backend->measure_copy_bandwidth_gbps();
    }
    if (o.overheads) {
      progress.note(fmt::format("{}: measuring launch, submit and round-trip costs", d.backend));
      d.overheads = p.backend->measure_overheads();
    }
    if (o.transfers)
      d.transfers = measure_transfer_table(*p.backend, plan.transfer_bytes, progress);
    report.devices.push_back(std::move(d));
  }
  return report;
}

// The peaks again after the measurements, keeping the higher of the two: a peak is what the
// device reached in this run, and its speed may drift over it (a GPU's clocks ramping up from
// idle, the host scheduling a CPU device's threads differently from one minute to the next).
void reprobe_peaks(const ComparePlan& plan, CompareReport& report, Progress& progress) {
  for (auto& d : report.devices)
    for (const auto& p : plan.backends) {
      if (p.backend->name() != d.backend) continue;
      auto keep_best = [](std::optional<double>& peak, std::optional<double> again) {
        if (peak && again) peak = std::max(*peak, *again);
      };
      progress.note(fmt::format("{}: measuring the peaks again", d.backend));
      if (d.read_peak_gbps) keep_best(d.read_peak_gbps, p.backend->measure_read_bandwidth_gbps());
      if (d.copy_peak_gbps) keep_best(d.copy_peak_gbps, p.backend->measure_copy_bandwidth_gbps());
    }
}

// ---- stage 3: measurements -------------------------------------------------------------------

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
    const Verdict verdict = expected->check(m.result);
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
  } catch (const Error& e) {
    if (e.category() != ErrorCategory::unsupported) throw;
    row.status = RowStatus::unsupported;
    row.reason = e.what();
  }
  return row;
}

// Every (dtype, n, backend, variant, operation) of the plan into report.rows; true when a result
// failed its check.
bool measure_points(const ComparePlan& plan, const CompareOptions& o, CompareReport& report,
                    Progress& progress) {
  bool failed = false;
  for (DType dtype : plan.dtypes) {
    for (std::uint64_t n : plan.ns) {
      progress.note(fmt::format("generating {} {}", format_count(n), to_string(dtype)));
      const HostArray data = generate(dtype, static_cast<std::size_t>(n), o.seed, plan.dist);
      // One expectation per operation, made when a variant first needs it and shared by all.
      std::vector<std::optional<Expectation>> expected(plan.operations.size());
      for (const auto& p : plan.backends) {
        Backend& b = *p.backend;
        const bool end_to_end = o.include_transfer && b.name() != "cpu";
        PointInput input{data, nullptr};
        for (const auto& v : p.variants) {
          std::unique_ptr<Runner> runner;  // one per variant, reused by its operations
          for (std::size_t k = 0; k < plan.operations.size(); ++k) {
            const Operation& operation = plan.operations[k];
            if (operation.primitive != v.primitive) continue;
            for (TimingMode mode : plan.modes) {
              MeasureOptions measure = plan.measure;
              measure.mode = mode;
              progress.note(fmt::format("{} {} {} {} n={} {}", b.name(), v.id, operation.describe(),
                                        to_string(dtype), format_count(n), to_string(mode)));
              ResultRow row =
                  measure_row(b, v, runner, input, operation, expected[k], measure, end_to_end);
              failed |= row.status == RowStatus::failed;
              report.rows.push_back(std::move(row));
              progress.advance(point_weight(n));
            }
          }
        }
      }
    }
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

// ---- stage 5: output -------------------------------------------------------------------------

// The report in --format, to stdout or --out, plus --save-json and --plot. Every file is written
// whole (temporary + rename); on a failure the ones already placed are removed again, so a
// failed run leaves no output behind.
void write_outputs(const AnalyzedReport& report, const CompareOptions& o) {
  std::string text;
  if (o.format == "json")
    text = render_json(report);
  else if (o.format == "csv")
    text = render_csv(report);
  else if (o.format == "md")
    text = render_markdown(build_document(report));
  else
    text = render_text(build_document(report), style_for(stdout, !o.out.empty()));

  const std::string json_text =
      o.format == "json" ? text
                         : (o.plot.empty() && o.save_json.empty() ? "" : render_json(report));
  std::filesystem::path plot_tmp;
  std::vector<std::string> placed;
  try {
    if (!o.plot.empty()) {
      plot_tmp = temp_beside(o.plot);
      draw_plot(json_text, plot_tmp);
    }
    if (!o.save_json.empty()) {
      write_file_atomically(o.save_json, json_text);
      placed.push_back(o.save_json);
    }
    if (!o.out.empty()) {
      write_file_atomically(o.out, text);
      placed.push_back(o.out);
    }
    if (!plot_tmp.empty() && std::rename(plot_tmp.c_str(), o.plot.c_str()) != 0)
      throw Error(ErrorCategory::usage,
                  fmt::format("cannot write '{}': {}", o.plot, std::strerror(errno)));
  } catch (...) {
    if (!plot_tmp.empty()) unlink(plot_tmp.c_str());
    for (const auto& p : placed) unlink(p.c_str());
    throw;
  }
  if (o.out.empty()) std::fwrite(text.data(), 1, text.size(), stdout);
  if (!o.quiet) {
    if (!o.out.empty()) std::fprintf(stderr, "xreduce: wrote %s\n", o.out.c_str());
    if (!o.plot.empty()) std::fprintf(stderr, "xreduce: wrote %s\n", o.plot.c_str());
    if (!o.save_json.empty()) std::fprintf(stderr, "xreduce: wrote %s\n", o.save_json.c_str());
  }
}

}  // namespace

int run_compare(const Registry& registry, const CompareOptions& o) {
  const ComparePlan plan = plan_compare(registry, o);
  Progress progress(!o.quiet && is_terminal(stderr), total_weight(plan));
  CompareReport report = start_report(plan, o, progress);
  const bool failed = measure_points(plan, o, report, progress);
  reprobe_peaks(plan, report, progress);
  progress.clear();
  for (const auto& merged : plan.merges) fold_merged(report, merged);
  const Analysis analysis = analyze(report);
  write_outputs({report, analysis}, o);
  return failed ? exit_code(ErrorCategory::check_failed) : 0;
}

}  // namespace xr::app
