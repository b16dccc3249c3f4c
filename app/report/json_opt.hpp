// An optional as JSON: its value, or null where it has none (a fact not reported, a number not
// measured). One spelling for the report's renderers.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

namespace xr::app {

template <class T>
nlohmann::ordered_json opt_json(const std::optional<T>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

}  // namespace xr::app
