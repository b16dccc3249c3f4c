// The interfaces every backend implements (docs/design.md, "The flow of one measurement"):
//   Backend::upload -> DeviceArray -> Reducer::reduce(array, op) -> Reduction{Value, Timing}
//                                   -> Scanner::scan(array, output, op, kind) -> Timing
//                                   -> Sorter::sort(SortRequest) -> Timing
//                                   -> Histogrammer::histogram(HistogramRequest) -> Timing
// A backend depends on core alone; the app and the tests see backends only through these types
// (and runner.hpp, which drives either primitive through one seam).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "xreduce/clock.hpp"
#include "xreduce/compiled.hpp"
#include "xreduce/primitive.hpp"
#include "xreduce/types.hpp"

namespace xr {

struct UserKernel;  // user_kernel.hpp

// One physical device as a backend sees it.
struct DeviceInfo {
  int index = 0;
  std::string name;
  std::string uuid;  // 32 lowercase hex digits, no dashes: the same spelling on every backend
  std::string api_version;         // e.g. "CUDA runtime 13.0", "Vulkan 1.3.277"
  std::string driver_version;      // as the API reports it, decoded
  std::uint64_t memory_bytes = 0;  // device-local memory
  // Backend-specific facts shown by `xreduce list` (compute capability, subgroup size, ...),
  // in display order.
  std::vector<std::pair<std::string, std::string>> properties;
};

// A variant as registered: data, not code. `id` and `mirrors` come from the catalog (catalog.hpp)
// so the same id means the same algorithm on every backend.
struct VariantInfo {
  Primitive primitive = Primitive::reduce;
  std::string id;       // "family/name", unique within its primitive
  std::string mirrors;  // the classic kernel or paper step it mirrors
  std::vector<DType> dtypes;
  std::vector<Op> ops;
  std::vector<ScanKind> scan_kinds;  // scan: the kinds it implements; empty otherwise
  // The variant writes into its input (the classic in-place reduction kernels): the harness
  // restores the input between repetitions, outside the timed region.
  bool writes_input = false;
  // Float results are bitwise the same run to run on the same device (integers always are: they
  // are exact). False for look-back scans, whose float combination order depends on timing.
  bool deterministic = true;
  // Largest n the variant accepts (its own indexing limit); device memory is checked apart.
  std::uint64_t max_elements = UINT64_MAX;
  // Device features the variant needs, in words ("subgroup shuffle", "sm_80"); shown by list.
  std::vector<std::string> requirements;
  // sort and histogram: it also takes its count from a device word (the GPU libraries'
  // indirect calls).
  bool count_on_device = false;
  // histogram: the most bins it counts (1 to this many).
  std::uint32_t max_bins = 0;

  bool claims(DType t) const;
  bool claims(Op op) const;
  bool claims(ScanKind k) const;
  // Whether two runs must agree bitwise on `t`: always for integers, for floats as declared.
  bool deterministic_for(DType t) const;
};

// Typed device memory owned by a backend. Move-only by construction (held in unique_ptr).
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  virtual ~DeviceArray() = default;

  virtual DType dtype() const = 0;
  virtual std::size_t size() const = 0;  // elements
  std::size_t bytes() const { return size() * size_of(dtype()); }

  // Overwrites every element from `src` (same dtype and size, else Error(usage)). Blocking.
  // The harness uses it to restore the input of a variant that writes it.
  virtual void write(HostView src) = 0;
  // Copies every element into `dst` (same dtype and size, else Error(usage)). Blocking.
  virtual void read_into(HostArray& dst) const = 0;
  // Copies every element back to a new host array. Blocking.
  HostArray read() const {
    HostArray out(dtype(), size());
    read_into(out);
    return out;
  }
};

struct Timing {
  double device_ms = 0;  // the API's own timer (CUDA events, Vulkan timestamps); == host_ms on CPU
  double host_ms = 0;    // submit to result on the host
  bool device_timer = true;  // false when the device has no timer and device_ms is host time
};

