#include "cl_reducer.hpp"

#include <optional>

#include "cl_array.hpp"
#include "cl_internal.hpp"
#include "cl_timed.hpp"
#include "xreduce/device_variant.hpp"
#include "xreduce/opencl/reduce.hpp"

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
    return {Value::from_bytes(reduce_.result_dtype(), bytes), timing};
  }

 private:
  Device& device_;
  cl_mem input_;
  Reduce reduce_;
  MemOwner scratch_;
  MemOwner result_;
};

class ClReducer final : public ProgramReducer<Device, ReduceSpec, ReduceProgram> {
 public:
  ClReducer(std::shared_ptr<Device> device, const ReduceSpec& spec)
      : ProgramReducer(Variants::info(Primitive::reduce, spec.id()), "n = 0: nothing is launched",
                       std::move(device), spec, kProgramsKept) {}

 private:
  void prepare(DeviceArray& input) override {
    device_array(input, *device_);
    require_dtype(info().id, input.dtype(), device_->facts());
  }
};

}  // namespace

std::unique_ptr<Reducer> make_reducer(std::shared_ptr<Device> device, const ReduceSpec& spec) {
  return std::make_unique<ClReducer>(std::move(device), spec);
}

}  // namespace xr::opencl
