// xreduce::opencl as a caller uses it: its public headers only, on a context, queue and buffers
// the test makes itself. The refusals, then a reduce, both scan kinds, a sort of pairs and every
// histogram checked against the host (the conformance suite covers every variant: the tool
// enqueues through the same API).
#include <catch2/catch.hpp>

#include <CL/cl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "allocation_count.hpp"
#include "library_checks.hpp"
#include "xreduce/error.hpp"
#include "xreduce/histogram_reference.hpp"
#include "xreduce/opencl/histogram.hpp"
#include "xreduce/opencl/reduce.hpp"
#include "xreduce/opencl/scan.hpp"
#include "xreduce/opencl/sort.hpp"

namespace {

using xrtest::check_stable_sort;
using xrtest::refusal;

// The caller's objects: the first device of the first platform that has one.
struct Caller {
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;

  Caller() {
    cl_uint platforms = 0;
    if (clGetPlatformIDs(0, nullptr, &platforms) != CL_SUCCESS || platforms == 0) return;
    std::vector<cl_platform_id> ids(platforms);
    clGetPlatformIDs(platforms, ids.data(), nullptr);
    for (cl_platform_id p : ids)
      if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) == CL_SUCCESS) break;
    if (!device) return;
    cl_int status = CL_SUCCESS;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
    REQUIRE(status == CL_SUCCESS);
    queue = clCreateCommandQueueWithProperties(context, device, nullptr, &status);
    REQUIRE(status == CL_SUCCESS);
  }
  ~Caller() {
    if (queue) clReleaseCommandQueue(queue);
    if (context) clReleaseContext(context);
  }
  Caller(const Caller&) = delete;
  Caller& operator=(const Caller&) = delete;

  cl_mem buffer(std::size_t bytes, const void* data = nullptr) const {
    cl_int status = CL_SUCCESS;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0),
                              bytes ? bytes : 1, const_cast<void*>(data), &status);
    REQUIRE(status == CL_SUCCESS);
    return m;
  }
};

// Without a device the test is skipped, unless CI says OpenCL must be there.
void skip_without(const Caller& c) {
  if (c.device) return;
  const char* required = std::getenv("XR_TEST_REQUIRE_BACKENDS");
  if (required && std::string_view(required).find("opencl") != std::string_view::npos)
    FAIL("no OpenCL device, and XR_TEST_REQUIRE_BACKENDS requires one");
  std::puts("skipped: no OpenCL device");
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

std::vector<std::int32_t> ramp(std::size_t n) {
  std::vector<std::int32_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::int32_t>(i % 7) - 3;
  return v;
}

}  // namespace

TEST_CASE("the OpenCL library refuses a wrong request", "[library]") {
  using xr::ErrorCategory;
  CHECK(category_of([] { xr::opencl::Context(nullptr, nullptr); }) == ErrorCategory::usage);
  Caller c;
  skip_without(c);
  const xr::opencl::Context context(c.context, c.device);
  CHECK(category_of([&] { xr::opencl::Reduce(context, {.count = 0}); }) == ErrorCategory::usage);
  CHECK(category_of([&] { xr::opencl::Reduce(context, {.variant = "smem/none", .count = 10}); }) ==
        ErrorCategory::usage);
  CHECK(category_of([&] { xr::opencl::Scan(context, {.variant = "fast/none", .count = 10}); }) ==
        ErrorCategory::usage);
  CHECK(category_of([&] { xr::opencl::Scan(context, {.count = 0}); }) == ErrorCategory::usage);
  CHECK(category_of([&] { xr::opencl::Sort(context, {.count = 10, .variant = "radix/none"}); }) ==
        ErrorCategory::usage);
  CHECK(category_of([&] {
          xr::opencl::Sort(context, {.dtype = xr::DType::u32, .count = 10, .bits = {0, 33}});
        }) == ErrorCategory::usage);
  // An empty range says it is empty, not that it passes the key.
  CHECK_THAT(refusal([&] {
               xr::opencl::Sort(context, {.dtype = xr::DType::f32, .count = 10, .bits = {8, 8}});
             }),
             Catch::Contains("bits 8:8 are an empty range: begin must be below end"));
  const xr::opencl::Sort sort(context, {.count = 10});
  CHECK(category_of([&] { sort.enqueue(c.queue, {}); }) == ErrorCategory::usage);
}

// A sort's scratch is known before the Sort is made (its plan, no kernel built), as the Sort made
// then says; a request the constructor refuses is refused the same way.
TEST_CASE("a sort's scratch size before the Sort is made", "[library]") {
  Caller c;
  skip_without(c);
  const xr::opencl::Context context(c.context, c.device);
  xrtest::check_scratch_before_sort(
      [&](const xr::SortDesc& desc) { return xr::opencl::Sort::scratch_size(context, desc); },
      [&](const xr::SortDesc& desc) { return xr::opencl::Sort(context, desc).scratch_size(); });
}

TEST_CASE("the OpenCL library reduces and scans the caller's buffers", "[library]") {
  Caller c;
  skip_without(c);
  const xr::opencl::Context context(c.context, c.device);
  const std::size_t n = 100003;
  const std::vector<std::int32_t> host = ramp(n);
  cl_mem in = c.buffer(n * 4, host.data());

  SECTION("a reduce of the library's choice") {
    const xr::opencl::Reduce reduce(context, {.dtype = xr::DType::i32, .count = n});
    CHECK(!reduce.variant().empty());
    cl_mem out = c.buffer(16), scratch = c.buffer(reduce.scratch_size());
    reduce.enqueue_scratch_init(c.queue, scratch);
    reduce.enqueue(c.queue, in, out, scratch);
    std::int32_t sum = 0;
    REQUIRE(clEnqueueReadBuffer(c.queue, out, CL_TRUE, 0, 4, &sum, 0, nullptr, nullptr) ==
            CL_SUCCESS);
    CHECK(sum == std::accumulate(host.begin(), host.end(), 0));
    clReleaseMemObject(out);
    clReleaseMemObject(scratch);
  }
  SECTION("inclusive and exclusive scans of the library's choice") {
    for (const xr::ScanKind kind : {xr::ScanKind::inclusive, xr::ScanKind::exclusive}) {
      const xr::opencl::Scan scan(context, {.dtype = xr::DType::i32, .kind = kind, .count = n});
      cl_mem out = c.buffer(n * 4), scratch = c.buffer(scan.scratch_size());
      scan.enqueue(c.queue, in, out, scratch);
      std::vector<std::int32_t> got(n);
      REQUIRE(clEnqueueReadBuffer(c.queue, out, CL_TRUE, 0, n * 4, got.data(), 0, nullptr,
                                  nullptr) == CL_SUCCESS);
      std::int32_t running = 0;
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i) {
        if (kind == xr::ScanKind::inclusive) running += host[i];
        wrong += got[i] != running;
        if (kind == xr::ScanKind::exclusive) running += host[i];
      }
      CHECK(wrong == 0);
      clReleaseMemObject(out);
      clReleaseMemObject(scratch);
    }
  }
  clReleaseMemObject(in);
}