// What an overhead row measures, the same on every backend: rows of two APIs pair by it.
enum class OverheadKind : std::uint8_t {
  dispatch_gpu,   // GPU time per empty kernel or dispatch, back to back
  cold_interval,  // the timed interval of one empty call: the floor of every cold number
  submit_host,    // host time of one submit or launch call
  batch_host,     // host time per call of a batch of empty calls
  round_trip,     // host time from submit to the result seen on the host
};
std::string_view to_string(OverheadKind k);

// One cost a user pays around the kernels, measured by a backend (docs/cli.md, "Measurement
// modes": the per-API launch and submit overheads are results too).
struct Overhead {
  OverheadKind kind = OverheadKind::dispatch_gpu;
  std::string what;  // "empty dispatch, GPU time", "submit, host time", "round trip", ...
  std::string path;  // how: "stream launches", "CUDA graph", "fence wait", "spin on fence", ...
  double median_us = 0;
  double min_us = 0;
  int samples = 0;
  std::string note;  // what the number includes, in words
};

// The host link as an API's own fastest copy sees it: page-locked (or host-visible) memory to
// device memory and back, timed by the device's timer. The anchor that the transfers of
// DeviceArray::write and read_into are reported against.
struct LinkRate {
  std::uint64_t bytes = 0;   // per copy: what was asked for, or less where the device holds less
  double upload_gbps = 0;    // host to device, median
  double readback_gbps = 0;  // device to host, median
  int samples = 0;           // timed copies each way
  std::string how;  // "cudaMemcpyAsync from/to cudaMallocHost memory, CUDA events", a clamp, ...
};

struct Reduction {
  Value value;
  Timing timing;
};

// One variant bound to one backend and device. Owns whatever scratch memory it needs (partials,
// tickets, temporary storage), allocated at most once per size so repetitions time only the work.
class Reducer {
 public:
  Reducer() = default;
  Reducer(const Reducer&) = delete;
  Reducer& operator=(const Reducer&) = delete;
  virtual ~Reducer() = default;

  virtual const VariantInfo& info() const = 0;
  // Reduces every element of `input` with `op` and returns when the value is on the host.
  // Precondition: info() claims input.dtype() and op, else Error(unsupported). Any n >= 0 (n == 0
  // gives the identity). If info().writes_input, the contents of `input` are unspecified after.
  // Deterministic: the same input on the same device gives bitwise the same value.
  virtual Reduction reduce(DeviceArray& input, Op op) = 0;
  // Batch mode (docs/cli.md, "Measurement modes"): `calls` >= 1 identical calls back to back with
  // no host synchronisation between them, in one timed interval; the Timing is per call and the
  // value the last call's. The default calls reduce() `calls` times (the CPU's way); GPU backends
  // enqueue every call before waiting once. A variant that writes its input reduces its own
  // partials from the second call on: the same work, a meaningless value.
  virtual Reduction reduce_batch(DeviceArray& input, Op op, int calls);
  // What one reduce() of `input` with `op` compiled into and how it launches, pass by pass
  // (compiled.hpp; `xreduce inspect`), from the same plan a timed call uses. It may run the call
  // once (modules load on first use). The default: no passes, a note that the variant runs host
  // code (the CPU's).
  virtual CompiledCall inspect(DeviceArray& input, Op op);
};

// One scan variant bound to one backend and device; owns its scratch like a Reducer.
class Scanner {
 public:
  Scanner() = default;
  Scanner(const Scanner&) = delete;
  Scanner& operator=(const Scanner&) = delete;
  virtual ~Scanner() = default;

  virtual const VariantInfo& info() const = 0;
  // Writes the `kind` scan of `input` with `op` into `output` and returns when it is complete
  // on the device. Preconditions: info() claims input.dtype(), op and kind, else
  // Error(unsupported); `output` is a distinct array of the same backend, dtype and size, else
  // Error(usage). Any n >= 0. If info().writes_input, `input` is unspecified after.
  // Deterministic for integers; for floats when info().deterministic.
  virtual Timing scan(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind) = 0;
  // Batch mode, as Reducer::reduce_batch: `calls` identical scans back to back, time per call.
  virtual Timing scan_batch(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind,
                            int calls);
  // As Reducer::inspect, for one scan() of `input` into `output`.
  virtual CompiledCall inspect(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind);
  // What the variant counted over its calls since it last planned for a new (n, dtype, op), in
  // one line (the Vulkan look-back's fallbacks); empty for a variant that counts nothing.
  virtual std::string diagnostics() const { return {}; }
};

