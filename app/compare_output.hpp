// The last stage of `xreduce compare` and of `xreduce diff`: the report written in --format to
// stdout or --out, plus --save-json and --plot.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "commands.hpp"
#include "report/analysis.hpp"

namespace xr::app {

// Where a command's outputs go besides stdout.
struct OutputFiles {
  std::string out;        // the report instead of stdout
  std::string plot;       // drawn by bench/plot.py from the JSON report
  std::string save_json;  // the JSON report as well
  bool quiet = false;     // no "wrote FILE" lines
};

// Before any work: Error(usage) "unknown --format 'X' for <command> (...)" unless text, md, csv
// or json.
void check_output_format(const std::string& format, std::string_view command);

// Before any work: Error(usage) for two outputs that name one file, a --plot name that is not
// .svg, .png or .pdf and a path that cannot be created.
void check_output_files(const OutputFiles& files);

// `text` to --out (or stdout), `json()` (called only when --plot or --save-json needs it) to
// --save-json and to the plot. Every file is written whole (temporary + rename); on a failure
// the ones already placed are removed again, so a failed run leaves no output behind.
// Error(usage) naming a file that cannot be written, Error(unavailable) when --plot cannot draw.
void write_outputs(const std::string& text, const std::function<std::string()>& json,
                   const OutputFiles& files);

// compare's report rendered in --format, then written as above.
void write_outputs(const AnalyzedReport& report, const CompareOptions& options);

}  // namespace xr::app
