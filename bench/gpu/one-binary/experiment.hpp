// One case of the experiment, as named stages: the input and its host check; the library's call
// recorded; the columns (the library's call, its cubin replayed, the PTX through CUDA, Vulkan
// and OpenCL), each refused with its reason where it cannot run or sorts wrong; warm-up; rounds
// of cold samples, every column in turn, the clock read around them; the check again.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "results.hpp"
#include "session.hpp"
#include "xreduce/primitive.hpp"
#include "xreduce/types.hpp"

namespace xr::onebin {

struct CaseSpec {
  DType keys = DType::u32;
  SortValues values = SortValues::none;
};

struct CaseOptions {
  int warmup = 5;
  int timed = 15;
  std::uint64_t seed = 1;
  std::vector<std::string> skip;   // column ids not to make (refused "skipped")
  bool vulkan_past_limit = false;  // launch past VK_NVX_binary_import's shared memory limit
};

CaseResult run_case(Session& s, const CaseSpec& spec, std::uint64_t n, const CaseOptions& options);

}  // namespace xr::onebin
