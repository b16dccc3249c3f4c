// --plot of `xreduce compare`: bench/plot.py (python3 + matplotlib) draws a report's JSON.
#pragma once

#include <filesystem>
#include <string>

namespace xr::app {

// Runs `python3 plot.py JSON OUT` on `report_json`; Error(unavailable) with the script's last
// line when it fails (no matplotlib, ...), and no file at `out` then.
void draw_plot(const std::string& report_json, const std::filesystem::path& out);

}  // namespace xr::app
