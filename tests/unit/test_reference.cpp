// The host reference, the float bound and the verdict (reference.hpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "xreduce/generate.hpp"
#include "xreduce/reference.hpp"
#include "xreduce/sort_keys.hpp"
#include "xreduce/sort_reference.hpp"

namespace {

template <class T>
xr::HostView view_of(const std::vector<T>& xs) {
  return {xr::DTypeOf<T>::value, xs.data(), xs.size()};
}

const double kUlp23 = std::ldexp(1.0, -23);

}  // namespace

TEST_CASE("float_sum_bound grows with log2(n) and with sum|x|", "[unit][bound]") {
  // (ceil(log2(max(n, 2))) + 2) * 2^-23 * sum|x|
  CHECK(xr::float_sum_bound(0, 1.0) == 3 * kUlp23);
  CHECK(xr::float_sum_bound(1, 1.0) == 3 * kUlp23);
  CHECK(xr::float_sum_bound(2, 1.0) == 3 * kUlp23);
  CHECK(xr::float_sum_bound(3, 1.0) == 4 * kUlp23);
  CHECK(xr::float_sum_bound(1024, 1.0) == 12 * kUlp23);
  CHECK(xr::float_sum_bound(1025, 1.0) == 13 * kUlp23);
  CHECK(xr::float_sum_bound(1u << 20, 1.0) == 22 * kUlp23);
  CHECK(xr::float_sum_bound(1024, 1000.0) == 1000 * xr::float_sum_bound(1024, 1.0));
  CHECK(xr::float_sum_bound(1024, 0.0) == 0.0);
  double previous = 0;
  for (std::size_t n = 1; n < (std::size_t{1} << 34); n *= 3) {
    const double b = xr::float_sum_bound(n, 1.0);
    CHECK(b >= previous);
    previous = b;
  }
}

TEST_CASE("validate accepts a float sum within the bound and rejects one beyond", "[unit][bound]") {
  std::vector<float> xs(1000, 1.0f);
  const xr::Reference ref = xr::reference_reduce(view_of(xs), xr::Op::sum);
  REQUIRE(ref.exact == 1000.0);
  REQUIRE(ref.abs_sum == 1000.0);
  const double bound = xr::float_sum_bound(1000, 1000.0);  // 12 * 2^-23 * 1000 ~ 1.43e-3
  REQUIRE(bound == Approx(12 * kUlp23 * 1000));

  const xr::Verdict exact = xr::validate(xr::Value::of(1000.0f), ref, xr::Op::sum);
  CHECK(exact.ok);
  CHECK(exact.message.empty());

  // 1000 + 2^-10 ~ 1000.00098 is inside the bound; 1000.0625 is far outside it.
  const float inside = 1000.0f + std::ldexp(1.0f, -10);
  REQUIRE(std::fabs(inside - 1000.0) <= bound);
  const xr::Verdict ok = xr::validate(xr::Value::of(inside), ref, xr::Op::sum);
  CHECK(ok.ok);
  CHECK(ok.bound == bound);

  const xr::Verdict bad = xr::validate(xr::Value::of(1000.0625f), ref, xr::Op::sum);
  CHECK_FALSE(bad.ok);
  CHECK(bad.error == 0.0625);
  CHECK(bad.message.find("expected 1000") != std::string::npos);

  CHECK_FALSE(
      xr::validate(xr::Value::of(std::numeric_limits<float>::infinity()), ref, xr::Op::sum).ok);
  CHECK_FALSE(
      xr::validate(xr::Value::of(std::numeric_limits<float>::quiet_NaN()), ref, xr::Op::sum).ok);
}

