// xreduce::cuda as a caller uses it (docs/library.md): its public headers only, on memory and a
// stream the test makes itself. What it refuses is checked without a GPU (the request comes
// before the device); a reduce, both scan kinds, a sort of pairs, one Sort over every count and
// u64 values through every sort variant run where a device is (the GPU machine's conformance
// covers every variant, since the tool enqueues through the same API).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "allocation_count.hpp"
#include "library_checks.hpp"
#include "xreduce/cuda.hpp"
#include "xreduce/error.hpp"

namespace {

using xrtest::check_stable_sort;
using xrtest::refusal;

// Without a CUDA device the test is skipped (ctest's SKIP_RETURN_CODE), unless CI or the GPU
// recipe says CUDA must be there (XR_TEST_REQUIRE_BACKENDS).
void skip_without_device() {
  int count = 0;
  if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0) return;
  (void)cudaGetLastError();
  const char* required = std::getenv("XR_TEST_REQUIRE_BACKENDS");
  if (required && std::string_view(required).find("cuda") != std::string_view::npos)
    FAIL("no CUDA device, and XR_TEST_REQUIRE_BACKENDS requires one");
  std::puts("skipped: no CUDA device");
  std::exit(77);
}

xr::ErrorCategory category_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const xr::Error& e) {
    INFO(e.what());
    return e.category();
  }
  FAIL("no xr::Error thrown");
  return xr::ErrorCategory::usage;
}

struct CudaFree {
  void operator()(void* p) const noexcept { cudaFree(p); }
};
using DevicePtr = std::unique_ptr<void, CudaFree>;

DevicePtr device_bytes(std::size_t bytes) {
  void* p = nullptr;
  REQUIRE(cudaMalloc(&p, bytes == 0 ? 1 : bytes) == cudaSuccess);
  REQUIRE(cudaMemset(p, 0, bytes == 0 ? 1 : bytes) == cudaSuccess);
  return DevicePtr(p);
}

// A u64 value whose halves differ: the key's input position in the low half, its complement in
// the high one, so a value moved as two halves of different keys shows.
std::uint64_t wide_value(std::uint32_t position) {
  return (std::uint64_t{~position} << 32) | position;
}

// `n` keys of `Key`, 4099 distinct ones (many equal keys, for stability) whose digits differ in
// every byte (every pass reorders them).
template <class Key>
std::vector<Key> wide_value_keys(std::size_t n) {
  std::vector<Key> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t h = i * 2654435761u;
    keys[i] = static_cast<Key>(h % 4099 * 0x9e3779b97f4a7c15ull);
  }
  return keys;
}

