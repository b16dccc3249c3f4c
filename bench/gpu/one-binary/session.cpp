#include "session.hpp"

#include <algorithm>
#include <exception>

namespace xr::onebin {

Session::Session(PtxModule module) : ptx(std::move(module)), gate(ptx.header()) {
  try {
    vulkan = VulkanDevice(cuda.uuid()).describe();
  } catch (const std::exception& e) {
    vulkan_refused = e.what();
  }
  try {
    opencl = std::make_unique<ClDevice>(cuda.uuid());
  } catch (const std::exception& e) {
    opencl_refused = e.what();
  }
  flush_bytes = std::max<std::uint64_t>(2 * cuda.l2_bytes(), 1 << 20) / 4 * 4;
}

}  // namespace xr::onebin
