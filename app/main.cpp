// Placeholder entry point; the CLI lands in the app commit.
#include <cstdio>

#include "xreduce/registry.hpp"

int main() {
  xr::Registry registry;
  xr::register_builtin_backends(registry);
  for (const auto& b : registry.backends()) std::printf("%s\n", std::string(b->name()).c_str());
  return 0;
}