// Every variant the device runs over `t` keys (of `Key`) with u64 values, both orders: the count
// given on the host (many tiles, then within one tile) and read by the kernels (lib/cub refuses
// it). The outputs are poisoned before each call; each value read back must be whole, and the
// keys and values in the stable order of a host sort.
template <class Key>
void check_wide_values(xr::DType t, cudaStream_t stream) {
  constexpr std::size_t n = 100'003;
  const std::vector<Key> keys = wide_value_keys<Key>(n);
  std::vector<std::uint64_t> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = wide_value(static_cast<std::uint32_t>(i));
  const DevicePtr keys_in = device_bytes(n * sizeof(Key)), keys_out = device_bytes(n * sizeof(Key));
  const DevicePtr values_in = device_bytes(n * 8), values_out = device_bytes(n * 8);
  REQUIRE(cudaMemcpy(keys_in.get(), keys.data(), n * sizeof(Key), cudaMemcpyHostToDevice) ==
          cudaSuccess);
  REQUIRE(cudaMemcpy(values_in.get(), values.data(), n * 8, cudaMemcpyHostToDevice) == cudaSuccess);
  const DevicePtr count_word = device_bytes(4);
  auto* count = static_cast<std::uint32_t*>(count_word.get());
  const auto poison = [&] {
    REQUIRE(cudaMemsetAsync(keys_out.get(), 0xab, n * sizeof(Key), stream) == cudaSuccess);
    REQUIRE(cudaMemsetAsync(values_out.get(), 0xab, n * 8, stream) == cudaSuccess);
  };
  // The first `sorted` keys, sorted in `order`, read back with their values.
  const auto check_output = [&](xr::SortOrder order, std::size_t sorted) {
    std::vector<Key> got_keys(sorted);
    std::vector<std::uint64_t> got_values(sorted);
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    REQUIRE(cudaMemcpy(got_keys.data(), keys_out.get(), sorted * sizeof(Key),
                       cudaMemcpyDeviceToHost) == cudaSuccess);
    REQUIRE(cudaMemcpy(got_values.data(), values_out.get(), sorted * 8, cudaMemcpyDeviceToHost) ==
            cudaSuccess);
    std::vector<std::uint32_t> positions(sorted);
    std::size_t torn = 0;
    for (std::size_t j = 0; j < sorted; ++j) {
      positions[j] = static_cast<std::uint32_t>(got_values[j]);
      torn += got_values[j] != wide_value(positions[j]);
    }
    CHECK(torn == 0);
    const std::vector<Key> first(keys.begin(), keys.begin() + sorted);
    const bool ascending = order == xr::SortOrder::ascending;
    check_stable_sort(first, got_keys, positions,
                      [ascending](Key a, Key b) { return ascending ? a < b : b < a; });
  };
  for (const xr::SortOrder order : xr::kAllSortOrders)
    for (const std::string& variant : xr::cuda::sort_variants(t)) {
      CAPTURE(variant, std::string(xr::to_string(t)), std::string(xr::to_string(order)));
      const xr::SortDesc desc{.dtype = t,
                              .count = n,
                              .order = order,
                              .values = xr::SortValues::u64,
                              .variant = variant};
      xr::cuda::Sort sort(desc);
      CHECK(xr::cuda::Sort::temp_storage_bytes(desc) == sort.temp_storage_bytes());
      CHECK_THAT(sort.describe(), Catch::Contains("with u64 values"));
      const DevicePtr temp = device_bytes(sort.temp_storage_bytes());
      for (const std::size_t sorted : {n, std::size_t{5000}}) {
        CAPTURE(sorted);
        poison();
        sort.enqueue(stream, sorted, keys_in.get(), keys_out.get(), values_in.get(),
                     values_out.get(), temp.get());
        check_output(order, sorted);
      }
      if (variant == "lib/cub") {
        CHECK(category_of([&] {
                sort.enqueue_indirect(stream, count, keys_in.get(), keys_out.get(), values_in.get(),
                                      values_out.get(), temp.get());
              }) == xr::ErrorCategory::unsupported);
        continue;
      }
      for (const std::uint32_t sorted : {77'777u, 5000u}) {
        CAPTURE(sorted);
        poison();
        REQUIRE(cudaMemcpyAsync(count, &sorted, 4, cudaMemcpyHostToDevice, stream) == cudaSuccess);
        sort.enqueue_indirect(stream, count, keys_in.get(), keys_out.get(), values_in.get(),
                              values_out.get(), temp.get());
        check_output(order, sorted);
      }
    }
}

}  // namespace

