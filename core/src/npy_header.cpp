#include "xreduce/npy_header.hpp"

#include <cctype>
#include <charconv>
#include <utility>

#include "xreduce/error.hpp"

namespace xr {
namespace {

// A cursor over the header's text: the few Python literals a .npy header may hold.
class HeaderText {
 public:
  HeaderText(std::string_view text, const std::filesystem::path& path) : text_(text), path_(path) {}

  [[noreturn]] void fail(const std::string& why) const {
    throw Error(ErrorCategory::usage, path_.string() + ": corrupt .npy header: " + why);
  }
  void skip_space() {
    while (at_ < text_.size() &&
           (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r'))
      ++at_;
  }
  bool take(char c) {
    skip_space();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  void expect(char c, std::string_view where) {
    if (!take(c)) fail("expected '" + std::string(1, c) + "' " + std::string(where));
  }
  bool done() {
    skip_space();
    return at_ == text_.size();
  }
  char peek() {
    skip_space();
    return at_ < text_.size() ? text_[at_] : '\0';
  }
  // A quoted string, quotes included; no escapes (NumPy writes none).
  std::string quoted() {
    const char quote = peek();
    if (quote != '\'' && quote != '"') fail("expected a quoted string");
    const std::size_t end = text_.find(quote, at_ + 1);
    if (end == std::string_view::npos) fail("unclosed string");
    const std::string_view body = text_.substr(at_, end + 1 - at_);
    if (body.find('\\') != std::string_view::npos) fail("escapes in a string are not supported");
    at_ = end + 1;
    return std::string(body);
  }
  // A bare word: True, False, a whole number.
  std::string_view word() {
    skip_space();
    const std::size_t begin = at_;
    while (at_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_'))
      ++at_;
    return text_.substr(begin, at_ - begin);
  }
  std::size_t position() const { return at_; }
  std::string_view since(std::size_t begin) const { return text_.substr(begin, at_ - begin); }

 private:
  std::string_view text_;
  const std::filesystem::path& path_;
  std::size_t at_ = 0;
};

std::uint64_t dimension(HeaderText& h, std::string_view digits, std::string_view shape) {
  std::uint64_t d = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), d);
  if (ec == std::errc::result_out_of_range) h.fail("dimension too large in " + std::string(shape));
  if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size())
    h.fail("bad shape " + std::string(shape) + ": a tuple of whole numbers");
  return d;
}

// A tuple of whole numbers, as Python reads it: () is empty; one element needs its trailing
// comma ((4) is a number, not a tuple); a trailing comma after the last is allowed.
void parse_shape(HeaderText& h, NpyHeader& out) {
  h.skip_space();
  const std::size_t start = h.position();
  h.expect('(', "to open the shape");
  std::vector<std::string_view> words;
  bool comma_after_last = false;
  while (!h.take(')')) {
    if (!words.empty() && !comma_after_last) h.fail("bad shape: expected ',' or ')'");
    words.push_back(h.word());
    comma_after_last = h.take(',');
    if (h.done()) h.fail("unclosed shape");
  }
  out.shape = std::string(h.since(start));
  if (words.size() == 1 && !comma_after_last)
    h.fail("bad shape " + out.shape + ": not a tuple (one dimension is written (n,))");
  out.dims.clear();
  for (std::string_view w : words) out.dims.push_back(dimension(h, w, out.shape));
}

void parse_fortran_order(HeaderText& h, NpyHeader& out) {
  const std::string_view w = h.word();
  if (w != "True" && w != "False")
    h.fail("fortran_order is " + std::string(w) + ", not True or False");
  out.fortran_order = w == "True";
}

}  // namespace

NpyHeader parse_npy_header(std::string_view text, const std::filesystem::path& path) {
  HeaderText h(text, path);
  NpyHeader out;
  bool descr = false, fortran = false, shape = false;
  h.expect('{', "at the start of the header (a Python dict)");
  while (!h.take('}')) {
    const std::string key = h.quoted();
    h.expect(':', "after " + key);
    if (key == "'descr'" || key == "\"descr\"") {
      out.descr = h.quoted();
      descr = true;
    } else if (key == "'fortran_order'" || key == "\"fortran_order\"") {
      parse_fortran_order(h, out);
      fortran = true;
    } else if (key == "'shape'" || key == "\"shape\"") {
      parse_shape(h, out);
      shape = true;
    } else {
      h.fail("unexpected key " + key +
             " (a .npy header holds 'descr', 'fortran_order' and 'shape')");
    }
    if (!h.take(',') && h.peek() != '}') h.fail("expected ',' or '}' after " + key);
  }
  if (!h.done()) h.fail("text after the header's closing '}'");
  for (auto [given, key] :
       {std::pair{descr, "descr"}, std::pair{fortran, "fortran_order"}, std::pair{shape, "shape"}})
    if (!given) h.fail(std::string("no '") + key + "' field");
  return out;
}

}  // namespace xr
