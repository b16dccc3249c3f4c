// Where a command's outputs go, and how they are written so that nothing a user owns is lost:
//   - a regular file, or a name not yet taken, is replaced whole: written to a temporary file
//     beside it and renamed over it, so a reader never sees half of it and a failure leaves the
//     old file as it was. A symbolic link is followed: the file it names is replaced, the link
//     stays;
//   - a character device, a FIFO or the terminal is written through, in place; `-`, /dev/stdout,
//     /dev/stderr and /dev/fd/N are the process's own descriptors;
//   - anything else (a directory, a socket, a block device) is refused.
// An OutputSet writes a command's outputs all or none: each is staged whole, and only when every
// one is staged are they placed.
#pragma once

#include <filesystem>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace xr {

// One output, resolved before any work.
struct OutputTarget {
  enum class Kind { replace, stream };
  Kind kind = Kind::replace;
  std::string flag;             // "--out": named in every refusal
  std::filesystem::path given;  // as the user wrote it
  // replace: the regular file written, every link followed; stream: the path opened for writing
  // (empty where `descriptor` is the process's own).
  std::filesystem::path file;
  int descriptor = -1;  // a stream of the process's own: 1 for `-` and /dev/stdout

  // Error(usage) "<flag> '<given>': ..." for an empty name, a missing or unwritable directory, a
  // directory, a socket, a block device, or a descriptor that is not open.
  static OutputTarget resolve(std::string_view flag, const std::filesystem::path& given);

  // Whether writing this output would change the existing file at `path` (however it is named):
  // only a replaced file can; a stream is written through and destroys nothing.
  bool overwrites(const std::filesystem::path& path) const;
};

// An input file of a command and the flag (or argument) that names it.
struct NamedInput {
  std::string_view flag;  // "--input", "OLD"
  std::filesystem::path path;
};

// Error(usage) "--output 'a.npy' and --values-output './a.npy' name the same file" when two
// replaced outputs are one file, and "--output 'in.npy' would overwrite the input --input
// 'in.npy'" when an output is one of the inputs: the same file however named (./a.npy,
// dir/../a.npy, a symbolic or hard link). Streams may share a device: each is written through.
void check_outputs(std::span<const OutputTarget> outputs, std::span<const NamedInput> inputs = {});

// A command's outputs, written all or none. Move-only; its destructor removes every temporary
// file that was not placed.
class OutputSet {
 public:
  OutputSet() = default;
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;
  OutputSet(OutputSet&& other) noexcept = default;
  OutputSet& operator=(OutputSet&& other) noexcept;
  ~OutputSet();

  // Stages `pieces`, one after the other, as the whole content of `target`. Error(usage) naming
  // the target when the temporary file cannot be written (a full disk).
  void stage(const OutputTarget& target, std::initializer_list<std::string_view> pieces);
  // A temporary file ending in `suffix` (".svg") for a program to write `target`'s content into;
  // placed by place() as if staged.
  std::filesystem::path stage_file(const OutputTarget& target, std::string_view suffix = {});
  // The streams written through first, so a failing device places no file; then each file
  // renamed over its target. Error(usage) naming the output that cannot be written.
  void place();

 private:
  struct Staged {
    OutputTarget target;
    std::filesystem::path temporary;
  };
  void remove_temporaries() noexcept;
  std::vector<Staged> staged_;
};

// The one-output form: `pieces` placed at `target` as OutputSet does.
void write_output_file(const OutputTarget& target, std::initializer_list<std::string_view> pieces);

}  // namespace xr
