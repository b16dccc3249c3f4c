#include "analysis.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace xr::onebin {
namespace {

std::optional<std::size_t> column(const CaseResult& c, std::string_view id) {
  for (std::size_t i = 0; i < c.columns.size(); ++i)
    if (c.columns[i].id == id && c.columns[i].refused.empty()) return i;
  return std::nullopt;
}

std::optional<double> ratio(const Stats& reference, const Stats& s) {
  if (!s.samples || !reference.samples || !(s.median > 0)) return std::nullopt;
  return reference.median / s.median;
}

CaseAnalysis analyze_case(const CaseResult& c) {
  CaseAnalysis a;
  a.reference_call = column(c, "cuda-library");
  a.reference_steps = column(c, "cuda-cubin");
  for (const ColumnResult& col : c.columns) {
    a.call.push_back(a.reference_call ? ratio(c.columns[*a.reference_call].call, col.call)
                                      : std::nullopt);
    a.steps_sum.push_back(a.reference_steps
                              ? ratio(c.columns[*a.reference_steps].steps_call, col.steps_call)
                              : std::nullopt);
    std::vector<std::optional<double>> per_step;
    for (std::size_t i = 0; i < col.steps.size(); ++i)
      per_step.push_back(a.reference_steps && i < c.columns[*a.reference_steps].steps.size()
                             ? ratio(c.columns[*a.reference_steps].steps[i], col.steps[i])
                             : std::nullopt);
    a.step.push_back(per_step);
  }
  return a;
}

}  // namespace

Stats stats_of(std::vector<double> v) {
  Stats s;
  s.samples = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  s.min = v.front();
  s.max = v.back();
  return s;
}

std::vector<CaseAnalysis> analyze(const Report& r) {
  std::vector<CaseAnalysis> out;
  for (const CaseResult& c : r.cases) out.push_back(analyze_case(c));
  return out;
}

}  // namespace xr::onebin
