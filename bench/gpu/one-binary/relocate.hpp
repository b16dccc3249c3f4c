// Which words of a captured call are addresses, and into which allocation, found by capturing
// the same call twice over two sets of allocations: a word the kernel's PTX loads whole
// (param_loads.hpp) is an address of slot s at offset o when it is base_a[s] + o in the first
// capture and base_b[s] + o in the second. Refused: such a word that is an address of the call
// in one capture and not the same place in the other, and one that holds an address of other
// device memory (the library's own, which no other API reaches). Bytes that differ otherwise
// (padding the host left unset) are passed as the first capture has them, and said in the
// recording's notes.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "capture.hpp"
#include "recording.hpp"

namespace xr::onebin {

// The calls must have the same steps; the slots' sizes are the same in both. Error(check_failed)
// naming the step and byte where the two captures disagree in a way no rebasing explains.
// `loaded_whole`: per kernel name, words_loaded_whole of its entry.
Recording relocate(const std::vector<CapturedStep>& a, const SlotBases& bases_a,
                   const std::vector<CapturedStep>& b, const SlotBases& bases_b,
                   const SlotSizes& sizes,
                   const std::map<std::string, std::vector<bool>>& loaded_whole);

}  // namespace xr::onebin
