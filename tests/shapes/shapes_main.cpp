// Catch2's own main for the shape tests of one backend.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
