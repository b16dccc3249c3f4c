#include "xreduce/size.hpp"

#include <charconv>
#include <string>

#include "xreduce/error.hpp"

namespace xr {
namespace {

[[noreturn]] void bad(std::string_view text, std::string_view why) {
  throw Error(ErrorCategory::usage,
              "invalid element count '" + std::string(text) + "': " + std::string(why));
}

std::uint64_t parse_u64(std::string_view whole, std::string_view digits) {
  if (digits.empty()) bad(whole, "expected a number such as 1000, 64K, 16M, 1G or 2^24");
  if (digits.front() == '-') bad(whole, "must not be negative");
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec == std::errc::result_out_of_range) bad(whole, "too large");
  if (ec != std::errc{} || end != digits.data() + digits.size())
    bad(whole, "expected a number such as 1000, 64K, 16M, 1G or 2^24");
  return v;
}

}  // namespace

std::uint64_t parse_count(std::string_view text) {
  std::string_view s = text;
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  if (auto caret = s.find('^'); caret != std::string_view::npos) {
    std::uint64_t base = parse_u64(text, s.substr(0, caret));
    std::uint64_t exp = parse_u64(text, s.substr(caret + 1));
    if (base != 2) bad(text, "only powers of two (2^K) are accepted");
    if (exp > 62) bad(text, "too large");
    return std::uint64_t{1} << exp;
  }
  int shift = 0;
  if (!s.empty()) {
    switch (s.back()) {
      case 'K':
      case 'k':
        shift = 10;
        break;
      case 'M':
      case 'm':
        shift = 20;
        break;
      case 'G':
      case 'g':
        shift = 30;
        break;
      default:
        break;
    }
  }
  if (shift) s.remove_suffix(1);
  std::uint64_t v = parse_u64(text, s);
  if (shift && v > (UINT64_MAX >> shift)) bad(text, "too large");
  return v << shift;
}

std::vector<std::uint64_t> parse_count_list(std::string_view text) {
  std::vector<std::uint64_t> out;
  std::size_t start = 0;
  while (true) {
    std::size_t comma = text.find(',', start);
    out.push_back(parse_count(text.substr(start, comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

std::vector<std::uint64_t> parse_sweep(std::string_view text) {
  auto c1 = text.find(':');
  if (c1 == std::string_view::npos)
    throw Error(ErrorCategory::usage,
                "invalid sweep '" + std::string(text) + "': expected LO:HI or LO:HI:STEP");
  auto c2 = text.find(':', c1 + 1);
  std::uint64_t lo = parse_count(text.substr(0, c1));
  std::uint64_t hi =
      parse_count(text.substr(c1 + 1, c2 == std::string_view::npos ? c2 : c2 - c1 - 1));
  if (lo > hi)
    throw Error(ErrorCategory::usage, "invalid sweep '" + std::string(text) + "': LO (" +
                                          std::to_string(lo) + ") is larger than HI (" +
                                          std::to_string(hi) + ")");
  std::vector<std::uint64_t> out;
  if (c2 != std::string_view::npos) {
    std::uint64_t step = parse_count(text.substr(c2 + 1));
    if (step == 0)
      throw Error(ErrorCategory::usage, "invalid sweep '" + std::string(text) + "': STEP is 0");
    if ((hi - lo) / step > 100000)
      throw Error(ErrorCategory::usage,
                  "invalid sweep '" + std::string(text) + "': more than 100000 points");
    for (std::uint64_t n = lo; n <= hi; n += step) {
      out.push_back(n);
      if (hi - n < step) break;
    }
    return out;
  }
  out.push_back(lo);
  std::uint64_t p = 1;
  while (p <= lo && p < (std::uint64_t{1} << 62)) p <<= 1;
  for (; p < hi; p <<= 1) out.push_back(p);
  if (hi != lo) out.push_back(hi);
  return out;
}

std::string format_count(std::uint64_t n) {
  if (n == 0) return "0";
  const char* suffix[] = {"", "K", "M", "G", "T"};
  int i = 0;
  while (i < 4 && n % 1024 == 0) {
    n /= 1024;
    ++i;
  }
  return std::to_string(n) + suffix[i];
}

}  // namespace xr
