// The library's choice of variant, fastest first, with the measurement that made it; and the
// operand checks every enqueue makes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "xreduce/operand_spans.hpp"
#include "xreduce/primitive.hpp"

namespace xr::cuda {

// The ids of `primitive` in the library's order: the measured fastest first (sort: the order its
// memory traffic predicts, not yet measured), then the rest of the table from its fast end (for
// devices that cannot run those).
std::vector<std::string_view> library_order(Primitive primitive);

// One of an enqueue's operands: where it is, the bytes the call reaches from there (0: none, and
// `p` is not read) and the alignment the kernels need.
struct DeviceOperand {
  const void* p;
  std::size_t bytes;
  std::uintptr_t alignment;
  std::string_view name;      // "in", "out", "scratch", "keys_in", ...
  std::string_view why = {};  // what sizes it, for a refusal: " (temp_storage_bytes())"
};

// Error(usage) naming the operand when one the call reaches is null or misaligned, reaches past
// the end of its allocation (where the driver knows the allocation: cuMemGetAddressRange), or
// shares a byte with another: checked before anything is enqueued, as the kernels read an input
// while they write the outputs and the scratch; once per set of pointers (`checked`).
void check_operands(CheckedOperands& checked, std::string_view call,
                    std::initializer_list<DeviceOperand> operands);

}  // namespace xr::cuda
