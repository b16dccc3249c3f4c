// The library's onesweep PTX as the build writes it (XR_ONESWEEP_PTX), and what the host tests
// need of it without a GPU: an entry found by a part of its mangled name, and the layout of its
// parameter block as cuFuncGetParamInfo gives it, read from the entry's declarations.
#pragma once

#include <string>
#include <vector>

#include "recording.hpp"
#include "xreduce/ptx_module.hpp"

namespace xr::onebin::test {

const PtxModule& onesweep_ptx();
// The one entry whose name holds `part`; fails the test when none or several do.
std::string entry_named(const std::string& part);
// Each parameter's offset and size, each aligned as its declaration says.
std::vector<ParamSpan> declared_spans(const PtxModule& ptx, const std::string& entry);

// The words of a block that hold the library's pointers: kernels/sort_onesweep.cuh's
// OnesweepArgs<u32> (keys in and out, values in and out, the count, the status, the tile
// counter, the bins in and out) and the byte where run 2^28's stale half pointer lay (in the
// padding after the digit's fields).
inline constexpr std::size_t kKeysIn = 0, kKeysOut = 8, kValuesIn = 16, kValuesOut = 24,
                             kCount = 64, kStatus = 72, kCounter = 80, kBinsIn = 88, kBinsOut = 96,
                             kPaddingWord = 56, kPassBlock = 120;

}  // namespace xr::onebin::test
