// compare --merge: another compare JSON report (bench/peers.py's torch and cupy rows, or an
// earlier run) read and parsed once, when the plan is made, so that a bad file fails before the
// long measurement; its devices and rows are folded into the report after measuring.
#pragma once

#include <string>
#include <vector>

#include "report/model.hpp"

namespace xr::app {

struct MergedReport {
  std::string path;                   // as given to --merge
  std::vector<DeviceRecord> devices;  // each with merged_from = path; no backend twice
  std::vector<ResultRow> rows;        // each of one of `devices`' backends, in file order
};

// `text`, read from `path`, as a merged report. Error(usage) "--merge 'PATH': ..." naming the
// field, for text that is not a compare report or names a backend twice.
MergedReport parse_merged_report(const std::string& text, const std::string& path);

// The file at `path`, read and parsed; Error(usage) "--merge 'PATH': cannot read it: ..." when it
// cannot be read.
MergedReport read_merged_report(const std::string& path);

// Appends `merged`'s devices and rows to `report`, with a note (sorted, each once) for rows in a
// mode this run did not measure and for devices whose UUID differs from the CUDA device's.
// Error(usage) when one of its backends is already in the report: its rows would mix two runs.
void fold_merged(CompareReport& report, const MergedReport& merged);

}  // namespace xr::app
