#include "xreduce/kernel_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <system_error>

#include "xreduce/printable.hpp"

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

namespace {

// An entry: a text header of lines, then its parts' bytes in the header's order.
//   xreduce kernel cache 1
//   name <key><suffix>
//   part <name> <bytes> <hash of the bytes>
//   end
constexpr std::string_view kMagic = "xreduce kernel cache 1\n";
constexpr std::size_t kMaxHeaderBytes = 4096;

struct PartLine {
  std::string name;
  std::uint64_t bytes = 0;
  std::string hash;
};

// The next line of `header` from `at` (without its newline); nullopt at the end.
std::optional<std::string_view> next_line(std::string_view header, std::size_t& at) {
  const std::size_t end = header.find('\n', at);
  if (end == std::string_view::npos) return std::nullopt;
  const std::string_view line = header.substr(at, end - at);
  at = end + 1;
  return line;
}

std::optional<PartLine> parse_part_line(std::string_view line) {
  if (line.substr(0, 5) != "part ") return std::nullopt;
  line.remove_prefix(5);
  const std::size_t space1 = line.find(' ');
  const std::size_t space2 = line.find(' ', space1 + 1);
  if (space1 == 0 || space1 == std::string_view::npos || space2 == std::string_view::npos)
    return std::nullopt;
  PartLine p{std::string(line.substr(0, space1)), 0, std::string(line.substr(space2 + 1))};
  const std::string_view count = line.substr(space1 + 1, space2 - space1 - 1);
  const auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), p.bytes);
  if (ec != std::errc() || end != count.data() + count.size() || p.hash.size() != 16)
    return std::nullopt;
  return p;
}

std::string hash_of(std::string_view bytes) {
  return StableHash().add(bytes).hex();
}

}  // namespace

std::string encode_cache_entry(std::string_view name, const CacheParts& parts) {
  std::string out(kMagic);
  out += "name " + std::string(name) + "\n";
  for (const auto& [part, bytes] : parts)
    out += "part " + part + " " + std::to_string(bytes.size()) + " " + hash_of(bytes) + "\n";
  out += "end\n";
  for (const auto& [part, bytes] : parts) out += bytes;
  return out;
}

std::variant<CacheParts, std::string> decode_cache_entry(
    std::string_view bytes, std::string_view name, const std::vector<std::string_view>& required) {
  if (bytes.substr(0, kMagic.size()) != kMagic)
    return std::string("not an entry of this xreduce's cache (no header)");
  const std::string_view header = bytes.substr(0, std::min(bytes.size(), kMaxHeaderBytes));
  std::size_t at = kMagic.size();
  const auto name_line = next_line(header, at);
  if (!name_line || name_line->substr(0, 5) != "name ") return std::string("a damaged header");
  if (name_line->substr(5) != name)
    return "written for another kernel (" + printable(name_line->substr(5)) + ")";
  std::vector<PartLine> lines;
  for (;;) {
    const auto line = next_line(header, at);
    if (!line) return std::string("a damaged header");
    if (*line == "end") break;
    const auto part = parse_part_line(*line);
    if (!part) return std::string("a damaged header");
    lines.push_back(*part);
  }
  std::uint64_t expected = at;
  for (const PartLine& p : lines) {
    if (p.bytes > kMaxCacheEntryBytes) return std::string("a damaged header");
    expected += p.bytes;
  }
  if (bytes.size() != expected)
    return (bytes.size() < expected ? "truncated: " : "longer than its header says: ") +
           std::to_string(bytes.size()) + " of " + std::to_string(expected) + " bytes";
  CacheParts parts;
  for (const PartLine& p : lines) {
    const std::string_view part = bytes.substr(at, p.bytes);
    at += p.bytes;
    if (hash_of(part) != p.hash) return "its " + printable(p.name) + " does not match its hash";
    parts.emplace(p.name, std::string(part));
  }
  for (std::string_view r : required)
    if (parts.find(r) == parts.end()) return "it holds no " + std::string(r);
  return parts;
}

namespace {

// The file at `path`, read whole when it is a regular file of at most kMaxCacheEntryBytes:
// nullopt and no reason when there is none, else the bytes or why they were not read.
struct EntryRead {
  std::optional<std::string> bytes;
  std::string refused;  // non-empty: the entry exists and is not readable as one
};

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

EntryRead read_entry(const std::string& path) {
  // O_NOFOLLOW: the cache writes regular files only, so a link is not its entry; O_NONBLOCK: a
  // FIFO opens without waiting for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return {};
    if (errno == ELOOP) return {std::nullopt, "a symbolic link"};
    return {std::nullopt, std::string("unreadable: ") + std::strerror(errno)};
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    return {std::nullopt, std::string("unreadable: ") + std::strerror(errno)};
  if (!S_ISREG(st.st_mode)) return {std::nullopt, kind_of(st.st_mode)};
  if (static_cast<std::uint64_t>(st.st_size) > kMaxCacheEntryBytes)
    return {std::nullopt, std::to_string(st.st_size) + " bytes, larger than any entry"};
  std::string bytes(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t got = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return {std::nullopt, std::string("unreadable: ") + std::strerror(errno)};
    if (got == 0) break;
    done += static_cast<std::size_t>(got);
  }
  bytes.resize(done);
  return {std::move(bytes), {}};
}

}  // namespace

