#include "cl_reducer.hpp"

#include <cstring>
#include <optional>

#include "cl_array.hpp"
#include "cl_internal.hpp"
#include "cl_timed.hpp"
#include "xreduce/device_variant.hpp"
#include "xreduce/opencl/reduce.hpp"
#include "xreduce/recent_cache.hpp"

namespace xr::opencl {
namespace {

// What one (array, op) keeps: the library's Reduce, its scratch (zeroed once) and the result.
class ReduceProgram {
 public:
  ReduceProgram(Device& device, const ReduceSpec& spec, const ClArray& input, Op op)
      : device_(device),
        input_(input.buffer()),
        reduce_(device.library(), {.variant = std::string(spec.id()),
                                   .dtype = input.dtype(),
                                   .op = op,
                                   .count = input.size()}),
        scratch_(make_buffer(device, reduce_.scratch_size())),
        result_(make_buffer(device, 16)) {
    reduce_.enqueue_scratch_init(device.queue(), scratch_.get());
    device.finish("the scratch's zeroing");
  }

  std::vector<CompiledPass> compiled() const { return reduce_.compiled(); }

  // `calls` calls; the last one's result, as an accumulator, and the time per call.
  std::pair<Value, Timing> run(int calls) {
    const Timing timing =
        run_timed(device_, calls, [&](auto wait, cl_event* first, cl_event* last) {
          reduce_.enqueue(device_.queue(), input_, result_.get(), scratch_.get(), wait, first,
                          last);
        });
    unsigned char bytes[16] = {};
    device_.read(result_.get(), 0, size_of(reduce_.result_dtype()), bytes);
    Value result = visit_dtype(reduce_.result_dtype(), [&](auto tag) {
      typename decltype(tag)::type v;
      std::memcpy(&v, bytes, sizeof v);
      return Value::of(v);
    });
    return {result, timing};
  }

 private:
  Device& device_;
  cl_mem input_;
  Reduce reduce_;
  MemOwner scratch_;
  MemOwner result_;
};

class ClReducer final : public DeviceReducer {
 public:
  ClReducer(std::shared_ptr<Device> device, const ReduceSpec& spec)
      : DeviceReducer(reduce_info(spec), "n = 0: nothing is launched"),
        device_(std::move(device)),
        spec_(spec) {}

 private:
  void prepare(DeviceArray& input) override {
    device_array(input, *device_);
    require_dtype(info().id, input.dtype(), device_->facts());
  }
  Reduction run(DeviceArray& input, Op op, int calls) override {
    auto [accumulated, timing] = program(device_array(input, *device_), op).run(calls);
    return {Value::from_accumulator(input.dtype(), accumulated), timing};
  }
  std::vector<CompiledPass> compiled(DeviceArray& input, Op op) override {
    return program(device_array(input, *device_), op).compiled();
  }

  ReduceProgram& program(const ClArray& array, Op op) {
    return programs_.get({array.serial(), op}, [&] {
      return std::make_unique<ReduceProgram>(*device_, spec_, array, op);
    });
  }

  std::shared_ptr<Device> device_;
  const ReduceSpec& spec_;
  RecentCache<std::pair<std::uint64_t, Op>, ReduceProgram> programs_{kProgramsKept};
};

}  // namespace

std::unique_ptr<Reducer> make_reducer(std::shared_ptr<Device> device, const ReduceSpec& spec) {
  return std::make_unique<ClReducer>(std::move(device), spec);
}

}  // namespace xr::opencl
