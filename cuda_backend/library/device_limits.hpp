// What the dispatch layer plans with: the facts of one device, read once (grid sizes,
// occupancy, cooperative launch).
#pragma once

#include <cstddef>

namespace xr::cuda {

// The device facts dispatch needs to size grids; read once per device.
struct DeviceLimits {
  int device = 0;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int max_threads_per_sm = 0;
  int max_threads_per_block = 0;
  std::size_t shared_per_block = 0;        // static + dynamic without opting in (48 KiB)
  std::size_t shared_per_block_optin = 0;  // dynamic, after cudaFuncSetAttribute
  std::size_t shared_per_sm = 0;
  int regs_per_block = 0;
  int regs_per_sm = 0;
  int max_blocks_per_sm = 0;
  std::size_t l2_bytes = 0;
  std::size_t global_bytes = 0;
  int warp_size = 32;
  bool cooperative_launch = false;  // cudaLaunchCooperativeKernel (grid-wide barriers)
};
DeviceLimits query_limits(int device);

}  // namespace xr::cuda
