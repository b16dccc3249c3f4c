// Stage 2 of `xreduce compare`: the report's header and each backend's device record, the peaks
// its "% peak" is against (measured before the points and again after), and with --overheads and
// --transfers the costs around the kernels and against the host link.
#pragma once

#include "compare_plan.hpp"
#include "progress.hpp"
#include "report/model.hpp"

namespace xr::app {

// The header, and each backend's measured peaks: the read peak for reduce's "% peak", the copy
// peak for scan's (each probed only when its primitive is measured).
CompareReport start_report(const ComparePlan& plan, const CompareOptions& options,
                           Progress& progress);

// The peaks again after the measurements, keeping the higher of the two: a peak is what the
// device reached in this run, and its speed may drift over it (a GPU's clocks ramping up from
// idle, the host scheduling a CPU device's threads differently from one minute to the next).
void reprobe_peaks(const ComparePlan& plan, CompareReport& report, Progress& progress);

}  // namespace xr::app
