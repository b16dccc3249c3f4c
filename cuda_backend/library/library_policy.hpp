// The library's choice of variant, fastest first, with the measurement that made it; and the
// operand checks every enqueue makes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "xreduce/primitive.hpp"

namespace xr::cuda {

// The ids of `primitive` in the library's order: the measured fastest first (sort: the order its
// memory traffic predicts, not yet measured), then the rest of the table from its fast end (for
// devices that cannot run those).
std::vector<std::string_view> library_order(Primitive primitive);

// Error(usage) naming the operand (`what`: "in", "out", "scratch", "keys_in", ...) when `p` is null
// or not a multiple of `alignment` bytes.
void check_operand(const void* p, std::uintptr_t alignment, std::string_view what,
                   std::string_view call);

}  // namespace xr::cuda
