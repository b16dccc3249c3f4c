// --fail-above PCT of compare --baseline and xreduce diff: the rows slower than the baseline
// beyond noise by more than PCT %, named on stderr, make the exit code 1 (docs/cli.md).
#pragma once

#include "report/baseline.hpp"

namespace xr::app {

// Prints one line per row over the limit to stderr; true when there was one.
bool report_over_limit(const BaselineDiff& diff);

}  // namespace xr::app
