#include "report/document.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "report/baseline_document.hpp"
#include "report/format.hpp"
#include "report/gpu_apis.hpp"
#include "report/tables.hpp"
#include "xreduce/size.hpp"

namespace xr::app {
namespace {

// Above this many sizes the per-size ladders give way to one GB/s-by-n matrix per backend, with
// the full ladder at the largest size only (every number is still in the JSON and CSV exports).
constexpr std::size_t kMaxLadderSizes = 4;

// ---- the header's sentences ------------------------------------------------------------------

std::string timing_words(const CompareReport& r) {
  if (r.include_transfer) return "end to end (upload + run + readback, host-timed)";
  std::string modes;
  for (TimingMode m : r.modes) modes += (modes.empty() ? "" : " and ") + std::string(to_string(m));
  return fmt::format(
      "device time by each API's own timer, {} mode{} (cold: one call, no launch "
      "gap in the interval; batch: calls back to back, time per call)",
      modes.empty() ? "cold" : modes, r.modes.size() > 1 ? "s" : "");
}

std::string config_line(const CompareReport& r) {
  return fmt::format("{}, {} L2 in cold mode, {}, seed {} ({} data)", timing_words(r),
                     r.cold ? "flushed" : "hot", r.stats, r.seed, r.dist);
}

std::string device_line(const DeviceRecord& d, const DeviceClock& clock) {
  std::string s = fmt::format("device {}: {}", d.info.index, d.info.name);
  if (!d.info.api_version.empty()) s += " · " + d.info.api_version;
  if (!d.info.driver_version.empty() && d.info.driver_version != "-")
    s += " · driver " + d.info.driver_version;
  if (!d.info.uuid.empty()) s += " · uuid " + d.info.uuid;
  if (d.info.memory_bytes) s += " · " + format_bytes(static_cast<double>(d.info.memory_bytes));
  s += d.read_peak_gbps ? fmt::format(" · read peak {} GB/s", fmt_gbps(*d.read_peak_gbps))
                        : std::string(" · read peak not measured");
  if (d.copy_peak_gbps) s += fmt::format(" · copy peak {} GB/s", fmt_gbps(*d.copy_peak_gbps));
  s += " · " + clock_words(d, clock);
  if (!d.merged_from.empty()) s += " · merged from " + d.merged_from;
  return s;
}

// A device whose rows retook or kept samples under the clock threshold says so: a kept one
// means a time measured below the working clock (its rows are marked THROTTLED).
std::optional<std::string> throttle_note(const DeviceRecord& d, const DeviceClock& c) {
  if (c.throttled_rows > 0)
    return fmt::format(
        "{}: {} row{} kept samples under the clock threshold when their time budget ran out "
        "(marked THROTTLED; lowest sample {:.0f} MHz): their times are not the working clock's",
        d.backend, c.throttled_rows, c.throttled_rows > 1 ? "s" : "", c.lowest_mhz.value_or(0));
  if (c.retaken > 0)
    return fmt::format("{}: {} sample{} under the clock threshold retaken after a warm-up",
                       d.backend, c.retaken, c.retaken > 1 ? "s" : "");
  return std::nullopt;
}

// A device whose "% peak" is against another API's probe of its GPU says whose, and which.
std::optional<std::string> peaks_note(const DeviceRecord& d, const DevicePeaks& p) {
  std::string borrowed;
  for (const auto& [what, source] : {std::pair{"read", &p.read}, std::pair{"copy", &p.copy}})
    if (source->gbps && source->backend != d.backend)
      borrowed += fmt::format("{}{}'s {} peak ({} GB/s)", borrowed.empty() ? "" : " and ",
                              source->backend, what, fmt_gbps(*source->gbps));
  if (borrowed.empty()) return std::nullopt;
  return fmt::format("{}'s % peak is against {}: the fastest probe of any API on its GPU",
                     d.backend, borrowed);
}

// A report made with knobs set says so first: they change what was measured (docs/cli.md).
std::string knobs_text(const DeviceRecord& d) {
  std::string knobs;
  for (const auto& [name, value] : d.knobs)
    knobs += fmt::format("{}{}={}", knobs.empty() ? "" : ", ", name, value);
  return fmt::format("{} ran with the environment knobs {}", d.backend, knobs);
}

// "cuda and vulkan", "cuda, vulkan and opencl".
std::string and_list(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i)
    s += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return s;
}

std::string same_gpu_text(const SameGpu& g) {
  std::vector<std::string> names;
  std::string uuids;  // "cuda UUID a, vulkan UUID ?"
  for (const auto& [backend, uuid] : g.uuids) {
    names.push_back(backend);
    uuids +=
        fmt::format("{}{} UUID {}", uuids.empty() ? "" : ", ", backend, uuid.empty() ? "?" : uuid);
  }
  if (g.same)
    return fmt::format("same GPU: the {} devices share UUID {}", and_list(names),
                       g.uuids.front().second);
  // Without CUDA nothing is set side by side, but the ladders still stand apart.
  const std::string compared =
      names.front() == kAnchorApi ? "the side-by-side ratios" : "their ladders";
  // Two UUIDs that differ prove two devices; a device without one (pocl's) proves nothing.
  std::vector<std::string> unknown;
  std::string known;
  bool differ = false;
  for (const auto& [backend, uuid] : g.uuids) {
    if (uuid.empty()) {
      unknown.push_back(backend);
      continue;
    }
    differ |= !known.empty() && uuid != known;
    known = uuid;
  }
  if (!differ && !unknown.empty())
    return fmt::format(
        "WARNING: {} are not proven to share one device ({}: {} no UUID); {} may "
        "compare different devices",
        and_list(names), uuids, and_list(unknown) + (unknown.size() > 1 ? " report" : " reports"),
        compared);
  return fmt::format("WARNING: {} measured DIFFERENT devices ({}); {} compare {}", and_list(names),
                     uuids, compared, names.size() == 2 ? "two GPUs" : "different GPUs");
}

// "cuda vs vulkan vs opencl": the title of the APIs compared with CUDA.
std::string versus_words(const std::vector<std::string>& apis) {
  std::string s(kAnchorApi);
  for (const auto& api : apis) s += " vs " + api;
  return s;
}

DocumentHeader header_of(const AnalyzedReport& ar) {
  const CompareReport& r = ar.report;
  DocumentHeader h;
  h.command = r.command;
  h.config = config_line(r);
  for (std::size_t i = 0; i < r.devices.size(); ++i)
    h.device_lines.emplace_back(r.devices[i].backend,
                                device_line(r.devices[i], ar.analysis.device_clocks[i]));
  h.devices = devices_table(r.devices, ar.analysis.device_clocks);
  if (const auto& g = ar.analysis.same_gpu) h.same_gpu = {same_gpu_text(*g), g->same};
  for (const auto& [b, why] : r.skipped) h.skipped.push_back(fmt::format("{} {}", b, why));
  for (const auto& d : r.devices)
    if (!d.knobs.empty()) h.notes.push_back(knobs_text(d));
  for (std::size_t i = 0; i < r.devices.size(); ++i)
    if (auto note = throttle_note(r.devices[i], ar.analysis.device_clocks[i]))
      h.notes.push_back(std::move(*note));
  for (std::size_t i = 0; i < r.devices.size(); ++i)
    if (auto note = peaks_note(r.devices[i], ar.analysis.device_peaks[i]))
      h.notes.push_back(std::move(*note));
  h.notes.insert(h.notes.end(), r.notes.begin(), r.notes.end());
  h.has_scan =
      std::find(r.primitives.begin(), r.primitives.end(), Primitive::scan) != r.primitives.end();
  h.has_sort =
      std::find(r.primitives.begin(), r.primitives.end(), Primitive::sort) != r.primitives.end();
  return h;
}

// ---- the body's titles and sentences ---------------------------------------------------------

std::string section_title(const Section& sec, std::uint64_t n) {
  return fmt::format("{} · n = {}", section_what(sec), format_n(n));
}

std::string crossover_text(const Crossover& x, const CompareReport& r) {
  std::string s;
  if (x.everywhere)
    s = fmt::format("{} is faster than cpu at every measured size", x.backend);
  else if (!x.n)
    s = fmt::format("cpu stays faster than {} up to the largest size measured ({})", x.backend,
                    format_count(x.largest));
  else
    s = fmt::format("{} overtakes cpu at n = {} (cpu is faster at {} and below)", x.backend,
                    format_count(*x.n), format_count(x.cpu_until));
  if (!r.include_transfer)
    s += "; kernel time only, --include-transfer gives the end-to-end crossover";
  return s;
}

std::string above_peak_text(const AnalyzedReport& ar, const AbovePeak& x) {
  const ResultRow& top = ar.row(x.top);
  return fmt::format(
      "{} result{} above the measured peak (marked !; highest {} {} at n = {}, {}): the "
      "probe missed this device's peak there, so its % peak is not a fraction of the "
      "hardware's{}",
      x.count, x.count > 1 ? "s" : "", top.backend, top.variant, format_count(top.n),
      fmt_pct(ar.metrics(x.top).pct_peak),
      x.sec.mode == TimingMode::batch
          ? " (batch mode is hot: back-to-back calls find part of the array still in the L2, "
            "which the cold probe flushes)"
          : "");
}

// ---- the body --------------------------------------------------------------------------------

// The overheads, before the ladders: the floor every small-n number stands on. Then the transfer
// tables: what moving an array costs against the host link.
void add_devices(const AnalyzedReport& ar, std::vector<Block>& body) {
  for (const auto& d : ar.report.devices)
    if (!d.overheads.empty())
      add_table(body, fmt::format("overheads · {} · {}", d.backend, d.info.name),
                overhead_table(d.overheads));
  for (std::size_t i = 0; i < ar.report.devices.size(); ++i)
    if (const DeviceRecord& d = ar.report.devices[i]; d.transfers) {
      add_table(body, fmt::format("transfers · {} · {}", d.backend, d.info.name),
                transfer_table(*d.transfers, ar.analysis.transfer_shares[i]));
      for (const auto& note : d.transfers->notes) add_text(body, Block::Kind::note, note);
    }
}

// A section with many sizes: GB/s by n for each backend, and each other GPU API's time over
// CUDA's by n.
void add_matrices(const AnalyzedReport& ar, const SectionSizes& s, std::vector<Block>& body) {
  const std::string what = section_what(s.sec);
  for (const auto& d : ar.report.devices)
    if (const Ladder* largest = ar.analysis.ladder(s.sec, s.sizes.back(), d.backend))
      add_table(body, fmt::format("{} · GB/s by n · {}", d.backend, what),
                matrix_table(ar, s, *largest));
  std::vector<SideBySide> here;
  for (const auto& x : ar.analysis.side_by_side)
    if (x.sec == s.sec) here.push_back(x);
  for (const std::string& api : partner_apis(here))
    add_table(body, fmt::format("cuda vs {0} · {0}/cuda time ratio by n · {1}", api, what),
              ratio_matrix(ar, s, api));
}

// Each backend's ladder at one size, then the variants measured on CUDA and another GPU API.
void add_ladders(const AnalyzedReport& ar, const Section& sec, std::uint64_t n,
                 std::vector<Block>& body) {
  for (const auto& d : ar.report.devices)
    if (const Ladder* ladder = ar.analysis.ladder(sec, n, d.backend))
      add_table(body, fmt::format("{} · {}", d.backend, section_title(sec, n)),
                ladder_table(ar, *ladder));
  std::vector<SideBySide> here;
  for (const auto& x : ar.analysis.side_by_side)
    if (x.sec == sec && x.n == n) here.push_back(x);
  if (here.empty()) return;
  add_table(body, fmt::format("{} · {}", versus_words(partner_apis(here)), section_title(sec, n)),
            side_by_side_table(ar, here));
  if (const auto compiled = partner_apis(here, true); !compiled.empty())
    add_table(body,
              fmt::format("compiled · {} · {}", versus_words(compiled), section_title(sec, n)),
              compiled_table(ar, here));
}

// The bests, the libraries, the crossovers and the results above the peak of one section.
void add_summaries(const AnalyzedReport& ar, const SectionSizes& s, std::vector<Block>& body) {
  const Analysis& a = ar.analysis;
  const std::string what = section_what(s.sec);
  if (s.sizes.size() > 1 || ar.report.devices.size() > 1)
    add_table(body, fmt::format("best per size · {}", what), best_table(ar, s));
  std::vector<VersusLibraries> here;
  for (const auto& v : a.versus_libraries)
    if (v.sec == s.sec) here.push_back(v);
  if (!here.empty())
    add_table(body, fmt::format("xreduce vs the libraries · {}", what), libraries_table(ar, here));
  for (const auto& x : a.crossovers)
    if (x.sec == s.sec) add_text(body, Block::Kind::line, crossover_text(x, ar.report));
  for (const auto& x : a.above_peak)
    if (x.sec == s.sec) add_text(body, Block::Kind::line, above_peak_text(ar, x));
}

}  // namespace

void add_table(std::vector<Block>& body, std::string heading, Table table) {
  body.push_back({Block::Kind::heading, std::move(heading), {}});
  body.push_back({Block::Kind::table, {}, std::move(table)});
}

void add_text(std::vector<Block>& body, Block::Kind kind, std::string text) {
  body.push_back({kind, std::move(text), {}});
}

Document build_document(const AnalyzedReport& ar) {
  Document doc{header_of(ar), {}};
  add_devices(ar, doc.body);
  for (const SectionSizes& s : ar.analysis.sections) {
    const bool matrix = s.sizes.size() > kMaxLadderSizes;
    if (matrix) add_matrices(ar, s, doc.body);
    for (std::uint64_t n : matrix ? std::vector<std::uint64_t>{s.sizes.back()} : s.sizes)
      add_ladders(ar, s.sec, n, doc.body);
    add_summaries(ar, s, doc.body);
  }
  if (ar.baseline) add_baseline_blocks(*ar.baseline, doc.body);
  return doc;
}

}  // namespace xr::app
