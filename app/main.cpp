// xreduce: the command-line tool. Every failure ends here as one line on stderr and an exit code
// (documented in `xreduce --help` and docs/cli.md); never a stack dump or an abort.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>

#include "cli.hpp"
#include "common.hpp"
#include "xreduce/device_timeout.hpp"
#include "xreduce/error.hpp"

namespace {

void print_error(const std::string& message) {
  std::fflush(stdout);
  // Messages carry bytes of input files and arguments: printable() keeps the terminal safe.
  std::fprintf(stderr, "xreduce: error: %s\n", xr::printable(xr::app::one_line(message)).c_str());
}

// A device that stopped answering still runs the work that never ends: unwinding would wait for
// it in the owners' teardown (xreduce/device_timeout.hpp). Nothing is half-written: every output
// file is renamed into place whole, after the measurements.
[[noreturn]] void exit_on_device_timeout(const xr::Error& e) {
  print_error(e.what());
  std::fflush(stderr);
  std::_Exit(xr::exit_code(e.category()));
}

}  // namespace

int main(int argc, char** argv) {
  xr::set_device_timeout_handler(&exit_on_device_timeout);
  try {
    return xr::app::run_cli(argc, argv);
  } catch (const xr::Error& e) {
    print_error(e.what());
    return xr::exit_code(e.category());
  } catch (const std::bad_alloc&) {
    print_error("out of host memory");
    return xr::exit_code(xr::ErrorCategory::out_of_memory);
  } catch (const std::exception& e) {
    print_error(std::string("internal error: ") + e.what());
    return xr::exit_code(xr::ErrorCategory::device_lost);
  } catch (...) {
    print_error("internal error: unknown exception");
    return xr::exit_code(xr::ErrorCategory::device_lost);
  }
}
