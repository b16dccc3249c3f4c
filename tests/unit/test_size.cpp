// Element counts as users write them (xr::parse_count and friends).
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "test_support.hpp"
#include "xreduce/size.hpp"

using xr::ErrorCategory;
using xrtest::require_error;
using V = std::vector<std::uint64_t>;

TEST_CASE("parse_count accepts plain numbers, K/M/G and 2^K", "[unit][size]") {
  CHECK(xr::parse_count("0") == 0);
  CHECK(xr::parse_count("1000") == 1000);
  CHECK(xr::parse_count("64K") == 65536);
  CHECK(xr::parse_count("64k") == 65536);
  CHECK(xr::parse_count("16M") == 16777216);
  CHECK(xr::parse_count("1G") == 1073741824);
  CHECK(xr::parse_count("3G") == 3ull << 30);
  CHECK(xr::parse_count("2^24") == 16777216);
  CHECK(xr::parse_count("2^0") == 1);
  CHECK(xr::parse_count("2^31") == 2147483648ull);
  CHECK(xr::parse_count("18446744073709551615") == UINT64_MAX);
}

TEST_CASE("parse_count refuses bad text with Error(usage) naming it", "[unit][size]") {
  for (const char* bad : {"abc", "12x", "1.5K", "K", "0x10", "1e6", "2^", "^4", "1KK", "--1"}) {
    INFO("input '" << bad << "'");
    require_error([&] { xr::parse_count(bad); }, ErrorCategory::usage, bad);
  }
  require_error([] { xr::parse_count(""); }, ErrorCategory::usage, "invalid element count");
  require_error([] { xr::parse_count("-5"); }, ErrorCategory::usage, "negative");
  require_error([] { xr::parse_count("-1K"); }, ErrorCategory::usage, "negative");
  require_error([] { xr::parse_count("18446744073709551616"); }, ErrorCategory::usage, "too large");
  require_error([] { xr::parse_count("17179869184G"); }, ErrorCategory::usage, "too large");
  require_error([] { xr::parse_count("2^64"); }, ErrorCategory::usage, "too large");
  require_error([] { xr::parse_count("3^4"); }, ErrorCategory::usage, "powers of two");
}

TEST_CASE("parse_count_list splits on commas", "[unit][size]") {
  CHECK(xr::parse_count_list("1000") == V{1000});
  CHECK(xr::parse_count_list("1,2K,2^3,1M") == (V{1, 2048, 8, 1048576}));
  require_error([] { xr::parse_count_list("1,,2"); }, ErrorCategory::usage, "invalid");
  require_error([] { xr::parse_count_list("1,x"); }, ErrorCategory::usage, "'x'");
  require_error([] { xr::parse_count_list(""); }, ErrorCategory::usage, "invalid");
}

TEST_CASE("parse_sweep: powers of two between LO and HI, or a STEP", "[unit][size]") {
  CHECK(xr::parse_sweep("1K:16K") == (V{1024, 2048, 4096, 8192, 16384}));
  CHECK(xr::parse_sweep("2^10:2^12") == (V{1024, 2048, 4096}));
  // Non-powers of two at the ends are kept, the powers between them added.
  CHECK(xr::parse_sweep("1000:5000") == (V{1000, 1024, 2048, 4096, 5000}));
  CHECK(xr::parse_sweep("5:5") == V{5});
  CHECK(xr::parse_sweep("0:10:5") == (V{0, 5, 10}));
  CHECK(xr::parse_sweep("1:10:4") == (V{1, 5, 9}));
  CHECK(xr::parse_sweep("1K:4K:1K") == (V{1024, 2048, 3072, 4096}));
  require_error([] { xr::parse_sweep("16K:1K"); }, ErrorCategory::usage, "larger than HI");
  require_error([] { xr::parse_sweep("1:10:0"); }, ErrorCategory::usage, "STEP is 0");
  require_error([] { xr::parse_sweep("1K"); }, ErrorCategory::usage, "LO:HI");
  require_error([] { xr::parse_sweep("a:1K"); }, ErrorCategory::usage, "'a'");
  require_error([] { xr::parse_sweep("1:2^40:1"); }, ErrorCategory::usage, "points");
}

TEST_CASE("format_count gives the shortest exact spelling", "[unit][size]") {
  CHECK(xr::format_count(0) == "0");
  CHECK(xr::format_count(1000) == "1000");
  CHECK(xr::format_count(1024) == "1K");
  CHECK(xr::format_count(1536) == "1536");
  CHECK(xr::format_count(16777216) == "16M");
  CHECK(xr::format_count(3ull << 20) == "3M");
  CHECK(xr::format_count(1ull << 30) == "1G");
  for (std::uint64_t n : {0ull, 1ull, 1000ull, 1024ull, 65536ull, 3ull << 20, 1ull << 30, 12345ull})
    CHECK(xr::parse_count(xr::format_count(n)) == n);
}
