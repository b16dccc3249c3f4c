// Checked Vulkan calls: Vulkan-Hpp throws vk::SystemError; XR_VK(expr) turns it into xr::Error
// with file, line, the call's text and a category chosen from the VkResult.
#pragma once

#include <vulkan/vulkan_raii.hpp>

#include "xreduce/error.hpp"

namespace xr::onebin {

ErrorCategory category_of(vk::Result r);

template <class F>
decltype(auto) vk_checked(F&& f, const char* file, int line, const char* expr) {
  try {
    return f();
  } catch (const vk::SystemError& e) {
    throw_call_error(category_of(static_cast<vk::Result>(e.code().value())), file, line, expr,
                     e.what());
  }
}

}  // namespace xr::onebin

#define XR_VK(expr) \
  ::xr::onebin::vk_checked([&]() -> decltype(auto) { return expr; }, __FILE__, __LINE__, #expr)
