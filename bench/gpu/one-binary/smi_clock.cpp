#include "smi_clock.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace xr::onebin {

double smi_sm_clock_mhz(const std::string& uuid) {
  const std::string command =
      "nvidia-smi --query-gpu=clocks.sm --format=csv,noheader,nounits -i " + uuid + " 2>/dev/null";
  std::unique_ptr<FILE, decltype(&pclose)> p(popen(command.c_str(), "r"), &pclose);
  if (!p) return NAN;
  char line[64] = {};
  if (!std::fgets(line, sizeof line, p.get())) return NAN;
  char* end = nullptr;
  const double mhz = std::strtod(line, &end);
  return end == line ? NAN : mhz;
}

}  // namespace xr::onebin
