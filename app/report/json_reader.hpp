// A JSON file the user named (a report for --merge, --baseline or `diff`), read as untrusted
// input: each field read is checked for its type and range and each string made printable
// before anything uses it; the first bad one is Error(usage) "<flag> 'PATH': <field> ...", one
// line naming the file and the field. Absent and null are the same for an optional field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace xr::app {

// The numbers a field may hold, inclusive, and their name in an error.
struct NumberRange {
  double lowest;
  double highest;
  std::string_view words;  // "a positive number"

  static NumberRange positive();      // (0, max]: times, rates, clocks
  static NumberRange non_negative();  // [0, max]
  static NumberRange fraction();      // [0, 1]: occupancy, a relative spread
};

class JsonReader {
 public:
  using json = nlohmann::ordered_json;

  JsonReader(std::string_view flag, std::string path) : flag_(flag), path_(std::move(path)) {}

  // `text` as JSON: a syntax error names its byte, a number past a double's range its field.
  json parse(std::string_view text) const;
  [[noreturn]] void fail(const std::string& what) const;

  // Fields of object `j`, which `where` names ("result 3", "the report").
  const json& at(const json& j, const char* key, const std::string& where) const;
  std::string str(const json& j, const char* key, const std::string& where) const;
  // `v` itself as a string, made printable; `what` names it ("device 0's knob \"XR_X\"").
  std::string str(const json& v, const std::string& what) const;
  std::string opt_str(const json& j, const char* key, const std::string& where) const;
  double num(const json& j, const char* key, const std::string& where, NumberRange r) const;
  std::optional<double> opt_num(const json& j, const char* key, const std::string& where,
                                NumberRange r) const;
  // A whole number from 0 to `highest`.
  std::optional<std::uint64_t> opt_count(const json& j, const char* key, const std::string& where,
                                         std::uint64_t highest) const;
  std::optional<bool> opt_bool(const json& j, const char* key, const std::string& where) const;
  // An object or array field, or null where absent or null.
  const json* opt_object(const json& j, const char* key, const std::string& where) const;
  const json* opt_array(const json& j, const char* key, const std::string& where) const;
  // The field's value, nullptr where absent or null.
  const json* find(const json& j, const char* key, const std::string& where) const;

 private:
  std::string_view flag_;
  std::string path_;
};

}  // namespace xr::app
