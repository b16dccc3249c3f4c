// The histogram's rule (EvenBins: CUB's HistogramEven bins), its levels' checks, and the host
// reference every variant is checked against.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "test_support.hpp"
#include "xreduce/histogram.hpp"
#include "xreduce/histogram_reference.hpp"

using xr::EvenBins;
using xr::HistogramLevels;
using xrtest::require_error;

TEST_CASE("integer samples take the exact bin floor((s - lower) * bins / (upper - lower))",
          "[unit][histogram]") {
  SECTION("256 bins over a byte's values are the byte itself") {
    const EvenBins<std::uint8_t> rule({.bins = 256, .lower = 0, .upper = 256});
    for (int s = 0; s < 256; ++s) CHECK(rule.bin_of(static_cast<std::uint8_t>(s)) == s);
  }
  SECTION("the upper level is excluded and the lower included") {
    const EvenBins<std::uint8_t> rule({.bins = 255, .lower = 1, .upper = 255});
    CHECK(rule.bin_of(0) == -1);
    CHECK(rule.bin_of(1) == 0);
    CHECK(rule.bin_of(254) == 253);  // 253 * 255 / 254
    CHECK(rule.bin_of(255) == -1);
  }
  SECTION("uneven bins round down") {
    const EvenBins<std::uint16_t> rule({.bins = 3, .lower = 100, .upper = 200});
    CHECK(rule.bin_of(133) == 0);  // 99 / 100
    CHECK(rule.bin_of(134) == 1);  // 102 / 100
    CHECK(rule.bin_of(166) == 1);  // 198 / 100
    CHECK(rule.bin_of(167) == 2);
    CHECK(rule.bin_of(199) == 2);
  }
  SECTION("the whole of an i32 and a u32, without overflow") {
    const EvenBins<std::int32_t> i32(
        {.bins = 65536, .lower = -2147483648.0, .upper = 2147483648.0});
    CHECK(i32.bin_of(std::numeric_limits<std::int32_t>::min()) == 0);
    CHECK(i32.bin_of(-1) == 32767);
    CHECK(i32.bin_of(0) == 32768);
    CHECK(i32.bin_of(std::numeric_limits<std::int32_t>::max()) == 65535);
    const EvenBins<std::uint32_t> u32(
        {.bins = xr::kMaxHistogramBins, .lower = 0, .upper = 4294967296.0});
    CHECK(u32.bin_of(0xffffffffu) == xr::kMaxHistogramBins - 1);
    CHECK(u32.bin_of(0x100u) == 1);
    const EvenBins<std::uint32_t> one({.bins = 1, .lower = 0, .upper = 4294967296.0});
    CHECK(one.bin_of(0xffffffffu) == 0);
  }
}

TEST_CASE("float samples take CUB's bin in their own type", "[unit][histogram]") {
  const EvenBins<float> rule({.bins = 4, .lower = -1, .upper = 1});
  CHECK(rule.bin_of(-1.0f) == 0);
  CHECK(rule.bin_of(-0.5f) == 1);
  CHECK(rule.bin_of(-0.0f) == 2);
  CHECK(rule.bin_of(0.75f) == 3);
  CHECK(rule.bin_of(1.0f) == -1);
  CHECK(rule.bin_of(std::nanf("")) == -1);
  CHECK(rule.bin_of(-std::numeric_limits<float>::infinity()) == -1);
  CHECK(rule.bin_of(std::numeric_limits<float>::infinity()) == -1);
  const EvenBins<double> f64({.bins = 10, .lower = 0, .upper = 1});
  CHECK(f64.bin_of(0.35) == 3);
  CHECK(f64.bin_of(std::nan("")) == -1);

  SECTION("a sample below upper whose scaled offset rounds up to bins is counted nowhere") {
    // Levels where float's rounding carries the last sample below upper to `bins`.
    bool found = false;
    for (std::uint32_t bins = 1; bins <= 1000 && !found; ++bins) {
      const float upper = 0.1f * static_cast<float>(bins);
      const float below = std::nextafter(upper, 0.0f);
      const float scale = static_cast<float>(bins) / upper;
      const volatile float scaled = below * scale;
      if (scaled < static_cast<float>(bins)) continue;
      found = true;
      const EvenBins<float> r({.bins = bins, .lower = 0, .upper = upper});
      CHECK(r.bin_of(below) == -1);
      CHECK(r.bin_of(std::nextafter(below, 0.0f)) <= static_cast<std::int64_t>(bins) - 1);
    }
    REQUIRE(found);
  }
}

