// Catch2's session behind one call, so a test executable's main need not compile Catch2's
// implementation (catch_impl.cpp holds it, once for every executable).
#pragma once

#include <functional>

namespace xrtest {

// Parses the command line as Catch's own main does and runs the selected tests; `before_run`
// runs between the two unless the command only lists tests, names or reporters. Returns Catch's
// exit code (a command-line error's, or the number of failed tests).
int run_catch(int argc, char* argv[], const std::function<void()>& before_run = {});

}  // namespace xrtest
