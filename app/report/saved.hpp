// A compare JSON report read back (`--save-json`, bench/peers.py): what --merge folds in and what
// --baseline and `xreduce diff` compare against. Read and parsed once, before anything is
// measured, so that a bad file fails before the long measurement.
#pragma once

#include <string>
#include <string_view>

#include "report/model.hpp"

namespace xr::app {

struct SavedReport {
  std::string path;    // as given on the command line
  int schema = 1;      // its "schema_version"; 1 for reports written before the field existed
  CompareReport data;  // version, commit, command, devices and rows; nothing derived
};

// `text`, read from `path`, as a compare report. Error(usage) "<flag> 'PATH': ..." naming the
// field, for text that is not a compare report, a schema newer than kReportSchema, or a backend
// named twice. `flag` is the argument that named the file ("--merge", "--baseline", "diff").
SavedReport parse_saved_report(const std::string& text, const std::string& path,
                               std::string_view flag);

// The file at `path`, read and parsed; Error(usage) "<flag> 'PATH': cannot read it: ..." when it
// cannot be read.
SavedReport read_saved_report(const std::string& path, std::string_view flag);

}  // namespace xr::app
