#include "xreduce/output_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <optional>
#include <utility>

#include "xreduce/error.hpp"
#include "xreduce/printable.hpp"

namespace xr {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void refuse_output(const OutputTarget& t, const std::string& why) {
  throw Error(ErrorCategory::usage,
              t.flag + " '" + printable(t.given.string()) + "': " + printable(why));
}

std::string output_errno_text(int error) {
  return std::strerror(error);
}

// What a path that is neither a regular file nor a stream is, in words.
std::string unwritable_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "is a directory";
  if (S_ISSOCK(mode)) return "is a socket";
  if (S_ISBLK(mode)) return "is a block device";
  return "is not a regular file";
}

// The process's own descriptor a name stands for: `-` and /dev/stdout are 1, /dev/stderr 2,
// /dev/fd/N and /proc/self/fd/N are N. Written through that descriptor, the output lands where
// the shell sent it (appended to a file opened with >>, into a pipe), never in a new file.
std::optional<int> own_descriptor(const fs::path& given) {
  const std::string p = given.lexically_normal().string();
  if (p == "-" || p == "/dev/stdout") return 1;
  if (p == "/dev/stderr") return 2;
  for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (p.rfind(prefix, 0) != 0) continue;
    int fd = -1;
    const char* first = p.data() + prefix.size();
    const char* last = p.data() + p.size();
    const auto [end, ec] = std::from_chars(first, last, fd);
    if (ec == std::errc{} && end == last && first != last) return fd;
  }
  return std::nullopt;
}

// The file a name ends at once every symbolic link in its last component is followed, where that
// file does not exist yet (a dangling link): a plain open() would create it there.
fs::path end_of_links_of(const fs::path& given) {
  fs::path p = given;
  std::error_code ec;
  for (int hop = 0; hop < 40 && fs::is_symlink(p, ec); ++hop) {
    const fs::path target = fs::read_symlink(p, ec);
    if (ec) break;
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  return p.lexically_normal();
}

fs::path output_directory(const fs::path& file) {
  const fs::path dir = file.parent_path();
  return dir.empty() ? fs::path(".") : dir;
}

void check_output_directory(const OutputTarget& t, const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    refuse_output(t, "directory '" + dir.string() + "' does not exist");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    refuse_output(t, "directory '" + dir.string() + "' is not writable");
}

OutputTarget own_stream_target(OutputTarget t, int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0) refuse_output(t, "descriptor " + std::to_string(fd) + " is not open");
  if ((flags & O_ACCMODE) == O_RDONLY)
    refuse_output(t, "descriptor " + std::to_string(fd) + " is open for reading only");
  t.kind = OutputTarget::Kind::stream;
  t.descriptor = fd;
  return t;
}

// Whether `a` and `b` are one existing file (any two names, links included).
bool one_existing_file(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec) && !ec;
}

// The absolute, normal spelling of a name not yet taken, links of its existing part resolved.
fs::path spelled_absolute(const fs::path& p) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(p, ec);
  const fs::path canonical = fs::weakly_canonical(absolute, ec);
  return ec ? absolute.lexically_normal() : canonical;
}

// A new file for `target`'s content: beside the file it replaces (so the rename stays on one file
// system), or in the temporary directory for a stream. The name is short, so a target whose own
// name is as long as the file system allows still has one.
std::pair<int, fs::path> create_staging_file(const OutputTarget& target, std::string_view suffix) {
  const fs::path dir = target.kind == OutputTarget::Kind::replace ? output_directory(target.file)
                                                                  : fs::temp_directory_path();
  std::string name = (dir / ".xreduce-XXXXXX").string();
  name += suffix;
  const int fd = ::mkstemps(name.data(), static_cast<int>(suffix.size()));
  if (fd < 0)
    refuse_output(target, "cannot create a temporary file in '" + dir.string() +
                              "': " + output_errno_text(errno));
  return {fd, fs::path(name)};
}

