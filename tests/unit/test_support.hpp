// Helpers shared by the unit tests: temporary files (tests/support/temp_files.hpp) and a matcher
// for xr::Error's category and message.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "temp_files.hpp"
#include "xreduce/error.hpp"

namespace xrtest {

// Runs f, which must throw xr::Error of `category` whose message contains `needle`.
template <class F>
void require_error(F&& f, xr::ErrorCategory category, std::string_view needle) {
  try {
    f();
  } catch (const xr::Error& e) {
    INFO("message: " << e.what());
    CHECK(e.category() == category);
    CHECK(std::string_view(e.what()).find(needle) != std::string_view::npos);
    return;
  } catch (const std::exception& e) {
    FAIL("threw a non-xr::Error exception: " << e.what());
  }
  FAIL("did not throw; expected xr::Error(" << xr::to_string(category) << ") mentioning '" << needle
                                            << "'");
}

}  // namespace xrtest