TEST_CASE("the OpenCL library sorts float keys with u32 values, as a splat renderer sorts depths",
          "[library]") {
  Caller c;
  skip_without(c);
  const xr::opencl::Context context(c.context, c.device);
  constexpr std::size_t n = 100'003;  // many tiles, not a multiple of one
  std::vector<float> depth(n);
  std::vector<std::uint32_t> index(n);
  std::mt19937 random(7);
  for (std::size_t i = 0; i < n; ++i) {
    depth[i] = static_cast<float>(random() % 1000) * 0.25f - 100.0f;  // many equal keys
    index[i] = static_cast<std::uint32_t>(i);
  }
  // The expected order: stable, so equal depths keep their indices ascending.
  std::vector<std::uint32_t> order(index);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return depth[a] < depth[b]; });
  CHECK(context.variants(xr::Primitive::sort, xr::DType::f32).front() == "radix/onesweep");
  for (const char* variant : {"radix/onesweep", "radix/reduce-then-scan"}) {
    CAPTURE(variant);
    const xr::opencl::Sort sort(
        context,
        {.dtype = xr::DType::f32, .count = n, .values = xr::SortValues::u32, .variant = variant});
    CHECK(sort.variant() == variant);
    const xr::opencl::SortBuffers b{.keys_in = c.buffer(n * 4, depth.data()),
                                    .keys_out = c.buffer(n * 4),
                                    .values_in = c.buffer(n * 4, index.data()),
                                    .values_out = c.buffer(n * 4),
                                    .scratch = c.buffer(sort.scratch_size())};
    sort.enqueue_scratch_init(c.queue, b.scratch);
    for (int call = 0; call < 2; ++call) {  // the scratch is zeroed once, not between calls
      sort.enqueue(c.queue, b);
      std::vector<float> got_keys(n);
      std::vector<std::uint32_t> got_values(n);
      REQUIRE(clEnqueueReadBuffer(c.queue, b.keys_out, CL_TRUE, 0, n * 4, got_keys.data(), 0,
                                  nullptr, nullptr) == CL_SUCCESS);
      REQUIRE(clEnqueueReadBuffer(c.queue, b.values_out, CL_TRUE, 0, n * 4, got_values.data(), 0,
                                  nullptr, nullptr) == CL_SUCCESS);
      CHECK(got_values == order);
      std::size_t keys_wrong = 0;
      for (std::size_t j = 0; j < n; ++j) keys_wrong += got_keys[j] != depth[order[j]];
      CHECK(keys_wrong == 0);
    }
    for (cl_mem m : {b.keys_in, b.keys_out, b.values_in, b.values_out, b.scratch})
      clReleaseMemObject(m);
  }
}

namespace {

// A buffer the test owns.
struct Mem {
  cl_mem m = nullptr;
  explicit Mem(cl_mem made) : m(made) {}
  ~Mem() {
    if (m) clReleaseMemObject(m);
  }
  Mem(const Mem&) = delete;
  Mem& operator=(const Mem&) = delete;
  operator cl_mem() const { return m; }
};

cl_mem made(cl_context context, cl_mem_flags flags, std::size_t bytes) {
  cl_int status = CL_SUCCESS;
  cl_mem m = clCreateBuffer(context, flags, bytes, nullptr, &status);
  REQUIRE(status == CL_SUCCESS);
  return m;
}

cl_mem sub_buffer(cl_mem parent, std::size_t origin, std::size_t bytes) {
  cl_int status = CL_SUCCESS;
  const cl_buffer_region region{origin, bytes};
  cl_mem m =
      clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
  REQUIRE(status == CL_SUCCESS);
  return m;
}

}  // namespace