class SortRequest;  // sort_request.hpp: a sort's arrays and description, checked once

// One sort variant bound to one backend and device; owns its temporary storage like a Reducer.
class Sorter {
 public:
  Sorter() = default;
  Sorter(const Sorter&) = delete;
  Sorter& operator=(const Sorter&) = delete;
  virtual ~Sorter() = default;

  virtual const VariantInfo& info() const = 0;
  // Writes the request's keys in its stable order into its sorted keys (and each value beside
  // its key) and returns when that is complete on the device. The request was checked where it
  // was made (SortRequest::make, for this variant: Error(usage) for another's); the arrays
  // must be this backend's. The inputs are not written. Any n >= 0.
  virtual Timing sort(const SortRequest& request) = 0;
  // Batch mode, as Reducer::reduce_batch.
  virtual Timing sort_batch(const SortRequest& request, int calls);
  // As Reducer::inspect, for one sort().
  virtual CompiledCall inspect(const SortRequest& request);
  // As Scanner::diagnostics: what the variant counted over the calls since its plan was made
  // (a look-back's fallbacks), for the report; empty for most.
  virtual std::string diagnostics() const { return {}; }
};

class HistogramRequest;  // histogram_request.hpp: a histogram's arrays and description, checked
                         // once

// One histogram variant bound to one backend and device; owns its temporary storage like a
// Reducer.
class Histogrammer {
 public:
  Histogrammer() = default;
  Histogrammer(const Histogrammer&) = delete;
  Histogrammer& operator=(const Histogrammer&) = delete;
  virtual ~Histogrammer() = default;

  virtual const VariantInfo& info() const = 0;
  // Writes the count of each bin of the request's samples into its counts (every bin
  // overwritten) and returns when that is complete on the device. The request was checked where
  // it was made (HistogramRequest::make, for this variant); the arrays must be this backend's.
  // The samples are not written. Any n >= 0 (n = 0 zeroes the counts).
  virtual Timing histogram(const HistogramRequest& request) = 0;
  // Batch mode, as Reducer::reduce_batch: every call overwrites the counts.
  virtual Timing histogram_batch(const HistogramRequest& request, int calls);
  // As Reducer::inspect, for one histogram().
  virtual CompiledCall inspect(const HistogramRequest& request);
  // As Sorter::diagnostics: what the plan chose that a report keeps (lib/cub's offset width).
  virtual std::string diagnostics() const { return {}; }
};

// How a device is chosen. An empty selector means the backend's default, which prefers the
// device whose UUID is `preferred_uuid` (the CUDA device's, so Vulkan measures the same GPU).
struct DeviceChoice {
  std::string selector;  // index ("0"), name substring ("NVIDIA") or UUID (32 hex digits)
  std::string preferred_uuid;
};

class Backend {
 public:
  Backend() = default;
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;
  virtual ~Backend() = default;

  virtual std::string_view name() const = 0;  // "cpu", "cuda", "vulkan": the --backend value
  // Probed once at construction, never throws: a backend that is built but finds no usable
  // device is listed with this reason in words.
  virtual bool available() const = 0;
  virtual std::string unavailable_reason() const = 0;
  // Every device the API reports; empty when unavailable.
  virtual std::vector<DeviceInfo> devices() const = 0;
  // Every variant this backend implements: static (known without a device), then the user's
  // kernels added so far.
  virtual std::vector<VariantInfo> variants() const = 0;
  // Adds a user's kernel in one of this backend's languages (user_kernel.hpp) as a variant:
  // variants() lists it, make_reducer/make_scanner make it, and it compiles for the selected
  // device on first use. Error(usage) when its id is taken; Error(unsupported) from a backend
  // that runs no user kernels (the default).
  virtual void add_kernel(const UserKernel& kernel);
  // The backend's environment knobs that are set (name, value as given; docs/cli.md), read once
  // when the backend was made: a report records how it was made. Empty when none is set.
  virtual std::vector<std::pair<std::string, std::string>> knobs() const { return {}; }

