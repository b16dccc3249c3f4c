// The explicit table of CUDA variants (STYLE.md point 4): id -> kernel, requirements.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "context.hpp"
#include "xreduce/backend.hpp"

namespace xr::cuda {

// Every CUDA variant, known without a device.
std::vector<VariantInfo> cuda_variants();
bool has_variant(std::string_view id);
// Empty when `id` runs on the device of `limits`, else why not. Error(usage) for an unknown id.
std::string variant_unsupported_reason(std::string_view id, const DeviceLimits& limits);
// Error(usage) for an unknown id; the caller checked support.
std::unique_ptr<Reducer> make_cuda_reducer(std::string_view id, std::shared_ptr<Context> ctx);

}  // namespace xr::cuda