TEST_CASE("validate: integers and min/max are exact", "[unit][bound]") {
  std::vector<std::int32_t> is{5, -3, 7};
  const auto sum = xr::reference_reduce(view_of(is), xr::Op::sum);
  CHECK(xr::validate(xr::Value::of(std::int32_t{9}), sum, xr::Op::sum).ok);
  CHECK_FALSE(xr::validate(xr::Value::of(std::int32_t{10}), sum, xr::Op::sum).ok);
  CHECK_FALSE(xr::validate(xr::Value::of(std::uint32_t{9}), sum, xr::Op::sum).ok);  // wrong dtype

  std::vector<float> fs{1.5f, -2.25f, 8.0f};
  const auto fmin = xr::reference_reduce(view_of(fs), xr::Op::min);
  const auto fmax = xr::reference_reduce(view_of(fs), xr::Op::max);
  CHECK(xr::validate(xr::Value::of(-2.25f), fmin, xr::Op::min).ok);
  CHECK_FALSE(xr::validate(xr::Value::of(std::nextafter(-2.25f, 0.0f)), fmin, xr::Op::min).ok);
  CHECK(xr::validate(xr::Value::of(8.0f), fmax, xr::Op::max).ok);
  CHECK_FALSE(xr::validate(xr::Value::of(std::nextafter(8.0f, 9.0f)), fmax, xr::Op::max).ok);

  // -0 and +0 are the same minimum.
  std::vector<float> zeros{0.0f, 1.0f};
  const auto zmin = xr::reference_reduce(view_of(zeros), xr::Op::min);
  CHECK(xr::validate(xr::Value::of(-0.0f), zmin, xr::Op::min).ok);
}

TEST_CASE("reference: integer sums wrap modulo 2^32", "[unit][reference]") {
  constexpr auto imax = std::numeric_limits<std::int32_t>::max();
  constexpr auto imin = std::numeric_limits<std::int32_t>::min();
  std::vector<std::int32_t> i{imax, 1};
  CHECK(xr::reference_reduce(view_of(i), xr::Op::sum).value.get<std::int32_t>() == imin);
  std::vector<std::int32_t> i2{imin, -1};
  CHECK(xr::reference_reduce(view_of(i2), xr::Op::sum).value.get<std::int32_t>() == imax);
  std::vector<std::int32_t> many(1000, imax);  // 1000 * (2^31 - 1) mod 2^32 = -1000 as i32
  CHECK(xr::reference_reduce(view_of(many), xr::Op::sum).value.get<std::int32_t>() == -1000);

  std::vector<std::uint32_t> u{0xFFFFFFFFu, 2u};
  CHECK(xr::reference_reduce(view_of(u), xr::Op::sum).value.get<std::uint32_t>() == 1u);
  std::vector<std::uint32_t> umany(3, 0x80000000u);
  CHECK(xr::reference_reduce(view_of(umany), xr::Op::sum).value.get<std::uint32_t>() ==
        0x80000000u);

  std::vector<std::int32_t> mm{3, imin, imax, -1};
  CHECK(xr::reference_reduce(view_of(mm), xr::Op::min).value.get<std::int32_t>() == imin);
  CHECK(xr::reference_reduce(view_of(mm), xr::Op::max).value.get<std::int32_t>() == imax);
  std::vector<std::uint32_t> um{3u, 0xFFFFFFFFu, 0u};
  CHECK(xr::reference_reduce(view_of(um), xr::Op::min).value.get<std::uint32_t>() == 0u);
  CHECK(xr::reference_reduce(view_of(um), xr::Op::max).value.get<std::uint32_t>() == 0xFFFFFFFFu);
}

