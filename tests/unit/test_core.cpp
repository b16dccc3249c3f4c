// Value formatting, dtype/op names, the catalog, the registry, the error categories and the
// printable text of messages.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/cpu_backend.hpp"
#include "xreduce/error.hpp"
#include "xreduce/host_copy.hpp"
#include "xreduce/operand_spans.hpp"
#include "xreduce/printable.hpp"
#include "xreduce/registry.hpp"
#include "xreduce/types.hpp"

using xr::ErrorCategory;
using xrtest::require_error;

TEST_CASE("Value: formatting, conversion and bitwise comparison", "[unit][value]") {
  CHECK(xr::Value::of(std::int32_t{-5}).to_string() == "-5");
  CHECK(xr::Value::of(std::int32_t{INT32_MIN}).to_string() == "-2147483648");
  CHECK(xr::Value::of(std::uint32_t{4294967295u}).to_string() == "4294967295");
  CHECK(xr::Value::of(1.5f).to_string() == "1.5");
  CHECK(xr::Value::of(0.1f).to_string() == "0.1");  // shortest round trip, not 0.100000001
  CHECK(xr::Value::of(-3e30f).to_string() == "-3e+30");
  CHECK(xr::Value::of(std::numeric_limits<float>::infinity()).to_string() == "inf");
  CHECK(xr::Value::of(-std::numeric_limits<float>::infinity()).to_string() == "-inf");
  CHECK(xr::Value::of(std::numeric_limits<float>::quiet_NaN()).to_string() == "nan");

  CHECK(xr::Value::of(std::uint32_t{4294967295u}).as_double() == 4294967295.0);
  CHECK(xr::Value::of(std::int32_t{-7}).as_double() == -7.0);
  CHECK(xr::Value::of(0.25f).dtype() == xr::DType::f32);
  CHECK(xr::Value::of(0.25f).get<float>() == 0.25f);

  CHECK(xr::Value::of(1.0f).bitwise_equal(xr::Value::of(1.0f)));
  CHECK_FALSE(xr::Value::of(0.0f).bitwise_equal(xr::Value::of(-0.0f)));
  CHECK_FALSE(xr::Value::of(std::int32_t{1}).bitwise_equal(xr::Value::of(std::uint32_t{1})));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(xr::Value::of(nan).bitwise_equal(xr::Value::of(nan)));

  CHECK(xr::Value::identity_of(xr::DType::i32, xr::Op::min).get<std::int32_t>() == INT32_MAX);
  CHECK(xr::Value::identity_of(xr::DType::u32, xr::Op::max).get<std::uint32_t>() == 0u);
  CHECK(std::isinf(xr::Value::identity_of(xr::DType::f32, xr::Op::min).get<float>()));
}

TEST_CASE("dtype and op names round-trip, apply wraps integer sums", "[unit][value]") {
  for (xr::DType t : xr::kAllDTypes) CHECK(xr::parse_dtype(xr::to_string(t)) == t);
  for (xr::Op op : xr::kAllOps) CHECK(xr::parse_op(xr::to_string(op)) == op);
  CHECK_FALSE(xr::parse_dtype("f128").has_value());
  CHECK_FALSE(xr::parse_dtype("I32").has_value());
  CHECK_FALSE(xr::parse_op("prod").has_value());
  CHECK(xr::size_of(xr::DType::f32) == 4);
  CHECK(xr::size_of(xr::DType::u8) == 1);
  CHECK(xr::size_of(xr::DType::u16) == 2);
  CHECK(xr::is_integer(xr::DType::u8));
  // The 8- and 16-bit integers are a histogram's samples only.
  for (xr::DType t : xr::kElementDTypes) CHECK(xr::size_of(t) >= 2);
  CHECK(std::size(xr::kElementDTypes) + 2 == std::size(xr::kAllDTypes));
  CHECK(xr::is_integer(xr::DType::u32));
  CHECK_FALSE(xr::is_integer(xr::DType::f32));
  CHECK(xr::apply(xr::Op::sum, INT32_MAX, 1) == INT32_MIN);
  CHECK(xr::apply(xr::Op::sum, 0xFFFFFFFFu, 2u) == 1u);
  CHECK(xr::apply(xr::Op::sum, INT64_MAX, std::int64_t{1}) == INT64_MIN);
  CHECK(xr::apply(xr::Op::sum, UINT64_MAX, std::uint64_t{2}) == 1u);
  CHECK(xr::apply(xr::Op::min, std::int64_t{-1}, std::int64_t{1}) == -1);
  CHECK(xr::apply(xr::Op::min, -1, 1) == -1);
  CHECK(xr::apply(xr::Op::max, -1.5f, -2.5f) == -1.5f);
}

