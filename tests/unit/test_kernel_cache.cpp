// The kernel cache (xreduce/kernel_cache.hpp) reads its files as untrusted: an entry is used only
// when it is whole, its own and a regular file of a bounded size; every other entry is refused,
// removed, and never handed back.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <variant>

#include "test_support.hpp"
#include "xreduce/kernel_cache.hpp"

using xr::CacheParts;
using xr::KernelCache;
using xrtest::slurp;
using xrtest::TempDir;
using xrtest::write_bytes;
namespace fs = std::filesystem;

namespace {

const CacheParts kParts{{"binary", std::string("\x7f"
                                               "ELF\0binary bytes",
                                               17)},
                        {"log", "ptxas info: Used 16 registers"}};

// Why decode refused `bytes` as the entry of "abc.clbin"; empty when it took them.
std::string refusal(std::string_view bytes, std::vector<std::string_view> required = {"binary"}) {
  const auto decoded = xr::decode_cache_entry(bytes, "abc.clbin", required);
  return std::holds_alternative<std::string>(decoded) ? std::get<std::string>(decoded) : "";
}

}  // namespace

TEST_CASE("kernel cache: an entry decodes only whole and for its own key", "[unit][cache]") {
  const std::string entry = xr::encode_cache_entry("abc.clbin", kParts);
  const auto decoded = xr::decode_cache_entry(entry, "abc.clbin", {"binary", "log"});
  REQUIRE(std::holds_alternative<CacheParts>(decoded));
  CHECK(std::get<CacheParts>(decoded) == kParts);

  CHECK(refusal(entry.substr(0, entry.size() - 3)).find("truncated: ") == 0);
  CHECK(refusal(entry + "x").find("longer than its header says") == 0);
  std::string flipped = entry;
  flipped[flipped.size() - 5] ^= 0x20;
  CHECK(refusal(flipped) == "its log does not match its hash");
  // Another kernel's entry copied under this key.
  CHECK(refusal(xr::encode_cache_entry("def.clbin", kParts)).find("written for another kernel") ==
        0);
  CHECK(refusal(entry, {"binary", "module"}) == "it holds no module");
  // Raw bytes (an older xreduce's entries, random bytes), an empty file, a damaged header.
  CHECK(refusal("\x03\x02\x23\x07 raw SPIR-V").find("not an entry") == 0);
  CHECK(refusal("").find("not an entry") == 0);
  std::string header = entry;
  header.replace(header.find("part "), 5, "pArt ");
  CHECK(refusal(header) == "a damaged header");
  header = entry;
  header.replace(header.find(" 17 "), 4, " 99999999999999999999 ");
  CHECK(refusal(header) == "a damaged header");
}

TEST_CASE("kernel cache: a stored entry loads back; a bad one is removed and never returned",
          "[unit][cache]") {
  TempDir dir;
  const KernelCache cache(dir.path().string());
  cache.store("abc", ".clbin", kParts);
  auto loaded = cache.load("abc", ".clbin", {"binary", "log"});
  REQUIRE(loaded);
  CHECK(*loaded == kParts);
  CHECK_FALSE(cache.load("missing", ".clbin", {"binary"}));

  const fs::path path = dir / "abc.clbin";
  const std::string whole = slurp(path);
  SECTION("truncated") {
    write_bytes(path, whole.substr(0, whole.size() / 2));
  }
  SECTION("a byte flipped") {
    std::string flipped = whole;
    flipped.back() ^= 1;
    write_bytes(path, flipped);
  }
  SECTION("another key's entry") {
    cache.store("def", ".clbin", {{"binary", "other"}, {"log", ""}});
    fs::copy_file(dir / "def.clbin", path, fs::copy_options::overwrite_existing);
  }
  SECTION("empty") {
    write_bytes(path, "");
  }
  SECTION("a symbolic link to /dev/zero") {
    fs::remove(path);
    fs::create_symlink("/dev/zero", path);
  }
  SECTION("a symbolic link to a good entry elsewhere") {
    fs::rename(path, dir / "elsewhere");
    fs::create_symlink(dir / "elsewhere", path);
  }
  SECTION("a FIFO with no writer") {
    fs::remove(path);
    REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  }
  SECTION("larger than any entry can be") {
    write_bytes(path, whole);
    fs::resize_file(path, xr::kMaxCacheEntryBytes + 1);  // sparse: no disk is used
  }
  CHECK_FALSE(cache.load("abc", ".clbin", {"binary", "log"}));
  CHECK_FALSE(fs::exists(fs::symlink_status(path)));  // removed: the next build stores anew
  cache.store("abc", ".clbin", kParts);
  CHECK(cache.load("abc", ".clbin", {"binary", "log"}) == kParts);
}

TEST_CASE("kernel cache: a directory under an entry's name is ignored, not read", "[unit][cache]") {
  TempDir dir;
  const KernelCache cache(dir.path().string());
  fs::create_directories(dir / "abc.clbin" / "inside");
  CHECK_FALSE(cache.load("abc", ".clbin", {"binary"}));
  CHECK(fs::is_directory(dir / "abc.clbin"));  // not empty: left where it is
  cache.store("abc", ".clbin", kParts);        // the rename onto it fails: nothing is stored
  CHECK_FALSE(cache.load("abc", ".clbin", {"binary"}));
}

TEST_CASE("kernel cache: a folder that cannot hold it is none, and nothing is made there",
          "[unit][cache]") {
  TempDir dir;
  write_bytes(dir / "a-file", "not a folder");
  const auto cache_at = [](const std::string& value) {
    setenv("XR_KERNEL_CACHE", value.c_str(), 1);
    const KernelCache cache = KernelCache::from_environment();
    unsetenv("XR_KERNEL_CACHE");
    return cache;
  };
  // A folder, or one that can be made: the cache.
  CHECK(cache_at(dir.path().string()).dir() == dir.path().string());
  CHECK(cache_at((dir / "new" / "kernels").string()).enabled());
  // A device, a file, under a file: none, and nothing made there.
  for (const std::string& unusable :
       {std::string("/dev/null"), (dir / "a-file").string(), (dir / "a-file" / "sub").string()}) {
    CAPTURE(unusable);
    CHECK_FALSE(cache_at(unusable).enabled());
  }
  CHECK(slurp(dir / "a-file") == "not a folder");
  CHECK_FALSE(fs::exists(dir / "new"));
  CHECK_FALSE(cache_at("0").enabled());
}
