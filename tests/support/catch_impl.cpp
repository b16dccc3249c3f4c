// Catch2's implementation, compiled once for every test executable (CATCH_CONFIG_RUNNER: without
// a main, which catch_main.cpp or the executable's own provides through run_catch).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "catch_session.hpp"

namespace xrtest {

int run_catch(int argc, char* argv[], const std::function<void()>& before_run) {
  Catch::Session session;
  if (int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;
  const auto& c = session.configData();
  if (before_run && !c.listTestNamesOnly && !c.listTests && !c.listTags && !c.listReporters)
    before_run();
  return session.run();
}

}  // namespace xrtest
