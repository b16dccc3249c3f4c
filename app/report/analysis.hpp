// Every number a compare report derives from its rows, computed once by analyze() as nvbench's
// summaries are: the per-row metrics (GB/s, % of the measured peak, step and cumulative speedups,
// ratio to lib/cub), and per section the ladders, each GPU API beside CUDA, the best per
// backend and size, the CPU/GPU crossovers, xreduce against the libraries and the rows above the
// peak. The renderers only format what is here; none derives a number of its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/compiled.hpp"
#include "report/model.hpp"
#include "report/section.hpp"

namespace xr::app {

using RowIndex = std::size_t;  // into CompareReport::rows

// What analyze() derives for one row; empty where it does not apply.
struct RowMetrics {
  double gbps = 0;                     // bytes_moved(primitive) / ms.median; 0 when not measured
  std::optional<double> gkeys_per_s;   // a sort's keys (n) / ms.median, in 10^9 per second
  std::optional<double> pct_peak;      // of the device's read (reduce) or copy (scan) peak
  bool above_peak = false;             // pct_peak > 100: the probe missed this device's peak
  std::optional<double> step_speedup;  // the previous measured row's time over this one's
  std::optional<double> cumulative_speedup;  // the ladder's first measured row's time over this
  std::optional<double> vs_cub;              // CUDA lib/cub's time over this one's (not the CPU)
};

// The rows of one backend at one point of a section, in ladder order (the catalog's).
struct Ladder {
  Section sec;
  std::uint64_t n = 0;
  std::string backend;
  std::vector<RowIndex> rows;
};

struct SectionSizes {
  Section sec;
  std::vector<std::uint64_t> sizes;  // ascending
};

// Another GPU API's row of a variant that CUDA measured at the same point.
struct Partner {
  std::string backend;  // one of compared_apis()
  RowIndex row = 0;
  double ratio = 0;  // its time / cuda's time
  // Where both rows carry their compiled passes: the facts that differ (report/compiled.hpp).
  std::optional<std::vector<FactDifference>> compiled_differences;
};

// A variant measured on CUDA and on at least one other GPU API at the same point (the bridge of
// the ladder).
struct SideBySide {
  Section sec;
  std::uint64_t n = 0;
  std::string variant;
  RowIndex cuda = 0;
  std::vector<Partner> partners;  // in kGpuApis order; never empty

