// Compiled user kernels kept on disk between runs (`--kernel`): a SPIR-V module or a cubin, by a
// stable hash of everything its compile read (source with prelude, options, target, compiler
// version). $XDG_CACHE_HOME/xreduce/kernels, else ~/.cache/xreduce/kernels; XR_KERNEL_CACHE=0
// turns it off, XR_KERNEL_CACHE=DIR moves it. A cache that cannot be read or written is no cache:
// the kernel compiles as if it were absent.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace xr {

// FNV-1a over bytes, 64 bits: stable across runs and builds (std::hash is neither).
class StableHash {
 public:
  StableHash& add(std::string_view bytes);
  std::string hex() const;

 private:
  std::uint64_t state_ = 0xcbf29ce484222325ull;
};

class KernelCache {
 public:
  // The cache of this process's environment.
  static KernelCache from_environment();
  bool enabled() const { return !dir_.empty(); }
  // The bytes stored under `key` with `suffix` (".spv", ".cubin"), if any.
  std::optional<std::string> load(const std::string& key, std::string_view suffix) const;
  // Stores through a temporary file and a rename: a reader never sees half a module.
  void store(const std::string& key, std::string_view suffix, std::string_view bytes) const;

 private:
  std::string dir_;
};

}  // namespace xr
