// The state behind a library Context: the caller's handles, the device's facts, the kernels
// built for it.
#pragma once

#include <memory>

#include "cl_device_facts.hpp"
#include "cl_histogram_table.hpp"
#include "cl_knobs.hpp"
#include "cl_programs.hpp"
#include "cl_reduce_table.hpp"
#include "cl_requirements.hpp"
#include "cl_scan_table.hpp"
#include "cl_sort_table.hpp"
#include "xreduce/library_variants.hpp"
#include "xreduce/opencl/context.hpp"

namespace xr::opencl {

struct ContextState {
  cl_context context = nullptr;  // the caller's
  DeviceFacts facts;
  OpenClKnobs knobs;
  std::unique_ptr<Programs> programs;
};

// The library's variants as core reads its tables: Variants::has(primitive, id), info(primitive,
// id) (the VariantInfo the catalog registers), all() (reduces, scans, sorts, histograms).
using Variants = LibraryVariants<&reduce_table, &scan_table, &opencl_dtypes, &requirement_words,
                                 &missing_reason, &sort_table, &histogram_table>;

// Why `facts`' device cannot run variant `id` of `primitive`: "unknown variant" for an id the
// library lacks, a feature the device lacks; empty when it can. The one answer the library's
// Reduce, Scan and variants() and the tool's adapter pass on; a dtype's own needs are
// require_dtype's (cl_requirements.hpp).
std::string variant_unsupported_reason(Primitive primitive, std::string_view id,
                                       const DeviceFacts& facts);

// The state of `context` (a friend of Context: no public accessor).
ContextState& state_of(const Context& context);

// The tool's Context: `knobs` read from its environment (the adapter's cl_device.cpp), where a
// library caller's Context takes the defaults.
Context make_context(cl_context context, cl_device_id device, OpenClKnobs knobs);

// Throws Error(usage) with the knobs' line when one of them is malformed: every reduce and scan
// is refused, as Vulkan's are.
void require_knobs(const ContextState& state);

// The platform of `device`.
cl_platform_id platform_of(cl_device_id device);

}  // namespace xr::opencl
