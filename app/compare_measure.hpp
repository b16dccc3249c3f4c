// Stage 3 of `xreduce compare`: every (dtype, n, backend, variant, operation, mode) of the plan
// measured into the report's rows. Data is generated once per (dtype, n) and uploaded once per
// backend; every variant is checked against one expectation per operation.
#pragma once

#include "compare_plan.hpp"
#include "progress.hpp"
#include "report/model.hpp"

namespace xr::app {

// The work of the plan for Progress: elements plus a fixed cost per point, so a sweep's large
// sizes count for more than its small ones.
double total_weight(const ComparePlan& plan);

// Appends a row per point to report.rows; a variant that cannot run a point leaves an
// "unsupported" row with the reason. True when a result failed its check.
bool measure_points(const ComparePlan& plan, const CompareOptions& options, CompareReport& report,
                    Progress& progress);

}  // namespace xr::app