TEST_CASE("catalog: ids unique within a primitive, family/name, unknown ids refused",
          "[unit][catalog]") {
  std::set<std::pair<xr::Primitive, std::string_view>> ids;
  int position = 0;
  xr::Primitive previous = xr::Primitive::reduce;
  for (const auto& e : xr::catalog()) {
    INFO(xr::to_string(e.primitive) << " " << e.id);
    CHECK(ids.insert({e.primitive, e.id}).second);
    CHECK(e.primitive >= previous);  // each primitive's ladder is contiguous
    previous = e.primitive;
    const auto slash = e.id.find('/');
    CHECK(slash != std::string_view::npos);
    CHECK(slash > 0);
    CHECK(slash + 1 < e.id.size());
    CHECK_FALSE(e.mirrors.empty());
    CHECK(xr::ladder_position(e.primitive, e.id) == position++);
    CHECK(xr::in_catalog(e.primitive, e.id));
  }
  CHECK(ids.count({xr::Primitive::reduce, "smem/multi-element"}) == 1);
  CHECK(ids.count({xr::Primitive::reduce, "fast/single-pass"}) == 1);
  // The same id names a variant of each primitive; each id of seed 001's ladder is a scan.
  for (const char* id : {"cpu/sequential", "cpu/parallel", "lib/cub", "subgroup/arithmetic"}) {
    CHECK(xr::in_catalog(xr::Primitive::reduce, id));
    CHECK(xr::in_catalog(xr::Primitive::scan, id));
    CHECK(xr::ladder_position(xr::Primitive::reduce, id) !=
          xr::ladder_position(xr::Primitive::scan, id));
  }
  for (const char* id : {"bit/one-layer", "bit/cooperative", "blelloch/bcao",
                         "fast/decoupled-lookback", "smem/hillis-steele"}) {
    CHECK(xr::in_catalog(xr::Primitive::scan, id));
    CHECK_FALSE(xr::in_catalog(xr::Primitive::reduce, id));
  }
  CHECK(xr::ladder_position(xr::Primitive::scan, "bit/one-layer") <
        xr::ladder_position(xr::Primitive::scan, "bit/unrolled"));
  CHECK(xr::ladder_position(xr::Primitive::reduce, "no/such") ==
        static_cast<int>(xr::catalog().size()));

  const auto v =
      xr::catalog_variant(xr::Primitive::reduce, "cpu/sequential", {xr::DType::i32}, {xr::Op::sum});
  CHECK(v.id == "cpu/sequential");
  CHECK(v.primitive == xr::Primitive::reduce);
  CHECK(v.scan_kinds.empty());
  CHECK(v.deterministic);
  CHECK_FALSE(v.mirrors.empty());
  const auto s = xr::catalog_variant(xr::Primitive::scan, "fast/decoupled-lookback",
                                     {xr::DType::f32}, {xr::Op::sum});
  CHECK(s.primitive == xr::Primitive::scan);
  CHECK(s.claims(xr::ScanKind::inclusive));
  CHECK(s.claims(xr::ScanKind::exclusive));
  CHECK(s.mirrors != v.mirrors);
  CHECK(v.claims(xr::DType::i32));
  CHECK_FALSE(v.claims(xr::DType::f32));
  CHECK(v.claims(xr::Op::sum));
  CHECK_FALSE(v.claims(xr::Op::max));
  CHECK_FALSE(v.writes_input);
  require_error([] { xr::catalog_variant(xr::Primitive::reduce, "smem/fancy", {}, {}); },
                ErrorCategory::usage, "'smem/fancy' is not in the reduce catalog");
  require_error([] { xr::catalog_variant(xr::Primitive::scan, "smem/sequential", {}, {}); },
                ErrorCategory::usage, "'smem/sequential' is not in the scan catalog");
}

