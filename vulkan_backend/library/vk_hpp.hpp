// Vulkan-Hpp as xreduce uses it: in a namespace of its own (VULKAN_HPP_NAMESPACE=xr_vkhpp, set
// by CMake on every target that compiles the library's code), reached here as `vk`.
//
// Why: Vulkan-Hpp is header-only, and its classes change layout with NDEBUG (a Debug build adds a
// header version and a validity flag to every dispatcher). Its inline functions are emitted as
// weak symbols into every object that uses them, and the linker keeps one copy of each: a
// consumer built without NDEBUG, linked with the Release library, had the library call the
// consumer's raii::Instance constructor, which filled a dispatcher 16 bytes larger than the one
// the library read from (a segfault in read_identity on lavapipe). In a namespace of its own the
// library shares no symbol with a consumer's Vulkan-Hpp, whatever the consumer defines.
// scripts/library-example checks the installed archive defines no symbol in namespace vk.
#pragma once

#ifndef VULKAN_HPP_NAMESPACE
#error \
    "xreduce's Vulkan code is compiled with VULKAN_HPP_NAMESPACE=xr_vkhpp (target xreduce_vulkan_hpp)"
#endif

#include <vulkan/vulkan_raii.hpp>

namespace vk = VULKAN_HPP_NAMESPACE;
