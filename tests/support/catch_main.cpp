// The main of the test executables that need no set-up of their own.
#include "catch_session.hpp"

int main(int argc, char* argv[]) {
  return xrtest::run_catch(argc, argv);
}