TEST_CASE("primitives and scan kinds: names, operations, bytes", "[unit][catalog]") {
  for (xr::Primitive p : xr::kAllPrimitives) CHECK(xr::parse_primitive(xr::to_string(p)) == p);
  for (xr::ScanKind k : xr::kAllScanKinds) CHECK(xr::parse_scan_kind(xr::to_string(k)) == k);
  CHECK_FALSE(xr::parse_primitive("Sort").has_value());
  for (xr::SortOrder o : xr::kAllSortOrders) CHECK(xr::parse_sort_order(xr::to_string(o)) == o);
  CHECK_FALSE(xr::parse_sort_order("ascending").has_value());
  CHECK(xr::parse_bit_range("3:17") == xr::BitRange{3, 17});
  for (const char* bad : {"", "3", "17:3", "4:4", ":8", "8:", "a:9", "1:2:3", "0:1000"})
    CHECK_FALSE(xr::parse_bit_range(bad).has_value());
  CHECK(xr::to_string(xr::BitRange{}, xr::DType::f16) == "0:16");
  xr::Operation pairs{.primitive = xr::Primitive::sort};
  pairs.order = xr::SortOrder::descending;
  pairs.values = xr::SortValues::u32;
  pairs.bits = {0, 8};
  CHECK(pairs.describe() == "desc sort of pairs, bits 0:8");
  pairs.values = xr::SortValues::u64;
  CHECK(pairs.describe() == "desc sort of pairs, u64 values, bits 0:8");
  for (const xr::SortValues v : xr::kAllSortValues)
    CHECK(xr::parse_sort_values(xr::to_string(v)) == v);
  CHECK_FALSE(xr::parse_sort_values("u16").has_value());
  CHECK_FALSE(xr::parse_scan_kind("Inclusive").has_value());
  CHECK(xr::Operation{xr::Primitive::reduce, xr::Op::min}.describe() == "min");
  CHECK(xr::Operation{xr::Primitive::scan, xr::Op::sum, xr::ScanKind::exclusive}.describe() ==
        "exclusive scan sum");
  CHECK(xr::bytes_moved({.primitive = xr::Primitive::reduce}, 10, xr::DType::u32) == 40.0);
  CHECK(xr::bytes_moved({.primitive = xr::Primitive::scan}, 10, xr::DType::u32) == 80.0);
  // A radix sort's bound: keys read once, then read and written per 8-bit digit (36 bytes per
  // u32 key), values read and written per digit (68 per pair of u32, 100 with a u64 value); a bit
  // range has fewer digits.
  xr::Operation sort{.primitive = xr::Primitive::sort};
  CHECK(xr::bytes_moved(sort, 10, xr::DType::u32) == 360.0);
  CHECK(xr::bytes_moved(sort, 10, xr::DType::u64) == 10 * 8 * 17.0);
  CHECK(xr::bytes_moved(sort, 10, xr::DType::f16) == 10 * 2 * 5.0);
  sort.values = xr::SortValues::u32;
  CHECK(xr::bytes_moved(sort, 10, xr::DType::u32) == 680.0);
  sort.values = xr::SortValues::u64;
  CHECK(xr::bytes_moved(sort, 10, xr::DType::u32) == 1000.0);
  sort.values = xr::SortValues::none;
  sort.bits = {0, 16};
  CHECK(xr::bytes_moved(sort, 10, xr::DType::u32) == 10 * 4 * 5.0);
  sort.bits = {3, 12};  // 9 bits: two digits
  CHECK(xr::radix_passes(sort.bits, xr::DType::u32) == 2);
  const auto d = xr::catalog_variant(xr::Primitive::scan, "lib/cub",
                                     {xr::DType::i32, xr::DType::f32}, {xr::Op::sum});
  auto nd = d;
  nd.deterministic = false;
  CHECK(nd.deterministic_for(xr::DType::i32));  // integers are exact, hence always repeatable
  CHECK_FALSE(nd.deterministic_for(xr::DType::f32));
  CHECK(d.deterministic_for(xr::DType::f32));
}