TEST_CASE("reference: n == 0 gives each op's identity", "[unit][reference]") {
  const xr::HostView ei{xr::DType::i32, nullptr, 0};
  const xr::HostView eu{xr::DType::u32, nullptr, 0};
  const xr::HostView ef{xr::DType::f32, nullptr, 0};
  CHECK(xr::reference_reduce(ei, xr::Op::sum).value.get<std::int32_t>() == 0);
  CHECK(xr::reference_reduce(ei, xr::Op::min).value.get<std::int32_t>() == INT32_MAX);
  CHECK(xr::reference_reduce(ei, xr::Op::max).value.get<std::int32_t>() == INT32_MIN);
  CHECK(xr::reference_reduce(eu, xr::Op::min).value.get<std::uint32_t>() == UINT32_MAX);
  CHECK(xr::reference_reduce(eu, xr::Op::max).value.get<std::uint32_t>() == 0u);
  CHECK(xr::reference_reduce(ef, xr::Op::sum).value.get<float>() == 0.0f);
  CHECK(xr::reference_reduce(ef, xr::Op::min).value.get<float>() ==
        std::numeric_limits<float>::infinity());
  CHECK(xr::reference_reduce(ef, xr::Op::max).value.get<float>() ==
        -std::numeric_limits<float>::infinity());
  for (xr::Op op : xr::kAllOps)
    for (xr::DType t : xr::kElementDTypes)
      CHECK(xr::reference_reduce({t, nullptr, 0}, op)
                .value.bitwise_equal(xr::Value::identity_of(t, op)));
  // The identity is accepted for an empty input, anything else is not.
  CHECK(xr::validate(xr::Value::of(0.0f), xr::reference_reduce(ef, xr::Op::sum), xr::Op::sum).ok);
  CHECK_FALSE(
      xr::validate(xr::Value::of(1.0f), xr::reference_reduce(ef, xr::Op::sum), xr::Op::sum).ok);
}

TEST_CASE("reference: float sums are computed in double", "[unit][reference]") {
  // In float, 1e8 + 1 rounds back to 1e8, so a float accumulator gives 0; double gives 1.
  std::vector<float> xs{1e8f, 1.0f, -1e8f};
  const auto ref = xr::reference_reduce(view_of(xs), xr::Op::sum);
  CHECK(ref.exact == 1.0);
  CHECK(ref.value.get<float>() == 1.0f);
  CHECK(ref.abs_sum == 2e8 + 1);
  CHECK(ref.n == 3);
  std::vector<float> neg{-1.0f, -0.5f, -4.0f};
  CHECK(xr::reference_reduce(view_of(neg), xr::Op::max).value.get<float>() == -0.5f);
  CHECK(xr::reference_reduce(view_of(neg), xr::Op::min).value.get<float>() == -4.0f);
  CHECK(xr::reference_reduce(view_of(neg), xr::Op::sum).value.get<float>() == -5.5f);
}

// ---- scan ------------------------------------------------------------------------------------

TEST_CASE("reference_scan: inclusive and exclusive, wrap-around, identities", "[unit][scan]") {
  const std::vector<std::int32_t> xs{3, INT32_MAX, -1, 5};
  const auto inc = xr::reference_scan(view_of(xs), xr::Op::sum, xr::ScanKind::inclusive);
  const auto exc = xr::reference_scan(view_of(xs), xr::Op::sum, xr::ScanKind::exclusive);
  CHECK(std::vector<std::int32_t>(inc.as<std::int32_t>().begin(), inc.as<std::int32_t>().end()) ==
        std::vector<std::int32_t>{3, INT32_MIN + 2, INT32_MIN + 1, INT32_MIN + 6});
  CHECK(std::vector<std::int32_t>(exc.as<std::int32_t>().begin(), exc.as<std::int32_t>().end()) ==
        std::vector<std::int32_t>{0, 3, INT32_MIN + 2, INT32_MIN + 1});
  const auto mx = xr::reference_scan(view_of(xs), xr::Op::min, xr::ScanKind::exclusive);
  CHECK(mx.as<std::int32_t>()[0] == INT32_MAX);  // the identity of min
  CHECK(mx.as<std::int32_t>()[3] == -1);
  const std::vector<float> fs{1e8f, 1.0f, -1e8f};
  const auto f = xr::reference_scan(view_of(fs), xr::Op::sum, xr::ScanKind::inclusive);
  CHECK(f.as<float>()[2] == 1.0f);  // accumulated in double, rounded per element
}

