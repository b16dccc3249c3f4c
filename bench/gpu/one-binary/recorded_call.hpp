// The library's call as a recording: captured once over its own allocations and once over a
// second set of the same sizes, the two relocated into one (relocate.hpp), beside the library's
// own function of each kernel step.
#pragma once

#include <cuda.h>

#include <vector>

#include "library_call.hpp"
#include "recording.hpp"
#include "xreduce/ptx_module.hpp"

namespace xr::onebin {

struct RecordedCall {
  Recording recording;
  std::vector<CUfunction> library_functions;  // per step, null for a fill
  std::vector<GraphOwner> graphs;             // the captures', as long as the recording
};

// `ptx` must define every kernel of the call (which words of its parameters it loads as
// addresses is read from there).
RecordedCall record_call(LibraryCall& call, const PtxModule& ptx);

// The names of the kernels a recording launches, each once, in order of first launch.
std::vector<std::string> kernel_names(const Recording& r);

// The replays' PTX: the recording's kernels alone, each renamed xr_replay_<i> (so that no module
// of a replay defines a name the library's own module defines), and each kernel step's `entry`
// set to its new name.
PtxModule replay_ptx(const PtxModule& all, Recording& r);

}  // namespace xr::onebin
