// The tool's environment knobs (docs/cli.md, "Environment knobs"): the reading and the value
// parsers every API shares, so a knob of one form means the same and fails with the same line on
// each. Only the tool's adapters read the environment; the libraries take the parsed values as
// data (each API's knobs struct) and read none of it. Not installed (core/public_headers.txt).
#pragma once

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "xreduce/printable.hpp"
#include "xreduce/scan_plan.hpp"
#include "xreduce/sort_passes.hpp"

namespace xr {

// The knobs that took effect, each as given (name, value), in the order read: what a report
// records. A malformed or empty knob is never among them.
using KnobsGiven = std::vector<std::pair<std::string, std::string>>;

// What a knob set empty means: unset (most knobs), or malformed (Vulkan's look-back numbers and
// sort tile, whose empty value is a script's unset variable rather than a choice).
enum class EmptyKnob { unset, malformed };

// `name`'s value in the environment; nullptr when unset, and when set empty unless `empty` makes
// that malformed (then "").
inline const char* environment_knob(const char* name, EmptyKnob empty = EmptyKnob::unset) {
  const char* value = std::getenv(name);
  if (value && !*value && empty == EmptyKnob::unset) return nullptr;
  return value;
}

// Keeps the first malformed knob's line: the one a refusal reports.
inline void keep_first_error(std::string& error, std::string message) {
  if (error.empty()) error = std::move(message);
}

// The line of a malformed knob: its name, what it takes, and its value, printable and at most
// kShownKnobBytes of it (a value may hold any byte, and any number of them).
inline constexpr std::size_t kShownKnobBytes = 64;
inline std::string knob_error(std::string_view name, std::string_view allowed,
                              std::string_view value) {
  std::string line(name);
  line.append(" must be ").append(allowed).append(" (got ");
  if (value.size() > kShownKnobBytes) line.append(std::to_string(value.size())).append(" bytes: ");
  line.append("'").append(printable(value.substr(0, kShownKnobBytes)));
  line.append(value.size() > kShownKnobBytes ? "...')" : "')");
  return line;
}

// Knob `name` read through `parse` (the value → an optional): the parsed value when set and
// well-formed, recorded in `given`; nullopt when unset, or when malformed, which records nothing
// and keeps the knob_error line of `allowed` in `error` unless an earlier knob's is there.
template <class Parse>
auto read_knob(KnobsGiven& given, std::string& error, const char* name, std::string_view allowed,
               Parse parse, EmptyKnob empty = EmptyKnob::unset) -> decltype(parse("")) {
  const char* value = environment_knob(name, empty);
  if (!value) return std::nullopt;
  auto parsed = parse(value);
  if (parsed)
    given.emplace_back(name, value);
  else
    keep_first_error(error, knob_error(name, allowed, value));
  return parsed;
}

// A knob every value of which is well-formed (a folder, compiler options): its value when set,
// recorded in `given`; nullptr when unset or empty.
inline const char* read_text_knob(KnobsGiven& given, const char* name) {
  const char* value = environment_knob(name);
  if (value) given.emplace_back(name, value);
  return value;
}

// A whole number from `min` to `max` in decimal digits alone (no sign, space or base prefix), or
// nullopt; past 2^64 - 1 too, never saturated.
inline std::optional<std::uint64_t> parse_knob_whole(
    std::string_view value, std::uint64_t min = 0,
    std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size() || v < min ||
      v > max)
    return std::nullopt;
  return v;
}

// A whole number from 0 to 2^32 - 1, or nullopt.
inline std::optional<std::uint32_t> parse_knob_u32(std::string_view value) {
  const auto v = parse_knob_whole(value, 0, std::numeric_limits<std::uint32_t>::max());
  if (!v) return std::nullopt;
  return static_cast<std::uint32_t>(*v);
}

inline constexpr std::string_view kU32KnobAllowed = "a whole number from 0 to 4294967295";

inline std::optional<std::uint32_t> read_u32_knob(KnobsGiven& given, std::string& error,
                                                  const char* name,
                                                  EmptyKnob empty = EmptyKnob::unset) {
  return read_knob(given, error, name, kU32KnobAllowed, parse_knob_u32, empty);
}

