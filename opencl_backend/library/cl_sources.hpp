// The OpenCL C of opencl_backend/kernels, embedded at build time (cmake/embed_cl.cmake): the
// library carries its kernels as text and builds them for the caller's device at run time.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace xr::opencl {

struct EmbeddedSource {
  std::string_view name;  // "smem_sequential.cl", "sort_args.h"
  std::string_view text;
};
std::span<const EmbeddedSource> embedded_sources();

// The text of kernel file `name` ("smem_sequential", without .cl). Error(usage) when there is
// no such file (a table names a kernel that was not embedded).
std::string_view kernel_source(std::string_view name);

// What a built-in kernel's program is made of: common.cl, group.cl, then for scans
// scan_common.cl (and scan_tile.cl for the fast/* tiles), for the fast/* reduces
// vector_fold.cl, for histograms histogram_common.cl, for sorts sort_common.cl and what the stage's
// forms name (xreduce/sort_stages.h: sort_tile.cl, sort_bitonic.cl, sort_bitonic_tile.cl), then the
// kernel itself; each `#include "..."` line replaced by the embedded file of that name.
std::string program_source(std::string_view kernel);

}  // namespace xr::opencl
