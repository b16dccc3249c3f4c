// The glue every GPU variant shares, written once: reduce(), scan() and sort() are a batch of one
// call;
// a batch checks the call (call_check.hpp), lets the backend check what only it can (the arrays
// are its device's, the device runs the dtype), answers n = 0 without touching the device, and
// runs; inspect() checks the same and asks for the compiled passes. A backend's variant says only
// what differs: how it runs `calls` calls of n > 0 elements and what they compiled into.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "xreduce/backend.hpp"
#include "xreduce/histogram_request.hpp"
#include "xreduce/recent_cache.hpp"
#include "xreduce/sort_desc.hpp"
#include "xreduce/sort_request.hpp"

namespace xr {

class DeviceReducer : public Reducer {
 public:
  const VariantInfo& info() const final { return info_; }
  Reduction reduce(DeviceArray& input, Op op) final { return reduce_batch(input, op, 1); }
  Reduction reduce_batch(DeviceArray& input, Op op, int calls) final;
  CompiledCall inspect(DeviceArray& input, Op op) final;

 protected:
  // `nothing_runs`: inspect()'s note at n = 0 ("n = 0: nothing is launched").
  DeviceReducer(VariantInfo info, std::string nothing_runs);

  // The backend's own checks of a call, before n = 0 is answered: `input` is an array of its
  // device, the device runs its dtype. Throws the backend's error.
  virtual void prepare(DeviceArray& input) { (void)input; }
  // An n = 0 call's timing (no device work): whether the device has a timer.
  virtual Timing empty_timing() const { return Timing{0, 0, true}; }
  // `calls` >= 1 calls over n > 0 elements, checked and prepared.
  virtual Reduction run(DeviceArray& input, Op op, int calls) = 0;
  // What one call over n > 0 elements compiled into, checked and prepared.
  virtual std::vector<CompiledPass> compiled(DeviceArray& input, Op op) = 0;

 private:
  VariantInfo info_;
  std::string nothing_runs_;
};

// A built-in reducer whose calls run a program made once per (array, op) and kept among the few
// most recent. `Program` is made from (Device&, const Spec&, const Array&, Op) and answers
// run(calls) -> {accumulator, Timing} and compiled(); the backend's
// device_array(DeviceArray&, Device&), found by argument-dependent lookup, is its own array.
template <class Device, class Spec, class Program>
class ProgramReducer : public DeviceReducer {
 protected:
  ProgramReducer(VariantInfo info, std::string nothing_runs, std::shared_ptr<Device> device,
                 const Spec& spec, std::size_t programs_kept)
      : DeviceReducer(std::move(info), std::move(nothing_runs)),
        device_(std::move(device)),
        spec_(spec),
        programs_(programs_kept) {}

  Reduction run(DeviceArray& input, Op op, int calls) override {
    auto [accumulated, timing] = program(input, op).run(calls);
    after_calls();
    return {Value::from_accumulator(input.dtype(), accumulated), timing};
  }
  std::vector<CompiledPass> compiled(DeviceArray& input, Op op) override {
    return program(input, op).compiled();
  }
  // What the backend checks after a batch ran (Vulkan: the validation layers' reports).
  virtual void after_calls() {}

  Program& program(DeviceArray& input, Op op) {
    const auto& array = device_array(input, *device_);
    return programs_.get({array.serial(), op},
                         [&] { return std::make_unique<Program>(*device_, spec_, array, op); });
  }

  // Declared first, destroyed last: programs hold the device's command buffers and memory.
  std::shared_ptr<Device> device_;
  const Spec& spec_;
  RecentCache<std::pair<std::uint64_t, Op>, Program> programs_;
};

class DeviceScanner : public Scanner {
 public:
  const VariantInfo& info() const final { return info_; }
  Timing scan(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind) final {
    return scan_batch(input, output, op, kind, 1);
  }
  Timing scan_batch(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind, int calls) final;
  CompiledCall inspect(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind) final;

 protected:
  DeviceScanner(VariantInfo info, std::string nothing_runs);

  // As DeviceReducer's, for both arrays.
  virtual void prepare(DeviceArray& input, DeviceArray& output) {
    (void)input;
    (void)output;
  }
  virtual Timing empty_timing() const { return Timing{0, 0, true}; }
  virtual Timing run(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind, int calls) = 0;
  virtual std::vector<CompiledPass> compiled(DeviceArray& input, DeviceArray& output, Op op,
                                             ScanKind kind) = 0;

 private:
  VariantInfo info_;
  std::string nothing_runs_;
};

class DeviceSorter : public Sorter {
 public:
  const VariantInfo& info() const final { return info_; }
  Timing sort(const SortRequest& request) final { return sort_batch(request, 1); }
  Timing sort_batch(const SortRequest& request, int calls) final;
  CompiledCall inspect(const SortRequest& request) final;

 protected:
  DeviceSorter(VariantInfo info, std::string nothing_runs);

  // As DeviceReducer's, for every array of the request, and for n = 0 too: what the device
  // cannot run over the request is refused even where nothing would run.
  virtual void prepare(const SortRequest& request) { (void)request; }
  virtual Timing empty_timing() const { return Timing{0, 0, true}; }
  virtual Timing run(const SortRequest& request, int calls) = 0;
  virtual std::vector<CompiledPass> compiled(const SortRequest& request) = 0;
  // The tuning entry the request's plan uses, with its evidence (CompiledCall::tuning).
  virtual std::string tuning(const SortRequest& request) = 0;

 private:
  VariantInfo info_;
  std::string nothing_runs_;
};

// A histogram's glue: the checks of DeviceSorter's, but every call runs, n = 0 included, since
// a call of no samples still zeroes the counts on the device.
class DeviceHistogrammer : public Histogrammer {
 public:
  const VariantInfo& info() const final { return info_; }
  Timing histogram(const HistogramRequest& request) final { return histogram_batch(request, 1); }
  Timing histogram_batch(const HistogramRequest& request, int calls) final;
  CompiledCall inspect(const HistogramRequest& request) final;

 protected:
  explicit DeviceHistogrammer(VariantInfo info) : info_(std::move(info)) {}

  // As DeviceSorter's: the backend's own checks of the request's arrays and its device.
  virtual void prepare(const HistogramRequest& request) { (void)request; }
  virtual Timing run(const HistogramRequest& request, int calls) = 0;
  virtual std::vector<CompiledPass> compiled(const HistogramRequest& request) = 0;
  virtual std::string tuning(const HistogramRequest& request) = 0;

 private:
  VariantInfo info_;
};

}  // namespace xr
