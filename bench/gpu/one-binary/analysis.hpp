// The ratios of a report, derived once for every printer: each column's time against CUDA's as
// the comparison states them (CUDA's time / the column's: 0.5x is twice as slow). The whole call
// against the library's own call, each step against the library's cubin replayed.
#pragma once

#include <optional>
#include <vector>

#include "results.hpp"

namespace xr::onebin {

struct CaseAnalysis {
  std::vector<std::optional<double>> call;                     // per column
  std::vector<std::optional<double>> steps_sum;                // per column
  std::vector<std::vector<std::optional<double>>> step;        // per column, per step
  std::optional<std::size_t> reference_call, reference_steps;  // the columns compared with
};

std::vector<CaseAnalysis> analyze(const Report& r);

}  // namespace xr::onebin
