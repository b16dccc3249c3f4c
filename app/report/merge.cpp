#include "report/merge.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "common.hpp"
#include "xreduce/error.hpp"

namespace xr::app {

void fold_merged(CompareReport& r, const SavedReport& merged) {
  const std::string& path = merged.path;
  for (DeviceRecord d : merged.data.devices) {
    for (const auto& have : r.devices)
      if (have.backend == d.backend)
        throw Error(ErrorCategory::usage,
                    fmt::format("--merge '{}': backend '{}' is already in this report",
                                printable(path), printable(d.backend)));
    d.merged_from = path;
    r.devices.push_back(std::move(d));
  }
  for (const auto& row : merged.data.rows) {
    if (std::find(r.modes.begin(), r.modes.end(), row.mode) == r.modes.end())
      r.notes.push_back(
          fmt::format("{} rows of {} were measured in {} mode, which this run did "
                      "not measure",
                      printable(row.backend), printable(path), to_string(row.mode)));
    r.rows.push_back(row);
  }
  // The same GPU, proven as for CUDA and Vulkan: by UUID.
  std::string cuda_uuid;
  for (const auto& d : r.devices)
    if (d.backend == "cuda") cuda_uuid = d.info.uuid;
  for (const auto& d : merged.data.devices) {
    if (cuda_uuid.empty()) break;
    if (d.info.uuid != cuda_uuid)
      r.notes.push_back(
          fmt::format("{} (merged from {}) measured the device with UUID '{}', not "
                      "the cuda device {}: its rows compare another GPU",
                      printable(d.backend), printable(path), printable(d.info.uuid), cuda_uuid));
  }
  // One note per (backend, mode) is enough.
  std::sort(r.notes.begin(), r.notes.end());
  r.notes.erase(std::unique(r.notes.begin(), r.notes.end()), r.notes.end());
}

}  // namespace xr::app
