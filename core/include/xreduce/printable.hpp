// Text from outside the program (a file, a report, a driver) made safe for a terminal.
#pragma once

#include <string>
#include <string_view>

namespace xr {

// `text` safe for a terminal: control characters (C0, DEL, C1: escape sequences included) and
// bytes that are not valid UTF-8 become \xNN; printable UTF-8 passes unchanged. Idempotent: a
// backslash is printable, so printable(printable(t)) == printable(t).
std::string printable(std::string_view text);

}  // namespace xr
