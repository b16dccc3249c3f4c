// Compiled kernels kept on disk between runs: a SPIR-V module, a cubin, an OpenCL program binary
// with its build log, by a stable hash of everything its compile read (source with prelude,
// options, target, compiler or driver version). $XDG_CACHE_HOME/xreduce/kernels, else
// ~/.cache/xreduce/kernels; XR_KERNEL_CACHE=0 turns it off, XR_KERNEL_CACHE=DIR moves it. A cache
// that cannot be read or written is no cache: the kernel compiles as if it were absent.
//
// A file on disk is not trusted: each entry carries the key it was built for and the length and
// hash of each of its parts, and is read only when it is a regular file no larger than an entry
// can be. An entry that fails any of that (truncated, flipped bytes, another key's, a symlink, a
// device, a directory, an older format) is removed with one note on stderr and built again; it
// never reaches a driver.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace xr {

// FNV-1a over bytes, 64 bits: stable across runs and builds (std::hash is neither).
class StableHash {
 public:
  StableHash& add(std::string_view bytes);
  std::string hex() const;

 private:
  std::uint64_t state_ = 0xcbf29ce484222325ull;
};

// An entry's parts by name ("module", "binary", "log").
using CacheParts = std::map<std::string, std::string, std::less<>>;

// The largest entry the cache reads: past every module, cubin or program binary xreduce builds
// (the largest seen, a pocl program binary, is under 1 MiB).
inline constexpr std::uint64_t kMaxCacheEntryBytes = std::uint64_t{256} << 20;

// The bytes of an entry for `name` (key and suffix) holding `parts`.
std::string encode_cache_entry(std::string_view name, const CacheParts& parts);
// The parts of `bytes` when they are a whole entry written for `name` holding every part
// `required` lists; otherwise why not, in words ("truncated: 40000 of 52311 bytes").
std::variant<CacheParts, std::string> decode_cache_entry(
    std::string_view bytes, std::string_view name, const std::vector<std::string_view>& required);

class KernelCache {
 public:
  // The cache of this process's environment. A folder that cannot hold it (not a folder, under a
  // file, one this process may neither write nor make) is none: the kernels are built without a
  // cache, and one note on stderr, once per process and folder, names it (XR_KERNEL_CACHE and
  // its value, or the default folder) and says why.
  static KernelCache from_environment();
  // A cache in `dir` (empty: none), whose notes name `program`.
  explicit KernelCache(std::string dir = {}, std::string program = "xreduce");

  bool enabled() const { return !dir_.empty(); }
  // Its directory (empty: none), where the drivers' own caches are kept too (pocl's: pocl/).
  const std::string& dir() const { return dir_; }
  // The parts stored under `key` with `suffix` (".spv", ".cubin", ".clbin"), when the entry is
  // whole, its own and holds each part `required` names. Any other entry is removed, with a note.
  std::optional<CacheParts> load(const std::string& key, std::string_view suffix,
                                 const std::vector<std::string_view>& required) const;
  // Stores through a temporary file and a rename: a reader never sees half an entry.
  void store(const std::string& key, std::string_view suffix, const CacheParts& parts) const;
  // Removes an entry that was whole but that its consumer refused (a driver rejected the
  // binary), with a note saying `why`.
  void discard(const std::string& key, std::string_view suffix, std::string_view why) const;

 private:
  std::string path_of(const std::string& key, std::string_view suffix) const;

  std::string dir_;
  std::string program_;
};

}  // namespace xr
