// Parses the command line and runs the chosen command; returns the exit code. Throws xr::Error
// (usage errors from parsing included); main() turns every exception into one line on stderr.
#pragma once

namespace xr::app {

int run_cli(int argc, char** argv);

}  // namespace xr::app
