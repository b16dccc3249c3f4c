// What the driver compiled for one pass (xreduce/compiled.hpp): the pipeline's executable
// statistics (VK_KHR_pipeline_executable_properties), where the device enabled them, read into
// the fields both APIs share. NVIDIA's driver names them "Register Count", "Shared Memory Size",
// "Local Memory Size", "Stack Size" and "Binary Size"; others are kept verbatim only.
#pragma once

#include <cstdint>
#include <string>
#include "vk_hpp.hpp"

#include "vk_device_facts.hpp"
#include "vk_grid.hpp"
#include "xreduce/compiled.hpp"

namespace xr::vulkan {

// `module` dispatched as `grid` workgroups of `workgroup` invocations through `pipeline`.
CompiledPass compiled_pass(const vk::raii::Device& device, const DeviceFacts& facts,
                           vk::Pipeline pipeline, std::string module, std::uint32_t workgroup,
                           Grid grid);

// Every internal representation of `pipeline`'s executables (made with
// eCaptureInternalRepresentationsKHR) written to `dir`/`stem`-<executable>-<index>.txt (text) or
// .bin, and `stem`-none.txt where the driver lists none. Error(io) if a file cannot be written.
void write_internal_representations(const vk::raii::Device& device, vk::Pipeline pipeline,
                                    const std::string& dir, const std::string& stem);

// A statistic's value the driver reports as "not applicable" in place of bytes: NVIDIA's Local
// Memory Size of 2^36 on a pipeline that uses none.
inline constexpr std::uint64_t kStatisticSentinel = std::uint64_t(1) << 36;

}  // namespace xr::vulkan