// One Sort sorts every count up to the one it was made for, over one scratch zeroed once: each
// count given on the host (enqueue's count), then read by the kernels (enqueue_indirect, the
// counts in a buffer, never read back), every variant the device runs.
TEST_CASE("one Sort sorts every count up to its own: given on the host or read by the kernels",
          "[library]") {
  Caller c;
  skip_without(c);
  const xr::opencl::Context context(c.context, c.device);
  const std::size_t bytes = xrtest::kCountCapacity * 4;
  for (const std::string& variant : context.variants(xr::Primitive::sort, xr::DType::f32))
    for (const xr::SortDesc& desc : xrtest::count_descs(variant))
      for (const bool on_device : {false, true}) {
        CAPTURE(variant, std::string(xr::to_string(desc.dtype)), on_device);
        const xr::opencl::Sort sort(context, desc);
        const std::vector<std::uint64_t> counts = xrtest::counts_to_sort(on_device);
        std::vector<std::uint32_t> keys = xrtest::count_keys(desc.dtype);
        std::vector<std::uint32_t> values = xrtest::count_values(desc), words(counts.size());
        for (std::size_t i = 0; i < counts.size(); ++i)
          words[i] = static_cast<std::uint32_t>(counts[i]);
        const std::size_t value_bytes = xrtest::count_value_bytes(desc);
        const Mem keys_in(c.buffer(bytes, keys.data())), keys_out(c.buffer(bytes));
        const Mem values_in(c.buffer(value_bytes, values.data())),
            values_out(c.buffer(value_bytes));
        const Mem scratch(c.buffer(sort.scratch_size())), count(c.buffer(words.size() * 4));
        const xr::opencl::SortBuffers b{keys_in, keys_out, values_in, values_out, scratch};
        sort.enqueue_scratch_init(c.queue, scratch);
        for (std::size_t i = 0; i < counts.size(); ++i) {
          CAPTURE(counts[i]);
          if (on_device) {
            // The count written by the queue, as a kernel before the sort would write it.
            REQUIRE(clEnqueueWriteBuffer(c.queue, count, CL_FALSE, i * 4, 4, &words[i], 0, nullptr,
                                         nullptr) == CL_SUCCESS);
            sort.enqueue_indirect(c.queue, count, i * 4, b);
          } else {
            sort.enqueue(c.queue, counts[i], b);
          }
          const std::uint64_t sorted = std::min(counts[i], xrtest::kCountCapacity);
          std::vector<std::uint32_t> got_keys(sorted),
              got_values(sorted * xr::value_bytes(desc.values) / 4);
          for (auto [from, to] : {std::pair{&keys_out, &got_keys}, {&values_out, &got_values}})
            if (!to->empty())  // OpenCL reads no empty range
              REQUIRE(clEnqueueReadBuffer(c.queue, *from, CL_TRUE, 0, to->size() * 4, to->data(), 0,
                                          nullptr, nullptr) == CL_SUCCESS);
          REQUIRE(clFinish(c.queue) == CL_SUCCESS);
          xrtest::check_count_sort(desc, keys, sorted, got_keys, got_values);
        }
      }
  // A count past the Sort's and a count off its word are refused, before anything is enqueued.
  const xr::opencl::Sort sort(context, xrtest::count_descs("")[0]);
  const Mem keys_in(c.buffer(bytes)), keys_out(c.buffer(bytes)), values_in(c.buffer(2 * bytes));
  const Mem values_out(c.buffer(2 * bytes)), scratch(c.buffer(sort.scratch_size()));
  const Mem count(c.buffer(16));
  const xr::opencl::SortBuffers b{keys_in, keys_out, values_in, values_out, scratch};
  CHECK_THAT(refusal([&] { sort.enqueue(c.queue, xrtest::kCountCapacity + 1, b); }),
             Catch::Contains("20001 keys, and this Sort was made for at most 20000"));
  CHECK_THAT(refusal([&] { sort.enqueue_indirect(c.queue, count, 2, b); }),
             Catch::Contains("count_offset is not a multiple of 4"));
  CHECK_THAT(refusal([&] { sort.enqueue_indirect(c.queue, count, 16, b); }),
             Catch::Contains("`count` holds"));
}

// The count's word is read only from within its buffer, wherever count_offset points: an offset
// near 2^64 (whose sum with the word's 4 bytes wraps to a small number) and one at the buffer's
// end are refused before anything is enqueued; the buffer's last word is read, and so is a word
// past the keys in the keys' own buffer (no byte of it is a key).
TEST_CASE("the OpenCL sort reads its count from within the count's buffer alone", "[library]") {
  Caller c;
  skip_without(c);
  const xr::opencl::Context context(c.context, c.device);
  const xr::SortDesc desc = xrtest::count_descs("")[1];  // u32 keys, no values
  const xr::opencl::Sort sort(context, desc);
  const std::size_t bytes = xrtest::kCountCapacity * 4;
  std::vector<std::uint32_t> keys = xrtest::count_keys(desc.dtype), words(64, 0);
  keys.push_back(3841);  // a count after the keys
  words.back() = 257;
  const Mem keys_in(c.buffer(bytes + 4, keys.data())), keys_out(c.buffer(bytes));
  const Mem scratch(c.buffer(sort.scratch_size())), count(c.buffer(256, words.data()));
  const xr::opencl::SortBuffers b{.keys_in = keys_in, .keys_out = keys_out, .scratch = scratch};
  sort.enqueue_scratch_init(c.queue, scratch);
  CHECK_THAT(refusal([&] { sort.enqueue_indirect(c.queue, count, UINT64_MAX - 3, b); }),
             Catch::Contains("Sort::enqueue_indirect: `count` holds 256 bytes (CL_MEM_SIZE); the "
                             "call needs 4 from byte 18446744073709551612"));
  CHECK_THAT(refusal([&] { sort.enqueue_indirect(c.queue, count, 256, b); }),
             Catch::Contains("`count` holds 256 bytes (CL_MEM_SIZE); the call needs 4 from byte "
                             "256"));
  for (const auto& [buffer, offset, n] :
       {std::tuple<cl_mem, std::uint64_t, std::uint64_t>{count, 252, 257},
        {keys_in, bytes, 3841}}) {
    CAPTURE(offset, n);
    sort.enqueue_indirect(c.queue, buffer, offset, b);
    std::vector<std::uint32_t> got(n);
    REQUIRE(clEnqueueReadBuffer(c.queue, keys_out, CL_TRUE, 0, n * 4, got.data(), 0, nullptr,
                                nullptr) == CL_SUCCESS);
    xrtest::check_count_sort(desc, keys, n, got, {});
  }
}

