// A compare row's compiled facts in the report: made from xreduce inspect's passes, written to and
// read from the JSON report, and compared — CUDA against Vulkan at one point (compare's "compiled"
// tables) and a report against its baseline (xreduce diff: a register count that moved explains a
// slower row).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/inspect.hpp"
#include "report/json_reader.hpp"
#include "report/model.hpp"

namespace xr::app {

// The row's facts of one inspected pass.
PassFacts facts_of(const InspectedPass& p);

// The "compiled" object of a JSON row, and back from `row` (the row `where` names): nullopt where
// it has none (null, or a report written before schema 4); a field of the wrong type or range is
// the reader's error.
nlohmann::ordered_json compiled_json(const std::optional<RowCompiled>& c);
std::optional<RowCompiled> compiled_from_json(const nlohmann::ordered_json& row,
                                              const JsonReader& reader, const std::string& where);

// One fact that differs between two calls: its name ("registers", "grid", ...), the pass it is
// in (1-based; 0: the number of passes itself) and each side's value as shown.
struct FactDifference {
  std::string fact;
  int pass = 0;
  std::string a, b;
};

// The facts that differ between two calls, pass by pass, in a fixed order (passes, then per pass
// block, grid, registers, shared memory, local memory, occupancy, instructions); a fact one side
// does not report is not a difference. Kernel names and binary sizes are left out: they differ
// between APIs by construction.
std::vector<FactDifference> differing_facts(const RowCompiled& a, const RowCompiled& b);

// "registers 64 -> 208 (pass 1)": a difference as the diff lists it.
std::string change_words(const FactDifference& d);

// A fact of every pass, as a table cell: "68", or "16 / 16 / 16" for three passes; "-" where a
// pass does not report it.
std::string per_pass(const RowCompiled& c, const std::string& fact);

}  // namespace xr::app