KernelCache::KernelCache(std::string dir, std::string program)
    : dir_(std::move(dir)), program_(std::move(program)) {}

namespace {

std::string kind_of_non_folder(mode_t mode) {
  if (S_ISREG(mode)) return "a file";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a folder";
}

// Why `dir` cannot hold the cache, in words; empty where it can: a folder this process may write
// into, or one it may make (its first existing ancestor such a folder). A store writes there, and
// pocl keeps its own cache inside it.
std::string unusable_reason(const fs::path& dir) {
  fs::path at = dir;
  for (;;) {
    struct stat st {};
    if (::stat(at.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode))
        return printable(at.string()) + " is " + kind_of_non_folder(st.st_mode) + ", not a folder";
      if (::access(at.c_str(), W_OK | X_OK) != 0)
        return printable(at.string()) + " is not writable: " + std::strerror(errno);
      return {};
    }
    // ENOTDIR: an ancestor is not a folder, found on the way up.
    if (errno != ENOENT && errno != ENOTDIR)
      return printable(at.string()) + ": " + std::strerror(errno);
    const fs::path parent = at.has_parent_path() ? at.parent_path() : fs::path(".");
    if (parent == at) return {};
    at = parent;
  }
}

// Says once per process and folder why the cache is not there: every backend (and the OpenCL
// library, for each program set) asks for it.
void note_unusable(const std::string& named, const std::string& why) {
  static std::mutex mutex;
  static std::set<std::string> noted;
  const std::lock_guard lock(mutex);
  if (!noted.insert(named).second) return;
  std::fprintf(stderr, "xreduce: note: %s: %s: kernels are built without a cache\n",
               printable(named).c_str(), why.c_str());
}

// The cache in `dir`, or none where it cannot be there (`named`: how the note names it).
KernelCache usable_cache(const std::string& dir, const std::string& named) {
  const std::string why = unusable_reason(dir);
  if (why.empty()) return KernelCache(dir);
  note_unusable(named, why);
  return KernelCache();
}

}  // namespace

KernelCache KernelCache::from_environment() {
  const char* knob = std::getenv("XR_KERNEL_CACHE");
  if (knob && std::string_view(knob) == "0") return KernelCache();
  if (knob && *knob) return usable_cache(knob, std::string("XR_KERNEL_CACHE=") + knob);
  std::string dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    dir = (fs::path(xdg) / "xreduce" / "kernels").string();
  else if (const char* home = std::getenv("HOME"); home && *home)
    dir = (fs::path(home) / ".cache" / "xreduce" / "kernels").string();
  if (dir.empty()) return KernelCache();
  return usable_cache(dir, "the kernel cache " + dir + " (XR_KERNEL_CACHE moves it)");
}

std::string KernelCache::path_of(const std::string& key, std::string_view suffix) const {
  return (fs::path(dir_) / (key + std::string(suffix))).string();
}

std::optional<CacheParts> KernelCache::load(const std::string& key, std::string_view suffix,
                                            const std::vector<std::string_view>& required) const {
  if (!enabled()) return std::nullopt;
  EntryRead read = read_entry(path_of(key, suffix));
  if (!read.bytes && read.refused.empty()) return std::nullopt;
  if (read.bytes) {
    auto decoded = decode_cache_entry(*read.bytes, key + std::string(suffix), required);
    if (auto* parts = std::get_if<CacheParts>(&decoded)) return std::move(*parts);
    read.refused = std::get<std::string>(decoded);
  }
  discard(key, suffix, read.refused);
  return std::nullopt;
}

void KernelCache::discard(const std::string& key, std::string_view suffix,
                          std::string_view why) const {
  const std::string path = path_of(key, suffix);
  std::error_code ec;
  // Removes a file, a link (not its target) or an empty directory; anything else stays, and the
  // kernel is built without the cache's copy.
  const bool removed = fs::remove(path, ec);
  std::fprintf(stderr, "%s: note: kernel cache entry %s: %s: %s\n", program_.c_str(),
               printable(path).c_str(), printable(why).c_str(),
               removed ? "removed, built again" : "ignored, built again");
}

void KernelCache::store(const std::string& key, std::string_view suffix,
                        const CacheParts& parts) const {
  if (!enabled()) return;
  std::error_code ec;
  fs::create_directories(dir_, ec);
  const fs::path target = path_of(key, suffix);
  const fs::path temporary = fs::path(dir_) / (key + "." + std::to_string(::getpid()) + ".tmp");
  const std::string bytes = encode_cache_entry(key + std::string(suffix), parts);
  {
    std::ofstream out(temporary, std::ios::binary);
    if (!out || !out.write(bytes.data(), static_cast<std::streamsize>(bytes.size())) ||
        !out.flush()) {
      out.close();
      fs::remove(temporary, ec);
      return;
    }
  }
  fs::rename(temporary, target, ec);
  if (ec) fs::remove(temporary, ec);
}

}  // namespace xr