TEST_CASE("registry: unknown is usage, not built is unavailable", "[unit][registry]") {
  xr::Registry registry;
  registry.add(xr::cpu::make_backend());
  registry.note_not_built("cuda", "no CUDA compiler (nvcc) found");
  CHECK(registry.names() == std::vector<std::string>{"cpu"});
  CHECK(registry.find("cpu") != nullptr);
  CHECK(registry.find("cuda") == nullptr);
  CHECK(&registry.get("cpu") == registry.find("cpu"));
  require_error([&] { registry.get("opencl"); }, ErrorCategory::usage, "unknown backend 'opencl'");
  require_error([&] { registry.get("opencl"); }, ErrorCategory::usage, "this build has: cpu");
  require_error([&] { registry.get("cuda"); }, ErrorCategory::unavailable,
                "no CUDA compiler (nvcc) found");
}

TEST_CASE("builtin registry: every backend's variants are catalog ids, unique, complete",
          "[unit][registry]") {
  xr::Registry registry;
  xr::register_builtin_backends(registry);
  REQUIRE_FALSE(registry.backends().empty());
  CHECK(registry.backends().front()->name() == "cpu");
  CHECK(registry.get("cpu").available());
  for (const auto& b : registry.backends()) {
    const std::string name(b->name());
    INFO("backend " << name);
    CHECK(b->available() == b->unavailable_reason().empty());
    std::set<std::pair<xr::Primitive, std::string>> ids;
    for (const auto& v : b->variants()) {
      INFO("variant " << xr::to_string(v.primitive) << " " << v.id);
      CHECK(ids.insert({v.primitive, v.id}).second);
      CHECK(xr::in_catalog(v.primitive, v.id));
      CHECK_FALSE(v.dtypes.empty());
      // A sort and a histogram have no operator.
      CHECK(v.ops.empty() ==
            (v.primitive == xr::Primitive::sort || v.primitive == xr::Primitive::histogram));
      CHECK((v.max_bins > 0) == (v.primitive == xr::Primitive::histogram));
      CHECK(v.scan_kinds.empty() == (v.primitive != xr::Primitive::scan));
    }
    CHECK_FALSE(ids.empty());
    // An unknown id is the user's mistake (usage) or, without a device, unavailable.
    for (xr::Primitive p : xr::kAllPrimitives) {
      INFO(xr::to_string(p));
      try {
        if (p == xr::Primitive::reduce)
          b->make_reducer("no/such-variant");
        else
          b->make_scanner("no/such-variant");
        FAIL("an unknown id was accepted");
      } catch (const xr::Error& e) {
        CHECK((e.category() == ErrorCategory::usage || e.category() == ErrorCategory::unavailable));
      }
    }
  }
}

TEST_CASE("error categories map to the documented exit codes", "[unit][error]") {
  CHECK(xr::exit_code(ErrorCategory::check_failed) == 1);
  CHECK(xr::exit_code(ErrorCategory::usage) == 2);
  CHECK(xr::exit_code(ErrorCategory::unsupported) == 3);
  CHECK(xr::exit_code(ErrorCategory::unavailable) == 3);
  CHECK(xr::exit_code(ErrorCategory::out_of_memory) == 4);
  CHECK(xr::exit_code(ErrorCategory::device_lost) == 5);
  CHECK(xr::to_string(ErrorCategory::out_of_memory) == "out of memory");
  CHECK(xr::to_string(ErrorCategory::device_lost) == "device lost");
  CHECK(xr::to_string(ErrorCategory::usage) == "usage");
}

TEST_CASE("throw_call_error names file, line and expression", "[unit][error]") {
  try {
    xr::throw_call_error(ErrorCategory::device_lost, "/a/b/context.cpp", 42, "vkWaitForFences(x)",
                         "VK_TIMEOUT");
    FAIL("did not throw");
  } catch (const xr::Error& e) {
    CHECK(e.category() == ErrorCategory::device_lost);
    CHECK(std::string(e.what()) == "context.cpp:42: `vkWaitForFences(x)` failed: VK_TIMEOUT");
  }
}

