#include "xreduce/io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>

#include "xreduce/error.hpp"
#include "xreduce/npy_header.hpp"

namespace xr {
namespace {

// The .npy descriptors of the dtypes NumPy has (bf16 has none: raw .bin only).
struct NpyType {
  DType dtype;
  const char* descr;
};
constexpr NpyType kNpyTypes[] = {{DType::i32, "<i4"}, {DType::u32, "<u4"}, {DType::f32, "<f4"},
                                 {DType::i64, "<i8"}, {DType::u64, "<u8"}, {DType::f64, "<f8"},
                                 {DType::f16, "<f2"}, {DType::u8, "|u1"},  {DType::u16, "<u2"}};

std::string dtype_names() {
  std::string out;
  for (DType t : kAllDTypes) {
    if (!out.empty()) out += '|';
    out += to_string(t);
  }
  return out;
}

[[noreturn]] void bad_file(const std::filesystem::path& path, const std::string& why) {
  throw Error(ErrorCategory::usage, path.string() + ": " + why);
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// What a path that is not a regular file is, in words.
std::string file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// An input array's file: a regular file, whose size says how many elements it holds. Checked
// before it is opened, so a FIFO is refused rather than waited on.
File open_for_read(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) bad_file(path, "no such file");
    bad_file(path, std::string("cannot be read: ") + std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) bad_file(path, "is a directory, not a file");
  if (!S_ISREG(st.st_mode))
    bad_file(path,
             "is " + file_kind(st.st_mode) + ", not a regular file (an input is read by its size)");
  File f(std::fopen(path.c_str(), "rb"));
  if (!f) bad_file(path, "cannot be opened for reading");
  return f;
}

std::uint64_t checked_file_size(const std::filesystem::path& path) {
  std::error_code ec;
  auto size = std::filesystem::file_size(path, ec);
  if (ec) bad_file(path, "cannot read its size: " + ec.message());
  return size;
}

void read_payload(std::FILE* f, const std::filesystem::path& path, HostArray& out) {
  if (out.bytes() && std::fread(out.data(), 1, out.bytes(), f) != out.bytes())
    bad_file(path, "read failed");
}

}  // namespace

namespace {

// The preamble of a .npy file: the magic, the format version and the header's length.
struct NpyPreamble {
  std::uint64_t preamble_len = 10;
  std::uint64_t header_len = 0;
};

NpyPreamble read_preamble(std::FILE* f, const std::filesystem::path& path, std::uint64_t total) {
  unsigned char preamble[10];
  if (total < 10 || std::fread(preamble, 1, 10, f) != 10)
    bad_file(path, "truncated .npy file (shorter than its preamble)");
  if (std::memcmp(preamble, "\x93NUMPY", 6) != 0)
    bad_file(path, "not a .npy file (missing the \\x93NUMPY magic)");
  const int major = preamble[6];
  NpyPreamble p;
  if (major == 1) {
    p.header_len = preamble[8] | (preamble[9] << 8);
  } else if (major == 2 || major == 3) {
    unsigned char more[2];
    if (std::fread(more, 1, 2, f) != 2) bad_file(path, "truncated .npy header");
    p.header_len = preamble[8] | (preamble[9] << 8) | (more[0] << 16) |
                   (static_cast<std::uint64_t>(more[1]) << 24);
    p.preamble_len = 12;
  } else {
    bad_file(path, "unsupported .npy format version " + std::to_string(major));
  }
  if (p.preamble_len + p.header_len > total) bad_file(path, "truncated .npy header");
  return p;
}

// The header's 'descr' as one of the supported dtypes (and the one --dtype asked for).
DType npy_dtype(const std::string& descr, const std::filesystem::path& path,
                std::optional<DType> expected) {
  // descr is quoted: '<f4'.
  const auto known = std::find_if(std::begin(kNpyTypes), std::end(kNpyTypes), [&](const auto& t) {
    return descr.size() == std::strlen(t.descr) + 2 &&
           descr.compare(1, descr.size() - 2, t.descr) == 0;
  });
  if (known == std::end(kNpyTypes))
    bad_file(path, "unsupported .npy dtype " + descr +
                       " (supported, little-endian: '<i4' i32, '<u4' u32, '<f4' f32, '<i8' i64, "
                       "'<u8' u64, '<f8' f64, '<f2' f16; bf16 as .bin with --dtype bf16)");
  if (expected && *expected != known->dtype)
    bad_file(path, "holds " + std::string(to_string(known->dtype)) + " but --dtype is " +
                       std::string(to_string(*expected)));
  return known->dtype;
}

// The elements of the header's shape: the product of its dimensions, one for a scalar's ().
std::uint64_t npy_count(const NpyHeader& h, const std::filesystem::path& path) {
  std::uint64_t count = 1;
  for (std::uint64_t d : h.dims) {
    if (d != 0 && count > UINT64_MAX / d) bad_file(path, "corrupt .npy header: shape overflows");
    count *= d;
  }
  return count;
}

}  // namespace

std::string read_bounded(const std::filesystem::path& path, std::uint64_t limit,
                         std::string_view what) {
  auto fail = [&](const std::string& why) -> std::string {
    throw Error(ErrorCategory::usage, std::string(what) + " '" + path.string() + "': " + why);
  };
  // O_NONBLOCK: opening a FIFO does not wait for a writer; reads are made blocking again below.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return fail(std::string("cannot read it: ") + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) return fail(std::string("cannot read it: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return fail("is a directory, not a file");
  if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > limit)
    return fail("is " + std::to_string(st.st_size) + " bytes, more than the " +
                std::to_string(limit) + " it may hold");
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  std::string bytes;
  char chunk[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return fail(std::string("cannot read it: ") + std::strerror(errno));
    if (got == 0) break;
    if (bytes.size() + static_cast<std::size_t>(got) > limit)
      return fail("holds more than the " + std::to_string(limit) + " bytes it may hold");
    bytes.append(chunk, static_cast<std::size_t>(got));
  }
  return bytes;
}

