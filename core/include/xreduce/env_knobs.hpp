// The tool's environment knobs (docs/cli.md, "Environment knobs"): the reading and the value
// parsers every API shares, so a knob of one form means the same and fails with the same line on
// each. Only the tool's adapters read the environment; the libraries take the parsed values as
// data (each API's knobs struct) and read none of it. Not installed (core/public_headers.txt).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "xreduce/scan_plan.hpp"
#include "xreduce/sort_passes.hpp"

namespace xr {

// The knobs set, each as given (name, value), in the order read: what a report records.
using KnobsGiven = std::vector<std::pair<std::string, std::string>>;

// `name`'s value in the environment (nullptr when unset, "" when set empty), recorded in `given`
// when not empty.
inline const char* read_knob(KnobsGiven& given, const char* name) {
  const char* value = std::getenv(name);
  if (value && *value) given.emplace_back(name, value);
  return value;
}

// The same, nullptr for an empty value too: a knob set empty counts as unset.
inline const char* read_knob_if_set(KnobsGiven& given, const char* name) {
  const char* value = read_knob(given, name);
  return value && *value ? value : nullptr;
}

// Keeps the first malformed knob's line: the one a refusal reports.
inline void keep_first_error(std::string& error, std::string message) {
  if (error.empty()) error = std::move(message);
}

// A whole number from 0 to 2^32 - 1, or nullopt.
inline std::optional<std::uint32_t> parse_knob_u32(const char* value) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(value, &end, 10);
  if (end == value || *end != '\0' || value[0] == '-' || v > 0xffffffffull) return std::nullopt;
  return static_cast<std::uint32_t>(v);
}

inline std::string u32_knob_error(std::string_view name) {
  return std::string(name) + " must be a whole number from 0 to 4294967295";
}

// `off` or `on` as false or true; any other value nullopt.
inline std::optional<bool> parse_knob_choice(std::string_view value, std::string_view off,
                                             std::string_view on) {
  if (value == on) return true;
  if (value == off) return false;
  return std::nullopt;
}

inline std::string choice_knob_error(std::string_view name, std::string_view off,
                                     std::string_view on) {
  return std::string(name) + " must be " + std::string(off) + " or " + std::string(on);
}

// `name` set to `off` or `on` makes `field` false or true; another value makes it false and keeps
// its line in `error`. Whether `name` is set (empty counts as unset).
inline bool read_choice_knob(KnobsGiven& given, const char* name, std::string_view off,
                             std::string_view on, bool& field, std::string& error) {
  const char* value = read_knob_if_set(given, name);
  if (!value) return false;
  const std::optional<bool> chosen = parse_knob_choice(value, off, on);
  field = chosen.value_or(false);
  if (!chosen) keep_first_error(error, choice_knob_error(name, off, on));
  return true;
}

// <a>x<b>: two whole numbers and nothing after them.
inline std::optional<std::pair<unsigned, unsigned>> parse_knob_pair(const char* value) {
  unsigned a = 0, b = 0;
  char tail = 0;
  if (std::sscanf(value, "%ux%u%c", &a, &b, &tail) != 2) return std::nullopt;
  return std::pair{a, b};
}

// <threads>x<items>: a sort's digit-pass tile, a multiple of 32 threads from 256 to 1024 and 1 to
// 32 items (the range every API's digit pass builds for).
inline std::optional<sort::Tile> parse_sort_tile_knob(const char* value) {
  const auto p = parse_knob_pair(value);
  if (!p || p->first < 256 || p->first > 1024 || p->first % 32 || p->second < 1 || p->second > 32)
    return std::nullopt;
  return sort::Tile{p->first, p->second};
}

// `example`: a tile the API's policy takes, shown in the line.
inline std::string sort_tile_knob_error(std::string_view name, std::string_view example) {
  return std::string(name) +
         " must be <threads>x<items>, a multiple of 32 from 256 to 1024 and 1 to 32 (e.g. " +
         std::string(example) + ")";
}

// <workgroup>x<vectors>: the look-back's tile, a power of two from 32 to 1024 threads and 1 to 32
// vectors each.
inline std::optional<LookBackShape> parse_lookback_shape_knob(const char* value) {
  const auto p = parse_knob_pair(value);
  if (!p || p->first < 32 || p->first > 1024 || (p->first & (p->first - 1)) || p->second < 1 ||
      p->second > 32)
    return std::nullopt;
  return LookBackShape{p->first, p->second};
}

inline std::string lookback_shape_knob_error(std::string_view name) {
  return std::string(name) +
         " must be <workgroup>x<vectors>, a power of two from 32 to 1024 and 1 to 32 (e.g. "
         "128x8)";
}

}  // namespace xr