TEST_CASE("levels are checked against the samples' type, in one line", "[unit][histogram]") {
  using xr::histogram_levels_error;
  CHECK_FALSE(histogram_levels_error<std::uint8_t>({.bins = 256, .lower = 0, .upper = 256}));
  CHECK_FALSE(
      histogram_levels_error<std::uint32_t>({.bins = 1, .lower = 0, .upper = 4294967296.0}));
  CHECK(histogram_levels_error<std::uint8_t>({.bins = 0})->find("bins 0 is not within 1 to") == 0);
  CHECK(histogram_levels_error<float>({.bins = xr::kMaxHistogramBins + 1}).has_value());
  CHECK(histogram_levels_error<std::uint8_t>({.bins = 4, .lower = 0, .upper = 257})
            ->find("is not within the samples' values 0:256") != std::string::npos);
  CHECK(histogram_levels_error<std::int32_t>({.bins = 4, .lower = 0.5, .upper = 4})
            ->find("not an integer") != std::string::npos);
  CHECK(histogram_levels_error<std::uint16_t>({.bins = 4, .lower = -1, .upper = 4}).has_value());
  CHECK(histogram_levels_error<std::int32_t>({.bins = 4, .lower = 3, .upper = 3}).has_value());
  CHECK(histogram_levels_error<float>({.bins = 4, .lower = 1e8, .upper = 1e8 + 1})
            ->find("empty in the samples' type") != std::string::npos);
  CHECK(histogram_levels_error<float>({.bins = 4, .lower = -1e300, .upper = 0})
            ->find("does not hold") != std::string::npos);
  CHECK(histogram_levels_error<float>({.bins = 4, .lower = -3e38, .upper = 3e38})
            ->find("wider than") != std::string::npos);
  CHECK_FALSE(histogram_levels_error<double>({.bins = 4, .lower = -3e38, .upper = 3e38}));
  // A subnormal width: bins / width passes the float's greatest, so no sample has a bin.
  CHECK(histogram_levels_error<float>({.bins = 1u << 24, .lower = 0, .upper = 1e-40})
            ->find("too narrow for 16777216 bins") != std::string::npos);
  CHECK_FALSE(histogram_levels_error<double>({.bins = 1u << 24, .lower = 0, .upper = 1e-40}));
}

TEST_CASE("a histogram's range and counts parse strictly", "[unit][histogram]") {
  using P = std::pair<double, double>;
  CHECK(xr::parse_histogram_range("0:256") == P{0, 256});
  CHECK(xr::parse_histogram_range("-4:4") == P{-4, 4});
  CHECK(xr::parse_histogram_range("-4:-1.5") == P{-4, -1.5});
  CHECK(xr::parse_histogram_range("+1:2e3") == P{1, 2000});
  for (const char* bad :
       {"", "1", "1:1", "2:1", "a:b", "0:inf", "nan:1", "0:1:2", ":1", "1:", "0x1:2"})
    CHECK_FALSE(xr::parse_histogram_range(bad));
  CHECK(xr::range_text({.bins = 3, .lower = -0.5, .upper = 256}) == "-0.5:256");
  CHECK(xr::parse_histogram_counts("u64") == xr::HistogramCounts::u64);
  CHECK_FALSE(xr::parse_histogram_counts("u16"));
}

TEST_CASE("the reference counts every bin and names the first wrong one", "[unit][histogram]") {
  // Several of the reference's parallel chunks, a part out of range and NaNs.
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> uniform(-0.25f, 1.25f);
  std::vector<float> samples(3'000'003);
  for (float& s : samples) s = uniform(rng);
  for (std::size_t i = 0; i < samples.size(); i += 1001) samples[i] = std::nanf("");
  const HistogramLevels levels{.bins = 257, .lower = 0, .upper = 1};
  const xr::HistogramReference ref(std::span<const float>(samples), levels);

  std::vector<std::uint64_t> sequential(levels.bins, 0);
  const EvenBins<float> rule(levels);
  for (float s : samples)
    if (const auto b = rule.bin_of(s); b >= 0) ++sequential[static_cast<std::size_t>(b)];
  REQUIRE(ref.counts() == sequential);
  CHECK(ref.counted() < samples.size() * 3 / 4);
  CHECK(ref.counted() > samples.size() / 2);

  std::vector<std::uint32_t> got(sequential.begin(), sequential.end());
  CHECK(ref.validate(std::span<const std::uint32_t>(got)).ok);
  got[7] += 1;
  got[200] -= 1;
  const xr::Verdict wrong = ref.validate(std::span<const std::uint32_t>(got));
  CHECK_FALSE(wrong.ok);
  CHECK(wrong.message.find("2 of 257 bins wrong; bin 7: got " + std::to_string(got[7]) +
                           ", expected " + std::to_string(sequential[7])) == 0);
  got.pop_back();
  CHECK(ref.validate(std::span<const std::uint32_t>(got)).message.find("got 256 counts") == 0);
  CHECK(ref.validate(std::span<const std::uint64_t>(sequential)).ok);
}

TEST_CASE("the reference refuses levels and samples it has no rule for", "[unit][histogram]") {
  const std::vector<std::uint8_t> bytes{1, 2, 3};
  require_error(
      [&] {
        xr::HistogramReference(xr::HostView{xr::DType::u8, bytes.data(), bytes.size()},
                               {.bins = 2, .lower = 0, .upper = 300});
      },
      xr::ErrorCategory::usage, "is not within the samples' values 0:256");
  const std::vector<std::int64_t> wide{1, 2};
  require_error(
      [&] {
        xr::HistogramReference(xr::HostView{xr::DType::i64, wide.data(), wide.size()}, {});
      },
      xr::ErrorCategory::unsupported, "a histogram does not take i64 samples");
  const std::vector<std::uint32_t> words{0, 5, 255, 256};
  const xr::HistogramReference ref(xr::HostView{xr::DType::u32, words.data(), words.size()},
                                   {.bins = 256, .lower = 0, .upper = 256});
  CHECK(ref.counted() == 3);
  CHECK(ref.counts()[5] == 1);
  // 16-bit pixels by their dtype, as a .npy of uint16 reads.
  const std::vector<std::uint16_t> pixels{0, 1023, 1024, 65535};
  const xr::HistogramReference by_dtype(xr::HostView{xr::DType::u16, pixels.data(), pixels.size()},
                                        {.bins = 64, .lower = 0, .upper = 65536});
  CHECK(by_dtype.counts()[0] == 2);
  CHECK(by_dtype.counts()[1] == 1);
  CHECK(by_dtype.counts()[63] == 1);
}
