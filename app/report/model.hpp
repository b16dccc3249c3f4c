// The result of `xreduce compare` as data: what was measured (or merged from another report),
// nothing derived from it. analysis.hpp derives every number the renderings show.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "xreduce/backend.hpp"
#include "xreduce/harness.hpp"
#include "xreduce/primitive.hpp"
#include "xreduce/types.hpp"

namespace xr::app {

// compare --transfers for one backend: its host link (the anchor) and its own transfer path.
struct TransferTable {
  LinkRate link;                   // Backend::measure_link at the largest size
  std::vector<TransferRow> rows;   // DeviceArray::write / read_into, by size ascending
  std::vector<std::string> notes;  // sizes clamped to the device or to the host
};

// What the rows of a transfer table time (measure_transfers), in words.
inline constexpr std::string_view kTransferPath = "DeviceArray::write / read_into, host clock";

struct DeviceRecord {
  std::string backend;
  DeviceInfo info;
  std::optional<double> read_peak_gbps;    // Backend::measure_read_bandwidth_gbps, once per run
  std::optional<double> copy_peak_gbps;    // Backend::measure_copy_bandwidth_gbps, once per run
  std::vector<Overhead> overheads;         // Backend::measure_overheads, with --overheads
  std::optional<TransferTable> transfers;  // with --transfers, where the backend has a host link
  std::string merged_from;                 // the --merge file it came from; empty when measured
  // Backend::knobs: the environment knobs the backend ran with (name, value), when set.
  std::vector<std::pair<std::string, std::string>> knobs;
  // The clock its rows' samples are held against (ClockProbe::reference_mhz), where measured;
  // `clock` says how it is measured (ClockProbe::method) or why it is not.
  std::optional<double> reference_clock_mhz;
  std::string clock;
  // The peak a primitive's "% peak" is against: read for reduce and histogram (whose bytes are
  // the samples read), copy for scan and sort (whose bytes are the radix-sort bound's, read plus
  // written: its "% peak" is the share of the bound).
  std::optional<double> peak_for(Primitive p) const {
    return p == Primitive::reduce || p == Primitive::histogram ? read_peak_gbps : copy_peak_gbps;
  }
};

// One pass of a row's call as compiled: the facts that explain a time, from the variant's inspect()
// with occupancy() against its device's limits (xreduce inspect has the full record: stack,
// constants, the driver's statistics). Empty where the API does not report one.
struct PassFacts {
  std::string kernel;
  std::uint32_t block = 0;                    // threads per block / invocations per workgroup
  std::uint64_t grid = 0;                     // blocks / workgroups at the row's n
  std::optional<int> registers;               // per thread
  std::optional<std::uint64_t> shared_bytes;  // per block: the kernel's own plus the launch's
  std::optional<std::uint64_t> local_bytes;   // per thread (spills)
  std::optional<std::uint64_t> binary_bytes;  // the compiled code
  std::optional<int> instructions;            // SASS, where counted
  std::optional<double> occupancy;            // resident warps over the SM's maximum
  std::optional<int> blocks_per_sm;           // resident blocks
  std::string binds;                          // the limits that bind it: "registers, threads"
  std::string not_reported;  // why resources are empty ("not reported by this driver")
};

// A row's call as compiled: its passes, or why there are none (the variant's inspect() failed,
// or it runs no device code).
struct RowCompiled {
  std::vector<PassFacts> passes;
  std::string note;
};

enum class RowStatus { ok, failed, unsupported };

// "ok", "failed", "unsupported": the spelling of the CSV and JSON exports and of --merge files.
constexpr std::string_view to_string(RowStatus s) {
  switch (s) {
    case RowStatus::ok:
      return "ok";
    case RowStatus::failed:
      return "failed";
    case RowStatus::unsupported:
      return "unsupported";
  }
  return "";
}

// The status spelled by to_string(RowStatus); nullopt for any other text.
constexpr std::optional<RowStatus> parse_row_status(std::string_view text) {
  for (RowStatus s : {RowStatus::ok, RowStatus::failed, RowStatus::unsupported})
    if (to_string(s) == text) return s;
  return std::nullopt;
}

struct ResultRow {
  std::string backend;
  std::string variant;
  Operation operation;
  DType dtype = DType::i32;
  std::uint64_t n = 0;
  TimingMode mode = TimingMode::cold;
  int batch_calls = 0;  // calls per sample in batch mode
  RowStatus status = RowStatus::unsupported;
  std::string reason;  // why unsupported, or what failed the check
  Stats ms;            // the time reported: device timer, host, or end to end (see timing)
  Stats host_ms;       // host time (submit to result) beside it
  std::string timing;  // "device", "host" (no device timer) or "end-to-end"
  std::string result, reference;  // the value, or a scan's last element
  std::string diagnostics;        // what the variant counted at this point (Scanner::diagnostics)
  // The SM clock over the kept samples (core's ClockStats), where the backend measures it: the
  // lowest and the median, the samples retaken under the threshold, and whether the point kept
  // throttled samples when its budget ran out.
  std::optional<double> clock_min_mhz, clock_median_mhz;
  int clock_retaken = 0;
  bool throttled = false;
  // What the call compiled into (GPU backends, rows measured on the device); none for the CPU,
  // end-to-end rows and reports written before schema 4.
  std::optional<RowCompiled> compiled;

  bool measured() const { return status != RowStatus::unsupported; }
};

// The "schema_version" of the JSON report this build writes; it reads every version up to it.
// 4 adds each row's "compiled" (its passes' launch, registers, shared memory and occupancy).
// 3 adds the SM clock: each row's "clock_mhz", "clock_retaken" and "throttled", each device's
// "reference_clock_mhz" and "clock". 2 adds "schema_version", "commit" and, with --baseline,
// "baseline". 1 has none of these.
inline constexpr int kReportSchema = 4;

struct CompareReport {
  std::string version;
  std::string commit;  // the source the binary was built from (build_commit()); "" when unknown
  std::string command;
  std::string stats;  // "adaptive (>= 5 reps, spread < 1%, <= 2 s per point)" or "10 reps"
  std::vector<Primitive> primitives;  // measured, in order
  bool cold = true;
  bool include_transfer = false;
  std::uint64_t seed = 0;
  std::string dist;
  std::vector<DeviceRecord> devices;
  std::vector<std::pair<std::string, std::string>> skipped;  // backend, reason
  std::vector<TimingMode> modes;                             // measured, in order
  std::vector<std::string> notes;                            // what merging other reports noticed
  std::vector<ResultRow> rows;
};

}  // namespace xr::app
