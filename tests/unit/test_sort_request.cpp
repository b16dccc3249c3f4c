// A sort request is checked once, where it is made: the variant's claim on the keys' dtype, the
// arrays' dtypes, sizes and distinctness, the bit range; and a Sorter takes only requests made
// for it.
#include <catch2/catch.hpp>

#include <memory>

#include "test_support.hpp"
#include "xreduce/cpu_backend.hpp"
#include "xreduce/error.hpp"
#include "xreduce/sort_request.hpp"

using xr::DType;
using xr::ErrorCategory;
using xr::SortOrder;
using xrtest::require_error;

TEST_CASE("a sort request is checked where it is made", "[unit][sort]") {
  auto backend = xr::cpu::make_backend();
  const std::unique_ptr<xr::Sorter> sorter = backend->make_sorter("cpu/std-sort");
  const xr::VariantInfo& info = sorter->info();
  auto keys = backend->allocate(DType::f32, 100);
  auto out = backend->allocate(DType::f32, 100);
  auto values = backend->allocate(DType::u32, 100);
  auto sorted_values = backend->allocate(DType::u32, 100);
  const auto make = [&](xr::DeviceArray& k, xr::DeviceArray& o, xr::DeviceArray* v,
                        xr::DeviceArray* w, xr::BitRange bits = {}) {
    return xr::SortRequest::make(info, k, o, v, w, SortOrder::descending, bits);
  };

  SECTION("a valid request carries the description every layer plans by") {
    const xr::SortRequest r = make(*keys, *out, values.get(), sorted_values.get(), {4, 20});
    CHECK(r.desc() == xr::SortDesc{.dtype = DType::f32,
                                   .count = 100,
                                   .order = SortOrder::descending,
                                   .bits = {4, 20},
                                   .values = xr::SortValues::u32,
                                   .variant = "cpu/std-sort"});
    CHECK(make(*keys, *out, nullptr, nullptr).desc().bits == xr::BitRange{0, 32});
    CHECK_FALSE(make(*keys, *out, nullptr, nullptr).desc().pairs());
    auto wide_values = backend->allocate(DType::u64, 100);
    auto wide_sorted = backend->allocate(DType::u64, 100);
    CHECK(make(*keys, *out, wide_values.get(), wide_sorted.get()).desc().values ==
          xr::SortValues::u64);
  }
  SECTION("each precondition refused with its own line") {
    require_error([&] { make(*keys, *keys, nullptr, nullptr); }, ErrorCategory::usage,
                  "sorted keys must be a distinct array");
    auto short_out = backend->allocate(DType::f32, 99);
    require_error([&] { make(*keys, *short_out, nullptr, nullptr); }, ErrorCategory::usage,
                  "sorted keys must be a distinct array of the keys' dtype and size");
    auto other_type = backend->allocate(DType::i32, 100);
    require_error([&] { make(*keys, *other_type, nullptr, nullptr); }, ErrorCategory::usage,
                  "sorted keys must be");
    require_error([&] { make(*keys, *out, values.get(), nullptr); }, ErrorCategory::usage,
                  "needs both the values and their output");
    require_error([&] { make(*keys, *out, values.get(), values.get()); }, ErrorCategory::usage,
                  "distinct arrays of the keys' size, both u32 or both u64");
    require_error([&] { make(*keys, *out, keys.get(), sorted_values.get()); }, ErrorCategory::usage,
                  "both u32 or both u64");
    auto wide_out = backend->allocate(DType::u64, 100);
    require_error([&] { make(*keys, *out, values.get(), wide_out.get()); }, ErrorCategory::usage,
                  "both u32 or both u64");
    require_error(
        [&] {
          make(*keys, *out, nullptr, nullptr, {30, 33});
        },
        ErrorCategory::usage, "bits 30:33 are not within the 32 bits of a f32 key");
    xr::VariantInfo narrow = info;
    narrow.dtypes = {DType::u32};
    require_error(
        [&] {
          xr::SortRequest::make(narrow, *keys, *out, nullptr, nullptr, SortOrder::ascending, {});
        },
        ErrorCategory::unsupported, "cpu/std-sort does not sort f32 keys");
  }
  SECTION("a sorter takes only the requests made for it") {
    const std::unique_ptr<xr::Sorter> radix = backend->make_sorter("cpu/radix");
    const xr::SortRequest r = make(*keys, *out, nullptr, nullptr);
    require_error([&] { radix->sort(r); }, ErrorCategory::usage,
                  "a sort request made for cpu/std-sort was given to cpu/radix");
    CHECK(sorter->sort(r).device_ms >= 0);
  }
}