TEST_CASE("the CUDA library refuses a wrong request before it needs a device", "[library]") {
  using xr::DType;
  using xr::ErrorCategory;
  using xr::Op;
  CHECK(category_of([] { xr::cuda::Reduce r({.dtype = DType::i32, .op = Op::sum, .count = 0}); }) ==
        ErrorCategory::usage);
  CHECK(category_of([] {
          xr::cuda::Reduce r({.dtype = DType::i32, .op = Op::sum, .count = 10, .variant = "x/y"});
        }) == ErrorCategory::usage);
  CHECK(category_of([] {
          xr::cuda::Scan s({.dtype = DType::f32, .op = Op::max, .count = 10, .variant = "x/y"});
        }) == ErrorCategory::usage);
  CHECK(category_of([] {
          xr::cuda::Sort s({.dtype = DType::u32, .count = 10, .variant = "x/y"});
        }) == ErrorCategory::usage);
  CHECK(category_of([] {
          xr::cuda::Sort s({.dtype = DType::u32, .count = 10, .bits = {4, 33}});
        }) == ErrorCategory::usage);
  // An empty range says it is empty, not that it passes the key.
  CHECK_THAT(refusal([] {
               xr::cuda::Sort s({.dtype = DType::f32, .count = 10, .bits = {8, 8}});
             }),
             Catch::Contains("bits 8:8 are an empty range: begin must be below end"));
  // Seed 000's in-place ladder overwrites the input: only when asked to, only over 32-bit types.
  CHECK(category_of([] {
          xr::cuda::Reduce r(
              {.dtype = DType::i32, .op = Op::sum, .count = 10, .variant = "global/unroll8"});
        }) == ErrorCategory::usage);
  CHECK(category_of([] {
          xr::cuda::Reduce r({.dtype = DType::f64,
                              .op = Op::sum,
                              .count = 10,
                              .variant = "global/unroll8",
                              .overwrite_input = true});
        }) == ErrorCategory::unsupported);
}

