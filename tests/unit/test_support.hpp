// Helpers shared by the unit tests: a temporary directory removed on exit, byte-level file
// writers for hand-built fixtures, and a matcher for xr::Error's category and message.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "xreduce/error.hpp"

namespace xrtest {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "xreduce-unit-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed for " + pattern);
    path_ = pattern;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(std::string_view name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

inline void write_bytes(const std::filesystem::path& p, std::string_view bytes) {
  std::ofstream out(p, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write fixture " + p.string());
}

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