HostArray read_npy(const std::filesystem::path& path, std::optional<DType> expected) {
  File f = open_for_read(path);
  const std::uint64_t total = checked_file_size(path);
  const NpyPreamble p = read_preamble(f.get(), path, total);
  std::string header(p.header_len, '\0');
  if (std::fread(header.data(), 1, p.header_len, f.get()) != p.header_len)
    bad_file(path, "truncated .npy header");
  const NpyHeader parsed = parse_npy_header(header, path);
  const DType dtype = npy_dtype(parsed.descr, path, expected);
  const std::uint64_t count = npy_count(parsed, path);
  const std::string& shape = parsed.shape;
  if (parsed.fortran_order && parsed.dims.size() > 1)
    bad_file(path, "Fortran-order .npy arrays are not supported (save with C order)");

  if (count > UINT64_MAX / size_of(dtype))
    bad_file(path, "corrupt .npy header: shape " + shape + " overflows (" + std::to_string(count) +
                       " elements of " + std::to_string(size_of(dtype)) +
                       " bytes are more than 2^64 bytes)");
  const std::uint64_t data_bytes = total - p.preamble_len - p.header_len;
  if (count > data_bytes / size_of(dtype))
    bad_file(path, "truncated .npy data: shape " + shape + " needs " +
                       std::to_string(count * size_of(dtype)) + " bytes, the file holds " +
                       std::to_string(data_bytes));
  if (data_bytes != count * size_of(dtype))
    bad_file(path, "corrupt .npy file: " + std::to_string(data_bytes - count * size_of(dtype)) +
                       " bytes after the data");
  HostArray out(dtype, count);
  read_payload(f.get(), path, out);
  return out;
}

HostArray read_bin(const std::filesystem::path& path, DType dtype) {
  File f = open_for_read(path);
  const std::uint64_t total = checked_file_size(path);
  if (total % size_of(dtype) != 0)
    bad_file(path, "size " + std::to_string(total) + " bytes is not a multiple of " +
                       std::to_string(size_of(dtype)) + " (" + std::string(to_string(dtype)) +
                       " elements)");
  HostArray out(dtype, total / size_of(dtype));
  read_payload(f.get(), path, out);
  return out;
}

HostArray read_input(const std::filesystem::path& path, std::optional<DType> dtype) {
  const auto ext = path.extension().string();
  if (ext == ".npy") return read_npy(path, dtype);
  if (ext == ".bin") {
    if (!dtype) bad_file(path, "a raw .bin file needs --dtype (" + dtype_names() + ")");
    return read_bin(path, *dtype);
  }
  bad_file(path, "unknown input format '" + ext + "' (expected .npy or .bin)");
}

std::string npy_header(const std::filesystem::path& path, HostView data) {
  const auto known = std::find_if(std::begin(kNpyTypes), std::end(kNpyTypes),
                                  [&](const auto& t) { return t.dtype == data.dtype; });
  if (known == std::end(kNpyTypes))
    bad_file(path, std::string(to_string(data.dtype)) +
                       " has no NumPy type: write a raw .bin file instead");
  std::string header = "{'descr': '" + std::string(known->descr) +
                       "', 'fortran_order': False, 'shape': (" + std::to_string(data.size) +
                       ",), }";
  // Pad with spaces so the data starts on a 64-byte boundary, ending in '\n' (format 1.0).
  const std::size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  // Magic, format 1.0, header length (little-endian), header; appended piecewise (GCC 12 warns
  // of a bogus overlap on `literal + string`).
  std::string head("\x93NUMPY\x01\x00", 8);
  head.push_back(static_cast<char>(header.size() & 0xFF));
  head.push_back(static_cast<char>(header.size() >> 8));
  head.append(header);
  return head;
}

namespace {
std::string_view bytes_of(HostView data) {
  return {static_cast<const char*>(data.data), data.bytes()};
}
}  // namespace

void stage_array(OutputSet& set, const OutputTarget& target, HostView data) {
  const std::string head =
      target.given.extension() == ".bin" ? std::string() : npy_header(target.given, data);
  set.stage(target, {head, bytes_of(data)});
}

void write_output(const std::filesystem::path& path, HostView data) {
  OutputSet set;
  stage_array(set, OutputTarget::resolve("output", path), data);
  set.place();
}

void write_npy(const std::filesystem::path& path, HostView data) {
  write_output_file(OutputTarget::resolve("output", path),
                    {npy_header(path, data), bytes_of(data)});
}

void write_bin(const std::filesystem::path& path, HostView data) {
  write_output_file(OutputTarget::resolve("output", path), {bytes_of(data)});
}

}  // namespace xr
