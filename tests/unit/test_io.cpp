// The .npy and .bin readers (io.hpp): round trips, hand-built headers, and every corrupt file
// refused with Error(usage) naming the file. Fixtures are written into a temporary directory.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "xreduce/generate.hpp"
#include "xreduce/io.hpp"

using xr::DType;
using xr::ErrorCategory;
using xrtest::require_error;
using xrtest::TempDir;
using xrtest::write_bytes;

namespace {

// A .npy file of format `major`.0 with `header` (padding and '\n' added) and raw `payload`.
std::string npy_bytes(int major, const std::string& dict, const std::string& payload) {
  const std::size_t preamble = major == 1 ? 10 : 12;
  std::string header = dict;
  header.append((64 - (preamble + header.size() + 1) % 64) % 64, ' ');
  header.push_back('\n');
  std::string out = "\x93NUMPY";
  out.push_back(static_cast<char>(major));
  out.push_back('\0');
  const std::size_t len = header.size();
  out.push_back(static_cast<char>(len & 0xFF));
  out.push_back(static_cast<char>((len >> 8) & 0xFF));
  if (major != 1) {
    out.push_back(static_cast<char>((len >> 16) & 0xFF));
    out.push_back(static_cast<char>((len >> 24) & 0xFF));
  }
  return out + header + payload;
}

template <class T>
std::string raw(const std::vector<T>& xs) {
  return std::string(reinterpret_cast<const char*>(xs.data()), xs.size() * sizeof(T));
}

const std::vector<std::int32_t> kSix{1, 2, 3, -4, 5, 6};

}  // namespace

TEST_CASE("write_npy / read_npy round trip every dtype", "[unit][io]") {
  TempDir dir;
  for (DType t : xr::kAllDTypes) {
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}}) {
      INFO(xr::to_string(t) << " n=" << n);
      const auto data = xr::generate(t, n, 99, xr::Distribution::full);
      const auto path = dir / ("rt_" + std::string(xr::to_string(t)) + std::to_string(n) + ".npy");
      if (t == DType::bf16) {  // NumPy has no bf16: refused, and .bin round-trips it instead
        require_error([&] { xr::write_npy(path, data.view()); }, ErrorCategory::usage,
                      "bf16 has no NumPy type");
        const auto bin = dir / ("rt_bf16_" + std::to_string(n) + ".bin");
        xr::write_output(bin, data.view());
        const auto back = xr::read_input(bin, t);
        REQUIRE(back.size() == n);
        if (n > 0) CHECK(std::memcmp(back.data(), data.data(), data.bytes()) == 0);
        continue;
      }
      xr::write_npy(path, data.view());
      const auto back = xr::read_npy(path, std::nullopt);
      CHECK(back.dtype() == t);
      REQUIRE(back.size() == n);
      if (n > 0) CHECK(std::memcmp(back.data(), data.data(), data.bytes()) == 0);
      CHECK(xr::read_npy(path, t).size() == n);               // matching --dtype
      CHECK(xr::read_input(path, std::nullopt).size() == n);  // by extension
    }
  }
}

TEST_CASE("read_npy reads NumPy's 8- and 2-byte types bit for bit", "[unit][io]") {
  TempDir dir;
  const auto read = [&](const char* name, const char* descr, const std::string& payload,
                        std::size_t n) {
    const auto path = dir / name;
    std::ofstream(path, std::ios::binary)
        << npy_bytes(1,
                     "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': (" +
                         std::to_string(n) + ",), }",
                     payload);
    return xr::read_npy(path, std::nullopt);
  };
  const std::vector<std::int64_t> i64{INT64_MIN, -1, 0, INT64_MAX};
  auto a = read("i8.npy", "<i8", raw(i64), i64.size());
  REQUIRE(a.dtype() == DType::i64);
  CHECK(a.as<std::int64_t>()[0] == INT64_MIN);
  CHECK(a.as<std::int64_t>()[3] == INT64_MAX);
  const std::vector<std::uint64_t> u64{0, UINT64_MAX};
  CHECK(read("u8.npy", "<u8", raw(u64), 2).as<std::uint64_t>()[1] == UINT64_MAX);
  const std::vector<double> f64{0.1, -1e300};
  CHECK(read("f8.npy", "<f8", raw(f64), 2).as<double>()[0] == 0.1);
  // np.array([1, -2.5, 65504, 2**-24], np.float16).view(np.uint16): 3c00 c100 7bff 0001
  const std::vector<std::uint16_t> f16{0x3c00, 0xc100, 0x7bff, 0x0001};
  auto h = read("f2.npy", "<f2", raw(f16), f16.size());
  REQUIRE(h.dtype() == DType::f16);
  CHECK(static_cast<float>(h.as<xr::f16>()[0]) == 1.0f);
  CHECK(static_cast<float>(h.as<xr::f16>()[1]) == -2.5f);
  CHECK(static_cast<float>(h.as<xr::f16>()[2]) == 65504.0f);
  CHECK(static_cast<float>(h.as<xr::f16>()[3]) == std::ldexp(1.0f, -24));
}

