// lib/cub: cub::DeviceRadixSort's SortKeys, SortKeysDescending, SortPairs and
// SortPairsDescending over begin_bit..end_bit, the overloads that take separate input and output
// arrays (CUB then keeps its alternate buffers in its temp storage, so the inputs are not
// written). num_items is 32- or 64-bit as the tuning table says is faster (cub_sort_count.hpp),
// 64-bit past 2^32 - 1 keys. f16 / bf16 keys are __half / __nv_bfloat16, which CUB orders by the
// same bit transform as the other variants (kernels/sort_keys.cuh), -0.0 and +0.0 one key.
// Values are std::uint32_t or std::uint64_t, as desc.values says.
//   temp: CUB's, its size the query's for this plan's description
#include "kernels/sort_keys.cuh"
// CUB after the 16-bit float headers (sort_keys.cuh), so its traits know __half and bfloat16.
#include <cub/device/device_radix_sort.cuh>

#include "kernels/sort_values.cuh"
#include "sort_dispatch.hpp"

namespace xr::cuda::detail {
namespace {

// temp == nullptr: query the size into `bytes`. `Value`: kernels/sort_values.cuh's.
template <class Key, class Value, class N>
void cub_sort(void* temp, std::size_t& bytes, const SortDesc& p, const sort::Buffers& b, N n,
              cudaStream_t stream) {
  const auto* in = static_cast<const Key*>(b.keys_in);
  auto* out = static_cast<Key*>(b.keys_out);
  const int begin = static_cast<int>(p.bits.begin), end = static_cast<int>(p.bits.end);
  using Sort = cub::DeviceRadixSort;
  const bool ascending = p.order == SortOrder::ascending;
  if constexpr (!kernels::kCarriesValues<Value>) {
    if (ascending)
      XR_CUDA_CHECK(Sort::SortKeys(temp, bytes, in, out, n, begin, end, stream));
    else
      XR_CUDA_CHECK(Sort::SortKeysDescending(temp, bytes, in, out, n, begin, end, stream));
  } else {
    const auto* values_in = static_cast<const Value*>(b.values_in);
    auto* values_out = static_cast<Value*>(b.values_out);
    if (ascending)
      XR_CUDA_CHECK(
          Sort::SortPairs(temp, bytes, in, out, values_in, values_out, n, begin, end, stream));
    else
      XR_CUDA_CHECK(Sort::SortPairsDescending(temp, bytes, in, out, values_in, values_out, n, begin,
                                              end, stream));
  }
}

// n keys (at most the plan's) with the plan's num_items width.
void cub_sort_with_count(void* temp, std::size_t& bytes, const sort::Plan& plan, std::size_t n,
                         const sort::Buffers& b, cudaStream_t stream) {
  const SortDesc& p = plan.desc;
  kernels::with_key_type(p.dtype, [&]<class Key>() {
    kernels::with_value_type(p.values, [&]<class Value>() {
      if (plan.cub_count == CubCount::bits32)
        cub_sort<Key, Value>(temp, bytes, p, b, static_cast<std::uint32_t>(n), stream);
      else
        cub_sort<Key, Value>(temp, bytes, p, b, static_cast<std::uint64_t>(n), stream);
    });
  });
}

}  // namespace

void plan_sort_cub(sort::Plan& plan, const DeviceLimits& dev, const sort::Tuning& tuning) {
  const SortDesc& p = plan.desc;
  const CubCountChoice count = choose_cub_count(dev, p.dtype, p.pairs(), p.count, tuning.cub_count);
  plan.cub_count = count.count;
  plan.note = "num_items " + std::string(to_string(count.count)) + " (" + count.why + ")";
  plan.tuning = "CUB's own tuning policies; " + plan.note;
  std::size_t bytes = 0;
  cub_sort_with_count(nullptr, bytes, plan, p.count, sort::Buffers{}, nullptr);
  plan.passes = radix_passes(plan.desc.bits, plan.desc.dtype);
  plan.temp_bytes = std::max<std::size_t>(bytes, 16);
}

void enqueue_sort_cub(const sort::Plan& plan, std::size_t n, const sort::Buffers& bufs,
                      cudaStream_t stream) {
  // CUB's storage for fewer keys is no more than for the plan's: it checks the bytes it is given.
  std::size_t bytes = plan.temp_bytes;
  cub_sort_with_count(bufs.temp, bytes, plan, n, bufs, stream);
  XR_CUDA_CHECK_LAUNCH();
}

}  // namespace xr::cuda::detail
