// The explicit tables of CUDA variants, data rather than code: id -> kernel, requirements, for
// reduce (reduce_variants.cpp), scan (scan_variants.cpp), sort (sort_variants.cpp) and histogram
// (histogram_variants.cpp).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "context.hpp"
#include "xreduce/backend.hpp"

namespace xr::cuda {

// Every CUDA variant of every primitive, known without a device.
std::vector<VariantInfo> cuda_variants();
bool has_variant(Primitive primitive, std::string_view id);
// Empty when `id` runs on the device of `limits`, else why not. Error(usage) for an unknown id.
std::string variant_unsupported_reason(Primitive primitive, std::string_view id,
                                       const DeviceLimits& limits);
// Error(usage) for an unknown id; the caller checked support.
std::unique_ptr<Reducer> make_cuda_reducer(std::string_view id, std::shared_ptr<Context> ctx);
std::unique_ptr<Scanner> make_cuda_scanner(std::string_view id, std::shared_ptr<Context> ctx);
std::unique_ptr<Sorter> make_cuda_sorter(std::string_view id, std::shared_ptr<Context> ctx);
std::unique_ptr<Histogrammer> make_cuda_histogrammer(std::string_view id,
                                                     std::shared_ptr<Context> ctx);

// The scan half of the tables (scan_variants.cpp).
std::vector<VariantInfo> cuda_scan_variants();
bool has_scan_variant(std::string_view id);
std::string scan_unsupported_reason(std::string_view id, const DeviceLimits& limits);
// The sort half (sort_variants.cpp).
std::vector<VariantInfo> cuda_sort_variants();
bool has_sort_variant(std::string_view id);
std::string sort_unsupported_reason(std::string_view id, const DeviceLimits& limits);
// The histogram half (histogram_variants.cpp).
std::vector<VariantInfo> cuda_histogram_variants();
bool has_histogram_variant(std::string_view id);
std::string histogram_unsupported_reason(std::string_view id, const DeviceLimits& limits);

}  // namespace xr::cuda
