// The library's internal interface: what the tool's adapter (opencl_backend/adapter) and the
// white-box tests reach beyond the public headers (include/xreduce/opencl), in one place. The
// adapter includes this header and no other of the library's: checked calls and owners
// (cl_check, cl_handles), the device's facts, the context's state (state_of) with its program
// cache and ptxas's log, the passes and the variant tables with their requirements.
#pragma once

#include "cl_check.hpp"
#include "cl_context.hpp"
#include "cl_device_facts.hpp"
#include "cl_handles.hpp"
#include "cl_histogram_plan.hpp"
#include "cl_histogram_table.hpp"
#include "cl_passes.hpp"
#include "cl_programs.hpp"
#include "cl_ptxas.hpp"
#include "cl_reduce_table.hpp"
#include "cl_requirements.hpp"
#include "cl_scan_table.hpp"
#include "cl_sort_plan.hpp"
#include "cl_sort_table.hpp"
