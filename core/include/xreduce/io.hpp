// Input files: NumPy .npy (little-endian <i4, <u4, <f4, <i8, <u8, <f8, <f2; C order; any shape,
// read flattened) and raw .bin (native little-endian elements, dtype from --dtype; the only form
// of bf16, which NumPy lacks). Every defect is Error(usage)
// with one line that names the file and what is wrong.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "xreduce/output_file.hpp"
#include "xreduce/types.hpp"

namespace xr {

// The bytes of the file at `path`, at most `limit` of them: a regular file, or a pipe or device
// read until its writer closes it (a FIFO with no writer reads as empty, never waits for one).
// Error(usage) "<what> 'PATH': ..." for a directory, a missing or unreadable file, or more than
// `limit` bytes (so /dev/zero is refused, not read until memory runs out).
std::string read_bounded(const std::filesystem::path& path, std::uint64_t limit,
                         std::string_view what);

// `expected`: the --dtype the user gave, if any; a .npy of another dtype is refused.
HostArray read_npy(const std::filesystem::path& path, std::optional<DType> expected);
HostArray read_bin(const std::filesystem::path& path, DType dtype);
// By extension: .npy -> read_npy; .bin -> read_bin (needs `dtype`, default i32 is not assumed).
HostArray read_input(const std::filesystem::path& path, std::optional<DType> dtype);

// The bytes before a 1-D .npy's elements (format 1.0: magic, version, header padded to 64 bytes).
// bf16 has no .npy descriptor: Error(usage) naming `path` and pointing to .bin.
std::string npy_header(const std::filesystem::path& path, HostView data);
// Stages `data` in `set` as `target`'s content, in the form its name says: .bin the raw
// elements, anything else a .npy.
void stage_array(OutputSet& set, const OutputTarget& target, HostView data);

// Writes a 1-D .npy, the raw elements, or the form the extension says (as stage_array), placed
// whole as OutputSet places a file (xreduce/output_file.hpp): `run --output` and the tests'
// fixtures. Error(usage) naming the path.
void write_npy(const std::filesystem::path& path, HostView data);
void write_bin(const std::filesystem::path& path, HostView data);
void write_output(const std::filesystem::path& path, HostView data);

}  // namespace xr
