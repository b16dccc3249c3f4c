// A report command's output files, as the user named them and as resolved before any work
// (xreduce/output_file.hpp): compare's and diff's --out, --save-json and --plot.
#pragma once

#include <optional>
#include <string>

#include "xreduce/output_file.hpp"

namespace xr::app {

// Where a command's outputs go besides stdout.
struct OutputFiles {
  std::string out;        // the report instead of stdout
  std::string plot;       // drawn by bench/plot.py from the JSON report
  std::string save_json;  // the JSON report as well
  bool quiet = false;     // no "wrote FILE" lines
};

// The same outputs resolved; an empty one is not given.
struct OutputTargets {
  std::optional<OutputTarget> out, plot, save_json;
  bool quiet = false;
};

}  // namespace xr::app
