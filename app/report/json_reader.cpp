#include "report/json_reader.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "xreduce/error.hpp"
#include "xreduce/printable.hpp"

namespace xr::app {
namespace {

using json = nlohmann::ordered_json;

// The DOM parser, and where in the document each value is: so that a number the parser refuses
// (past a double's range) is named by its field rather than by a byte.
class LocatingSax {
 public:
  explicit LocatingSax(json& root) : dom_(root, /*allow_exceptions=*/false) {}

  bool null() { return value(dom_.null()); }
  bool boolean(bool v) { return value(dom_.boolean(v)); }
  bool number_integer(json::number_integer_t v) { return value(dom_.number_integer(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return value(dom_.number_unsigned(v)); }
  bool number_float(json::number_float_t v, const json::string_t& s) {
    return value(dom_.number_float(v, s));
  }
  bool string(json::string_t& v) { return value(dom_.string(v)); }
  bool binary(json::binary_t& v) { return value(dom_.binary(v)); }
  bool start_object(std::size_t n) {
    path_.push_back({false, {}, 0});
    return dom_.start_object(n);
  }
  bool key(json::string_t& k) {
    path_.back().key = k;
    return dom_.key(k);
  }
  bool end_object() {
    path_.pop_back();
    return value(dom_.end_object());
  }
  bool start_array(std::size_t n) {
    path_.push_back({true, {}, 0});
    return dom_.start_array(n);
  }
  bool end_array() {
    path_.pop_back();
    return value(dom_.end_array());
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
    error_position_ = position;
    error_id_ = e.id;
    error_path_ = location();
    return false;
  }

  std::size_t error_position() const { return error_position_; }
  int error_id() const { return error_id_; }
  const std::string& error_path() const { return error_path_; }

 private:
  struct Level {
    bool array;
    std::string key;
    std::size_t index;
  };
  // A value ended: the next one in an array is the next index.
  bool value(bool ok) {
    if (!path_.empty() && path_.back().array) ++path_.back().index;
    return ok;
  }
  // Where the value being parsed is, in the words of the report's errors: "result 3's
  // \"median_ms\"", "device 0's \"knobs\"'s \"XR_X\"".
  std::string location() const {
    std::string out;
    for (std::size_t i = 0; i < path_.size(); ++i) {
      const Level& l = path_[i];
      if (l.array) {
        out += fmt::format("[{}]", l.index);
      } else if (i == 0 && path_.size() > 2 && path_[1].array &&
                 (l.key == "results" || l.key == "devices")) {
        out += fmt::format("{} {}", l.key == "results" ? "result" : "device", path_[1].index);
        ++i;
      } else {
        out += fmt::format("{}\"{}\"", out.empty() ? "" : "'s ", printable(l.key));
      }
    }
    return out.empty() ? "the document" : out;
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::vector<Level> path_;
  std::size_t error_position_ = 0;
  int error_id_ = 0;
  std::string error_path_;
};

// A number as text for an error: the file's own value, printed in full.
std::string number_text(const json& v) {
  return v.dump();
}

}  // namespace

NumberRange NumberRange::positive() {
  return {std::numeric_limits<double>::min(), std::numeric_limits<double>::max(),
          "a positive number"};
}

NumberRange NumberRange::non_negative() {
  return {0, std::numeric_limits<double>::max(), "a number of at least 0"};
}

NumberRange NumberRange::fraction() {
  return {0, 1, "a number from 0 to 1"};
}

json JsonReader::parse(std::string_view text) const {
  json root;
  LocatingSax sax(root);
  if (json::sax_parse(text.begin(), text.end(), &sax)) return root;
  if (sax.error_id() == 406)  // out_of_range: a number past a double's range
    fail(fmt::format("{} is a number past the range of a double", sax.error_path()));
  fail(fmt::format("not JSON (a syntax error at byte {})", sax.error_position()));
}

void JsonReader::fail(const std::string& what) const {
  throw Error(ErrorCategory::usage, fmt::format("{} '{}': {}", flag_, printable(path_), what));
}

const JsonReader::json* JsonReader::find(const json& j, const char* key,
                                         const std::string& where) const {
  if (!j.is_object()) fail(fmt::format("{} is not an object", where));
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return nullptr;
  return &*it;
}

const JsonReader::json& JsonReader::at(const json& j, const char* key,
                                       const std::string& where) const {
  const json* v = find(j, key, where);
  if (!v) fail(fmt::format("{} has no \"{}\"", where, key));
  return *v;
}

std::string JsonReader::str(const json& j, const char* key, const std::string& where) const {
  return str(at(j, key, where), fmt::format("{}'s \"{}\"", where, key));
}

std::string JsonReader::str(const json& v, const std::string& what) const {
  if (!v.is_string()) fail(fmt::format("{} is not a string", what));
  return printable(v.get<std::string>());
}

std::string JsonReader::opt_str(const json& j, const char* key, const std::string& where) const {
  return find(j, key, where) ? str(j, key, where) : std::string();
}

double JsonReader::num(const json& j, const char* key, const std::string& where,
                       NumberRange r) const {
  const json& v = at(j, key, where);
  if (!v.is_number()) fail(fmt::format("{}'s \"{}\" is not a number", where, key));
  const double d = v.get<double>();
  if (!std::isfinite(d) || d < r.lowest || d > r.highest)
    fail(fmt::format("{}'s \"{}\" is {}, not {}", where, key, number_text(v), r.words));
  return d;
}

std::optional<double> JsonReader::opt_num(const json& j, const char* key, const std::string& where,
                                          NumberRange r) const {
  if (!find(j, key, where)) return std::nullopt;
  return num(j, key, where, r);
}

std::optional<std::uint64_t> JsonReader::opt_count(const json& j, const char* key,
                                                   const std::string& where,
                                                   std::uint64_t highest) const {
  const json* v = find(j, key, where);
  if (!v) return std::nullopt;
  if (!v->is_number()) fail(fmt::format("{}'s \"{}\" is not a number", where, key));
  auto refuse = [&] {
    fail(fmt::format("{}'s \"{}\" is {}, not a whole number from 0 to {}", where, key,
                     number_text(*v), highest));
  };
  if (v->is_number_unsigned()) {
    if (v->get<std::uint64_t>() > highest) refuse();
    return v->get<std::uint64_t>();
  }
  if (v->is_number_integer()) {
    const std::int64_t i = v->get<std::int64_t>();
    if (i < 0 || static_cast<std::uint64_t>(i) > highest) refuse();
    return static_cast<std::uint64_t>(i);
  }
  const double d = v->get<double>();
  // 2^64 is the first double past every uint64.
  if (!(d >= 0 && d < 18446744073709551616.0) || d != std::floor(d) ||
      static_cast<std::uint64_t>(d) > highest)
    refuse();
  return static_cast<std::uint64_t>(d);
}

std::optional<bool> JsonReader::opt_bool(const json& j, const char* key,
                                         const std::string& where) const {
  const json* v = find(j, key, where);
  if (!v) return std::nullopt;
  if (!v->is_boolean()) fail(fmt::format("{}'s \"{}\" is not true or false", where, key));
  return v->get<bool>();
}

const JsonReader::json* JsonReader::opt_object(const json& j, const char* key,
                                               const std::string& where) const {
  const json* v = find(j, key, where);
  if (v && !v->is_object()) fail(fmt::format("{}'s \"{}\" is not an object", where, key));
  return v;
}

const JsonReader::json* JsonReader::opt_array(const json& j, const char* key,
                                              const std::string& where) const {
  const json* v = find(j, key, where);
  if (v && !v->is_array()) fail(fmt::format("{}'s \"{}\" is not an array", where, key));
  return v;
}

}  // namespace xr::app
