#include "vk_keep_loaded.hpp"

#include <cstddef>
#include <string_view>

#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>
#include <link.h>
#endif

namespace xr::vulkan {

#if defined(__SANITIZE_ADDRESS__)
void keep_vulkan_libraries_loaded() {
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void*) {
        const std::string_view name = info->dlpi_name ? info->dlpi_name : "";
        if (name.find("libvulkan_") != std::string_view::npos ||
            name.find("VkLayer") != std::string_view::npos)
          dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
        return 0;
      },
      nullptr);
}
#else
void keep_vulkan_libraries_loaded() {}
#endif

}  // namespace xr::vulkan