// The permissions of the file being replaced, or those a plain open() gives a new one (mkstemp
// creates 0600).
mode_t staged_mode(const OutputTarget& target) {
  struct stat st {};
  if (target.kind == OutputTarget::Kind::replace && ::stat(target.file.c_str(), &st) == 0)
    return st.st_mode & 07777;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

// Writes all of `bytes` to `fd`; the errno of the failure, or 0.
int write_whole(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t w = ::write(fd, bytes.data(), bytes.size());
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return errno;
    bytes.remove_prefix(static_cast<std::size_t>(w));
  }
  return 0;
}

// SIGPIPE held back while a stream is written, so a reader that goes away is an error line
// (EPIPE), not the process killed.
class PipeSignalHeld {
 public:
  PipeSignalHeld() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_, &before_);
  }
  PipeSignalHeld(const PipeSignalHeld&) = delete;
  PipeSignalHeld& operator=(const PipeSignalHeld&) = delete;
  ~PipeSignalHeld() {
    const timespec now{};
    while (sigtimedwait(&pipe_, nullptr, &now) == SIGPIPE) {
    }
    pthread_sigmask(SIG_SETMASK, &before_, nullptr);
  }

 private:
  sigset_t pipe_{}, before_{};
};

// A file descriptor, closed at the end of its scope where it is owned.
struct OutputDescriptor {
  int fd = -1;
  bool owned = false;
  OutputDescriptor(int descriptor, bool own) : fd(descriptor), owned(own) {}
  OutputDescriptor(const OutputDescriptor&) = delete;
  OutputDescriptor& operator=(const OutputDescriptor&) = delete;
  ~OutputDescriptor() {
    if (owned) ::close(fd);
  }
};

// Copies the staged `temporary` through to the stream `target`.
void write_through(const OutputTarget& target, const fs::path& temporary) {
  if (target.descriptor == 1) std::fflush(stdout);
  if (target.descriptor == 2) std::fflush(stderr);
  OutputDescriptor in{::open(temporary.c_str(), O_RDONLY | O_CLOEXEC), true};
  if (in.fd < 0)
    refuse_output(target, "cannot read back its staged content: " + output_errno_text(errno));
  const bool own = target.descriptor >= 0;
  OutputDescriptor out{own ? target.descriptor : ::open(target.file.c_str(), O_WRONLY | O_CLOEXEC),
                       !own};
  if (out.fd < 0) refuse_output(target, "cannot open it for writing: " + output_errno_text(errno));
  const PipeSignalHeld held;
  char chunk[1 << 16];
  for (;;) {
    const ssize_t got = ::read(in.fd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0)
      refuse_output(target, "cannot read back its staged content: " + output_errno_text(errno));
    if (got == 0) break;
    if (const int error = write_whole(out.fd, {chunk, static_cast<std::size_t>(got)}))
      refuse_output(target, "cannot write it: " + output_errno_text(error));
  }
}

}  // namespace

OutputTarget OutputTarget::resolve(std::string_view flag, const fs::path& given) {
  OutputTarget t;
  t.flag = std::string(flag);
  t.given = given;
  if (given.empty()) refuse_output(t, "empty file name");
  if (const std::optional<int> fd = own_descriptor(given))
    return own_stream_target(std::move(t), *fd);
  struct stat st {};
  if (::stat(given.c_str(), &st) == 0) {
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
      if (::access(given.c_str(), W_OK) != 0)
        refuse_output(t, "not writable: " + output_errno_text(errno));
      t.kind = Kind::stream;
      t.file = given;
      return t;
    }
    if (!S_ISREG(st.st_mode))
      refuse_output(
          t, unwritable_kind(st.st_mode) + ", not a regular file, a character device or a FIFO");
    // A file its owner made read-only stays as it is, as a shell's `>` leaves it.
    if (::access(given.c_str(), W_OK) != 0)
      refuse_output(t, "not writable: " + output_errno_text(errno));
    std::error_code ec;
    t.file = fs::canonical(given, ec);
    if (ec) refuse_output(t, ec.message());
  } else if (errno == ENOENT) {
    t.file = end_of_links_of(given);
  } else {
    refuse_output(t, output_errno_text(errno));
  }
  check_output_directory(t, output_directory(t.file));
  return t;
}

