#include "compare_plan.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "compare_output.hpp"
#include "inspect_call.hpp"
#include "report/gpu_apis.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/error.hpp"
#include "xreduce/generate.hpp"
#include "xreduce/size.hpp"
#include "xreduce/sort_reference.hpp"

namespace xr::app {
namespace {

// Default size of compare: 2^24 elements, the classic reduction benchmark size.
constexpr std::uint64_t kDefaultN = std::uint64_t{1} << 24;

// --transfers' default sizes in bytes: from 1 MiB, where a transfer's fixed costs show, past
// the host link's bar (0.8x the link for 64 MiB and more) to 1 GiB, where they are amortised.
constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr std::uint64_t kDefaultTransferBytes[] = {kMiB, 16 * kMiB, 64 * kMiB, 256 * kMiB,
                                                   1024 * kMiB};

// --count's word: whether the count is on the device.
bool parse_count_arg(std::string_view s) {
  if (s == "host" || s == "device") return s == "device";
  throw Error(ErrorCategory::usage, "--count: '" + printable(s) +
                                        "' is not host or device (where a sort's or a histogram's "
                                        "count is)");
}

bool asks_for(const std::vector<Primitive>& primitives, Primitive p) {
  return std::find(primitives.begin(), primitives.end(), p) != primitives.end();
}

// The sorts --order, --values, --bits and --count ask for: every order with every values choice
// and every count's place.
std::vector<Operation> parse_sorts(const CompareOptions& o, bool sort) {
  if (!sort) {
    if (o.orders || o.values || o.bits)
      throw Error(ErrorCategory::usage, "--order, --values and --bits apply to --primitive sort");
    return {};
  }
  Operation base{.primitive = Primitive::sort};
  if (o.bits) base.bits = parse_bits_arg(*o.bits);
  std::vector<Operation> out;
  for (const auto& order : split_list(o.orders.value_or("asc")))
    for (const auto& values : split_list(o.values.value_or("none")))
      for (const auto& count : split_list(o.counts.value_or("host"))) {
        Operation op = base;
        op.order = parse_sort_order_arg(order);
        op.values = parse_values_arg(values);
        op.count_on_device = parse_count_arg(count);
        out.push_back(op);
      }
  if (out.empty()) throw Error(ErrorCategory::usage, "--order, --values or --count is empty");
  return out;
}

// The histograms --bins (a list), --range, --counters and --count ask for: every bins with every
// count's place.
std::vector<Operation> parse_histograms(const CompareOptions& o, bool histogram) {
  if (!histogram) {
    refuse_histogram_flags(o.histogram);
    return {};
  }
  HistogramFlags flags = o.histogram;
  const std::vector<std::string> bins = split_list(flags.bins.value_or("256"));
  if (bins.empty()) throw Error(ErrorCategory::usage, "--bins is empty");
  std::vector<Operation> out;
  for (const std::string& b : bins)
    for (const auto& count : split_list(o.counts.value_or("host"))) {
      flags.bins = b;
      Operation op{.primitive = Primitive::histogram};
      op.levels = parse_histogram_flags(flags);
      op.count_on_device = parse_count_arg(count);
      out.push_back(op);
    }
  if (out.empty()) throw Error(ErrorCategory::usage, "--count is empty");
  return out;
}

}  // namespace

std::vector<Operation> parse_operations(const CompareOptions& o,
                                        const std::vector<Primitive>& primitives) {
  check_op_applies(o.ops.has_value(), primitives);
  if (o.counts && !asks_for(primitives, Primitive::sort) &&
      !asks_for(primitives, Primitive::histogram))
    throw Error(ErrorCategory::usage, "--count applies to --primitive sort and histogram");
  std::vector<Op> ops;
  for (const auto& s : split_list(o.ops.value_or("sum"))) ops.push_back(parse_op_arg(s));
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
  const bool sort =
      std::find(primitives.begin(), primitives.end(), Primitive::sort) != primitives.end();
  std::vector<Operation> out;
  for (Primitive p : primitives) {
    if (p == Primitive::sort || p == Primitive::histogram) continue;
    for (ScanKind k : p == Primitive::scan ? kinds : std::vector<ScanKind>{ScanKind::inclusive})
      for (Op op : ops) out.push_back(Operation{p, op, k});
  }
  for (const Operation& op : parse_sorts(o, sort)) out.push_back(op);
  for (const Operation& op : parse_histograms(o, asks_for(primitives, Primitive::histogram)))
    out.push_back(op);
  return out;
}

std::vector<DType> parse_dtypes(const std::optional<std::string>& dtypes,
                                const std::vector<Primitive>& primitives) {
  const bool histogram_only = primitives.size() == 1 && primitives.front() == Primitive::histogram;
  std::vector<DType> out;
  for (const auto& s : split_list(dtypes.value_or(histogram_only ? "u8" : "i32")))
    out.push_back(parse_dtype_arg(s));
  if (out.empty()) throw Error(ErrorCategory::usage, "--dtype is empty");
  return out;
}

namespace {

// The report's outputs, none of them a file the run reads (--merge, --baseline, --kernel).
OutputTargets check_output_flags(const CompareOptions& o) {
  check_output_format(o.format, "compare");
  if (o.fail_above && o.baseline.empty())
    throw Error(ErrorCategory::usage, "--fail-above needs --baseline (the run it compares with)");
  std::vector<NamedInput> inputs;
  for (const auto& path : o.merge) inputs.push_back({"--merge", path});
  if (!o.baseline.empty()) inputs.push_back({"--baseline", o.baseline});
  for (const auto& path : o.kernels.files) inputs.push_back({"--kernel", path});
  return resolve_output_files({o.out, o.plot, o.save_json, o.quiet}, inputs);
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

// --device SEL (every GPU backend) or backend=SEL,...; a chosen CUDA device moves the default of
// each other GPU API (Vulkan, OpenCL) with it, so all still measure the same GPU.
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
  Backend* cuda = registry.find(kAnchorApi);
  if (!cuda || !selectors.count(std::string(kAnchorApi))) return;
  for (std::string_view api : compared_apis())
    if (Backend* other = registry.find(api);
        other && !selectors.count(std::string(api)) && other->available())
      other->select_device(DeviceChoice{"", cuda->device().uuid});
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
    PlannedBackend p{b, {}, {}};
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
  // A backend with nothing to measure (no variant of the asked primitives matches --variant)
  // leaves the report, with a note saying so, instead of a device line and a capacity check for
  // arrays it never allocates.
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

}  // namespace

ComparePlan plan_compare(const Registry& registry, const CompareOptions& o) {
  ComparePlan plan;
  plan.outputs = check_output_flags(o);
  plan.primitives = parse_primitive_list(o.primitives);
  plan.operations = parse_operations(o, plan.primitives);
  plan.dtypes = parse_dtypes(o.dtypes, plan.primitives);
  plan.ns = o.sweep ? parse_sweep(*o.sweep)
            : o.n   ? parse_count_list(*o.n)
                    : std::vector<std::uint64_t>{kDefaultN};
  std::sort(plan.ns.begin(), plan.ns.end());
  plan.ns.erase(std::unique(plan.ns.begin(), plan.ns.end()), plan.ns.end());
  // Every primitive asked for takes --dist (each its own default where it is not given).
  for (Primitive p : plan.primitives) (void)parse_dist_arg(o.dist, p);
  plan.dist = o.dist;
  plan.measure = measure_options(o.stats);
  plan.modes = parse_modes(o.stats.mode);
  // Read and parsed now: a bad file fails before a long measurement.
  for (const auto& path : o.merge) plan.merges.push_back(read_saved_report(path, "--merge"));
  if (!o.baseline.empty()) plan.baseline = read_saved_report(o.baseline, "--baseline");
  if (o.transfers) plan.transfer_bytes = parse_transfer_sizes(o);
  if (o.include_transfer && plan.modes != std::vector<TimingMode>{TimingMode::cold})
    throw Error(ErrorCategory::usage,
                "--include-transfer times one call end to end; it takes --mode cold only");

  const std::vector<Backend*> backends = choose_backends(registry, o, plan);
  select_devices(registry, o, backends);
  plan.backends = match_variants(backends, plan.primitives, o, plan.skipped);
  Backend* cuda = nullptr;  // borrowed from only where the plan runs CUDA (limits_for)
  for (const auto& p : plan.backends)
    if (p.backend->name() == "cuda") cuda = p.backend;
  for (auto& p : plan.backends) p.limits = limits_for(*p.backend, cuda);

  // Capacity, before anything is allocated: the input, a scan's or sort's outputs (and end to end
  // a second input), and on the host the data plus two read-back outputs (a sort's check holds
  // its order too). A sort needs the most, then a scan; a histogram as little as a reduce.
  const Primitive most = asks_for(plan.primitives, Primitive::sort)   ? Primitive::sort
                         : asks_for(plan.primitives, Primitive::scan) ? Primitive::scan
                                                                      : Primitive::reduce;
  const int host_copies = most == Primitive::reduce ? 1 : most == Primitive::scan ? 3 : 5;
  SortValues widest = SortValues::u32;
  for (const Operation& op : plan.operations)
    if (op.values == SortValues::u64) widest = op.values;
  for (const auto& p : plan.backends)
    for (DType t : plan.dtypes) {
      const int device_copies = device_arrays(most, t, widest) + (o.include_transfer ? 1 : 0);
      for (std::uint64_t n : plan.ns) check_capacity(*p.backend, t, n, host_copies, device_copies);
    }
  for (const Operation& op : plan.operations)
    for (DType t : plan.dtypes) {
      if (op.primitive == Primitive::sort) check_sort_bits(op.bits, t);
      // A dtype no histogram takes is an unsupported row; levels a sample type cannot hold are
      // a mistake in the flags.
      if (op.primitive == Primitive::histogram &&
          std::ranges::find(kHistogramSampleDTypes, t) != std::end(kHistogramSampleDTypes))
        check_histogram_levels(op.levels, t);
    }
  return plan;
}

}  // namespace xr::app
