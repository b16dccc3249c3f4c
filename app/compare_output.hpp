// The last stage of `xreduce compare`: the report written in --format to stdout or --out, plus
// --save-json and --plot.
#pragma once

#include "commands.hpp"
#include "report/analysis.hpp"

namespace xr::app {

// Every file is written whole (temporary + rename); on a failure the ones already placed are
// removed again, so a failed run leaves no output behind. Error(usage) naming a file that
// cannot be written, Error(unavailable) when --plot cannot draw.
void write_outputs(const AnalyzedReport& report, const CompareOptions& options);

}  // namespace xr::app
