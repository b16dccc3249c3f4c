#include "cl_knobs.hpp"

namespace xr::opencl {

std::string OpenClKnobs::program_options() const {
  std::string o = vload ? "-DXR_VLOAD" : "";
  if (!build_options.empty()) o += (o.empty() ? "" : " ") + build_options;
  return o;
}

}  // namespace xr::opencl
