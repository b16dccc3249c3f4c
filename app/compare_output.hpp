// The last stage of `xreduce compare` and of `xreduce diff`: the report written in --format to
// stdout or --out, plus --save-json and --plot.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "commands.hpp"
#include "output_targets.hpp"
#include "report/analysis.hpp"

namespace xr::app {

// Before any work: Error(usage) "unknown --format 'X' for <command> (...)" unless text, md, csv
// or json.
void check_output_format(const std::string& format, std::string_view command);

// Before any work: Error(usage) for a --plot name that is not .svg, .png or .pdf, an output that
// cannot be written (OutputTarget::resolve), two outputs that name one file and an output that
// names one of `inputs` (the files the command reads).
OutputTargets resolve_output_files(const OutputFiles& files, std::span<const NamedInput> inputs);

// `text` to --out (or stdout), `json()` (called only when --plot or --save-json needs it) to
// --save-json and to the plot, all or none (OutputSet): a failed write places no output and
// leaves every file as it was. Error(usage) naming an output that cannot be written,
// Error(unavailable) when --plot cannot draw.
void write_outputs(const std::string& text, const std::function<std::string()>& json,
                   const OutputTargets& targets);

// compare's report rendered in --format, then written as above.
void write_outputs(const AnalyzedReport& report, const CompareOptions& options,
                   const OutputTargets& targets);

}  // namespace xr::app
