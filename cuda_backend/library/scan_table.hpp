// The CUDA scan variants as data: id -> kernel, what it needs, in ladder order
// (core/src/catalog.cpp). The library's Scan and the tool's catalog both read it.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "device_limits.hpp"
#include "scan_dispatch.hpp"

namespace xr::cuda {

struct ScanEntry {
  std::string_view id;
  ScanKernel kernel{};
  // Float results bitwise the same run to run. The look-back sums a tile's predecessors in an
  // order that depends on which of them have published their inclusive prefix yet.
  bool deterministic = true;
  bool needs_cooperative_launch = false;
};

std::span<const ScanEntry> scan_table();
const ScanEntry* find_scan(std::string_view id);
// Empty when `e` runs on the device of `limits`, else why not.
std::string scan_unsupported_reason(const ScanEntry& e, const DeviceLimits& limits);

}  // namespace xr::cuda
