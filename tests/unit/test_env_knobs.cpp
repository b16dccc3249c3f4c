// The knobs' shared parsers and readers (xreduce/env_knobs.hpp): a value is its digits alone and
// within its range, never wrapped, saturated or padded; only a well-formed knob is recorded; a
// malformed one's line names it and shows its value.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <optional>
#include <string>
#include <tuple>

#include "xreduce/env_knobs.hpp"

TEST_CASE("env knobs: a pair's number past 2^32 is malformed, not wrapped", "[unit][knobs]") {
  // 4294967552 = 2^32 + 256, 4294967304 = 2^32 + 8, 4294967424 = 2^32 + 128.
  for (const char* tile : {"4294967552x8", "256x4294967304", "18446744073709551872x8"}) {
    CAPTURE(tile);
    CHECK_FALSE(xr::parse_sort_tile_knob(tile));
  }
  CHECK_FALSE(xr::parse_lookback_shape_knob("4294967424x8"));
  CHECK_FALSE(xr::parse_lookback_shape_knob("128x4294967304"));
  const auto tile = xr::parse_sort_tile_knob("256x8");
  REQUIRE(tile);
  CHECK((tile->threads == 256 && tile->items == 8));
  const auto shape = xr::parse_lookback_shape_knob("128x8");
  REQUIRE(shape);
  CHECK((shape->workgroup == 128 && shape->vectors == 8));
}

TEST_CASE("env knobs: a number is its digits alone", "[unit][knobs]") {
  for (const char* padded : {" 5", "+5", " -0", "-0", "5 ", "0x10", ""}) {
    CAPTURE(padded);
    CHECK_FALSE(xr::parse_knob_u32(padded));
  }
  for (const char* tile : {" 256x8", "+256x8", "256x 8", "256x+8", "256x8 ", "256X8", "x8"}) {
    CAPTURE(tile);
    CHECK_FALSE(xr::parse_sort_tile_knob(tile));
  }
  CHECK(xr::parse_knob_u32("0") == 0u);
  CHECK(xr::parse_knob_u32("007") == 7u);
  CHECK(xr::parse_knob_u32("4294967295") == 4294967295u);
  CHECK_FALSE(xr::parse_knob_u32("4294967296"));
  CHECK_FALSE(xr::parse_knob_u32(std::string(100000, '9').c_str()));
}

TEST_CASE("env knobs: a whole number past 2^64 - 1 or its range is malformed, not saturated",
          "[unit][knobs]") {
  CHECK_FALSE(xr::parse_knob_whole(std::string(100000, '9')));
  CHECK_FALSE(xr::parse_knob_whole("18446744073709551616"));
  CHECK(xr::parse_knob_whole("18446744073709551615") == 18446744073709551615ull);
  CHECK_FALSE(xr::parse_knob_whole("1048575", 1048576));
  CHECK(xr::parse_knob_whole("1048576", 1048576) == 1048576u);
  CHECK_FALSE(xr::parse_knob_whole("5", 1, 4));
  CHECK_FALSE(xr::parse_knob_whole("0", 1, 4));
  CHECK(xr::parse_knob_whole("4", 1, 4) == 4u);
}

// Each reader over the environment, as the backends call them.
TEST_CASE("env knobs: only a well-formed knob is recorded, and empty is unset unless malformed",
          "[unit][knobs]") {
  const char* name = "XR_TEST_KNOB";
  const auto read = [&](const char* value, xr::EmptyKnob empty) {
    setenv(name, value, 1);
    xr::KnobsGiven given;
    std::string error;
    const auto polls = xr::read_u32_knob(given, error, name, empty);
    unsetenv(name);
    return std::tuple{polls, given, error};
  };
  {
    const auto [polls, given, error] = read("512", xr::EmptyKnob::unset);
    CHECK(polls == 512u);
    CHECK(given == xr::KnobsGiven{{name, "512"}});
    CHECK(error.empty());
  }
  {
    const auto [polls, given, error] = read("abc", xr::EmptyKnob::unset);
    CHECK_FALSE(polls);
    CHECK(given.empty());
    CHECK(error == "XR_TEST_KNOB must be a whole number from 0 to 4294967295 (got 'abc')");
  }
  {
    const auto [polls, given, error] = read("", xr::EmptyKnob::unset);
    CHECK_FALSE(polls);
    CHECK(given.empty());
    CHECK(error.empty());
  }
  {
    const auto [polls, given, error] = read("", xr::EmptyKnob::malformed);
    CHECK_FALSE(polls);
    CHECK(given.empty());
    CHECK(error == "XR_TEST_KNOB must be a whole number from 0 to 4294967295 (got '')");
  }
  // The first malformed knob's line is kept; a later one's is not.
  xr::KnobsGiven given;
  std::string error = "an earlier line";
  setenv(name, "maybe", 1);
  CHECK_FALSE(xr::read_choice_knob(given, error, name, "0", "1"));
  CHECK(error == "an earlier line");
  std::optional<bool> grids = false;
  setenv(name, "auto", 1);
  xr::read_auto_choice_knob(given, error, name, "capacity", "device", grids);
  CHECK(grids == false);  // auto: left as it was, the policy's
  setenv(name, "device", 1);
  xr::read_auto_choice_knob(given, error, name, "capacity", "device", grids);
  CHECK(grids == true);
  setenv(name, "sideways", 1);
  std::string grids_error;
  xr::read_auto_choice_knob(given, grids_error, name, "capacity", "device", grids);
  CHECK(grids == true);
  CHECK(grids_error == "XR_TEST_KNOB must be auto, device or capacity (got 'sideways')");
  unsetenv(name);
  CHECK(given == xr::KnobsGiven{{name, "auto"}, {name, "device"}});
}

TEST_CASE("env knobs: a malformed value is shown printable and shortened", "[unit][knobs]") {
  CHECK(xr::knob_error("XR_K", "0 or 1", "\x1b[31m\xe2\x80\xae") ==
        "XR_K must be 0 or 1 (got '\\x1b[31m\\xe2\\x80\\xae')");
  const std::string line = xr::knob_error("XR_K", "0 or 1", std::string(100000, '9'));
  CHECK(line == "XR_K must be 0 or 1 (got 100000 bytes: '" + std::string(64, '9') + "...')");
}