TEST_CASE("validate_scan: integers exact, every element checked, first one named", "[unit][scan]") {
  // Past one 64K chunk of the parallel check, so chunk prefixes are exercised.
  std::vector<std::uint32_t> xs(200003);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<std::uint32_t>(i * 2654435761u);
  for (xr::ScanKind kind : xr::kAllScanKinds)
    for (xr::Op op : xr::kAllOps) {
      INFO(xr::to_string(kind) << " " << xr::to_string(op));
      auto got = xr::reference_scan(view_of(xs), op, kind);
      const xr::ScanReference ref(view_of(xs), op, kind);
      CHECK(ref.validate(got.view()).ok);
      CHECK(ref.last()->bitwise_equal(xr::Value::of(got.as<std::uint32_t>().back())));
      got.as<std::uint32_t>()[150000] ^= 1u;
      got.as<std::uint32_t>()[190000] ^= 4u;
      const xr::Verdict v = ref.validate(got.view());
      CHECK_FALSE(v.ok);
      CHECK_THAT(v.message, Catch::Contains("2 of 200003 elements wrong"));
      CHECK_THAT(v.message, Catch::Contains("first at index 150000"));
    }
  const auto short_output = xr::reference_scan(view_of(std::vector<std::uint32_t>(5, 1)),
                                               xr::Op::sum, xr::ScanKind::inclusive);
  const xr::Verdict wrong_size =
      xr::validate_scan(view_of(xs), short_output.view(), xr::Op::sum, xr::ScanKind::inclusive);
  CHECK_FALSE(wrong_size.ok);
  CHECK_THAT(wrong_size.message, Catch::Contains("output is 5 u32 elements"));
  // An empty scan is trivially right and has no last element.
  const xr::HostView empty{xr::DType::f32, nullptr, 0};
  CHECK(xr::validate_scan(empty, empty, xr::Op::sum, xr::ScanKind::exclusive).ok);
  CHECK_FALSE(xr::ScanReference(empty, xr::Op::sum, xr::ScanKind::inclusive).last().has_value());
}

TEST_CASE("validate_scan: float sums within the per-prefix bound, min/max exact",
          "[unit][scan][bound]") {
  const std::size_t n = 1000;
  std::vector<float> xs(n, 1.0f);
  xs[0] = 0.5f;
  const double scale = xr::float_sum_bound(n, 1.0);  // per unit of the prefix's sum |x|
  for (xr::ScanKind kind : xr::kAllScanKinds) {
    INFO(xr::to_string(kind));
    const xr::ScanReference ref(view_of(xs), xr::Op::sum, kind);
    xr::HostArray got = xr::reference_scan(view_of(xs), xr::Op::sum, kind);
    CHECK(ref.validate(got.view()).ok);
    // Element 500 covers a prefix with sum |x| = 500.5 (inclusive) or 499.5 (exclusive): an
    // error just inside that prefix's bound passes, one just outside fails.
    const double a = kind == xr::ScanKind::inclusive ? 500.5 : 499.5;
    const float exact = static_cast<float>(a);
    got.as<float>()[500] = static_cast<float>(a + 0.9 * scale * a);
    CHECK(ref.validate(got.view()).ok);
    got.as<float>()[500] = static_cast<float>(a + 1.2 * scale * a);
    const xr::Verdict v = ref.validate(got.view());
    CHECK_FALSE(v.ok);
    CHECK_THAT(v.message, Catch::Contains("first at index 500"));
    CHECK_THAT(v.message, Catch::Contains("> bound"));
    CHECK(v.bound == Approx(scale * a));
    got.as<float>()[500] = exact;
    // A non-finite element where the prefix is finite fails.
    got.as<float>()[7] = std::numeric_limits<float>::infinity();
    CHECK_FALSE(ref.validate(got.view()).ok);
  }
  // min/max: exact, -0 equals +0.
  const std::vector<float> ms{2.0f, -0.0f, 3.0f, -1.0f};
  auto got = xr::reference_scan(view_of(ms), xr::Op::min, xr::ScanKind::inclusive);
  got.as<float>()[1] = 0.0f;
  CHECK(xr::validate_scan(view_of(ms), got.view(), xr::Op::min, xr::ScanKind::inclusive).ok);
  got.as<float>()[3] = -0.99999994f;
  CHECK_FALSE(xr::validate_scan(view_of(ms), got.view(), xr::Op::min, xr::ScanKind::inclusive).ok);
}

