// What every backend's shape test asks of a variant's tile: core's shared shape, or an exception
// core lists for that backend and element type (with its measurement).
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "xreduce/scan_plan.hpp"
#include "xreduce/shapes.hpp"
#include "xreduce/types.hpp"

namespace xrtest {

// `planned` (threads and elements per thread of the tile over `dtype`) is `expected`, unless core
// lists the backend's shape of `id` over `dtype` as an exception, when it must differ (so a
// stale exception fails too).
inline void check_shape(std::string_view backend, xr::Primitive primitive, std::string_view id,
                        xr::DType dtype, xr::TileShape planned, xr::TileShape expected) {
  const std::string variant(id), type(xr::to_string(dtype));
  CAPTURE(variant, type, planned.threads, planned.items, expected.threads, expected.items);
  REQUIRE(expected.threads > 0);
  if (xr::shape_exception(backend, primitive, id, type))
    CHECK_FALSE(planned == expected);
  else
    CHECK(planned == expected);
}

// The tile of a scan pass of `family` with `threads` and `items` per thread over `dtype`: a BIT
// pass holds one element per thread, the fast/* families count vectors of lane_elements.
inline xr::TileShape scan_tile(xr::ScanFamily family, std::uint32_t threads, std::uint32_t items,
                               xr::DType dtype) {
  if (family == xr::ScanFamily::bit) return {threads, 1};
  const bool vectors =
      family == xr::ScanFamily::reduce_then_scan || family == xr::ScanFamily::look_back;
  return {threads, vectors ? items * xr::lane_elements(dtype) : items};
}

// The tile core gives scan `id`: the register shape for the subgroup (warp) scans, else the
// shared shape.
inline xr::TileShape expected_scan_tile(std::string_view id) {
  if (id.starts_with("subgroup/") || id == "warp/shuffle-up") return xr::kRegisterScanShape;
  return xr::shared_shape(xr::Primitive::scan, id);
}

}  // namespace xrtest
