// The result of `xreduce compare` as data, the numbers derived from it (step and cumulative
// speedups, % of the measured peak, ratio to lib/cub, the CUDA/Vulkan side by side, the best per
// backend and size, the CPU/GPU crossover), and its four renderings: text, markdown, CSV, JSON.
// Every derivation is per section, a (primitive, scan kind, op, dtype): reduce and scan go
// through the same code. The JSON schema is documented in docs/cli.md.
#pragma once

#include <string>

#include "common.hpp"
#include "report/analysis.hpp"
#include "report/model.hpp"

namespace xr::app {

// Folds the devices and rows of another compare JSON report (`text`, read from `path`) into
// `report`: bench/peers.py's torch and cupy rows, or an earlier run. A backend already in the
// report is refused (its rows would mix two runs); a device whose UUID differs from the CUDA
// device's gets a note. Error(usage) naming `path` for text that is not such a report.
void merge_json(CompareReport& report, const std::string& text, const std::string& path);

std::string render_text(const AnalyzedReport& report, const Style& style);
std::string render_markdown(const AnalyzedReport& report);
std::string render_csv(const AnalyzedReport& report);
std::string render_json(const AnalyzedReport& report);

}  // namespace xr::app