bool OutputTarget::overwrites(const fs::path& path) const {
  if (kind != Kind::replace) return false;
  return one_existing_file(file, path) || spelled_absolute(file) == spelled_absolute(path);
}

void check_outputs(std::span<const OutputTarget> outputs, std::span<const NamedInput> inputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const OutputTarget& a = outputs[i];
    for (std::size_t j = i + 1; j < outputs.size(); ++j)
      if (outputs[j].kind == OutputTarget::Kind::replace && a.overwrites(outputs[j].file))
        throw Error(ErrorCategory::usage,
                    a.flag + " '" + printable(a.given.string()) + "' and " + outputs[j].flag +
                        " '" + printable(outputs[j].given.string()) +
                        "' name the same file: one would overwrite the other (give each output "
                        "its own file)");
    for (const NamedInput& in : inputs)
      if (a.overwrites(in.path))
        throw Error(ErrorCategory::usage,
                    a.flag + " '" + printable(a.given.string()) + "' would overwrite the input " +
                        std::string(in.flag) + " '" + printable(in.path.string()) +
                        "' (write the output to another file)");
  }
}

OutputSet& OutputSet::operator=(OutputSet&& other) noexcept {
  if (this != &other) {
    remove_temporaries();
    staged_ = std::move(other.staged_);
    other.staged_.clear();
  }
  return *this;
}

OutputSet::~OutputSet() {
  remove_temporaries();
}

void OutputSet::remove_temporaries() noexcept {
  for (const Staged& s : staged_) ::unlink(s.temporary.c_str());
  staged_.clear();
}

fs::path OutputSet::stage_file(const OutputTarget& target, std::string_view suffix) {
  auto [fd, temporary] = create_staging_file(target, suffix);
  staged_.push_back({target, temporary});
  const bool moded = ::fchmod(fd, staged_mode(target)) == 0;
  const int error = errno;
  ::close(fd);
  if (!moded)
    refuse_output(target,
                  "cannot set the permissions of its temporary file: " + output_errno_text(error));
  return temporary;
}

void OutputSet::stage(const OutputTarget& target, std::initializer_list<std::string_view> pieces) {
  const fs::path temporary = stage_file(target);
  OutputDescriptor fd{::open(temporary.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC), true};
  if (fd.fd < 0) refuse_output(target, "cannot write it: " + output_errno_text(errno));
  for (std::string_view piece : pieces)
    if (const int error = write_whole(fd.fd, piece))
      refuse_output(target, "cannot write it: " + output_errno_text(error));
  // A replaced file is on the disk before its name moves to it: a crash leaves the old or the new.
  if (target.kind == OutputTarget::Kind::replace && ::fsync(fd.fd) != 0)
    refuse_output(target, "cannot write it: " + output_errno_text(errno));
}

void OutputSet::place() {
  for (const Staged& s : staged_)
    if (s.target.kind == OutputTarget::Kind::stream) write_through(s.target, s.temporary);
  // The streams' temporaries are done with; a renamed file's is its name now, never removed.
  std::erase_if(staged_, [](const Staged& s) {
    if (s.target.kind != OutputTarget::Kind::stream) return false;
    ::unlink(s.temporary.c_str());
    return true;
  });
  while (!staged_.empty()) {
    const Staged& s = staged_.back();
    if (std::rename(s.temporary.c_str(), s.target.file.c_str()) != 0)
      refuse_output(s.target, "cannot write it: " + output_errno_text(errno));
    staged_.pop_back();
  }
}

void write_output_file(const OutputTarget& target, std::initializer_list<std::string_view> pieces) {
  OutputSet set;
  set.stage(target, pieces);
  set.place();
}

}  // namespace xr
