// xreduce's OpenCL reduce, scan, sort and histogram as a library (docs/library.md):
// find_package(xreduce COMPONENTS opencl), target_link_libraries(app PRIVATE xreduce::opencl).
#pragma once

#include "xreduce/opencl/context.hpp"
#include "xreduce/opencl/histogram.hpp"
#include "xreduce/opencl/reduce.hpp"
#include "xreduce/opencl/scan.hpp"
#include "xreduce/opencl/sort.hpp"