TEST_CASE("an error's message keeps a NUL and what follows it, spelled \\x00", "[unit][error]") {
  const xr::Error e(ErrorCategory::usage, std::string("descr '<f4\0' of x.npy", 21));
  CHECK(std::string(e.what()) == "descr '<f4\\x00' of x.npy");
  CHECK(xr::printable(e.what()) == xr::printable(std::string("descr '<f4\0' of x.npy", 21)));
}

TEST_CASE("printable: controls and bidirectional overrides are escaped byte by byte",
          "[unit][printable]") {
  CHECK(xr::printable("a\x1b[31mb\x07") == "a\\x1b[31mb\\x07");
  CHECK(xr::printable("\xc2\x9b") == "\\xc2\\x9b");  // C1's CSI
  // RLO (U+202E) and the isolates (U+2066..U+2069) reorder what follows them on the screen.
  CHECK(xr::printable("cpu\u202Eabc") == "cpu\\xe2\\x80\\xaeabc");
  CHECK(xr::printable("\u202A\u202B\u202C\u202D") ==
        "\\xe2\\x80\\xaa\\xe2\\x80\\xab\\xe2\\x80\\xac\\xe2\\x80\\xad");
  CHECK(xr::printable("\u2066x\u2069") == "\\xe2\\x81\\xa6x\\xe2\\x81\\xa9");
  // Their neighbours are text: the dashes, and U+2070 (superscript zero).
  CHECK(xr::printable("\u2014\u2070\u00b5") == "\u2014\u2070\u00b5");
  const std::string hostile = "x\u202Ey\x1b\u2067";
  CHECK(xr::printable(xr::printable(hostile)) == xr::printable(hostile));
  CHECK(xr::nul_escaped(std::string("a\0b", 3)) == "a\\x00b");
}

TEST_CASE("copy_parallel copies every byte at every size, and staging chunks stay in bounds",
          "[unit][host_copy]") {
  // Sizes around the parallel threshold and the piece size, odd tails included.
  for (std::size_t bytes :
       {std::size_t{0}, std::size_t{1}, std::size_t{4095}, xr::kParallelCopyMin - 1,
        xr::kParallelCopyMin, 3 * xr::kParallelCopyMin + 17}) {
    CAPTURE(bytes);
    std::vector<unsigned char> src(bytes), dst(bytes, 0xA5);
    for (std::size_t i = 0; i < bytes; ++i) src[i] = static_cast<unsigned char>(i * 131 + 7);
    xr::copy_parallel(dst.data(), src.data(), bytes);
    CHECK(dst == src);
  }
  constexpr std::size_t MiB = std::size_t{1} << 20;
  CHECK(xr::staging_chunk_bytes(1) == 4 * MiB);                     // small transfers: one chunk
  CHECK(xr::staging_chunk_bytes(64 * MiB) == 8 * MiB);              // an eighth
  CHECK(xr::staging_chunk_bytes(1024 * MiB) == xr::kStagingBytes);  // at most one buffer
  for (std::size_t bytes : {MiB, 100 * MiB, 4096 * MiB})
    CHECK(xr::staging_chunk_bytes(bytes) <= xr::kStagingBytes);
}

