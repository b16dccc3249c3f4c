// The four renderings of compare's report, one printer per format as nvbench's are, each in its
// own file: text and markdown walk the document (document.hpp), CSV and JSON write the rows and
// summaries of the analysis. None derives a number; the JSON schema is documented in docs/cli.md.
#pragma once

#include <string>

#include "common.hpp"
#include "report/analysis.hpp"
#include "report/document.hpp"

namespace xr::app {

// For a terminal (colours when `style` is enabled) or a text file.
std::string render_text(const Document& doc, const Style& style);
std::string render_markdown(const Document& doc);
// One line per row, in measurement order, with its metrics.
std::string render_csv(const AnalyzedReport& ar);
// Config, devices, rows with their metrics, and every summary of the analysis.
std::string render_json(const AnalyzedReport& ar);

}  // namespace xr::app
