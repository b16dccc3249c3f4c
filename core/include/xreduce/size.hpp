// Element counts as users write them: "1000", "64K", "16M", "1G" (K/M/G are powers of 1024),
// "2^24". Bad text is Error(usage) naming it.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace xr {

std::uint64_t parse_count(std::string_view text);
// "N[,N...]"
std::vector<std::uint64_t> parse_count_list(std::string_view text);
// "LO:HI" (every power of two from LO to HI, LO and HI included when not powers of two) or
// "LO:HI:STEP" (LO, LO+STEP, ... <= HI). Error(usage) when LO > HI or STEP is 0.
std::vector<std::uint64_t> parse_sweep(std::string_view text);
// Shortest exact spelling: 1024 -> "1K", 16777216 -> "16M", 1000 -> "1000".
std::string format_count(std::uint64_t n);

}  // namespace xr
