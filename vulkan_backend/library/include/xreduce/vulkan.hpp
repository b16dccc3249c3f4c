// xreduce's Vulkan library: find_package(xreduce) and link xreduce::vulkan (docs/library.md).
#pragma once

#include "xreduce/vulkan/clock.hpp"
#include "xreduce/vulkan/context.hpp"
#include "xreduce/vulkan/histogram.hpp"
#include "xreduce/vulkan/operand.hpp"
#include "xreduce/vulkan/reduce.hpp"
#include "xreduce/vulkan/scan.hpp"
#include "xreduce/vulkan/sort.hpp"
