// xreduce's CUDA reduce, scan, sort and histogram as a library (docs/library.md):
// find_package(xreduce COMPONENTS cuda), target_link_libraries(app PRIVATE xreduce::cuda).
#pragma once

#include "xreduce/cuda/clock.hpp"
#include "xreduce/cuda/histogram.hpp"
#include "xreduce/cuda/reduce.hpp"
#include "xreduce/cuda/scan.hpp"
#include "xreduce/cuda/sort.hpp"