// An out-of-order queue may run a call's kernels in any order (a sort's digit passes before the
// counts they read: most keys wrong, silently): every call of reduce, scan, sort and histogram
// refuses one, naming it, though the same buffers passed on the in-order queue just before.
TEST_CASE("the OpenCL library refuses an out-of-order queue", "[library]") {
  Caller c;
  skip_without(c);
  cl_command_queue_properties host_properties = 0;
  REQUIRE(clGetDeviceInfo(c.device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof host_properties,
                          &host_properties, nullptr) == CL_SUCCESS);
  if (!(host_properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
    WARN("the device makes no out-of-order queue: nothing to refuse");
    return;
  }
  const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES,
                                            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_int status = CL_SUCCESS;
  const std::unique_ptr<std::remove_pointer_t<cl_command_queue>, decltype(&clReleaseCommandQueue)>
      out_of_order(clCreateCommandQueueWithProperties(c.context, c.device, properties, &status),
                   &clReleaseCommandQueue);
  REQUIRE(status == CL_SUCCESS);
  cl_command_queue const q = out_of_order.get();
  const xr::opencl::Context context(c.context, c.device);
  const std::size_t n = 5'000;
  const xr::opencl::Reduce reduce(context, {.dtype = xr::DType::u32, .count = n});
  const xr::opencl::Scan scan(context, {.dtype = xr::DType::u32, .count = n});
  const xr::opencl::Sort sort(context, {.dtype = xr::DType::u32, .count = n});
  std::vector<std::uint32_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<std::uint32_t>(i * 2654435761u);
  const std::uint32_t word = 100;
  const Mem in(c.buffer(n * 4, keys.data())), out(c.buffer(n * 4)), count(c.buffer(4, &word));
  const Mem reduce_scratch(c.buffer(reduce.scratch_size()));
  const Mem scan_scratch(c.buffer(scan.scratch_size()));
  const Mem sort_scratch(c.buffer(sort.scratch_size()));
  const xr::opencl::SortBuffers b{.keys_in = in, .keys_out = out, .scratch = sort_scratch};
  sort.enqueue_scratch_init(c.queue, sort_scratch);
  sort.enqueue(c.queue, b);  // passes on the in-order queue: its checks are not a pass for `q`
  const std::string why =
      ": `queue` was made with CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE; the "
      "library's commands need an in-order queue";
  CHECK_THAT(refusal([&] { reduce.enqueue_scratch_init(q, reduce_scratch); }),
             Catch::Contains("Reduce::enqueue_scratch_init" + why));
  CHECK_THAT(refusal([&] { reduce.enqueue(q, in, out, reduce_scratch); }),
             Catch::Contains("Reduce::enqueue" + why));
  CHECK_THAT(refusal([&] { scan.enqueue(q, in, out, scan_scratch); }),
             Catch::Contains("Scan::enqueue" + why));
  CHECK_THAT(refusal([&] { sort.enqueue_scratch_init(q, sort_scratch); }),
             Catch::Contains("Sort::enqueue_scratch_init" + why));
  CHECK_THAT(refusal([&] { sort.enqueue(q, b); }), Catch::Contains("Sort::enqueue" + why));
  CHECK_THAT(refusal([&] { sort.enqueue(q, 100, b); }), Catch::Contains("Sort::enqueue" + why));
  CHECK_THAT(refusal([&] { sort.enqueue_indirect(q, count, 0, b); }),
             Catch::Contains("Sort::enqueue_indirect" + why));
  const xr::opencl::Histogram histogram(
      context,
      {.dtype = xr::DType::u32, .count = n, .levels = {.bins = 256, .lower = 0, .upper = 0x1p32}});
  const Mem counts(c.buffer(256 * 4)), histogram_scratch(c.buffer(histogram.scratch_size()));
  const xr::opencl::HistogramBuffers counted{
      in, counts, histogram.scratch_size() ? histogram_scratch.m : nullptr};
  CHECK_THAT(refusal([&] { histogram.enqueue(q, counted); }),
             Catch::Contains("Histogram::enqueue" + why));
  CHECK_THAT(refusal([&] { histogram.enqueue_indirect(q, count, 0, counted); }),
             Catch::Contains("Histogram::enqueue_indirect" + why));
  // The sort on the in-order queue is right.
  std::vector<std::uint32_t> got(n);
  REQUIRE(clEnqueueReadBuffer(c.queue, out, CL_TRUE, 0, n * 4, got.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  std::vector<std::uint32_t> expected = keys;
  std::sort(expected.begin(), expected.end());
  CHECK(got == expected);
}

// A call of another count plans into storage the thread keeps: once it has planned one, the
// host allocates nothing for the next, of either form (the driver's allocations are its own, C's,
// not counted).
TEST_CASE("a Sort's calls of any count allocate nothing on the host once warm", "[library]") {
  Caller c;
  skip_without(c);
  const xr::opencl::Context context(c.context, c.device);
  const xr::opencl::Sort sort(context, xrtest::count_descs("")[0]);
  const std::size_t bytes = xrtest::kCountCapacity * 4;
  const Mem keys_in(c.buffer(bytes)), keys_out(c.buffer(bytes)), values_in(c.buffer(2 * bytes));
  const Mem values_out(c.buffer(2 * bytes)), scratch(c.buffer(sort.scratch_size()));
  const std::uint32_t word = 3841;
  const Mem count(c.buffer(4, &word));
  const xr::opencl::SortBuffers b{keys_in, keys_out, values_in, values_out, scratch};
  sort.enqueue_scratch_init(c.queue, scratch);
  sort.enqueue(c.queue, 7681, b);
  sort.enqueue_indirect(c.queue, count, 0, b);
  const std::uint64_t before = xrtest::allocations();
  for (const std::uint64_t n : {1u, 257u, 3841u, 19'999u}) {
    sort.enqueue(c.queue, n, b);
    sort.enqueue_indirect(c.queue, count, 0, b);
  }
  CHECK(xrtest::allocations() == before);
  REQUIRE(clFinish(c.queue) == CL_SUCCESS);
}

// Every misuse a caller can make of a sort's buffers is one line of usage before anything is
// enqueued, and the device sorts right after: in place (wrong keys, silently, for sorts of one to
// three digit passes), overlapping sub-buffers, short buffers and scratch (past-the-end accesses
// inside the kernels), buffers of another context, read-only outputs and write-only inputs.
TEST_CASE("the OpenCL sort refuses misused buffers, then sorts right", "[library]") {
  Caller c;
  skip_without(c);
  const xr::opencl::Context context(c.context, c.device);
  constexpr std::size_t n = 65'537;  // one digit pass of 8 bits, the case in place gets wrong
  const std::size_t bytes = n * 4;
  std::vector<std::uint32_t> keys(n), index(n);
  std::mt19937 random(11);
  for (std::size_t i = 0; i < n; ++i) {
    keys[i] = static_cast<std::uint32_t>(random());
    index[i] = static_cast<std::uint32_t>(i);
  }
  const xr::opencl::Sort sort(
      context,
      {.dtype = xr::DType::u32, .count = n, .bits = {0, 8}, .values = xr::SortValues::u32});
  const Mem keys_in(c.buffer(bytes, keys.data())), keys_out(c.buffer(bytes));
  const Mem values_in(c.buffer(bytes, index.data())), values_out(c.buffer(bytes));
  const Mem scratch(c.buffer(sort.scratch_size()));
  const xr::opencl::SortBuffers right{keys_in, keys_out, values_in, values_out, scratch};
  const auto with = [&](auto change) {
    xr::opencl::SortBuffers b = right;
    change(b);
    return refusal([&] { sort.enqueue(c.queue, b); });
  };

  CHECK_THAT(with([&](auto& b) { b.keys_out = b.keys_in; }),
             Catch::Contains("`keys_in` and `keys_out` overlap"));
  CHECK_THAT(with([&](auto& b) { b.scratch = b.values_in; }),
             Catch::Contains("`values_in` and `scratch` overlap"));
  // Sub-buffers of one buffer overlap where their regions do.
  cl_uint align_bits = 0;
  REQUIRE(clGetDeviceInfo(c.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits,
                          nullptr) == CL_SUCCESS);
  const std::size_t align = align_bits / 8;
  const std::size_t second = (bytes + align - 1) / align * align;
  const Mem both(c.buffer(second + bytes));
  const Mem first_half(sub_buffer(both, 0, bytes)), overlapping(sub_buffer(both, align, bytes));
  const Mem second_half(sub_buffer(both, second, bytes));
  CHECK_THAT(with([&](auto& b) {
               b.keys_out = first_half;
               b.values_out = overlapping;
             }),
             Catch::Contains("`keys_out` and `values_out` overlap"));
  CHECK_THAT(with([&](auto& b) {
               b.keys_out = both;
               b.values_out = first_half;
             }),
             Catch::Contains("`keys_out` and `values_out` overlap"));

  const Mem short_keys(c.buffer(bytes / 2)), short_scratch(c.buffer(1024));
  CHECK_THAT(with([&](auto& b) { b.keys_in = short_keys; }),
             Catch::Contains("`keys_in` holds " + std::to_string(bytes / 2) +
                             " bytes (CL_MEM_SIZE); the call needs " + std::to_string(bytes)));
  CHECK_THAT(with([&](auto& b) { b.scratch = short_scratch; }),
             Catch::Contains("`scratch` holds 1024 bytes") && Catch::Contains("scratch_size()"));
  CHECK_THAT(refusal([&] { sort.enqueue_scratch_init(c.queue, short_scratch); }),
             Catch::Contains("`scratch` holds 1024 bytes"));
  CHECK_THAT(with([&](auto& b) { b.values_in = nullptr; }), Catch::Contains("`values_in` is null"));

  const Mem read_only(made(c.context, CL_MEM_READ_ONLY, bytes));
  const Mem write_only(made(c.context, CL_MEM_WRITE_ONLY, bytes));
  CHECK_THAT(with([&](auto& b) { b.keys_out = read_only; }),
             Catch::Contains("`keys_out` was made CL_MEM_READ_ONLY"));
  CHECK_THAT(with([&](auto& b) { b.values_in = write_only; }),
             Catch::Contains("`values_in` was made CL_MEM_WRITE_ONLY"));

  // Another context over the same device: its buffers and queue are not the Context's.
  const Caller other;
  const Mem foreign(other.buffer(bytes));
  CHECK_THAT(with([&](auto& b) { b.keys_in = foreign; }),
             Catch::Contains("`keys_in` belongs to another cl_context"));
  CHECK_THAT(refusal([&] { sort.enqueue(other.queue, right); }),
             Catch::Contains("`queue` belongs to another cl_context"));

  // After every refusal, the device sorts right: disjoint sub-buffers of one buffer included.
  sort.enqueue_scratch_init(c.queue, scratch);
  xr::opencl::SortBuffers in_halves = right;
  in_halves.keys_out = first_half;
  in_halves.values_out = second_half;
  sort.enqueue(c.queue, in_halves);
  std::vector<std::uint32_t> got_keys(n), got_values(n);
  REQUIRE(clEnqueueReadBuffer(c.queue, both, CL_TRUE, 0, bytes, got_keys.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(c.queue, both, CL_TRUE, second, bytes, got_values.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  check_stable_sort(keys, got_keys, got_values,
                    [](std::uint32_t a, std::uint32_t b) { return (a & 0xff) < (b & 0xff); });
}

TEST_CASE("the OpenCL reduce and scan refuse short, overlapping and foreign buffers", "[library]") {
  Caller c;
  skip_without(c);
  const xr::opencl::Context context(c.context, c.device);
  const std::size_t n = 5'000;
  const xr::opencl::Scan scan(context, {.dtype = xr::DType::i32, .count = n});
  const xr::opencl::Reduce reduce(context, {.dtype = xr::DType::i32, .count = n});
  const Mem in(c.buffer(n * 4)), out(c.buffer(n * 4)), short_in(c.buffer(n * 2));
  const Mem scan_scratch(c.buffer(scan.scratch_size()));
  const Mem reduce_scratch(c.buffer(reduce.scratch_size()));
  CHECK_THAT(refusal([&] { scan.enqueue(c.queue, in, in, scan_scratch); }),
             Catch::Contains("Scan::enqueue: `input` and `output` overlap"));
  CHECK_THAT(refusal([&] { scan.enqueue(c.queue, short_in, out, scan_scratch); }),
             Catch::Contains("`input` holds " + std::to_string(n * 2) + " bytes"));
  CHECK_THAT(refusal([&] { reduce.enqueue(c.queue, short_in, out, reduce_scratch); }),
             Catch::Contains("Reduce::enqueue: `input` holds"));
  CHECK_THAT(refusal([&] { reduce.enqueue(nullptr, in, out, reduce_scratch); }),
             Catch::Contains("`queue` is null"));
}

// --- histograms -------------------------------------------------------------------------------

namespace {

// `n` samples of T over `levels`' range and a twentieth past it on each side (every bin, some
// out of range), a NaN every thousand floats, and a run of one value over an eighth of them (the
// aggregated rungs' contention).
template <class T>
std::vector<T> histogram_input(std::size_t n, const xr::HistogramLevels& levels) {
  std::mt19937_64 random(19);
  std::uniform_real_distribution<double> where(-0.05, 1.05);
  const double width = levels.upper - levels.lower;
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double x = levels.lower + where(random) * width;
    if constexpr (std::is_integral_v<T>)
      v[i] = static_cast<T>(std::clamp(std::floor(x), double{std::numeric_limits<T>::lowest()},
                                       double{std::numeric_limits<T>::max()}));
    else
      v[i] = i % 1000 == 7 ? std::numeric_limits<T>::quiet_NaN() : static_cast<T>(x);
  }
  std::fill(v.begin() + n / 2, v.begin() + n / 2 + n / 8, v[n / 2]);
  return v;
}

// Levels that T's samples suit: 256 bins over the type's (or, for floats, a range whose bins'
// edges round), or `bins` over the same range.
template <class T>
xr::HistogramLevels histogram_levels(std::uint32_t bins, xr::HistogramCounts counts) {
  xr::HistogramLevels l{.bins = bins, .counts = counts};
  if constexpr (std::is_same_v<T, std::uint8_t>)
    l.lower = 0, l.upper = 256;
  else if constexpr (std::is_same_v<T, std::uint16_t>)
    l.lower = 0, l.upper = 65536;
  else if constexpr (std::is_same_v<T, std::int32_t>)
    l.lower = -100000, l.upper = 900000;
  else if constexpr (std::is_same_v<T, std::uint32_t>)
    l.lower = 0, l.upper = 0x1p32;
  else
    l.lower = -2.5, l.upper = 23.2;
  return l;
}

std::size_t counter_bytes(const xr::HistogramLevels& l) {
  return l.counts == xr::HistogramCounts::u64 ? 8 : 4;
}

// The counts of a counts buffer, as u64 whatever their width.
std::vector<std::uint64_t> read_counts(const Caller& c, cl_mem counts,
                                       const xr::HistogramLevels& l) {
  std::vector<std::uint64_t> got(l.bins);
  if (l.counts == xr::HistogramCounts::u64) {
    REQUIRE(clEnqueueReadBuffer(c.queue, counts, CL_TRUE, 0, l.bins * 8, got.data(), 0, nullptr,
                                nullptr) == CL_SUCCESS);
    return got;
  }
  std::vector<std::uint32_t> words(l.bins);
  REQUIRE(clEnqueueReadBuffer(c.queue, counts, CL_TRUE, 0, l.bins * 4, words.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  std::copy(words.begin(), words.end(), got.begin());
  return got;
}

void write_counts(const Caller& c, cl_mem counts, const xr::HistogramLevels& l,
                  const std::vector<std::uint64_t>& values) {
  if (l.counts == xr::HistogramCounts::u64) {
    REQUIRE(clEnqueueWriteBuffer(c.queue, counts, CL_TRUE, 0, l.bins * 8, values.data(), 0, nullptr,
                                 nullptr) == CL_SUCCESS);
    return;
  }
  const std::vector<std::uint32_t> words(values.begin(), values.end());
  REQUIRE(clEnqueueWriteBuffer(c.queue, counts, CL_TRUE, 0, l.bins * 4, words.data(), 0, nullptr,
                               nullptr) == CL_SUCCESS);
}

// Bins whose u32 counters pass the device's local memory (CL_DEVICE_LOCAL_MEM_SIZE): the
// privatized rungs count in global memory, fast/replicated in copies in its scratch.
std::uint32_t bins_past_local(const Caller& c) {
  cl_ulong local = 0;
  REQUIRE(clGetDeviceInfo(c.device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, nullptr) ==
          CL_SUCCESS);
  return static_cast<std::uint32_t>(std::min<cl_ulong>(local / 4 + 1024, xr::kMaxHistogramBins));
}

// One Histogram of `variant` over 100003 samples of T: overwriting counts that hold garbage, then
// adding to counts just below their wrap (a u32's wraps modulo 2^32, a u64's carries into its
// high word), each bin checked against the host's rule.
template <class T>
void check_histogram_outputs(const Caller& c, const xr::opencl::Context& context,
                             const std::string& variant, const xr::HistogramLevels& levels) {
  constexpr std::size_t n = 100'003;
  const xr::DType t = xr::DTypeOf<T>::value;
  CAPTURE(variant, std::string(xr::to_string(t)), levels.bins,
          std::string(xr::to_string(levels.counts)));
  const std::vector<T> samples = histogram_input<T>(n, levels);
  const std::vector<std::uint64_t> expected = xr::histogram_counts<T>(samples, levels);
  const xr::opencl::Histogram h(context,
                                {.dtype = t, .count = n, .levels = levels, .variant = variant});
  CHECK(h.variant() == variant);
  INFO(h.describe());
  const Mem in(c.buffer(n * sizeof(T), samples.data()));
  const Mem counts(c.buffer(levels.bins * counter_bytes(levels))),
      scratch(c.buffer(h.scratch_size()));
  const xr::opencl::HistogramBuffers b{in, counts, h.scratch_size() ? scratch.m : nullptr};
  write_counts(c, counts, levels, std::vector<std::uint64_t>(levels.bins, 0xdeadbeefu));
  h.enqueue(c.queue, b);
  CHECK(read_counts(c, counts, levels) == expected);
  const bool wide = levels.counts == xr::HistogramCounts::u64;
  std::vector<std::uint64_t> start(levels.bins), sums(levels.bins);
  for (std::uint32_t i = 0; i < levels.bins; ++i) {
    start[i] = 0xffffffffu - i % 3;
    sums[i] = wide ? start[i] + expected[i] : (start[i] + expected[i]) & 0xffffffffu;
  }
  write_counts(c, counts, levels, start);
  h.enqueue(c.queue, b, xr::HistogramOutput::accumulate);
  CHECK(read_counts(c, counts, levels) == sums);
}

}  // namespace

TEST_CASE("the OpenCL histogram refuses a wrong request", "[library]") {
  using xr::ErrorCategory;
  Caller c;
  skip_without(c);
  const xr::opencl::Context context(c.context, c.device);
  CHECK(category_of([&] { xr::opencl::Histogram(context, {.dtype = xr::DType::i64}); }) ==
        ErrorCategory::unsupported);
  CHECK(context.variants(xr::Primitive::histogram, xr::DType::i64).empty());
  CHECK_THAT(
      refusal([&] { xr::opencl::Histogram(context, {.count = 10, .variant = "atomic/none"}); }),
      Catch::Contains("no histogram variant 'atomic/none'"));
  // CUB's id is CUDA's alone.
  CHECK(category_of([&] { xr::opencl::Histogram(context, {.variant = "lib/cub"}); }) ==
        ErrorCategory::usage);
  CHECK(category_of([&] {
          xr::opencl::Histogram(context, {.levels = {.bins = 0, .lower = 0, .upper = 256}});
        }) == ErrorCategory::usage);
  CHECK(category_of([&] {
          xr::opencl::Histogram(context, {.levels = {.bins = 16, .lower = 0.5, .upper = 256}});
        }) == ErrorCategory::usage);
  CHECK_THAT(refusal([&] { xr::opencl::Histogram(context, {.count = std::uint64_t{1} << 32}); }),
             Catch::Contains("may pass a u32 counter: use u64 counts"));
  const xr::opencl::Histogram h(context, {.count = 10});
  CHECK(h.variant() == context.variants(xr::Primitive::histogram, xr::DType::u8).front());
  CHECK(category_of([&] { h.enqueue(c.queue, {}); }) == ErrorCategory::usage);
}

// A histogram's scratch is known before the Histogram is made (its plan, no kernel built), as the
// Histogram made then says: none for most plans, fast/replicated's copies past the local memory.
TEST_CASE("a histogram's scratch size before the Histogram is made", "[library]") {
  Caller c;
  skip_without(c);
  const xr::opencl::Context context(c.context, c.device);
  const std::uint32_t past = bins_past_local(c);
  for (const std::string& variant : context.variants(xr::Primitive::histogram, xr::DType::u16))
    for (const xr::HistogramDesc& desc :
         {xr::HistogramDesc{.dtype = xr::DType::u16, .count = 1'000'000, .variant = variant},
          xr::HistogramDesc{.dtype = xr::DType::u16,
          .count = 1'000'000,
          .levels = {.bins = past, .upper = 65536, .counts = xr::HistogramCounts::u64},
          .variant = variant},
          xr::HistogramDesc{.dtype = xr::DType::u16, .count = 0, .variant = variant}}) {
      CAPTURE(variant, desc.count, desc.levels.bins);
      const std::uint64_t before = xr::opencl::Histogram::scratch_size(context, desc);
      CHECK(before == xr::opencl::Histogram(context, desc).scratch_size());
      if (variant == "fast/replicated" && desc.levels.bins == past) CHECK(before > 0);
      if (variant != "fast/replicated") CHECK(before == 0);
    }
  CHECK_THAT(refusal([&] {
               xr::opencl::Histogram::scratch_size(context, {.count = 9, .variant = "atomic/none"});
             }),
             Catch::Contains("no histogram variant 'atomic/none'"));
}

// Every variant the device runs, over every sample type, with bins in local memory and bins past
// it: the counts overwritten and added to, against the host's rule.
TEST_CASE("every OpenCL histogram overwrites and accumulates its counts by the host's rule",
          "[library]") {
  Caller c;
  skip_without(c);
  const xr::opencl::Context context(c.context, c.device);
  const std::uint32_t past = bins_past_local(c);
  for (const xr::DType t : xr::kHistogramSampleDTypes)
    xr::visit_histogram_sample(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (const std::string& variant : context.variants(xr::Primitive::histogram, t)) {
        check_histogram_outputs<T>(c, context, variant,
                                   histogram_levels<T>(256, xr::HistogramCounts::u32));
        // Past the local memory in two types only: the other rungs' builds are the same.
        if (t == xr::DType::u8 || t == xr::DType::f32)
          check_histogram_outputs<T>(c, context, variant,
                                     histogram_levels<T>(past, xr::HistogramCounts::u64));
      }
    });
}

// One Histogram counts every count up to its own: each given on the host (enqueue's count), then
// read by the kernels (enqueue_indirect, the counts in a buffer the queue writes, never read
// back; a count past the Histogram's counts its own), every variant the device runs.
TEST_CASE(
    "one Histogram counts every count up to its own: given on the host or read by the "
    "kernels",
    "[library]") {
  Caller c;
  skip_without(c);
  const xr::opencl::Context context(c.context, c.device);
  constexpr std::uint64_t n = 20'000;
  const xr::HistogramLevels levels = histogram_levels<std::int32_t>(1000, xr::HistogramCounts::u32);
  const std::vector<std::int32_t> samples = histogram_input<std::int32_t>(n, levels);
  const Mem in(c.buffer(n * 4, samples.data())), counts(c.buffer(levels.bins * 4));
  for (const std::string& variant : context.variants(xr::Primitive::histogram, xr::DType::i32))
    for (const bool on_device : {false, true}) {
      CAPTURE(variant, on_device);
      const xr::opencl::Histogram h(
          context, {.dtype = xr::DType::i32, .count = n, .levels = levels, .variant = variant});
      const Mem scratch(c.buffer(h.scratch_size())), words(c.buffer(64 * 4));
      const xr::opencl::HistogramBuffers b{in, counts, h.scratch_size() ? scratch.m : nullptr};
      std::vector<std::uint64_t> tried = {0, 1, 257, 4097, n - 1, n};
      if (on_device) tried.push_back(n + 5);
      for (std::size_t i = 0; i < tried.size(); ++i) {
        CAPTURE(tried[i]);
        if (on_device) {
          // A blocking write: the word is on this stack frame.
          const auto word = static_cast<std::uint32_t>(tried[i]);
          REQUIRE(clEnqueueWriteBuffer(c.queue, words, CL_TRUE, i * 4, 4, &word, 0, nullptr,
                                       nullptr) == CL_SUCCESS);
          h.enqueue_indirect(c.queue, words, i * 4, b);
        } else {
          h.enqueue(c.queue, tried[i], b);
        }
        const std::uint64_t counted = std::min(tried[i], n);
        CHECK(read_counts(c, counts, levels) ==
              xr::histogram_counts<std::int32_t>({samples.data(), counted}, levels));
      }
    }
  // A count past the Histogram's and a count off its word are refused, before anything is
  // enqueued.
  const xr::opencl::Histogram h(context, {.dtype = xr::DType::i32, .count = n, .levels = levels});
  const Mem scratch(c.buffer(h.scratch_size())), words(c.buffer(16));
  const xr::opencl::HistogramBuffers b{in, counts, h.scratch_size() ? scratch.m : nullptr};
  CHECK_THAT(refusal([&] { h.enqueue(c.queue, n + 1, b); }),
             Catch::Contains("20001 samples, and this Histogram was made for at most 20000"));
  CHECK_THAT(refusal([&] { h.enqueue_indirect(c.queue, words, 2, b); }),
             Catch::Contains("count_offset is not a multiple of 4"));
  CHECK_THAT(
      refusal([&] { h.enqueue_indirect(c.queue, words, 16, b); }),
      Catch::Contains("`count` holds 16 bytes (CL_MEM_SIZE); the call needs 4 from byte 16"));
}

// A call of another count or its count on the device allocates nothing on the host once the
// Histogram has made one (the driver's allocations are its own, C's, not counted).
TEST_CASE("a Histogram's calls of any count allocate nothing on the host once warm", "[library]") {
  Caller c;
  skip_without(c);
  const xr::opencl::Context context(c.context, c.device);
  constexpr std::uint64_t n = 20'000;
  const xr::opencl::Histogram h(context, {.dtype = xr::DType::u8, .count = n});
  const Mem in(c.buffer(n)), counts(c.buffer(256 * 4)), scratch(c.buffer(h.scratch_size()));
  const std::uint32_t word = 3841;
  const Mem count(c.buffer(4, &word));
  const xr::opencl::HistogramBuffers b{in, counts, h.scratch_size() ? scratch.m : nullptr};
  h.enqueue(c.queue, 7681, b);
  h.enqueue_indirect(c.queue, count, 0, b);
  const std::uint64_t before = xrtest::allocations();
  for (const std::uint64_t k : {0u, 1u, 257u, 3841u, 19'999u}) {
    h.enqueue(c.queue, k, b);
    h.enqueue_indirect(c.queue, count, 0, b, xr::HistogramOutput::accumulate);
  }
  CHECK(xrtest::allocations() == before);
  REQUIRE(clFinish(c.queue) == CL_SUCCESS);
}

// Every misuse of a histogram's buffers is one line of usage before anything is enqueued, and the
// device counts right after: overlapping buffers, short samples, counts and scratch, a null
// counts buffer, buffers of another context, read-only counts and write-only samples.
TEST_CASE("the OpenCL histogram refuses misused buffers, then counts right", "[library]") {
  Caller c;
  skip_without(c);
  const xr::opencl::Context context(c.context, c.device);
  constexpr std::size_t n = 65'537;
  const xr::HistogramLevels levels =
      histogram_levels<float>(bins_past_local(c), xr::HistogramCounts::u64);
  const std::vector<float> samples = histogram_input<float>(n, levels);
  const xr::opencl::Histogram h(
      context,
      {.dtype = xr::DType::f32, .count = n, .levels = levels, .variant = "fast/replicated"});
  REQUIRE(h.scratch_size() > 0);  // copies in global memory
  const std::size_t counts_bytes = levels.bins * 8;
  const Mem in(c.buffer(n * 4, samples.data())), counts(c.buffer(counts_bytes));
  const Mem scratch(c.buffer(h.scratch_size()));
  const xr::opencl::HistogramBuffers right{in, counts, scratch};
  const auto with = [&](auto change) {
    xr::opencl::HistogramBuffers b = right;
    change(b);
    return refusal([&] { h.enqueue(c.queue, b); });
  };
  // One buffer that holds any of them, given twice.
  const Mem any(c.buffer(std::max<std::size_t>(h.scratch_size(), counts_bytes)));
  CHECK_THAT(with([&](auto& b) { b.samples = b.counts = any; }),
             Catch::Contains("`samples` and `counts` overlap"));
  CHECK_THAT(with([&](auto& b) { b.scratch = b.counts = any; }),
             Catch::Contains("`counts` and `scratch` overlap"));
  const Mem short_in(c.buffer(n * 2)), short_counts(c.buffer(counts_bytes / 2));
  const Mem short_scratch(c.buffer(1024));
  CHECK_THAT(with([&](auto& b) { b.samples = short_in; }),
             Catch::Contains("`samples` holds " + std::to_string(n * 2) +
                             " bytes (CL_MEM_SIZE); the call needs " + std::to_string(n * 4)));
  CHECK_THAT(with([&](auto& b) { b.counts = short_counts; }),
             Catch::Contains("`counts` holds " + std::to_string(counts_bytes / 2)));
  CHECK_THAT(with([&](auto& b) { b.scratch = short_scratch; }),
             Catch::Contains("`scratch` holds 1024 bytes") &&
                 Catch::Contains("Histogram::scratch_size()"));
  CHECK_THAT(with([&](auto& b) { b.counts = nullptr; }), Catch::Contains("`counts` is null"));
  const Mem read_only(made(c.context, CL_MEM_READ_ONLY, counts_bytes));
  const Mem write_only(made(c.context, CL_MEM_WRITE_ONLY, n * 4));
  CHECK_THAT(with([&](auto& b) { b.counts = read_only; }),
             Catch::Contains("`counts` was made CL_MEM_READ_ONLY"));
  CHECK_THAT(with([&](auto& b) { b.samples = write_only; }),
             Catch::Contains("`samples` was made CL_MEM_WRITE_ONLY"));
  const Caller other;
  const Mem foreign(other.buffer(n * 4));
  CHECK_THAT(with([&](auto& b) { b.samples = foreign; }),
             Catch::Contains("`samples` belongs to another cl_context"));
  CHECK_THAT(refusal([&] { h.enqueue(other.queue, right); }),
             Catch::Contains("`queue` belongs to another cl_context"));
  // After every refusal, the device counts right.
  h.enqueue(c.queue, right);
  CHECK(read_counts(c, counts, levels) == xr::histogram_counts<float>(samples, levels));
}
