// How many times the program has called operator new (allocation_count.cpp, linked into a test
// binary, replaces it): a call that must not allocate is bracketed by two readings.
#pragma once

#include <atomic>
#include <cstdint>

namespace xrtest {
std::uint64_t allocations();
}  // namespace xrtest
