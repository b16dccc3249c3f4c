// The CUDA reduce variants as data: id -> kernel, what it needs, in ladder order
// (core/src/catalog.cpp). The library's Reduce and the tool's catalog both read it.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "device_limits.hpp"
#include "reduce_dispatch.hpp"

namespace xr::cuda {

struct ReduceEntry {
  std::string_view id;
  ReduceKernel kernel{};
  // The classic in-place reduction kernels: they write into the input, and keep to the 32-bit
  // types.
  bool in_place = false;
  int min_cc = 0;                     // compute capability x 10
  std::string_view requirement = {};  // what min_cc stands for, as `xreduce list` shows it
};

std::span<const ReduceEntry> reduce_table();
const ReduceEntry* find_reduce(std::string_view id);
// Empty when `e` runs on the device of `limits`, else why not.
std::string reduce_unsupported_reason(const ReduceEntry& e, const DeviceLimits& limits);

}  // namespace xr::cuda
