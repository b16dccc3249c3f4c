// Checked Vulkan calls: Vulkan-Hpp throws vk::SystemError; XR_VK_CHECK turns it into xr::Error
// with file, line, the call's text and a category chosen from the VkResult.
#pragma once

#include "vk_hpp.hpp"

#include "xreduce/error.hpp"

namespace xr::vulkan {

ErrorCategory category_of(vk::Result result);

template <class F>
decltype(auto) checked_call(F&& f, const char* file, int line, const char* expr) {
  try {
    return f();
  } catch (const vk::SystemError& e) {
    throw_call_error(category_of(static_cast<vk::Result>(e.code().value())), file, line, expr,
                     e.what());
  }
}

}  // namespace xr::vulkan

// Evaluates `expr` (a Vulkan-Hpp call or RAII constructor); a failure throws xr::Error.
#define XR_VK_CHECK(expr) \
  ::xr::vulkan::checked_call([&]() -> decltype(auto) { return expr; }, __FILE__, __LINE__, #expr)
