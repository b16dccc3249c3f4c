// compare --merge: another compare JSON report (bench/peers.py's torch and cupy rows, or an
// earlier run), parsed when the plan is made (saved.hpp), its devices and rows folded into the
// report after measuring.
#pragma once

#include "report/model.hpp"
#include "report/saved.hpp"

namespace xr::app {

// Appends `merged`'s devices (merged_from = its path) and rows to `report`, with a note (sorted,
// each once) for rows in a mode this run did not measure and for devices whose UUID differs from
// the CUDA device's. Error(usage) when one of its backends is already in the report: its rows
// would mix two runs.
void fold_merged(CompareReport& report, const SavedReport& merged);

}  // namespace xr::app
