// The report as JSON: every field of the model and the ratios, for docs/results and for plots.
#pragma once

#include <string>
#include <vector>

#include "analysis.hpp"

namespace xr::onebin {

std::string json_report(const Report& r, const std::vector<CaseAnalysis>& a);

}  // namespace xr::onebin
