#include <optional>
#include <tuple>

#include "cl_array.hpp"
#include "cl_internal.hpp"
#include "cl_reducer.hpp"
#include "cl_timed.hpp"
#include "xreduce/device_variant.hpp"
#include "xreduce/opencl/scan.hpp"
#include "xreduce/recent_cache.hpp"

namespace xr::opencl {
namespace {

// What one (input, output, op, kind) keeps: the library's Scan and its scratch.
class ScanProgram {
 public:
  ScanProgram(Device& device, const ScanSpec& spec, const ClArray& input, const ClArray& output,
              Op op, ScanKind kind)
      : device_(device),
        input_(input.buffer()),
        output_(output.buffer()),
        scan_(device.library(), {.variant = std::string(spec.id()),
                                 .dtype = input.dtype(),
                                 .op = op,
                                 .kind = kind,
                                 .count = input.size()}),
        scratch_(make_buffer(device, scan_.scratch_size())) {}

  std::vector<CompiledPass> compiled() const { return scan_.compiled(); }

  Timing run(int calls) {
    const Timing t = run_timed(device_, calls, [&](auto wait, cl_event* first, cl_event* last) {
      scan_.enqueue(device_.queue(), input_, output_, scratch_.get(), wait, first, last);
    });
    fallbacks_ = scan_.fallbacks(device_.queue(), scratch_.get());
    return t;
  }
  std::uint64_t fallbacks() const { return fallbacks_; }

 private:
  Device& device_;
  cl_mem input_, output_;
  Scan scan_;
  MemOwner scratch_;
  std::uint64_t fallbacks_ = 0;
};

class ClScanner final : public DeviceScanner {
 public:
  ClScanner(std::shared_ptr<Device> device, const ScanSpec& spec)
      : DeviceScanner(Variants::info(Primitive::scan, spec.id()), "n = 0: nothing is launched"),
        device_(std::move(device)),
        spec_(spec) {}

  std::string diagnostics() const override {
    if (spec_.schedule.family != ScanFamily::look_back) return {};
    const LookBackPolicy& policy = state_of(device_->library()).knobs.lookback;
    return "look-back fallbacks: " + std::to_string(last_fallbacks_) + " in the last call (" +
           std::to_string(policy.polls) + " polls before falling back)";
  }

 private:
  using Key = std::tuple<std::uint64_t, std::uint64_t, Op, ScanKind>;

  void prepare(DeviceArray& input, DeviceArray& output) override {
    device_array(input, *device_);
    device_array(output, *device_);
    require_dtype(info().id, input.dtype(), device_->facts());
  }
  Timing run(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind, int calls) override {
    ScanProgram& p = program(input, output, op, kind);
    const Timing t = p.run(calls);
    last_fallbacks_ = p.fallbacks();  // scratch is zeroed by every call: the last call's count
    return t;
  }
  std::vector<CompiledPass> compiled(DeviceArray& input, DeviceArray& output, Op op,
                                     ScanKind kind) override {
    return program(input, output, op, kind).compiled();
  }

  ScanProgram& program(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind) {
    ClArray& in = device_array(input, *device_);
    ClArray& out = device_array(output, *device_);
    return programs_.get({in.serial(), out.serial(), op, kind}, [&] {
      return std::make_unique<ScanProgram>(*device_, spec_, in, out, op, kind);
    });
  }

  std::shared_ptr<Device> device_;
  const ScanSpec& spec_;
  RecentCache<Key, ScanProgram> programs_{kProgramsKept};
  std::uint64_t last_fallbacks_ = 0;
};

}  // namespace

std::unique_ptr<Scanner> make_scanner(std::shared_ptr<Device> device, const ScanSpec& spec) {
  return std::make_unique<ClScanner>(std::move(device), spec);
}

}  // namespace xr::opencl
