// The CPU backend: the reference ladder (the classic recursive reduce, a sequential loop, and a
// multi-threaded reduce on TBB). Always built, always available.
#pragma once

#include <memory>

#include "xreduce/backend.hpp"

namespace xr::cpu {

std::unique_ptr<Backend> make_backend();

}  // namespace xr::cpu
