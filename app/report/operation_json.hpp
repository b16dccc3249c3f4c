// An operation's fields as the JSON reports spell them (compare's, inspect's): a scan's kind, a
// sort's order, values and bit range, a histogram's levels, a reduce's or scan's operator; null
// where they do not apply.
#pragma once

#include <nlohmann/json.hpp>

#include "xreduce/primitive.hpp"

namespace xr::app {

nlohmann::ordered_json scan_json(const Operation& op);
nlohmann::ordered_json sort_json(const Operation& op);
nlohmann::ordered_json op_json(const Operation& op);
// A histogram's bins, range ("LO:HI"), counters (u32, u64) and count's place; null otherwise.
nlohmann::ordered_json histogram_json(const Operation& op);

}  // namespace xr::app