TEST_CASE("reference and validation of the 64-bit and 16-bit types", "[unit][reference]") {
  // 64-bit integers wrap modulo 2^64, exactly.
  std::vector<std::int64_t> i64{INT64_MAX, 1, 5};
  CHECK(xr::reference_reduce(view_of(i64), xr::Op::sum).value.get<std::int64_t>() == INT64_MIN + 5);
  std::vector<std::uint64_t> u64{UINT64_MAX, UINT64_MAX};
  CHECK(xr::reference_reduce(view_of(u64), xr::Op::sum).value.get<std::uint64_t>() ==
        UINT64_MAX - 1);
  // f64 sums are exact far past double's own accumulation: 1e16 + 1 + 1 - 1e16 is 2.
  std::vector<double> f64{1e16, 1.0, 1.0, -1e16};
  const auto rd = xr::reference_reduce(view_of(f64), xr::Op::sum);
  CHECK(rd.value.get<double>() == 2.0);
  CHECK(xr::float_sum_bound(xr::DType::f64, 4, 1.0, 0.0) == 4 * std::ldexp(1.0, -52));

  // f16: summed wide and rounded once. 2048 + 1 is not an f16 (2049 rounds to 2048), but the
  // sum of 2048, 1 and 1 is 2050, which is.
  std::vector<xr::f16> h{xr::f16(2048.0), xr::f16(1.0), xr::f16(1.0)};
  const auto rh = xr::reference_reduce(view_of(h), xr::Op::sum);
  CHECK(static_cast<float>(rh.value.get<xr::f16>()) == 2050.0f);
  // The bound: float accumulation (2^-23 per level) plus the rounding to f16 (2^-10 |sum|).
  const double bound = xr::float_sum_bound(xr::DType::f16, 3, 2050.0, 2050.0);
  CHECK(bound == Approx(4 * 0x1p-23 * 2050.0 + 0x1p-10 * 2050.0 + 0x1p-24));
  CHECK(xr::validate(xr::Value::of(xr::f16(2050.0)), rh, xr::Op::sum).ok);
  CHECK(xr::validate(xr::Value::of(xr::f16(2048.0)), rh, xr::Op::sum).ok);  // one ulp: in
  CHECK_FALSE(xr::validate(xr::Value::of(xr::f16(2056.0)), rh, xr::Op::sum).ok);
  CHECK_FALSE(xr::validate(xr::Value::of(xr::bf16(2050.0)), rh, xr::Op::sum).ok);  // dtype

  // A reference scan of each new type passes its own check; one changed element fails it.
  for (xr::DType t :
       {xr::DType::i64, xr::DType::u64, xr::DType::f64, xr::DType::f16, xr::DType::bf16}) {
    for (xr::Op op : xr::kAllOps) {
      CAPTURE(xr::to_string(t), xr::to_string(op));
      const auto data = xr::generate(t, 5000, 7, xr::Distribution::small);
      auto out = xr::reference_scan(data.view(), op, xr::ScanKind::inclusive);
      CHECK(xr::validate_scan(data.view(), out.view(), op, xr::ScanKind::inclusive).ok);
      // Element 4000 moved far off: by 1000 (or, for min/max, to a value no prefix holds).
      xr::visit_element_dtype(t, [&](auto tag) {
        using T = typename decltype(tag)::type;
        auto& y = out.as<T>()[4000];
        if constexpr (xr::is_float_v<T>)
          y = T(static_cast<double>(y) + 1000.0);
        else
          y = static_cast<T>(y + 1000);
      });
      const auto v = xr::validate_scan(data.view(), out.view(), op, xr::ScanKind::inclusive);
      CHECK_FALSE(v.ok);
      CHECK_THAT(v.message, Catch::Contains("index 4000"));
    }
  }
}

