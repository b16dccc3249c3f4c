// One case of the experiment: the keys (and values) of a radix/onesweep call on the host, the
// sizes of the call's allocations, and the check of what a replay wrote.
#pragma once

#include <cstdint>
#include <string>

#include "recording.hpp"
#include "xreduce/reference.hpp"
#include "xreduce/sort_desc.hpp"
#include "xreduce/sort_reference.hpp"
#include "xreduce/types.hpp"

namespace xr::onebin {

struct SortCase {
  SortDesc desc;     // radix/onesweep, ascending, every bit
  HostArray keys;    // uniform over every bit pattern (the distribution `full`)
  HostArray values;  // each key's input position (sort_position_value); empty for keys alone
  std::string name() const;  // "u32 keys", "u32 keys + u32 values"
};

SortCase make_case(DType keys, SortValues values, std::uint64_t n, std::uint64_t seed);
// The call's allocations: keys in and out, values in and out (0 for keys alone), `temp_bytes`.
SlotSizes slot_sizes(const SortCase& c, std::uint64_t temp_bytes);

// What a call wrote into its keys_out and values_out, read back.
struct CallOutput {
  HostArray keys;
  HostArray values;
};
CallOutput empty_output(const SortCase& c);

// Every key (and value) against the stable order: the verdict names the first wrong element.
Verdict check_output(const SortReference& reference, const SortCase& c, const CallOutput& out);

}  // namespace xr::onebin
