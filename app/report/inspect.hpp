// `xreduce inspect`: the rows it measures nothing for but reads from the drivers, and their
// renderings. One row per backend x variant x operation x dtype x n: the call's passes
// (xreduce/compiled.hpp), each with its occupancy on the device's multiprocessors where the limits
// are known (CUDA's own; Vulkan borrows CUDA's when both name one GPU by its UUID).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "xreduce/compiled.hpp"
#include "xreduce/primitive.hpp"
#include "xreduce/types.hpp"

namespace xr::app {

struct InspectedPass {
  CompiledPass pass;
  std::optional<Occupancy> occupancy;  // where the limits and the pass's resources are known
};

struct InspectRow {
  std::string backend, device, variant;
  Operation operation;
  DType dtype = DType::i32;
  std::uint64_t n = 0;
  std::vector<InspectedPass> passes;
  std::string note;    // no passes: why (host code, n = 0, the device cannot run it)
  std::string tuning;  // CompiledCall::tuning: the tuning entry the plan used, and its evidence
};

// Whose per-SM limits a backend's occupancy used, or why there is none.
struct LimitsSource {
  std::string backend;
  std::optional<SmLimits> limits;
  std::string from;  // "the CUDA runtime", "CUDA's, same UUID ...", or why unknown
};

struct InspectReport {
  std::vector<LimitsSource> limits;
  std::vector<InspectRow> rows;
};

std::string inspect_text(const InspectReport& r, bool color);
std::string inspect_markdown(const InspectReport& r);
std::string inspect_csv(const InspectReport& r);
std::string inspect_json(const InspectReport& r);

}  // namespace xr::app
