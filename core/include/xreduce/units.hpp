// How xreduce spells host time and byte counts in messages and device facts, so every backend
// says them alike.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace xr {

using HostClock = std::chrono::steady_clock;

// Host time since `t0`, in milliseconds and in microseconds.
inline double ms_since(HostClock::time_point t0) {
  return std::chrono::duration<double, std::milli>(HostClock::now() - t0).count();
}
inline double us_since(HostClock::time_point t0) {
  return std::chrono::duration<double, std::micro>(HostClock::now() - t0).count();
}

// "50 MiB": whole mebibytes, rounded.
std::string format_mib(std::uint64_t bytes);
// "140.40 GiB": gibibytes with two decimals.
std::string format_gib(std::uint64_t bytes);

}  // namespace xr
