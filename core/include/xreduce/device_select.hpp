// How every backend picks its device from a --device selector, written once: an index, a UUID
// (32 hex digits, with or without dashes or nvidia-smi's "GPU-" prefix) or a case-insensitive
// name substring; with no selector, the device whose UUID is the preferred one (CUDA's, so every
// API measures the same GPU), else the first usable device of the preferred kind (a GPU), else
// the first usable one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "xreduce/backend.hpp"

namespace xr {

struct DeviceCandidate {
  DeviceInfo info;
  bool usable = true;      // the backend can run on it (Vulkan: a device without compute cannot)
  bool preferred = false;  // of the kind a default prefers (a discrete GPU, a GPU)
};

// 32 lowercase hex digits of a UUID spelled with or without dashes or a "GPU-" prefix; "" when
// `text` is not one.
std::string normalize_uuid(std::string_view text);

// The index of `choice` among `devices`: Error(usage) "no <api> device matches 'SEL'; devices:
// ..." for a selector that names none.
std::size_t choose_device(const std::vector<DeviceCandidate>& devices, const DeviceChoice& choice,
                          std::string_view api);

}  // namespace xr