TEST_CASE("reduce and both scans through the public API, on the caller's stream", "[library]") {
  skip_without_device();
  constexpr std::size_t n = 100'003;  // past every one-block path, not a multiple of a tile
  std::vector<std::int32_t> data(n);
  std::mt19937 random(11);
  for (auto& x : data) x = static_cast<std::int32_t>(random() % 201) - 100;
  const DevicePtr in = device_bytes(n * 4), out = device_bytes(n * 4), result = device_bytes(16);
  REQUIRE(cudaMemcpy(in.get(), data.data(), n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
  cudaStream_t stream = nullptr;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);

  CHECK(xr::cuda::reduce_variants(xr::DType::i32).front() == "fast/single-pass");
  CHECK(xr::cuda::scan_variants(xr::DType::i32).front() == "fast/decoupled-lookback");

  const xr::cuda::Reduce reduce({.dtype = xr::DType::i32, .op = xr::Op::sum, .count = n});
  CHECK(reduce.variant() == "fast/single-pass");
  const DevicePtr reduce_scratch = device_bytes(reduce.scratch_size());
  for (int call = 0; call < 3; ++call) {  // the ticket is left zero for the next call
    reduce.enqueue(stream, in.get(), result.get(), reduce_scratch.get());
    std::int32_t sum = 0;
    REQUIRE(cudaMemcpyAsync(&sum, result.get(), 4, cudaMemcpyDeviceToHost, stream) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    CHECK(sum == std::accumulate(data.begin(), data.end(), 0));
  }
  CHECK(category_of([&] {
          reduce.enqueue(stream, static_cast<char*>(in.get()) + 4, result.get(),
                         reduce_scratch.get());
        }) == xr::ErrorCategory::usage);

  xr::cuda::Scan scan({.dtype = xr::DType::i32, .op = xr::Op::sum, .count = n});
  CHECK(scan.variant() == "fast/decoupled-lookback");
  const DevicePtr scan_scratch = device_bytes(scan.scratch_size());
  std::vector<std::int32_t> expected(n), got(n);
  for (xr::ScanKind kind :
       {xr::ScanKind::inclusive, xr::ScanKind::exclusive, xr::ScanKind::inclusive}) {
    CAPTURE(static_cast<int>(kind));
    scan.enqueue(stream, kind, in.get(), out.get(), scan_scratch.get());
    REQUIRE(cudaMemcpyAsync(got.data(), out.get(), n * 4, cudaMemcpyDeviceToHost, stream) ==
            cudaSuccess);
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    if (kind == xr::ScanKind::inclusive)
      std::inclusive_scan(data.begin(), data.end(), expected.begin());
    else
      std::exclusive_scan(data.begin(), data.end(), expected.begin(), 0);
    CHECK(got == expected);
  }
  REQUIRE(cudaStreamDestroy(stream) == cudaSuccess);
}

TEST_CASE("a sort of float keys with u32 values, as a splat renderer sorts depths", "[library]") {
  skip_without_device();
  constexpr std::size_t n = 300'007;  // many tiles, not a multiple of one
  std::vector<float> depth(n);
  std::vector<std::uint32_t> index(n);
  std::mt19937 random(7);
  for (std::size_t i = 0; i < n; ++i) {
    depth[i] = static_cast<float>(random() % 1000) * 0.25f - 100.0f;  // many equal keys
    index[i] = static_cast<std::uint32_t>(i);
  }
  const DevicePtr keys = device_bytes(n * 4), sorted = device_bytes(n * 4);
  const DevicePtr values = device_bytes(n * 4), sorted_values = device_bytes(n * 4);
  REQUIRE(cudaMemcpy(keys.get(), depth.data(), n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
  REQUIRE(cudaMemcpy(values.get(), index.data(), n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
  cudaStream_t stream = nullptr;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);

  CHECK(xr::cuda::sort_variants(xr::DType::f32).front() == "radix/onesweep");
  xr::cuda::Sort sort({.dtype = xr::DType::f32, .count = n, .values = xr::SortValues::u32});
  CHECK(sort.variant() == "radix/onesweep");
  // The tuning table's row for 32-bit pairs, with the measurement that chose it.
  CHECK_THAT(sort.tuning(), Catch::StartsWith("tile 384 x 26, 2 blocks/SM: H200"));
  // The same bytes before the Sort is made.
  CHECK(xr::cuda::Sort::temp_storage_bytes(
            {.dtype = xr::DType::f32, .count = n, .values = xr::SortValues::u32}) ==
        sort.temp_storage_bytes());
  const DevicePtr temp = device_bytes(sort.temp_storage_bytes());
  // The expected order: stable, so equal depths keep their indices ascending.
  std::vector<std::uint32_t> order(index);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return depth[a] < depth[b]; });
  std::vector<float> got_keys(n);
  std::vector<std::uint32_t> got_values(n);
  for (int call = 0; call < 2; ++call) {  // the temporary storage needs no zeroing between calls
    sort.enqueue(stream, keys.get(), sorted.get(), static_cast<const std::uint32_t*>(values.get()),
                 static_cast<std::uint32_t*>(sorted_values.get()), temp.get());
    REQUIRE(cudaMemcpyAsync(got_keys.data(), sorted.get(), n * 4, cudaMemcpyDeviceToHost, stream) ==
            cudaSuccess);
    REQUIRE(cudaMemcpyAsync(got_values.data(), sorted_values.get(), n * 4, cudaMemcpyDeviceToHost,
                            stream) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    CHECK(got_values == order);
    std::size_t keys_wrong = 0;
    for (std::size_t j = 0; j < n; ++j) keys_wrong += got_keys[j] != depth[order[j]];
    CHECK(keys_wrong == 0);
  }
  REQUIRE(cudaStreamDestroy(stream) == cudaSuccess);
}

// One Sort sorts every count up to the one it was made for, each count given on the host, then
// read by the kernels, every variant the device runs (lib/cub refuses the count on the device:
// CUB takes it from the host); and the indirect call captured once in a CUDA graph sorts each
// count the graph's replays find.
TEST_CASE("one Sort sorts every count up to its own: given on the host or read by the kernels",
          "[library]") {
  skip_without_device();
  cudaStream_t stream = nullptr;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
  const std::size_t bytes = xrtest::kCountCapacity * 4;
  const DevicePtr keys_in = device_bytes(bytes), keys_out = device_bytes(bytes);
  // Room for u64 values.
  const DevicePtr values_in = device_bytes(2 * bytes), values_out = device_bytes(2 * bytes);
  const void* vin = values_in.get();
  void* vout = values_out.get();
  const DevicePtr count_word = device_bytes(4);
  auto* count = static_cast<std::uint32_t*>(count_word.get());
  // The first `sorted` keys and values (as words) read back and checked.
  const auto check_output = [&](const xr::SortDesc& desc, const std::vector<std::uint32_t>& keys,
                                std::uint64_t sorted) {
    std::vector<std::uint32_t> got_keys(sorted),
        got_values(sorted * xr::value_bytes(desc.values) / 4);
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    REQUIRE(cudaMemcpy(got_keys.data(), keys_out.get(), sorted * 4, cudaMemcpyDeviceToHost) ==
            cudaSuccess);
    REQUIRE(cudaMemcpy(got_values.data(), values_out.get(), got_values.size() * 4,
                       cudaMemcpyDeviceToHost) == cudaSuccess);
    xrtest::check_count_sort(desc, keys, sorted, got_keys, got_values);
  };
  for (const std::string& variant : xr::cuda::sort_variants(xr::DType::f32))
    for (const xr::SortDesc& desc : xrtest::count_descs(variant)) {
      CAPTURE(variant, std::string(xr::to_string(desc.dtype)));
      xr::cuda::Sort sort(desc);
      const DevicePtr temp = device_bytes(sort.temp_storage_bytes());
      const std::vector<std::uint32_t> keys = xrtest::count_keys(desc.dtype);
      const std::vector<std::uint32_t> values = xrtest::count_values(desc);
      REQUIRE(cudaMemcpy(keys_in.get(), keys.data(), bytes, cudaMemcpyHostToDevice) == cudaSuccess);
      REQUIRE(cudaMemcpy(values_in.get(), values.data(), values.size() * 4,
                         cudaMemcpyHostToDevice) == cudaSuccess);
      for (const std::uint64_t n : xrtest::counts_to_sort(false)) {
        CAPTURE(n);
        sort.enqueue(stream, n, keys_in.get(), keys_out.get(), vin, vout, temp.get());
        check_output(desc, keys, n);
      }
      if (variant == "lib/cub") {
        CHECK(category_of([&] {
                sort.enqueue_indirect(stream, count, keys_in.get(), keys_out.get(), vin, vout,
                                      temp.get());
              }) == xr::ErrorCategory::unsupported);
        continue;
      }
      for (const std::uint64_t n : xrtest::counts_to_sort(true)) {
        CAPTURE(n);
        const auto word = static_cast<std::uint32_t>(n);
        REQUIRE(cudaMemcpyAsync(count, &word, 4, cudaMemcpyHostToDevice, stream) == cudaSuccess);
        sort.enqueue_indirect(stream, count, keys_in.get(), keys_out.get(), vin, vout, temp.get());
        check_output(desc, keys, std::min(n, xrtest::kCountCapacity));
      }
      // Captured once, replayed for each count.
      cudaGraph_t graph = nullptr;
      cudaGraphExec_t exec = nullptr;
      REQUIRE(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal) == cudaSuccess);
      sort.enqueue_indirect(stream, count, keys_in.get(), keys_out.get(), vin, vout, temp.get());
      REQUIRE(cudaStreamEndCapture(stream, &graph) == cudaSuccess);
      REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
      for (const std::uint32_t n : {7681u, 3u, 20'000u}) {
        CAPTURE(n);
        REQUIRE(cudaMemcpyAsync(count, &n, 4, cudaMemcpyHostToDevice, stream) == cudaSuccess);
        REQUIRE(cudaGraphLaunch(exec, stream) == cudaSuccess);
        check_output(desc, keys, n);
      }
      REQUIRE(cudaGraphExecDestroy(exec) == cudaSuccess);
      REQUIRE(cudaGraphDestroy(graph) == cudaSuccess);
    }
  xr::cuda::Sort sort(xrtest::count_descs("")[0]);
  const DevicePtr temp = device_bytes(sort.temp_storage_bytes());
  // A call of another count takes its grids from it: once warm, the host allocates nothing for
  // the next, of either form.
  sort.enqueue(stream, 7681, keys_in.get(), keys_out.get(), vin, vout, temp.get());
  sort.enqueue_indirect(stream, count, keys_in.get(), keys_out.get(), vin, vout, temp.get());
  const std::uint64_t before = xrtest::allocations();
  for (const std::uint64_t n : {1u, 257u, 3841u, 19'999u}) {
    sort.enqueue(stream, n, keys_in.get(), keys_out.get(), vin, vout, temp.get());
    sort.enqueue_indirect(stream, count, keys_in.get(), keys_out.get(), vin, vout, temp.get());
  }
  CHECK(xrtest::allocations() == before);
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  CHECK_THAT(xrtest::refusal([&] {
               sort.enqueue(stream, xrtest::kCountCapacity + 1, keys_in.get(), keys_out.get(), vin,
                            vout, temp.get());
             }),
             Catch::Contains("20001 keys, and this Sort was made for at most 20000"));
  REQUIRE(cudaStreamDestroy(stream) == cudaSuccess);
}

// u64 values, whose halves differ, through every variant's kernels: radix/onesweep's tile shapes
// for them and its one-tile path, reduce-then-scan's stage, bitonic's gather and CUB's SortPairs.
TEST_CASE("every CUDA sort variant carries u64 values with 32-bit and 64-bit keys", "[library]") {
  skip_without_device();
  cudaStream_t stream = nullptr;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
  check_wide_values<std::uint32_t>(xr::DType::u32, stream);
  check_wide_values<std::uint64_t>(xr::DType::u64, stream);
  REQUIRE(cudaStreamDestroy(stream) == cudaSuccess);
}

// The sort, scan and reduce refuse before they launch: arrays that overlap (in place included),
// an array or temporary storage that ends before the call's bytes do (its allocation's end, as
// the driver knows it), and then sort right.
TEST_CASE("the CUDA library refuses overlapping and short operands, then sorts right",
          "[library]") {
  skip_without_device();
  constexpr std::size_t n = 65'537;
  const std::size_t bytes = n * 4;
  std::vector<std::uint32_t> host(n);
  std::mt19937 random(3);
  for (auto& k : host) k = static_cast<std::uint32_t>(random());
  const DevicePtr keys = device_bytes(bytes), sorted = device_bytes(bytes);
  const DevicePtr short_keys = device_bytes(bytes / 2);
  REQUIRE(cudaMemcpy(keys.get(), host.data(), bytes, cudaMemcpyHostToDevice) == cudaSuccess);
  xr::cuda::Sort sort({.dtype = xr::DType::u32, .count = n, .bits = {0, 8}});
  const DevicePtr temp = device_bytes(sort.temp_storage_bytes());
  const DevicePtr short_temp = device_bytes(256);
  CHECK_THAT(
      refusal([&] { sort.enqueue(nullptr, keys.get(), keys.get(), nullptr, nullptr, temp.get()); }),
      Catch::Contains("`keys_in` and `keys_out` overlap"));
  CHECK_THAT(refusal([&] {
               sort.enqueue(nullptr, short_keys.get(), sorted.get(), nullptr, nullptr, temp.get());
             }),
             Catch::Contains("`keys_in` holds") && Catch::Contains("to the end of its allocation"));
  CHECK_THAT(refusal([&] {
               sort.enqueue(nullptr, keys.get(), sorted.get(), nullptr, nullptr, short_temp.get());
             }),
             Catch::Contains("`temp` holds") && Catch::Contains("temp_storage_bytes()"));
  xr::cuda::Scan scan({.dtype = xr::DType::i32, .count = n});
  const DevicePtr scratch = device_bytes(scan.scratch_size());
  CHECK_THAT(refusal([&] {
               scan.enqueue(nullptr, xr::ScanKind::inclusive, keys.get(), keys.get(),
                            scratch.get());
             }),
             Catch::Contains("Scan::enqueue: `in` and `out` overlap"));

  sort.enqueue(nullptr, keys.get(), sorted.get(), nullptr, nullptr, temp.get());
  std::vector<std::uint32_t> got(n);
  REQUIRE(cudaMemcpy(got.data(), sorted.get(), bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  std::stable_sort(host.begin(), host.end(),
                   [](std::uint32_t a, std::uint32_t b) { return (a & 0xff) < (b & 0xff); });
  CHECK(got == host);
}
