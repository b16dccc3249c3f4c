#include "cl_sources.hpp"

#include "xreduce/error.hpp"

namespace xr::opencl {

std::string_view kernel_source(std::string_view name) {
  for (const EmbeddedSource& s : embedded_sources())
    if (s.name.substr(0, s.name.size() - 3) == name && s.name.ends_with(".cl")) return s.text;
  throw Error(ErrorCategory::usage, "xreduce::opencl: no embedded kernel '" + std::string(name) +
                                        ".cl' (opencl_backend/kernels)");
}

std::string program_source(std::string_view kernel) {
  std::string text(kernel_source("common"));
  text += kernel_source("group");
  if (kernel.starts_with("scan_") || kernel.starts_with("bit_"))
    text += kernel_source("scan_common");
  // The fast/* scan tiles (fast/reduce-then-scan's tile pass, the look-back's).
  if (kernel.starts_with("scan_rts_") || kernel == "scan_lookback")
    text += kernel_source("scan_tile");
  if (kernel.starts_with("fast_")) text += kernel_source("vector_fold");
  if (kernel == "probe_clock" || kernel == "probe_gate") text += kernel_source("ptx_timers");
  if (kernel.starts_with("sort_")) text += kernel_source("sort_common");
  // The digit passes' tiles (reduce-then-scan's downsweep, onesweep's pass).
  if (kernel == "sort_onesweep" || kernel == "sort_rts_scatter") text += kernel_source("sort_tile");
  if (kernel.starts_with("sort_bitonic_")) text += kernel_source("sort_bitonic");
  if (kernel == "sort_bitonic_tiles" || kernel == "sort_bitonic_merge")
    text += kernel_source("sort_bitonic_tile");
  text += kernel_source(kernel);
  return text;
}

}  // namespace xr::opencl
