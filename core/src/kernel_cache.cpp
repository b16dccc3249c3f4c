#include "xreduce/kernel_cache.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include <unistd.h>

namespace xr {
namespace fs = std::filesystem;

StableHash& StableHash::add(std::string_view bytes) {
  for (unsigned char c : bytes) {
    state_ ^= c;
    state_ *= 0x100000001b3ull;
  }
  // A separator, so ("ab", "c") and ("a", "bc") differ.
  state_ ^= 0xff;
  state_ *= 0x100000001b3ull;
  return *this;
}

std::string StableHash::hex() const {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(state_));
  return text;
}

KernelCache KernelCache::from_environment() {
  KernelCache cache;
  const char* knob = std::getenv("XR_KERNEL_CACHE");
  if (knob && std::string_view(knob) == "0") return cache;
  if (knob && *knob) {
    cache.dir_ = knob;
  } else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    cache.dir_ = (fs::path(xdg) / "xreduce" / "kernels").string();
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    cache.dir_ = (fs::path(home) / ".cache" / "xreduce" / "kernels").string();
  }
  return cache;
}

std::optional<std::string> KernelCache::load(const std::string& key,
                                             std::string_view suffix) const {
  if (!enabled()) return std::nullopt;
  std::ifstream in(fs::path(dir_) / (key + std::string(suffix)), std::ios::binary);
  std::ostringstream bytes;
  if (!in || !(bytes << in.rdbuf())) return std::nullopt;
  return bytes.str();
}

void KernelCache::store(const std::string& key, std::string_view suffix,
                        std::string_view bytes) const {
  if (!enabled()) return;
  std::error_code ec;
  fs::create_directories(dir_, ec);
  const fs::path target = fs::path(dir_) / (key + std::string(suffix));
  const fs::path temporary = fs::path(dir_) / (key + "." + std::to_string(::getpid()) + ".tmp");
  {
    std::ofstream out(temporary, std::ios::binary);
    if (!out || !out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
      fs::remove(temporary, ec);
      return;
    }
  }
  fs::rename(temporary, target, ec);
  if (ec) fs::remove(temporary, ec);
}

}  // namespace xr