TEST_CASE("write_npy replaces a file whole and leaves nothing behind on failure", "[unit][io]") {
  TempDir dir;
  const auto path = dir / "out.npy";
  xr::write_npy(path, xr::generate(DType::u32, 10, 1).view());
  xr::write_npy(path, xr::generate(DType::f32, 3, 2).view());  // an existing file is replaced
  CHECK(xr::read_npy(path, std::nullopt).size() == 3);
  require_error(
      [&] { xr::write_npy(dir / "no-such-dir" / "x.npy", xr::generate(DType::i32, 4, 1).view()); },
      ErrorCategory::usage, "no-such-dir");
  require_error([&] { xr::write_npy(dir.path(), xr::generate(DType::i32, 4, 1).view()); },
                ErrorCategory::usage, "is a directory");
  // Only out.npy: no temporary file was left in the directory.
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    files += e.is_regular_file();
  CHECK(files == 1);
}

TEST_CASE("read_npy: hand-built headers, versions 1.0 and 2.0, C-order shapes", "[unit][io]") {
  TempDir dir;
  SECTION("version 1.0, 1-D") {
    write_bytes(
        dir / "v1.npy",
        npy_bytes(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (6,), }", raw(kSix)));
    const auto a = xr::read_npy(dir / "v1.npy", DType::i32);
    REQUIRE(a.size() == 6);
    CHECK(std::vector<std::int32_t>(a.as<std::int32_t>().begin(), a.as<std::int32_t>().end()) ==
          kSix);
  }
  SECTION("version 2.0 (4-byte header length)") {
    const std::vector<float> fs{0.5f, -1.25f, 3.0f};
    write_bytes(dir / "v2.npy",
                npy_bytes(2, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", raw(fs)));
    const auto a = xr::read_npy(dir / "v2.npy", std::nullopt);
    CHECK(a.dtype() == DType::f32);
    REQUIRE(a.size() == 3);
    CHECK(a.as<float>()[1] == -1.25f);
  }
  SECTION("2-D C order is read flattened in row-major order") {
    write_bytes(
        dir / "m.npy",
        npy_bytes(1, "{'descr': '<u4', 'fortran_order': False, 'shape': (2, 3), }", raw(kSix)));
    const auto a = xr::read_npy(dir / "m.npy", std::nullopt);
    CHECK(a.dtype() == DType::u32);
    REQUIRE(a.size() == 6);
    CHECK(a.as<std::uint32_t>()[3] == static_cast<std::uint32_t>(-4));
    CHECK(a.as<std::uint32_t>()[5] == 6u);
  }
  SECTION("key order and a 1-D fortran_order True array (same layout) are accepted") {
    write_bytes(dir / "f1.npy",
                npy_bytes(1, "{'fortran_order': True, 'shape': (6,), 'descr': '<i4'}", raw(kSix)));
    CHECK(xr::read_npy(dir / "f1.npy", std::nullopt).size() == 6);
  }
  SECTION("an empty array") {
    write_bytes(dir / "e.npy",
                npy_bytes(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (0,), }", ""));
    CHECK(xr::read_npy(dir / "e.npy", std::nullopt).size() == 0);
  }
}

TEST_CASE("read_npy refuses corrupt files with Error(usage) naming the file", "[unit][io]") {
  TempDir dir;
  const std::string good_dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (6,), }";
  const std::string good = npy_bytes(1, good_dict, raw(kSix));
  auto refuse = [&](const std::string& name, const std::string& bytes, std::string_view why,
                    std::optional<DType> dtype = std::nullopt) {
    const auto path = dir / name;
    write_bytes(path, bytes);
    INFO("fixture " << name);
    require_error([&] { xr::read_npy(path, dtype); }, ErrorCategory::usage, path.string());
    require_error([&] { xr::read_npy(path, dtype); }, ErrorCategory::usage, why);
  };

  refuse("bad_magic.npy", "\x93NUMPX" + good.substr(6), "magic");
  refuse("text.npy", "hello, this is not numpy at all", "magic");
  refuse("empty.npy", "", "truncated");
  refuse("short_preamble.npy", good.substr(0, 5), "truncated");
  refuse("short_v2_preamble.npy", npy_bytes(2, good_dict, raw(kSix)).substr(0, 11), "truncated");
  refuse("short_header.npy", good.substr(0, 40), "truncated .npy header");
  refuse("short_data.npy", good.substr(0, good.size() - 3), "truncated .npy data");
  refuse("no_data.npy", npy_bytes(1, good_dict, ""), "truncated .npy data");
  refuse("extra.npy", good + "xyzw", "after the data");
  refuse("c8.npy",
         npy_bytes(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (3,), }",
                   std::string(24, '\0')),
         "unsupported .npy dtype '<c8'");
  refuse("i2.npy",
         npy_bytes(1, "{'descr': '<i2', 'fortran_order': False, 'shape': (3,), }",
                   std::string(6, '\0')),
         "unsupported .npy dtype '<i2'");
  refuse("big_endian.npy",
         npy_bytes(1, "{'descr': '>i4', 'fortran_order': False, 'shape': (6,), }", raw(kSix)),
         "unsupported .npy dtype '>i4'");
  refuse("fortran.npy",
         npy_bytes(1, "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }", raw(kSix)),
         "Fortran");
  refuse("no_descr.npy", npy_bytes(1, "{'fortran_order': False, 'shape': (6,), }", raw(kSix)),
         "descr");
  refuse("bad_shape.npy",
         npy_bytes(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (x,), }", raw(kSix)),
         "shape");
  // 2^62 + 1000 elements of 4 bytes wrap to 4000 bytes: the shape overflows, whatever the file.
  refuse("wraps.npy",
         npy_bytes(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (4611686018427388904,), }",
                   std::string(4000, '\0')),
         "corrupt .npy header: shape (4611686018427388904,) overflows (4611686018427388904 "
         "elements of 4 bytes are more than 2^64 bytes)");
  // A NUL in the header is shown, and the message goes on past it.
  refuse(
      "nul.npy",
      npy_bytes(1, std::string("{'descr': '<f4\0', 'fortran_order': False, 'shape': (6,), }", 58),
                raw(kSix)),
      "unsupported .npy dtype '<f4\\x00' (supported, little-endian");
  refuse("version9.npy", "\x93NUMPY\x09" + good.substr(7), "version 9");
  refuse("dtype_mismatch.npy", good, "--dtype is f32", DType::f32);
}

TEST_CASE("read_npy reads a header as NumPy does, and refuses the headers NumPy refuses",
          "[unit][io]") {
  TempDir dir;
  const std::string six = raw(kSix);
  auto read = [&](const std::string& name, const std::string& dict) {
    write_bytes(dir / name, npy_bytes(1, dict, six));
    return xr::read_npy(dir / name, std::nullopt);
  };
  SECTION("a key given twice takes its last value, as a Python dict does") {
    const auto a = read("twice.npy",
                        "{'descr': '<f4', 'descr': '<i4', 'fortran_order': False, 'shape': (6,)}");
    CHECK(a.dtype() == DType::i32);
    CHECK(a.as<std::int32_t>()[3] == -4);
    CHECK(read("shape_twice.npy",
               "{'descr': '<i4', 'shape': (2,), 'fortran_order': False, 'shape': (2, 3,)}")
              .size() == 6);
  }
  SECTION("double quotes, a trailing comma in the shape, a scalar's empty shape") {
    CHECK(read("double.npy", "{\"descr\": '<i4', \"fortran_order\": False, \"shape\": (6,)}")
              .size() == 6);
    write_bytes(dir / "scalar.npy",
                npy_bytes(1, "{'descr': '<i4', 'fortran_order': False, 'shape': ()}",
                          raw(kSix).substr(0, 4)));
    CHECK(xr::read_npy(dir / "scalar.npy", std::nullopt).size() == 1);
  }
  auto refuse = [&](const std::string& name, const std::string& dict, std::string_view why) {
    INFO(dict);
    write_bytes(dir / name, npy_bytes(1, dict, six));
    require_error([&] { xr::read_npy(dir / name, std::nullopt); }, ErrorCategory::usage,
                  (dir / name).string() + ": corrupt .npy header: ");
    require_error([&] { xr::read_npy(dir / name, std::nullopt); }, ErrorCategory::usage, why);
  };
  const std::string good = "'descr': '<i4', 'fortran_order': False";
  refuse("extra_key.npy", "{" + good + ", 'shape': (6,), 'extra': 1}", "unexpected key 'extra'");
  refuse("empty_items.npy", "{" + good + ", 'shape': (,,6,,)}", "bad shape");
  refuse("leading_comma.npy", "{" + good + ", 'shape': (,6)}", "bad shape");
  refuse("not_tuple.npy", "{" + good + ", 'shape': (6)}", "not a tuple");
  refuse("list_shape.npy", "{" + good + ", 'shape': [6]}", "to open the shape");
  refuse("negative.npy", "{" + good + ", 'shape': (-6,)}", "bad shape");
  refuse("fortran_word.npy", "{'descr': '<i4', 'fortran_order': 0, 'shape': (6,)}",
         "fortran_order is 0, not True or False");
  refuse("unquoted_key.npy", "{descr: '<i4', 'fortran_order': False, 'shape': (6,)}",
         "expected a quoted string");
  refuse("no_brace.npy", "'descr': '<i4', 'fortran_order': False, 'shape': (6,)", "Python dict");
  refuse("after.npy", "{" + good + ", 'shape': (6,)} trailing", "after the header's closing");
  refuse("missing_comma.npy", "{'descr': '<i4' 'fortran_order': False, 'shape': (6,)}",
         "expected ',' or '}'");
  refuse("no_shape.npy", "{" + good + "}", "no 'shape' field");
}

TEST_CASE("read_npy / read_input: missing file and directory", "[unit][io]") {
  TempDir dir;
  const auto missing = dir / "missing.npy";
  require_error([&] { xr::read_npy(missing, std::nullopt); }, ErrorCategory::usage,
                missing.string() + ": no such file");
  const auto sub = dir / "adir.npy";
  std::filesystem::create_directory(sub);
  require_error([&] { xr::read_npy(sub, std::nullopt); }, ErrorCategory::usage,
                sub.string() + ": is a directory");
  require_error([&] { xr::read_input(sub, std::nullopt); }, ErrorCategory::usage, sub.string());
  require_error([&] { xr::read_bin(dir / "missing.bin", DType::i32); }, ErrorCategory::usage,
                "no such file");
}

TEST_CASE(".bin reader: raw elements of --dtype", "[unit][io]") {
  TempDir dir;
  write_bytes(dir / "six.bin", raw(kSix));
  const auto a = xr::read_bin(dir / "six.bin", DType::i32);
  REQUIRE(a.size() == 6);
  CHECK(a.as<std::int32_t>()[3] == -4);
  CHECK(xr::read_input(dir / "six.bin", DType::u32).dtype() == DType::u32);
  write_bytes(dir / "empty.bin", "");
  CHECK(xr::read_bin(dir / "empty.bin", DType::f32).size() == 0);

  write_bytes(dir / "odd.bin", raw(kSix) + "ab");
  require_error([&] { xr::read_bin(dir / "odd.bin", DType::i32); }, ErrorCategory::usage,
                (dir / "odd.bin").string() + ": size 26 bytes is not a multiple of 4");
  require_error([&] { xr::read_input(dir / "six.bin", std::nullopt); }, ErrorCategory::usage,
                "needs --dtype");
  write_bytes(dir / "six.txt", "1 2 3");
  require_error([&] { xr::read_input(dir / "six.txt", DType::i32); }, ErrorCategory::usage,
                "unknown input format");
}
