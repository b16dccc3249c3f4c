// Core's shape table and layouts (xreduce/shapes.hpp): every entry names a catalog id, the pass
// chain and the tiled-scan layout keep their regions apart and aligned. tests/shapes checks that
// each backend's plans follow them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "xreduce/catalog.hpp"
#include "xreduce/shapes.hpp"

TEST_CASE("every shared shape and exception names a catalog id", "[core][shapes]") {
  for (const xr::SharedShape& s : xr::kSharedShapes) {
    CAPTURE(std::string(s.id));
    CHECK(xr::in_catalog(s.primitive, s.id));
    CHECK(s.shape.threads > 0);
    CHECK(s.shape.items > 0);
    CHECK_FALSE(s.chosen_by.empty());
  }
  for (const xr::ShapeException& e : xr::kShapeExceptions) {
    CAPTURE(std::string(e.ids));
    const bool family = e.ids.ends_with("/*");
    const bool known = std::any_of(xr::catalog().begin(), xr::catalog().end(), [&](const auto& c) {
      return c.primitive == e.primitive &&
             (family ? c.id.starts_with(e.ids.substr(0, e.ids.size() - 1)) : c.id == e.ids);
    });
    CHECK(known);
    CHECK_FALSE(e.measurement.empty());
  }
  CHECK(xr::shared_shape(xr::Primitive::scan, "no/such-id") == xr::TileShape{0, 0});
  CHECK(xr::shape_exception("vulkan", xr::Primitive::scan, "fast/decoupled-lookback", "f64"));
  CHECK_FALSE(xr::shape_exception("vulkan", xr::Primitive::scan, "fast/decoupled-lookback", "f6"));
  CHECK(xr::shape_exception("vulkan", xr::Primitive::scan, "fast/decoupled-lookback", "f16"));
  CHECK_FALSE(xr::shape_exception("vulkan", xr::Primitive::scan, "fast/decoupled-lookback", "f32"));
  CHECK(xr::shape_exception("cuda", xr::Primitive::reduce, "fast/single-pass", "f64"));
  CHECK_FALSE(xr::shape_exception("cuda", xr::Primitive::reduce, "fast/single-pass", "f32"));
}

TEST_CASE("reduce passes chain the partials until one block remains", "[core][shapes]") {
  for (std::uint64_t n : {1ull, 255ull, 256ull, 257ull, 100000ull, (1ull << 32) + 5}) {
    CAPTURE(n);
    const auto blocks = [](std::uint64_t m) { return (m + 511) / 512; };
    const auto passes = xr::reduce_passes(n, 4, blocks);
    REQUIRE_FALSE(passes.empty());
    CHECK(passes.front().count == n);
    CHECK(passes.back().blocks == 1);
    for (std::size_t i = 0; i < passes.size(); ++i) {
      CHECK(passes[i].blocks == blocks(passes[i].count));
      CHECK(passes[i].out_offset % 4 == 0);
      if (i == 0) continue;
      CHECK(passes[i].count == passes[i - 1].blocks);
      CHECK(passes[i].in_offset == passes[i - 1].out_offset);
      // Each pass writes past what it reads.
      CHECK(passes[i].out_offset >= passes[i].in_offset + passes[i].count);
    }
    CHECK(xr::scratch_elements(passes, 4) >= passes.back().out_offset + 1);
  }
}

TEST_CASE("a tiled scan's levels shrink by the tile and their regions do not overlap",
          "[core][shapes]") {
  for (std::uint64_t n : {1ull, 1024ull, 1025ull, 1048577ull, (1ull << 31) + 3})
    for (bool wide : {false, true}) {
      CAPTURE(n, wide);
      const xr::TiledScanLayout l = xr::tiled_scan_layout(n, 1024, 4, wide, 256);
      CHECK(l.counts.front() == n);
      CHECK(l.counts.back() <= 1024);
      REQUIRE(l.totals.size() == l.levels() - 1);
      REQUIRE(l.scanned.size() == l.levels() - 1);
      CHECK(l.wide.has_value() == (wide && l.levels() > 1));
      std::uint64_t end = 0;  // regions in order: totals[k], scanned[k], ..., wide
      for (std::size_t k = 1; k < l.levels(); ++k) {
        CHECK(l.counts[k] == (l.counts[k - 1] + 1023) / 1024);
        for (std::uint64_t at : {l.totals[k - 1], l.scanned[k - 1]}) {
          CHECK(at % 256 == 0);
          CHECK(at >= end);
          end = at + l.counts[k] * 4;
        }
      }
      if (l.wide) CHECK(*l.wide >= end);
      CHECK(l.scratch_bytes >= (l.wide ? *l.wide + n * 4 : end));
    }
}
