// The library's internal interface: what the tool's adapter (vulkan_backend/adapter) and the
// white-box tests reach beyond the public headers (include/xreduce/vulkan), in one place. The
// adapter includes this header and no other of the library's: checked calls (vk_check), the
// device's facts and knobs, the context's state (state_of), pipelines and recordings, the
// variant tables with their requirements and the plans' grids.
#pragma once

#include "vk_check.hpp"
#include "vk_compiled.hpp"
#include "vk_context.hpp"
#include "vk_device_facts.hpp"
#include "vk_grid.hpp"
#include "vk_histogram_table.hpp"
#include "vk_hpp.hpp"
#include "vk_knobs.hpp"
#include "vk_pipelines.hpp"
#include "vk_recording.hpp"
#include "vk_reduce_table.hpp"
#include "vk_requirements.hpp"
#include "vk_scan_table.hpp"
