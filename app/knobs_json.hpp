// The knobs a backend ran with (Backend::knobs) as a JSON object, name to value: one spelling
// for run's report and compare's.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace xr::app {

inline nlohmann::ordered_json knobs_json(
    const std::vector<std::pair<std::string, std::string>>& knobs) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [name, value] : knobs) j[name] = value;
  return j;
}

}  // namespace xr::app
