// The SPIR-V modules compiled from shaders/*.comp at build time (one per algorithm x dtype x op,
// each checked by spirv-val) and embedded into the library as uint32 arrays, so the tool and the
// tests find them wherever they run. Plain C++: no Vulkan header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace xr::vulkan::spirv {

struct Module {
  std::string_view name;  // "<algorithm>.<dtype>.<op>", e.g. "smem_sequential.f32.sum"
  std::span<const std::uint32_t> words;
};

// Every embedded module, in build order.
std::span<const Module> modules();
// The module called `name`, or nullptr.
const Module* find(std::string_view name);

}  // namespace xr::vulkan::spirv
