// What every backend's shape test asks of a variant's tile: core's shared shape, or an exception
// core lists for that backend and element type (with its measurement).
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

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

}  // namespace xrtest
