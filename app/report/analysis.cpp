#include "report/analysis.hpp"

#include <algorithm>
#include <map>

#include "report/gpu_apis.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/harness.hpp"

namespace xr::app {
namespace {

// The rows of each point (section, size), in report order: found in one pass over the rows.
using Points = std::map<std::pair<Section, std::uint64_t>, std::vector<RowIndex>>;

Points points_of(const CompareReport& r) {
  Points points;
  for (RowIndex i = 0; i < r.rows.size(); ++i)
    points[{section_of(r.rows[i]), r.rows[i].n}].push_back(i);
  return points;
}

std::vector<SectionSizes> sections_of(const Points& points) {
  std::vector<SectionSizes> out;
  for (const auto& [point, rows] : points) {
    if (out.empty() || !(out.back().sec == point.first)) out.push_back({point.first, {}});
    out.back().sizes.push_back(point.second);
  }
  return out;
}

// Each backend's rows at each point, in ladder order (the catalog's).
std::vector<Ladder> ladders_of(const CompareReport& r, const Points& points) {
  std::vector<Ladder> out;
  for (const auto& [point, rows] : points)
    for (const auto& d : r.devices) {
      Ladder ladder{point.first, point.second, d.backend, {}};
      for (RowIndex i : rows)
        if (r.rows[i].backend == d.backend) ladder.rows.push_back(i);
      const Primitive p = point.first.primitive();
      std::stable_sort(ladder.rows.begin(), ladder.rows.end(), [&](RowIndex a, RowIndex b) {
        return ladder_position(p, r.rows[a].variant) < ladder_position(p, r.rows[b].variant);
      });
      if (!ladder.rows.empty()) out.push_back(std::move(ladder));
    }
  return out;
}

// Speedups along each ladder, % of the device's peak, and the ratio to CUDA's lib/cub.
void ladder_metrics(const CompareReport& r, Analysis& a) {
  for (const Ladder& ladder : a.ladders) {
    const ResultRow* cub = nullptr;
    const AnalyzedReport ar{r, a};
    if (auto i = ar.find_row(ladder.sec, ladder.n, "cuda", "lib/cub"); i && r.rows[*i].measured())
      cub = &r.rows[*i];
    std::optional<double> peak;
    for (std::size_t d = 0; d < r.devices.size(); ++d)
      if (r.devices[d].backend == ladder.backend)
        peak = a.device_peaks[d].of(ladder.sec.primitive()).gbps;
    const ResultRow* first = nullptr;
    const ResultRow* prev = nullptr;
    for (RowIndex i : ladder.rows) {
      const ResultRow& row = r.rows[i];
      RowMetrics& m = a.metrics[i];
      if (!row.measured() || row.ms.median <= 0) continue;
      if (!first) first = &row;
      m.cumulative_speedup = first->ms.median / row.ms.median;
      if (prev) m.step_speedup = prev->ms.median / row.ms.median;
      prev = &row;
      if (peak && *peak > 0 && row.timing != "end-to-end") {
        m.pct_peak = 100.0 * m.gbps / *peak;
        m.above_peak = *m.pct_peak > 100.0;
      }
      // The vendor anchor is a GPU yardstick; beside the CPU it says nothing useful.
      if (cub && cub->ms.median > 0 && ladder.backend != "cpu")
        m.vs_cub = cub->ms.median / row.ms.median;
    }
  }
}

// Present with two or more GPU APIs: with three, one that differs is enough for a warning.
std::optional<SameGpu> same_gpu_of(const CompareReport& r) {
  SameGpu g;
  for (std::string_view api : kGpuApis)
    for (const auto& d : r.devices)
      if (d.backend == api) g.uuids.emplace_back(d.backend, d.info.uuid);
  if (g.uuids.size() < 2) return std::nullopt;
  const std::string& first = g.uuids.front().second;
  g.same = std::all_of(g.uuids.begin(), g.uuids.end(),
                       [&](const auto& u) { return !u.second.empty() && u.second == first; });
  return g;
}

// The row of `api` beside CUDA's row of `x`, where it measured the same variant there.
std::optional<Partner> partner_of(const AnalyzedReport& ar, const SideBySide& x,
                                  std::string_view api) {
  const auto i = ar.find_row(x.sec, x.n, std::string(api), x.variant);
  if (!i || !ar.row(*i).measured()) return std::nullopt;
  const ResultRow& cuda = ar.row(x.cuda);
  const ResultRow& row = ar.row(*i);
  Partner p{std::string(api), *i, cuda.ms.median > 0 ? row.ms.median / cuda.ms.median : 0, {}};
  const auto& cc = cuda.compiled;
  const auto& oc = row.compiled;
  if (cc && oc && !cc->passes.empty() && !oc->passes.empty())
    p.compiled_differences = differing_facts(*cc, *oc);
  return p;
}

std::vector<SideBySide> side_by_side_of(const CompareReport& r, const Analysis& a) {
  const AnalyzedReport ar{r, a};
  std::vector<SideBySide> out;
  for (const Ladder& cuda : a.ladders) {
    if (cuda.backend != kAnchorApi) continue;
    for (RowIndex c : cuda.rows) {
      if (!r.rows[c].measured()) continue;
      SideBySide x{cuda.sec, cuda.n, r.rows[c].variant, c, {}};
      for (std::string_view api : compared_apis())
        if (auto p = partner_of(ar, x, api)) x.partners.push_back(std::move(*p));
      if (!x.partners.empty()) out.push_back(std::move(x));
    }
  }
  return out;
}

std::vector<Best> bests_of(const CompareReport& r, const Analysis& a) {
  std::vector<Best> out;
  for (const Ladder& ladder : a.ladders) {
    std::optional<RowIndex> best;
    for (RowIndex i : ladder.rows)
      if (r.rows[i].status == RowStatus::ok &&
          (!best || r.rows[i].ms.median < r.rows[*best].ms.median))
        best = i;
    if (best) out.push_back({ladder.sec, ladder.n, ladder.backend, *best});
  }
  return out;
}

std::vector<Crossover> crossovers_of(const CompareReport& r, const Analysis& a) {
  std::vector<Crossover> out;
  const bool cpu = std::any_of(r.devices.begin(), r.devices.end(),
                               [](const DeviceRecord& d) { return d.backend == "cpu"; });
  if (!cpu) return out;
  for (const auto& [sec, ns] : a.sections) {
    if (ns.size() < 2) continue;
    for (const auto& d : r.devices) {
      const std::string& b = d.backend;
      if (!is_gpu_api(b)) continue;  // xreduce's GPU backends, not merged peers
      std::vector<std::pair<std::uint64_t, bool>> faster;  // n, gpu faster than cpu
      for (std::uint64_t n : ns) {
        const Best* g = a.best(sec, n, b);
        const Best* c = a.best(sec, n, "cpu");
        if (g && c) faster.emplace_back(n, r.rows[g->row].ms.median < r.rows[c->row].ms.median);
      }
      if (faster.size() < 2) continue;
      Crossover x{sec, b, std::nullopt, false, 0, faster.back().first};
      std::size_t i = faster.size();
      while (i > 0 && faster[i - 1].second) --i;
      if (i < faster.size()) x.n = faster[i].first;
      x.everywhere = i == 0;
      if (i > 0) x.cpu_until = faster[i - 1].first;
      out.push_back(x);
    }
  }
  return out;
}

// The libraries a user would pick instead of xreduce: CUB (the CUDA backend's lib/*) and the
// peers merged from bench/peers.py (every backend that is not one of xreduce's).
bool is_library(const ResultRow& row) {
  return row.variant.rfind("lib/", 0) == 0 || (row.backend != "cpu" && !is_gpu_api(row.backend));
}
bool is_ours_on_gpu(const ResultRow& row) {
  return is_gpu_api(row.backend) && !is_library(row);
}
std::string library_name(const ResultRow& row) {
  return row.variant.rfind("lib/", 0) == 0 ? row.variant.substr(4) : row.variant;
}

// xreduce's and the libraries' best among the `rows` of one point; nullopt without both.
std::optional<VersusLibraries> versus_at(const CompareReport& r, const Section& sec,
                                         std::uint64_t n, const std::vector<RowIndex>& rows,
                                         const std::vector<std::string>& names) {
  VersusLibraries v;
  v.sec = sec;
  v.n = n;
  std::optional<RowIndex> ours, best_lib;
  for (RowIndex i : rows) {
    const ResultRow& row = r.rows[i];
    if (row.status != RowStatus::ok || row.ms.median <= 0) continue;
    if (is_ours_on_gpu(row) && (!ours || row.ms.median < r.rows[*ours].ms.median)) ours = i;
    if (is_library(row)) {
      v.libs.emplace_back(library_name(row), i);
      if (!best_lib || row.ms.median < r.rows[*best_lib].ms.median) best_lib = i;
    }
  }
  if (!ours || !best_lib) return std::nullopt;
  std::stable_sort(v.libs.begin(), v.libs.end(), [&](const auto& a, const auto& b) {
    return std::find(names.begin(), names.end(), a.first) <
           std::find(names.begin(), names.end(), b.first);
  });
  v.ours = *ours;
  v.best_lib = *best_lib;
  v.best_library = library_name(r.rows[*best_lib]);
  v.speedup = r.rows[*best_lib].ms.median / r.rows[*ours].ms.median;
  return v;
}

std::vector<VersusLibraries> versus_libraries_of(const CompareReport& r, const Points& points) {
  std::vector<std::string> names;  // libraries in report order
  for (const auto& row : r.rows)
    if (is_library(row) && std::find(names.begin(), names.end(), library_name(row)) == names.end())
      names.push_back(library_name(row));
  std::vector<VersusLibraries> out;
  for (const auto& [point, rows] : points)
    if (auto v = versus_at(r, point.first, point.second, rows, names)) out.push_back(std::move(*v));
  return out;
}

// In report order, so that of two rows equally far above the peak the first is the one named.
std::vector<AbovePeak> above_peak_of(const CompareReport& r, const Analysis& a) {
  std::map<Section, AbovePeak> by_section;
  for (RowIndex i = 0; i < r.rows.size(); ++i) {
    if (!a.metrics[i].above_peak) continue;
    const Section sec = section_of(r.rows[i]);
    AbovePeak& x = by_section.try_emplace(sec, AbovePeak{sec}).first->second;
    if (x.count == 0 || *a.metrics[i].pct_peak > *a.metrics[x.top].pct_peak) x.top = i;
    ++x.count;
  }
  std::vector<AbovePeak> out;
  for (const auto& [sec, x] : by_section) out.push_back(x);
  return out;
}

LinkShare link_share(double gbps, double link_gbps, std::uint64_t bytes) {
  if (!(link_gbps > 0)) return {};
  const double share = gbps / link_gbps;
  return {share, bytes < kLinkShareFrom ? std::nullopt : std::optional(share >= kLinkShareTarget)};
}

std::vector<std::vector<TransferShares>> transfer_shares_of(const CompareReport& r) {
  std::vector<std::vector<TransferShares>> out;
  for (const auto& d : r.devices) {
    std::vector<TransferShares>& shares = out.emplace_back();
    if (!d.transfers) continue;
    const LinkRate& link = d.transfers->link;
    for (const auto& row : d.transfers->rows)
      shares.push_back({link_share(row.upload_gbps, link.upload_gbps, row.bytes),
                        link_share(row.readback_gbps, link.readback_gbps, row.bytes)});
  }
  return out;
}

}  // namespace

const Ladder* Analysis::ladder(const Section& sec, std::uint64_t n,
                               const std::string& backend) const {
  for (const auto& l : ladders)
    if (l.sec == sec && l.n == n && l.backend == backend) return &l;
  return nullptr;
}

std::optional<RowIndex> AnalyzedReport::find_row(const Section& sec, std::uint64_t n,
                                                 const std::string& backend,
                                                 const std::string& variant) const {
  if (const Ladder* l = analysis.ladder(sec, n, backend))
    for (RowIndex i : l->rows)
      if (row(i).variant == variant) return i;
  return std::nullopt;
}

const Partner* SideBySide::partner(std::string_view backend) const {
  for (const auto& p : partners)
    if (p.backend == backend) return &p;
  return nullptr;
}

std::vector<std::string> partner_apis(const std::vector<SideBySide>& xs, bool compiled) {
  std::vector<std::string> out;
  for (std::string_view api : compared_apis())
    if (std::any_of(xs.begin(), xs.end(), [&](const SideBySide& x) {
          const Partner* p = x.partner(api);
          return p && (!compiled || p->compiled_differences);
        }))
      out.emplace_back(api);
  return out;
}

const Best* Analysis::best(const Section& sec, std::uint64_t n, const std::string& backend) const {
  for (const auto& b : bests)
    if (b.sec == sec && b.n == n && b.backend == backend) return &b;
  return nullptr;
}

std::vector<DeviceClock> device_clocks(const CompareReport& r) {
  std::vector<DeviceClock> out;
  for (const auto& d : r.devices) {
    DeviceClock& c = out.emplace_back();
    std::vector<double> medians;
    for (RowIndex i = 0; i < r.rows.size(); ++i) {
      const ResultRow& row = r.rows[i];
      if (row.backend != d.backend || !row.measured() || !row.clock_median_mhz) continue;
      ++c.rows;
      medians.push_back(*row.clock_median_mhz);
      if (!c.lowest_mhz || *row.clock_min_mhz < *c.lowest_mhz) {
        c.lowest_mhz = row.clock_min_mhz;
        c.lowest_row = i;
      }
      c.retaken += row.clock_retaken;
      c.throttled_rows += row.throttled ? 1 : 0;
    }
    if (medians.empty()) continue;
    c.median_mhz = summarize(std::move(medians)).median;
    if (d.reference_clock_mhz && *d.reference_clock_mhz > 0)
      c.floor = *c.lowest_mhz / *d.reference_clock_mhz;
  }
  return out;
}

namespace {

// The better of `best` and `d`'s probe of primitive `p`'s peak.
void take_better(PeakSource& best, const DeviceRecord& d, Primitive p) {
  const std::optional<double> g = d.peak_for(p);
  if (g && *g > 0 && (!best.gbps || *g > *best.gbps)) best = {g, d.backend};
}

// The peaks each device's rows are held against, parallel to report.devices.
std::vector<DevicePeaks> device_peaks(const CompareReport& r) {
  std::vector<DevicePeaks> out;
  for (const DeviceRecord& d : r.devices) {
    DevicePeaks& p = out.emplace_back();
    take_better(p.read, d, Primitive::reduce);  // its own first: another API's only if faster
    take_better(p.copy, d, Primitive::scan);
    // Another API on the same GPU, both measured in this run (a merged report's probe is not).
    for (const DeviceRecord& other : r.devices)
      if (!d.info.uuid.empty() && other.info.uuid == d.info.uuid && other.merged_from.empty() &&
          d.merged_from.empty()) {
        take_better(p.read, other, Primitive::reduce);
        take_better(p.copy, other, Primitive::scan);
      }
  }
  return out;
}

}  // namespace

Analysis analyze(const CompareReport& r) {
  Analysis a;
  a.metrics.resize(r.rows.size());
  for (RowIndex i = 0; i < r.rows.size(); ++i) {
    const ResultRow& row = r.rows[i];
    if (!row.measured()) continue;
    a.metrics[i].gbps = gbps(bytes_moved(row.operation, row.n, row.dtype), row.ms.median);
    if (row.operation.primitive == Primitive::sort && row.ms.median > 0)
      a.metrics[i].gkeys_per_s = static_cast<double>(row.n) / (row.ms.median * 1e6);
  }
  a.same_gpu = same_gpu_of(r);
  const Points points = points_of(r);
  a.sections = sections_of(points);
  a.ladders = ladders_of(r, points);
  a.device_peaks = device_peaks(r);
  ladder_metrics(r, a);
  a.side_by_side = side_by_side_of(r, a);
  a.bests = bests_of(r, a);
  a.crossovers = crossovers_of(r, a);
  a.versus_libraries = versus_libraries_of(r, points);
  a.above_peak = above_peak_of(r, a);
  a.device_clocks = device_clocks(r);
  a.transfer_shares = transfer_shares_of(r);
  return a;
}

}  // namespace xr::app