// `off` or `on` as false or true; any other value nullopt.
inline std::optional<bool> parse_knob_choice(std::string_view value, std::string_view off,
                                             std::string_view on) {
  if (value == on) return true;
  if (value == off) return false;
  return std::nullopt;
}

// Knob `name` set to `off` or `on`: false or true; nullopt when unset or malformed (read_knob).
inline std::optional<bool> read_choice_knob(KnobsGiven& given, std::string& error, const char* name,
                                            std::string_view off, std::string_view on) {
  return read_knob(given, error, name, std::string(off) + " or " + std::string(on),
                   [&](std::string_view v) { return parse_knob_choice(v, off, on); });
}

// Knob `name` set to `auto` leaves `field` nullopt (the policy's); `off` or `on` makes it false or
// true; unset or malformed, read_knob's.
inline void read_auto_choice_knob(KnobsGiven& given, std::string& error, const char* name,
                                  std::string_view off, std::string_view on,
                                  std::optional<bool>& field) {
  enum class Choice { automatic, off, on };
  const auto chosen =
      read_knob(given, error, name, "auto, " + std::string(on) + " or " + std::string(off),
                [&](std::string_view v) -> std::optional<Choice> {
                  if (v == "auto") return Choice::automatic;
                  if (v == on) return Choice::on;
                  if (v == off) return Choice::off;
                  return std::nullopt;
                });
  if (chosen && *chosen != Choice::automatic) field = *chosen == Choice::on;
}

// <a>x<b>: two whole numbers of 0 to 2^32 - 1 and nothing else.
inline std::optional<std::pair<std::uint32_t, std::uint32_t>> parse_knob_pair(
    std::string_view value) {
  const std::size_t x = value.find('x');
  if (x == std::string_view::npos) return std::nullopt;
  const auto a = parse_knob_u32(value.substr(0, x));
  const auto b = parse_knob_u32(value.substr(x + 1));
  if (!a || !b) return std::nullopt;
  return std::pair{*a, *b};
}

// <threads>x<items>: a sort's digit-pass tile, a multiple of 32 threads from 256 to 1024 and 1 to
// 32 items (the range every API's digit pass builds for).
inline std::optional<sort::Tile> parse_sort_tile_knob(std::string_view value) {
  const auto p = parse_knob_pair(value);
  if (!p || p->first < 256 || p->first > 1024 || p->first % 32 || p->second < 1 || p->second > 32)
    return std::nullopt;
  return sort::Tile{p->first, p->second};
}

// `example`: a tile the API's policy takes, shown in the line.
inline std::optional<sort::Tile> read_sort_tile_knob(KnobsGiven& given, std::string& error,
                                                     const char* name, std::string_view example,
                                                     EmptyKnob empty = EmptyKnob::unset) {
  return read_knob(given, error, name,
                   "<threads>x<items>, a multiple of 32 from 256 to 1024 and 1 to 32 (e.g. " +
                       std::string(example) + ")",
                   parse_sort_tile_knob, empty);
}

// <workgroup>x<vectors>: the look-back's tile, a power of two from 32 to 1024 threads and 1 to 32
// vectors each.
inline std::optional<LookBackShape> parse_lookback_shape_knob(std::string_view value) {
  const auto p = parse_knob_pair(value);
  if (!p || p->first < 32 || p->first > 1024 || (p->first & (p->first - 1)) || p->second < 1 ||
      p->second > 32)
    return std::nullopt;
  return LookBackShape{p->first, p->second};
}

inline std::optional<LookBackShape> read_lookback_shape_knob(KnobsGiven& given, std::string& error,
                                                             const char* name,
                                                             EmptyKnob empty = EmptyKnob::unset) {
  return read_knob(given, error, name,
                   "<workgroup>x<vectors>, a power of two from 32 to 1024 and 1 to 32 (e.g. 128x8)",
                   parse_lookback_shape_knob, empty);
}

}  // namespace xr
