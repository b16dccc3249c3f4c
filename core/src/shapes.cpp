#include "xreduce/shapes.hpp"

#include <algorithm>
#include <cstdlib>

#include "xreduce/env_knobs.hpp"

namespace xr {
namespace {

std::uint64_t round_up(std::uint64_t x, std::uint64_t multiple) {
  return (x + multiple - 1) / multiple * multiple;
}

}  // namespace

ScanOneGroupKnob read_scan_one_group_knob() {
  ScanOneGroupKnob knob;
  KnobsGiven given;
  if (const auto n = read_knob(
          given, knob.error, "XR_SCAN_ONE_GROUP_MAX",
          "a whole number of elements from 0 to 4294967296",
          [](std::string_view v) { return parse_knob_whole(v, 0, std::uint64_t{1} << 32); })) {
    knob.max = *n;
    knob.given = given.front().second;
  }
  return knob;
}

bool shape_exception(std::string_view backend, Primitive primitive, std::string_view id,
                     std::string_view dtype) {
  const auto listed = [](std::string_view list, std::string_view item) {
    for (std::size_t at = 0; at <= list.size();) {
      const std::size_t comma = std::min(list.find(',', at), list.size());
      if (list.substr(at, comma - at) == item) return true;
      at = comma + 1;
    }
    return false;
  };
  const auto matches = [](std::string_view pattern, std::string_view id) {
    if (pattern.ends_with("/*")) return id.starts_with(pattern.substr(0, pattern.size() - 1));
    return pattern == id;
  };
  for (const ShapeException& e : kShapeExceptions)
    if (e.backend == backend && e.primitive == primitive && matches(e.ids, id) &&
        listed(e.dtypes, dtype))
      return true;
  return false;
}

std::vector<ReducePass> reduce_passes(std::uint64_t n, std::uint64_t align,
                                      const std::function<std::uint64_t(std::uint64_t m)>& blocks) {
  std::vector<ReducePass> passes;
  ReducePass pass{n, 0, 0, 1};
  for (;;) {
    pass.blocks = blocks(pass.count);
    passes.push_back(pass);
    if (pass.blocks == 1) return passes;
    // The next pass reads these partials and writes its own after them.
    pass = {pass.blocks, pass.out_offset, pass.out_offset + round_up(pass.blocks, align), 1};
  }
}

std::uint64_t scratch_elements(std::span<const ReducePass> passes, std::uint64_t align) {
  return passes.empty() ? 0 : passes.back().out_offset + round_up(passes.back().blocks, align);
}

TiledScanLayout tiled_scan_layout(std::uint64_t n, std::uint64_t tile, std::size_t acc_bytes,
                                  bool wide_outputs, std::uint64_t align) {
  TiledScanLayout layout;
  layout.counts = {n};
  std::uint64_t bytes = 0;
  auto region = [&](std::uint64_t elements) {
    const std::uint64_t at = bytes;
    bytes += round_up(elements * acc_bytes, align);
    return at;
  };
  for (std::uint64_t m = n; m > tile;) {  // a level of more than one tile
    m = (m + tile - 1) / tile;
    layout.totals.push_back(region(m));
    layout.scanned.push_back(region(m));
    layout.counts.push_back(m);
  }
  if (wide_outputs && layout.levels() > 1) layout.wide = region(n);
  layout.scratch_bytes = bytes;
  return layout;
}

}  // namespace xr
