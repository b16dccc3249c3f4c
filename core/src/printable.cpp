#include "xreduce/printable.hpp"

#include <cstdint>
#include <cstdio>

namespace xr {
namespace {

// The bidirectional embeddings, overrides and isolates (U+202A..U+202E, U+2066..U+2069): they
// reorder the text that follows them on the screen, so what a terminal shows is not what is there.
bool is_bidi_control(std::uint32_t cp) {
  return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

// The length of a well-formed UTF-8 sequence of a printable code point at `i` (RFC 3629), or 0.
std::size_t printable_utf8_at(std::string_view text, std::size_t i) {
  const auto c = static_cast<unsigned char>(text[i]);
  std::size_t len = c >= 0xc2 && c <= 0xdf   ? 2
                    : c >= 0xe0 && c <= 0xef ? 3
                    : c >= 0xf0 && c <= 0xf4 ? 4
                                             : 0;
  if (!len || i + len > text.size()) return 0;
  std::uint32_t cp = c & (0x7f >> len);
  for (std::size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(text[i + k]);
    if ((b & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3f);
  }
  const std::uint32_t min_cp = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
  const bool valid = cp >= min_cp && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
  // C1 controls (U+0080..U+009F, U+009B the one-byte CSI) are escaped like C0's.
  return valid && cp >= 0xa0 && !is_bidi_control(cp) ? len : 0;
}

void append_escaped(std::string& out, unsigned char c) {
  char escaped[5];
  std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
  out += escaped;
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
      ++i;
    } else if (const std::size_t len = printable_utf8_at(text, i)) {
      out.append(text.substr(i, len));
      i += len;
    } else {
      append_escaped(out, c);
      ++i;
    }
  }
  return out;
}

std::string nul_escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text)
    if (c == '\0')
      append_escaped(out, 0);
    else
      out += c;
  return out;
}

}  // namespace xr
