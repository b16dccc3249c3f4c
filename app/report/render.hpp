// The four renderings of compare's report, one printer per format as nvbench's are, each in its
// own file: text and markdown walk the document (document.hpp), CSV and JSON write the rows and
// summaries of the analysis. None derives a number; the JSON schema is documented in docs/cli.md.
#pragma once

#include <string>

#include "common.hpp"
#include "report/analysis.hpp"
#include "report/baseline.hpp"
#include "report/document.hpp"

namespace xr::app {

// For a terminal (colours when `style` is enabled) or a text file.
std::string render_text(const Document& doc, const Style& style);
std::string render_markdown(const Document& doc);
// One line per row, in measurement order, with its metrics; with a baseline, the diff's CSV.
std::string render_csv(const AnalyzedReport& ar);
// Config, devices, rows with their metrics, and every summary of the analysis; with a baseline,
// its section ("baseline").
std::string render_json(const AnalyzedReport& ar);

// A diff against a baseline: its matched rows worst first, then the rows not comparable and
// those of one report only, each with a verdict (docs/cli.md).
std::string render_diff_csv(const BaselineDiff& d);
// `xreduce diff --format json`: the schema version, the tool's identity and the baseline section.
std::string render_diff_json(const BaselineDiff& d, const std::string& version,
                             const std::string& commit, const std::string& command);

}  // namespace xr::app
