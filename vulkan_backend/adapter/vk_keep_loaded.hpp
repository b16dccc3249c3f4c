// LeakSanitizer reports at exit, after Debian 12's loader (1.3.239) has unloaded the drivers and
// layers at vkDestroyInstance: a leak inside them (Mesa's, 128 bytes on every instance) then
// sits in an unnamed module, which no suppression (.ci/lsan.supp) can match. Marking every loaded
// driver and layer RTLD_NODELETE keeps them mapped to the end, named; newer loaders offer
// VK_LOADER_DISABLE_DYNAMIC_LIBRARY_UNLOADING=1 for the same. Called after creating an instance
// (the tool's, the library tests'); does nothing outside AddressSanitizer builds.
#pragma once

namespace xr::vulkan {

void keep_vulkan_libraries_loaded();

}  // namespace xr::vulkan
