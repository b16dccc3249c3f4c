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

std::string render_text(const AnalyzedReport& report, const Style& style);
std::string render_markdown(const AnalyzedReport& report);
std::string render_csv(const AnalyzedReport& report);
std::string render_json(const AnalyzedReport& report);

}  // namespace xr::app