  // The row of `backend` beside CUDA's; nullptr where it did not measure the variant here.
  const Partner* partner(std::string_view backend) const;
};

// The APIs compared with CUDA somewhere in `xs`, in kGpuApis order: the columns of their tables.
// With `compiled`, only those whose partners carry compiled facts somewhere.
std::vector<std::string> partner_apis(const std::vector<SideBySide>& xs, bool compiled = false);

// The fastest correct variant of one backend at one point.
struct Best {
  Section sec;
  std::uint64_t n = 0;
  std::string backend;
  RowIndex row = 0;
};

// Where a GPU backend's best overtakes the CPU's best for good (two or more sizes).
struct Crossover {
  Section sec;
  std::string backend;             // the GPU backend compared with the CPU
  std::optional<std::uint64_t> n;  // smallest size from which it stays faster; nullopt: never
  bool everywhere = false;         // faster at every measured size
  std::uint64_t cpu_until = 0;     // the largest size where the CPU is still faster
  std::uint64_t largest = 0;
};

// At a point with xreduce GPU rows and library rows, all correct: the best of each side.
struct VersusLibraries {
  Section sec;
  std::uint64_t n = 0;
  RowIndex ours = 0;                                   // xreduce's fastest on a GPU
  std::vector<std::pair<std::string, RowIndex>> libs;  // each library's row, in report order
  RowIndex best_lib = 0;
  std::string best_library;  // its name: "cub", "torch.sum", ...
  double speedup = 0;        // best library time / xreduce's best time: >= 1 means as fast
};

// The rows of a section above their device's measured peak.
struct AbovePeak {
  Section sec;
  int count = 0;
  RowIndex top = 0;  // the highest % peak
};

// The SM clock one device's rows were measured at (the rows that carry one; none where the
// backend measures no clock).
struct DeviceClock {
  int rows = 0;                        // measured rows with a clock
  std::optional<double> median_mhz;    // the median of those rows' medians
  std::optional<double> lowest_mhz;    // the lowest sample of any of them
  std::optional<double> floor;         // lowest_mhz over the device's reference clock
  int retaken = 0;                     // samples retaken under the threshold, over all its rows
  int throttled_rows = 0;              // rows that kept samples under it (the budget ran out)
  std::optional<RowIndex> lowest_row;  // the row of the lowest sample
};

// The peak a device's rows' "% peak" is against: the best probe of any API measured in this run
// on the same GPU (one UUID), so that an API whose own probe runs slower does not see its rows
// flattered; the device's own probe where no other API shares its GPU.
struct PeakSource {
  std::optional<double> gbps;
  std::string backend;  // whose probe it is
};
struct DevicePeaks {
  PeakSource read, copy;
  // Read for reduce and histogram (each reads its input once); copy for scan and sort
  // (DeviceRecord::peak_for).
  const PeakSource& of(Primitive p) const {
    return p == Primitive::reduce || p == Primitive::histogram ? read : copy;
  }
};

// Whether xreduce's GPU APIs measured one GPU, proven by UUID.
struct SameGpu {
  bool same = false;                                       // every UUID known and equal
  std::vector<std::pair<std::string, std::string>> uuids;  // backend, its UUID; kGpuApis order
};

// One direction of a --transfers row against the backend's host link. The bar: uploads and
// read-backs of kLinkShareFrom bytes and more reach kLinkShareTarget of the link; smaller transfers
// carry fixed costs it does not ask to hide.
inline constexpr double kLinkShareTarget = 0.8;
inline constexpr std::uint64_t kLinkShareFrom = std::uint64_t{64} << 20;
struct LinkShare {
  std::optional<double> share;    // the path's rate over the link's; nullopt without a link rate
  std::optional<bool> meets_bar;  // with a share, from kLinkShareFrom bytes on
};
struct TransferShares {
  LinkShare upload, readback;
};

// Everything analyze() derives from one report; a RowIndex points into that report's rows.
struct Analysis {
  std::vector<RowMetrics> metrics;     // parallel to CompareReport::rows
  std::optional<SameGpu> same_gpu;     // when two or more GPU APIs are in the report
  std::vector<SectionSizes> sections;  // in section order
  std::vector<Ladder> ladders;         // by section, size, then backend in device order; none empty
  std::vector<SideBySide> side_by_side;
  std::vector<Best> bests;  // by section, size, then backend in device order
  std::vector<Crossover> crossovers;
  std::vector<VersusLibraries> versus_libraries;
  std::vector<AbovePeak> above_peak;
  std::vector<DeviceClock> device_clocks;  // parallel to CompareReport::devices
  std::vector<DevicePeaks> device_peaks;   // parallel to CompareReport::devices
  // Parallel to CompareReport::devices, each parallel to its transfer table's rows (empty for a
  // device without one).
  std::vector<std::vector<TransferShares>> transfer_shares;

  // The ladder of `backend` at that point; nullptr when it has no row there.
  const Ladder* ladder(const Section& sec, std::uint64_t n, const std::string& backend) const;
  // The best of `backend` at that point; nullptr when none of its rows there is correct.
  const Best* best(const Section& sec, std::uint64_t n, const std::string& backend) const;
};

// The clock of each device's rows, parallel to report.devices (Analysis::device_clocks; the
// baseline's header compares two reports' too).
std::vector<DeviceClock> device_clocks(const CompareReport& report);

// Derives everything above from `report`, which it leaves as it is. Deterministic: a pure
// function of the report. Every row's backend must be one of report.devices (measure and merge
// keep that).
Analysis analyze(const CompareReport& report);

// A report with its analysis: what every renderer reads. Holds references: both must outlive it.
struct BaselineDiff;

struct AnalyzedReport {
  const CompareReport& report;
  const Analysis& analysis;
  const BaselineDiff* baseline = nullptr;  // compare --baseline: the diff against it

  const ResultRow& row(RowIndex i) const { return report.rows[i]; }
  const RowMetrics& metrics(RowIndex i) const { return analysis.metrics[i]; }
  // The row of `variant` in the ladder of `backend` at that point.
  std::optional<RowIndex> find_row(const Section& sec, std::uint64_t n, const std::string& backend,
                                   const std::string& variant) const;
};

}  // namespace xr::app
