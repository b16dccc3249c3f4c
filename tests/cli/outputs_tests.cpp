// What a command writes never costs the user a file: a character device, a FIFO or the terminal
// is written through and stays what it is; a link is followed to the file it names; anything
// else that is not a regular file is refused; no output overwrites an input of the same command;
// a command's outputs are placed all or none. Every case runs on the CPU backend, in a temporary
// directory; a device node of the tests' own stands in for /dev/null where the tests may make one.
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

#include "cli_support.hpp"
#include "xreduce/generate.hpp"
#include "xreduce/io.hpp"

namespace {

using namespace clitest;

const std::vector<std::string> kCompare = {
    "compare", "--backend", "cpu",      "--variant", "cpu/sequential", "--n", "1000",
    "--reps",  "2",         "--warmup", "0",         "--quiet"};
const std::vector<std::string> kSortRun = {
    "run", "--backend", "cpu", "--variant", "cpu/radix", "--primitive", "sort", "--values",
    "u64", "--reps",    "1",   "--warmup",  "0"};

mode_t file_type(const fs::path& p) {
  struct stat st {};
  REQUIRE(::lstat(p.c_str(), &st) == 0);
  return st.st_mode & S_IFMT;
}

// A character device that discards what it is given: a node of /dev/null's numbers made in `dir`
// where the tests may make one (as root), so a defect replaces the tests' node, never the
// machine's; /dev/null itself otherwise, whose directory a non-root user cannot write.
fs::path discarding_device(const TempDir& dir) {
  const fs::path node = dir / "null-device";
  if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) return node;
  return "/dev/null";
}

// A FIFO in `dir` with a reader already open on it (non-blocking, so no writer is awaited), and
// what that reader finds once the writer is done.
class FifoReader {
 public:
  FifoReader(const TempDir& dir, const std::string& name) : path_(dir / name) {
    REQUIRE(::mkfifo(path_.c_str(), 0600) == 0);
    fd_ = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK);
    REQUIRE(fd_ >= 0);
  }
  FifoReader(const FifoReader&) = delete;
  FifoReader& operator=(const FifoReader&) = delete;
  ~FifoReader() { ::close(fd_); }
  const fs::path& path() const { return path_; }
  std::string drained() const {
    std::string got;
    char chunk[4096];
    for (ssize_t n; (n = ::read(fd_, chunk, sizeof chunk)) > 0;) got.append(chunk, std::size_t(n));
    return got;
  }

 private:
  fs::path path_;
  int fd_ = -1;
};