TEST_CASE("f16 and bf16 round to nearest even and widen exactly", "[unit][half]") {
  // Values checked against NumPy's float16 and ml_dtypes' bfloat16.
  CHECK(xr::f16(0.1).bits == 0x2e66);
  CHECK(xr::f16(65504.0).bits == 0x7bff);
  CHECK(xr::f16(65519.99).bits == 0x7bff);           // below the halfway point to 65536
  CHECK(xr::f16(65520.0).bits == 0x7c00);            // the tie rounds to even: infinity
  CHECK(xr::f16(1.0 + 0x1p-11).bits == 0x3c00);      // tie: to the even 1.0
  CHECK(xr::f16(1.0 + 3 * 0x1p-11).bits == 0x3c02);  // tie: to the even 1 + 2^-9
  CHECK(xr::f16(3e-8).bits == 0x0001);               // above half the smallest subnormal
  CHECK(xr::f16(2e-8).bits == 0x0000);
  CHECK(xr::f16(-0.0).bits == 0x8000);
  CHECK(xr::bf16(0.1).bits == 0x3dcd);
  CHECK(xr::bf16(1e10).bits == 0x5015);
  CHECK(xr::bf16(3.4e38).bits == 0x7f80);  // past bf16's largest finite value
  // Every finite bit pattern survives widening and rounding back (NaNs stay NaNs).
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const auto h = xr::f16::from_bits(static_cast<std::uint16_t>(b));
    const auto g = xr::bf16::from_bits(static_cast<std::uint16_t>(b));
    const float hf = static_cast<float>(h), gf = static_cast<float>(g);
    if (std::isnan(hf))
      CHECK(std::isnan(static_cast<float>(xr::f16(hf))));
    else if (xr::f16(hf).bits != b)
      FAIL_CHECK("f16 bits " << b << " came back as " << xr::f16(hf).bits);
    if (std::isnan(gf))
      CHECK(std::isnan(static_cast<float>(xr::bf16(gf))));
    else if (xr::bf16(gf).bits != b)
      FAIL_CHECK("bf16 bits " << b << " came back as " << xr::bf16(gf).bits);
  }
  // Shortest text that reads back as the same 16-bit value, as NumPy prints it.
  CHECK(xr::Value::of(xr::f16(0.1)).to_string() == "0.1");
  CHECK(xr::Value::of(xr::bf16(3.14159)).to_string() == "3.14");
  CHECK(xr::Value::identity_of(xr::DType::f16, xr::Op::min).to_string() == "inf");
  CHECK(xr::Value::identity_of(xr::DType::bf16, xr::Op::max).to_string() == "-inf");
  CHECK(xr::size_of(xr::DType::bf16) == 2);
  CHECK(xr::accumulator_of(xr::DType::f16) == xr::DType::f32);
  CHECK(xr::accumulator_of(xr::DType::f64) == xr::DType::f64);
  CHECK(xr::fraction_bits(xr::DType::bf16) == 7);
  CHECK(xr::is_float(xr::DType::f16));
  CHECK_FALSE(xr::is_integer(xr::DType::bf16));
}

TEST_CASE("operand spans: overlaps within one space, sizes, and checks made once per operands",
          "[unit]") {
  using xr::OperandSpan;
  const OperandSpan a{.space = 7, .begin = 0, .bytes = 64, .name = "keys_in"};
  CHECK(xr::overlap(a, {.space = 7, .begin = 63, .bytes = 1, .name = "b"}));
  CHECK_FALSE(xr::overlap(a, {.space = 7, .begin = 64, .bytes = 8, .name = "b"}));
  CHECK_FALSE(xr::overlap(a, {.space = 8, .begin = 0, .bytes = 64, .name = "b"}));
  CHECK_FALSE(xr::overlap(a, {.space = 7, .begin = 0, .bytes = 0, .name = "b"}));
  // At the top of the space, where begin + bytes would wrap.
  CHECK(xr::overlap({.space = 0, .begin = UINT64_MAX - 3, .bytes = 4, .name = "a"},
                    {.space = 0, .begin = UINT64_MAX, .bytes = 1, .name = "b"}));
  const std::vector<OperandSpan> spans{a,
                                       {.space = 7, .begin = 32, .bytes = 64, .name = "keys_out"}};
  require_error([&] { xr::require_disjoint("Sort::record", spans); }, xr::ErrorCategory::usage,
                "Sort::record: `keys_in` and `keys_out` overlap");
  require_error([] { xr::require_holds("Sort::enqueue", "temp", 256, 257, "", " (temp)"); },
                xr::ErrorCategory::usage, "`temp` holds 256 bytes; the call needs 257 (temp)");

  xr::CheckedOperands checked;
  int checks = 0;
  const std::uint64_t first[] = {1, 2}, second[] = {1, 3};
  checked.check(first, [&] { ++checks; });
  checked.check(first, [&] { ++checks; });
  CHECK(checks == 1);  // the same operands: checked once
  CHECK_THROWS(checked.check(second, [&] {
    ++checks;
    throw xr::Error(xr::ErrorCategory::usage, "refused");
  }));
  checked.check(second, [&] { ++checks; });
  CHECK(checks == 3);  // a refusal is not remembered as a pass
  checked.check(first, [&] { ++checks; });
  CHECK(checks == 4);
}