TEST_CASE("sort bits: CUB's total order, float zeros one key in both orders", "[unit][sort]") {
  const std::vector<float> keys{1.0f, -0.0f, -1.0f, 0.0f, -INFINITY, INFINITY};
  const auto bits = [&](std::size_t i, xr::SortOrder o) {
    return xr::sort_bits(xr::DType::f32, keys.data(), i, o);
  };
  for (xr::SortOrder o : xr::kAllSortOrders) CHECK(bits(1, o) == bits(3, o));
  CHECK(bits(1, xr::SortOrder::ascending) == 0x80000000u);
  CHECK(bits(3, xr::SortOrder::descending) == 0x80000000u);
  CHECK(bits(4, xr::SortOrder::ascending) < bits(2, xr::SortOrder::ascending));
  CHECK(bits(2, xr::SortOrder::ascending) < bits(1, xr::SortOrder::ascending));
  CHECK(bits(1, xr::SortOrder::ascending) < bits(0, xr::SortOrder::ascending));
  CHECK(bits(0, xr::SortOrder::ascending) < bits(5, xr::SortOrder::ascending));
  CHECK(bits(0, xr::SortOrder::descending) < bits(1, xr::SortOrder::descending));
  CHECK(bits(1, xr::SortOrder::descending) < bits(2, xr::SortOrder::descending));
  // Integers keep every bit pattern apart: 0 and INT_MIN are not merged.
  const std::vector<std::int32_t> ints{0, std::numeric_limits<std::int32_t>::min(), -1};
  CHECK(xr::sort_bits(xr::DType::i32, ints.data(), 1, xr::SortOrder::ascending) == 0);
  CHECK(xr::sort_bits(xr::DType::i32, ints.data(), 2, xr::SortOrder::ascending) == 0x7FFFFFFFu);
  // A 16-bit float's zeros.
  const std::vector<xr::f16> halves{xr::f16(-0.0), xr::f16(0.0)};
  CHECK(xr::sort_bits(xr::DType::f16, halves.data(), 0, xr::SortOrder::ascending) == 0x8000u);
  CHECK(xr::sort_bits(xr::DType::f16, halves.data(), 1, xr::SortOrder::descending) == 0x8000u);
}

TEST_CASE("the sort reference is stable: zeros of either sign keep their input order",
          "[unit][sort]") {
  const std::vector<float> keys{0.0f, -0.0f, 2.0f, -0.0f, 0.0f, -3.0f};
  const xr::SortReference up(view_of(keys), xr::SortOrder::ascending, {});
  CHECK(up.permutation() == std::vector<std::uint32_t>{5, 0, 1, 3, 4, 2});
  const xr::SortReference down(view_of(keys), xr::SortOrder::descending, {});
  CHECK(down.permutation() == std::vector<std::uint32_t>{2, 0, 1, 3, 4, 5});
  // Bits 0:8 of the sort bits: every zero's are 0, 2.0's (0xC0000000) too, -3.0's are 0xFF.
  const xr::SortReference low(view_of(keys), xr::SortOrder::ascending, {0, 8});
  CHECK(low.permutation() == std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5});
  // A key out of place is named, and values are checked as input positions.
  const xr::HostArray sorted = xr::reference_sort(view_of(keys), xr::SortOrder::ascending, {});
  CHECK(up.validate(sorted.view(), nullptr).ok);
  xr::HostArray swapped = sorted;
  std::swap(swapped.as<float>()[0], swapped.as<float>()[5]);
  CHECK_FALSE(up.validate(swapped.view(), nullptr).ok);
  xr::HostArray positions(xr::DType::u32, keys.size());
  for (std::size_t j = 0; j < keys.size(); ++j)
    positions.as<std::uint32_t>()[j] = up.permutation()[j];
  CHECK(up.validate(sorted.view(), &positions).ok);
  std::swap(positions.as<std::uint32_t>()[1], positions.as<std::uint32_t>()[2]);  // -0 / +0 swapped
  CHECK_FALSE(up.validate(sorted.view(), &positions).ok);
}
