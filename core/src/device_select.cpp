#include "xreduce/device_select.hpp"

#include <algorithm>
#include <cctype>

#include "xreduce/error.hpp"

namespace xr {
namespace {

std::string lower(std::string_view text) {
  std::string s(text);
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::size_t default_device(const std::vector<DeviceCandidate>& devices,
                           const std::string& preferred_uuid) {
  if (!preferred_uuid.empty())
    for (std::size_t i = 0; i < devices.size(); ++i)
      if (devices[i].usable && normalize_uuid(devices[i].info.uuid) == preferred_uuid) return i;
  for (std::size_t i = 0; i < devices.size(); ++i)
    if (devices[i].usable && devices[i].preferred) return i;
  for (std::size_t i = 0; i < devices.size(); ++i)
    if (devices[i].usable) return i;
  return 0;
}

// The device `selector` names, or devices.size() for none.
std::size_t find_device(const std::vector<DeviceCandidate>& devices, const std::string& selector) {
  const bool digits = !selector.empty() && selector.size() < 10 &&
                      std::all_of(selector.begin(), selector.end(),
                                  [](unsigned char c) { return std::isdigit(c) != 0; });
  if (digits) return std::min<std::size_t>(std::stoul(selector), devices.size());
  if (const std::string uuid = normalize_uuid(selector); !uuid.empty()) {
    for (std::size_t i = 0; i < devices.size(); ++i)
      if (normalize_uuid(devices[i].info.uuid) == uuid) return i;
    return devices.size();
  }
  for (std::size_t i = 0; i < devices.size(); ++i)
    if (lower(devices[i].info.name).find(lower(selector)) != std::string::npos) return i;
  return devices.size();
}

}  // namespace

std::string normalize_uuid(std::string_view text) {
  std::string s = lower(text);
  if (s.rfind("gpu-", 0) == 0) s.erase(0, 4);
  s.erase(std::remove(s.begin(), s.end(), '-'), s.end());
  const bool hex = s.size() == 32 && std::all_of(s.begin(), s.end(), [](unsigned char c) {
                     return std::isxdigit(c) != 0;
                   });
  return hex ? s : std::string();
}

std::size_t choose_device(const std::vector<DeviceCandidate>& devices, const DeviceChoice& choice,
                          std::string_view api) {
  if (choice.selector.empty())
    return default_device(devices, normalize_uuid(choice.preferred_uuid));
  const std::size_t index = find_device(devices, choice.selector);
  if (index < devices.size()) return index;
  std::string known;
  for (const DeviceCandidate& d : devices)
    known += (known.empty() ? "" : ", ") + std::to_string(d.info.index) + " " + d.info.name + " (" +
             (d.info.uuid.empty() ? "no UUID" : d.info.uuid) + ")";
  throw Error(ErrorCategory::usage, "no " + std::string(api) + " device matches '" +
                                        choice.selector + "'; devices: " + known);
}

}  // namespace xr
