// CUDA's knobs (cuda_backend/adapter/cuda_knobs.hpp) as the backend reads them: what a report
// records is what took effect, never a malformed or an empty knob. No device needed.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "cuda_knobs.hpp"
#include "xreduce/env_knobs.hpp"

TEST_CASE("CUDA knobs: only a well-formed knob is recorded", "[unit][knobs][cuda]") {
  setenv("XR_CUB_SORT_COUNT", "48", 1);
  setenv("XR_SCAN_ONE_GROUP_MAX", "4K", 1);
  setenv("XR_CUDA_NO_GATE", "", 1);
  setenv("XR_DEVICE_TIMEOUT", "2", 1);
  setenv("XR_CUDA_HISTOGRAM_LAYOUT", "banked", 1);
  const xr::cuda::CudaKnobs malformed = xr::cuda::read_cuda_knobs();
  CHECK(malformed.set == xr::KnobsGiven{{"XR_DEVICE_TIMEOUT", "2"}});
  CHECK(malformed.gate);  // set empty: unset
  CHECK_FALSE(malformed.cub_count);
  CHECK(malformed.cub_count_error == "XR_CUB_SORT_COUNT must be 32 or 64 (got '48')");
  CHECK(malformed.one_group.error.find("XR_SCAN_ONE_GROUP_MAX must be a whole number") == 0);
  CHECK_FALSE(malformed.histogram_lane_banked);
  CHECK(malformed.histogram_error ==
        "XR_CUDA_HISTOGRAM_LAYOUT must be auto, lane-banked or replicated (got 'banked')");
  setenv("XR_CUB_SORT_COUNT", "64", 1);
  setenv("XR_SCAN_ONE_GROUP_MAX", "0", 1);
  setenv("XR_CUDA_NO_GATE", "1", 1);
  setenv("XR_DEVICE_TIMEOUT", "forever", 1);
  setenv("XR_CUDA_HISTOGRAM_LAYOUT", "lane-banked", 1);
  const xr::cuda::CudaKnobs taken = xr::cuda::read_cuda_knobs();
  setenv("XR_CUDA_HISTOGRAM_LAYOUT", "auto", 1);
  const xr::cuda::CudaKnobs automatic = xr::cuda::read_cuda_knobs();
  for (const char* name : {"XR_CUB_SORT_COUNT", "XR_SCAN_ONE_GROUP_MAX", "XR_CUDA_NO_GATE",
                           "XR_DEVICE_TIMEOUT", "XR_CUDA_HISTOGRAM_LAYOUT"})
    unsetenv(name);
  CHECK(taken.set == xr::KnobsGiven{{"XR_CUDA_NO_GATE", "1"},
                                    {"XR_SCAN_ONE_GROUP_MAX", "0"},
                                    {"XR_CUB_SORT_COUNT", "64"},
                                    {"XR_CUDA_HISTOGRAM_LAYOUT", "lane-banked"}});
  CHECK(taken.histogram_lane_banked == true);
  CHECK(taken.histogram_error.empty());
  CHECK_FALSE(automatic.histogram_lane_banked);  // auto: the tuning table's
  CHECK_FALSE(taken.gate);
  CHECK(taken.cub_count == xr::cuda::CubCount::bits64);
  CHECK(taken.one_group.max == 0);
  CHECK_FALSE(taken.timeout.error.empty());
}
