#include "xreduce/clock.hpp"

#include <cstdlib>
#include <sstream>

namespace xr {
namespace {

bool parse_mhz(const std::string& text, double& mhz) {
  std::size_t used = 0;
  try {
    mhz = std::stod(text, &used);
  } catch (const std::exception&) {
    return false;
  }
  return used == text.size() && mhz > 0 && mhz < 1e6;
}

}  // namespace

ClockScript read_clock_script() {
  ClockScript s;
  const char* value = std::getenv("XR_CLOCK_SCRIPT");
  if (!value || !*value) return s;
  s.given = value;
  const auto fail = [&] {
    s.error = "XR_CLOCK_SCRIPT must be REFERENCE:MHZ[,MHZ...] in MHz, e.g. 1980:345,1980, not '" +
              s.given + "'";
    s.readings.clear();
    return s;
  };
  const std::size_t colon = s.given.find(':');
  if (colon == std::string::npos || !parse_mhz(s.given.substr(0, colon), s.reference_mhz))
    return fail();
  std::istringstream list(s.given.substr(colon + 1));
  for (std::string item; std::getline(list, item, ',');) {
    double mhz = 0;
    if (!parse_mhz(item, mhz)) return fail();
    s.readings.push_back(mhz);
  }
  if (s.readings.empty()) return fail();
  return s;
}

double ScriptedClock::read_mhz() {
  const double mhz = script_.readings[std::min(next_, script_.readings.size() - 1)];
  ++next_;
  return mhz;
}

}  // namespace xr
