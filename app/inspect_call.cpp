#include "inspect_call.hpp"

#include <string>
#include <utility>

namespace xr::app {

LimitsSource limits_for(Backend& b, Backend* cuda) {
  LimitsSource s{std::string(b.name()), b.sm_limits(), ""};
  if (s.limits) return s.from = "the " + std::string(b.name()) + " runtime's device attributes", s;
  if (b.name() == "cpu") return s.from = "none: the CPU has no multiprocessors", s;
  const std::string uuid = b.device().uuid;
  if (!cuda || !cuda->available())
    return s.from = "unknown: no CUDA device to borrow the limits of (this API reports none)", s;
  if (uuid.empty() || cuda->device().uuid != uuid)
    return s.from = "unknown: the CUDA device selected is another GPU (UUIDs differ)", s;
  s.limits = cuda->sm_limits();
  s.from = "CUDA's limits of the same GPU (UUID " + uuid + ")";
  return s;
}

std::vector<InspectedPass> with_occupancy(CompiledCall&& call, const LimitsSource& limits) {
  std::vector<InspectedPass> out;
  out.reserve(call.passes.size());
  for (CompiledPass& p : call.passes) {
    std::optional<Occupancy> o;
    if (limits.limits) o = occupancy(*limits.limits, p);
    out.push_back({std::move(p), o});
  }
  return out;
}

}  // namespace xr::app