  // Chooses the device used from now on. Error(usage) when the selector matches no device,
  // Error(unavailable) when the backend is unavailable.
  virtual void select_device(const DeviceChoice& choice) = 0;
  // The selected device (the default one if select_device was never called).
  virtual DeviceInfo device() const = 0;
  // Why the selected device cannot run the `primitive` variant `variant_id`, in words ("needs
  // subgroup shuffle, which this device lacks"); empty when it can.
  virtual std::string unsupported_reason(Primitive primitive,
                                         std::string_view variant_id) const = 0;

  // Error(usage) for an unknown id, Error(unsupported) with unsupported_reason() when the device
  // cannot run it.
  virtual std::unique_ptr<Reducer> make_reducer(std::string_view variant_id) = 0;
  virtual std::unique_ptr<Scanner> make_scanner(std::string_view variant_id) = 0;
  // The backend's sort variants: Error(usage) "the <backend> backend has no sort variant '<id>'"
  // from a backend that has none (the default).
  virtual std::unique_ptr<Sorter> make_sorter(std::string_view variant_id);
  // The same for histogram variants ("the <backend> backend has no histogram variant '<id>'").
  virtual std::unique_ptr<Histogrammer> make_histogrammer(std::string_view variant_id);
  // Copies `data` into new device memory. Error(out_of_memory) when it does not fit.
  virtual std::unique_ptr<DeviceArray> upload(HostView data) = 0;
  // New device memory for n elements of `t`, contents unspecified (a scan's output).
  // Error(out_of_memory) when it does not fit.
  virtual std::unique_ptr<DeviceArray> allocate(DType t, std::size_t n) = 0;
  // Elements of `t` the selected device can hold in one array (for refusing an n up front).
  virtual std::uint64_t max_elements(DType t) const = 0;

  // Evicts the data caches (L2) between timed repetitions so small sizes are not cache numbers.
  virtual void flush_cache() {}
  // The probe of the selected device's SM clock (clock.hpp), made on first use; nullptr where the
  // backend measures no clock (the CPU) or the device cannot (clock_unmeasured_reason says why).
  virtual ClockProbe* clock_probe() { return nullptr; }
  // Why clock_probe() is nullptr, in words; empty when it is not.
  virtual std::string clock_unmeasured_reason() { return kClockNotMeasuredCpu; }
  // The selected device's per-multiprocessor limits that bound occupancy (compiled.hpp);
  // nullopt where the API does not report them (Vulkan, whose passes borrow CUDA's when the two
  // see one UUID) or there are no multiprocessors (the CPU).
  virtual std::optional<SmLimits> sm_limits() { return std::nullopt; }
  // Streaming-read bandwidth of the selected device in GB/s, measured by the backend's own read
  // kernel/shader; nullopt where the backend does not measure it.
  virtual std::optional<double> measure_read_bandwidth_gbps() { return std::nullopt; }
  // Device-to-device copy bandwidth in GB/s, counting bytes read plus bytes written (the bytes a
  // scan must move); nullopt where the backend does not measure it.
  virtual std::optional<double> measure_copy_bandwidth_gbps() { return std::nullopt; }
  // The per-API overheads (empty-dispatch GPU time, host submit cost, host round trip, each on
  // the submission paths the API offers); empty where the backend measures none.
  virtual std::vector<Overhead> measure_overheads() { return {}; }
  // The host link's speed each way with copies of `bytes` (fewer where one buffer of the device
  // holds less; LinkRate::bytes says what was measured), after a warm-up copy. Allocates its own
  // buffers for the call. nullopt where the backend has no host link (the CPU's arrays are host
  // memory).
  virtual std::optional<LinkRate> measure_link(std::uint64_t /*bytes*/) { return std::nullopt; }
};

}  // namespace xr
