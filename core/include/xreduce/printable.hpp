// Text from outside the program (a file, a report, a driver) made safe for a terminal.
#pragma once

#include <string>
#include <string_view>

namespace xr {

// `text` safe for a terminal: control characters (C0, DEL, C1: escape sequences included), the
// bidirectional controls (U+202A..U+202E, U+2066..U+2069) and bytes that are not valid UTF-8
// become \xNN, byte by byte; printable UTF-8 passes unchanged. Idempotent: a backslash is
// printable, so printable(printable(t)) == printable(t).
std::string printable(std::string_view text);

// `text` with each NUL byte spelled \x00 as printable() spells it, every other byte unchanged:
// what a C string (an exception's what()) carries whole. printable(nul_escaped(t)) ==
// printable(t).
std::string nul_escaped(std::string_view text);

}  // namespace xr
