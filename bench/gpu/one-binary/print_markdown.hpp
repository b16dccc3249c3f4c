// The report as markdown: per case the clock, the columns (what ran, its check), and the table
// of steps by columns with each one's ratio to CUDA's.
#pragma once

#include <string>
#include <vector>

#include "analysis.hpp"

namespace xr::onebin {

std::string markdown_report(const Report& r, const std::vector<CaseAnalysis>& a);

}  // namespace xr::onebin
