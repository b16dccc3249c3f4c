// The glue every GPU variant shares, written once: reduce() and scan() are a batch of one call;
// a batch checks the call (call_check.hpp), lets the backend check what only it can (the arrays
// are its device's, the device runs the dtype), answers n = 0 without touching the device, and
// runs; inspect() checks the same and asks for the compiled passes. A backend's variant says only
// what differs: how it runs `calls` calls of n > 0 elements and what they compiled into.
#pragma once

#include <string>
#include <vector>

#include "xreduce/backend.hpp"

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

}  // namespace xr
