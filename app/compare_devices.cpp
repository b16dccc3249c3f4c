#include "compare_devices.hpp"

#include <algorithm>
#include <bit>
#include <optional>

#include <fmt/format.h>

#include "build_commit.hpp"
#include "xreduce/error.hpp"
#include "xreduce/size.hpp"

namespace xr::app {
namespace {

// --dist as each primitive of the plan takes it: "small", or "small, uniform" where a histogram's
// samples have their own default beside the elements'.
std::string data_distribution_names(const ComparePlan& plan) {
  std::string names;
  for (Primitive p : plan.primitives) {
    const std::string_view name = dist_name(parse_dist_arg(plan.dist, p), p);
    if (names.find(name) == std::string::npos)
      names += (names.empty() ? "" : ", ") + std::string(name);
  }
  return names;
}

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
// the device holds and to the largest power of two the host holds twice (the source and the
// read-back), sizes that become equal merged; every change noted in words.
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
    if (fit > host_have / 2) {
      // The largest power of two the host holds twice (the source and the read-back), leaving
      // the rest of its memory to everything else.
      const std::uint64_t host_fit = std::bit_floor(host_have / 2) & ~(element - 1);
      notes.push_back(fmt::format(
          "{} clamped to {}: the source and the read-back need twice it of host memory, {} is "
          "available",
          format_bytes(static_cast<double>(fit)), format_bytes(static_cast<double>(host_fit)),
          format_bytes(static_cast<double>(host_have))));
      fit = host_fit;
    }
    if (fit == 0) continue;
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

}  // namespace

CompareReport start_report(const ComparePlan& plan, const CompareOptions& o, Progress& progress) {
  CompareReport report;
  report.version = XR_VERSION;
  report.commit = std::string(build_commit());
  report.command = o.command_line;
  report.stats = stats_words(plan.measure, o.stats);
  report.primitives = plan.primitives;
  report.cold = plan.measure.flush_cache;
  report.include_transfer = o.include_transfer;
  report.seed = o.seed;
  report.dist = data_distribution_names(plan);
  report.skipped = plan.skipped;
  report.modes = plan.modes;
  for (const auto& p : plan.backends) {
    DeviceRecord d;
    d.backend = std::string(p.backend->name());
    d.info = p.backend->device();
    d.knobs = printable_knobs(*p.backend);
    if (ClockProbe* clock = measurement_clock(*p.backend)) {
      progress.note(fmt::format("{}: measuring the reference clock", d.backend));
      d.reference_clock_mhz = clock->reference_mhz();
      d.clock = clock->method();
    } else {
      d.clock = p.backend->clock_unmeasured_reason();
    }
    if (measures(plan, Primitive::reduce) || measures(plan, Primitive::histogram)) {
      progress.note(fmt::format("{}: measuring the read bandwidth", d.backend));
      d.read_peak_gbps = p.backend->measure_read_bandwidth_gbps();
    }
    if (measures(plan, Primitive::scan) || measures(plan, Primitive::sort)) {
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

}  // namespace xr::app