// A Unix socket bound at `path`, closed at once (its name stays in the directory).
void make_socket_file(const fs::path& path) {
  const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(s >= 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  REQUIRE(::bind(s, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
  ::close(s);
}

}  // namespace

TEST_CASE("an output that is a character device, a FIFO or the terminal is written through",
          "[cli][out]") {
  TempDir dir;
  SECTION("a character device stays a device, and nothing else is written") {
    const fs::path device = discarding_device(dir);
    const Result r = xreduce(with(kCompare, {"--out", device.string()}));
    INFO(r.err);
    CHECK(r.code == 0);
    CHECK(file_type(device) == S_IFCHR);
    CHECK(r.out.empty());
    const std::size_t left = device.parent_path() == dir.path() ? 1 : 0;
    CHECK(dir.entries() == left);
  }
  SECTION("-, /dev/stdout and /dev/fd/1 are the process's own stdout") {
    for (const std::string name : {"-", "/dev/stdout", "/dev/fd/1"}) {
      INFO(name);
      const Result r = xreduce(with(kCompare, {"--out", name, "--format", "csv"}));
      CHECK(r.code == 0);
      CHECK(r.out.rfind("backend,device,", 0) == 0);
    }
    CHECK(file_type("/dev/null") == S_IFCHR);
  }
  SECTION("a FIFO stays a FIFO and its reader gets the report, the JSON or the array") {
    const FifoReader report(dir, "report.fifo"), saved(dir, "saved.fifo");
    const Result r = xreduce(with(kCompare, {"--out", report.path().string(), "--save-json",
                                             saved.path().string(), "--format", "md"}));
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(file_type(report.path()) == S_IFIFO);
    CHECK(file_type(saved.path()) == S_IFIFO);
    CHECK(report.drained().find("| variant |") != std::string::npos);
    CHECK(json::parse(saved.drained())["results"].size() == 1);

    const FifoReader keys(dir, "keys.npy");
    const Result run = xreduce(with(kSortRun, {"--n", "100", "--output", keys.path().string()}));
    INFO(run.err);
    REQUIRE(run.code == 0);
    CHECK(file_type(keys.path()) == S_IFIFO);
    CHECK(keys.drained().rfind("\x93NUMPY", 0) == 0);
  }
}

TEST_CASE("a link is followed to the file it names; a socket, a directory is refused",
          "[cli][out]") {
  TempDir dir;
  const fs::path real = dir / "real.md", link = dir / "link.md";
  write_bytes(real, "old report\n");
  fs::create_symlink(real.filename(), link);
  REQUIRE(xreduce(with(kCompare, {"--out", link.string(), "--format", "md"})).code == 0);
  CHECK(fs::is_symlink(link));
  CHECK(slurp(real).find("| variant |") != std::string::npos);

  // A link to a name not taken yet: the file is made where the link points, as open() would.
  const fs::path dangling = dir / "dangling.json";
  fs::create_symlink("made.json", dangling);
  REQUIRE(xreduce(with(kCompare, {"--save-json", dangling.string()})).code == 0);
  CHECK(fs::is_symlink(dangling));
  CHECK(json::parse(slurp(dir / "made.json"))["results"].size() == 1);

  const fs::path socket = dir / "report.sock";
  make_socket_file(socket);
  expect_error(with(kCompare, {"--out", socket.string()}), 2,
               "--out '" + socket.string() + "': is a socket, not a regular file");
  CHECK(file_type(socket) == S_IFSOCK);
  fs::create_directory(dir / "adir");
  fs::create_symlink("adir", dir / "to-dir.md");
  expect_error(with(kCompare, {"--out", (dir / "to-dir.md").string()}), 2, "is a directory");
  CHECK(fs::is_empty(dir / "adir"));
}

TEST_CASE("an output never overwrites an input of the same command, however it is named",
          "[cli][out][usage]") {
  TempDir dir;
  const fs::path in = dir / "in.npy";
  xr::write_npy(in, xr::generate(xr::DType::i32, 500, 3).view());
  const std::string original = slurp(in);
  fs::create_symlink("in.npy", dir / "alias.npy");
  const std::string would = "' would overwrite the input --input '" + in.string() + "'";
  expect_error(with(kSortRun, {"--input", in.string(), "--output", in.string()}), 2,
               "--output '" + in.string() + would);
  expect_error(with(kSortRun, {"--input", in.string(), "--output", (dir / "k.npy").string(),
                               "--values-output", (dir / "alias.npy").string()}),
               2, "--values-output '" + (dir / "alias.npy").string() + would);
  expect_error(
      with(kSortRun, {"--input", in.string(), "--output", (dir / "." / "in.npy").string()}), 2,
      "would overwrite the input --input");
  const fs::path raw = dir / "in.bin";
  write_bytes(raw, std::string(400, '\1'));
  expect_error(with(kSortRun, {"--input", raw.string(), "--dtype", "u32", "--output",
                               (dir / "sub" / ".." / "in.bin").string()}),
               2, "would overwrite the input --input");
  CHECK(slurp(in) == original);
  CHECK(slurp(raw) == std::string(400, '\1'));

  // compare --baseline, --merge; diff's two reports.
  const fs::path report = dir / "b.json";
  REQUIRE(xreduce(with(kCompare, {"--save-json", report.string()})).code == 0);
  const std::string saved = slurp(report);
  expect_error(with(kCompare, {"--baseline", report.string(), "--save-json", report.string()}), 2,
               "--save-json '" + report.string() + "' would overwrite the input --baseline");
  expect_error(with(kCompare, {"--merge", report.string(), "--out", report.string()}), 2,
               "--out '" + report.string() + "' would overwrite the input --merge");
  fs::create_symlink("b.json", dir / "b-link.json");
  expect_error({"diff", report.string(), report.string(), "--out", (dir / "b-link.json").string()},
               2, "would overwrite the input OLD '" + report.string() + "'");
  CHECK(slurp(report) == saved);
}

TEST_CASE("an output's name may be as long as the file system allows", "[cli][out]") {
  TempDir dir;
  const fs::path longest = dir / (std::string(251, 'r') + ".npy");  // 255 bytes
  const Result r = xreduce(with(kSortRun, {"--n", "50", "--output", longest.string()}));
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(fs::file_size(longest) == 128 + 50 * 4);
  CHECK(dir.entries() == 1);
}

TEST_CASE(
    "a run's outputs are placed all or none: a failing second output leaves the first as it "
    "was",
    "[cli][out]") {
  TempDir dir;
  const fs::path keys = dir / "keys.npy", values = dir / "values.npy";
  write_bytes(keys, "the user's keys\n");
  // A device that is always full: the values' write fails after the keys' is staged.
  fs::create_symlink("/dev/full", dir / "full.npy");
  expect_error(with(kSortRun, {"--n", "100", "--output", keys.string(), "--values-output",
                               (dir / "full.npy").string()}),
               2, "--values-output '" + (dir / "full.npy").string() + "': cannot write it");
  CHECK(slurp(keys) == "the user's keys\n");

  // A file-size limit of 12 KiB: the keys' 8128 bytes fit, the u64 values' 16128 do not (the
  // disk full). bash ignores SIGXFSZ, so the write fails with EFBIG instead of ending it.
  const Result r = run_program(
      "/bin/bash", with({"-c", "trap '' XFSZ; ulimit -f 12; exec \"$0\" \"$@\"", XREDUCE_EXE},
                        with(kSortRun, {"--n", "2000", "--output", keys.string(), "--values-output",
                                        values.string()})));
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK(r.err.find("--values-output '" + values.string() + "': cannot write it") !=
        std::string::npos);
  CHECK(slurp(keys) == "the user's keys\n");
  CHECK(!fs::exists(values));
  CHECK(dir.entries() == 2);  // keys.npy and the link: no temporary left behind
}
