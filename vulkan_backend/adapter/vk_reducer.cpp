#include "vk_reducer.hpp"

#include <tuple>

#include "vk_array.hpp"
#include "vk_internal.hpp"
#include "vk_program.hpp"
#include "xreduce/device_variant.hpp"
#include "xreduce/vulkan/reduce.hpp"

namespace xr::vulkan {
namespace {

// What one (array, op) keeps: the library's Reduce, its scratch (zeroed once: fast/single-pass's
// ticket starts at 0 and its last workgroup puts it back), the result's buffer and the recorded
// program.
class ReduceProgram {
 public:
  ReduceProgram(Device& device, const ReduceSpec& spec, const VulkanArray& input, Op op)
      : reduce_(device.context(), {.dtype = input.dtype(),
                                   .op = op,
                                   .count = input.size(),
                                   .variant = std::string(spec.id()),
                                   .operands = OperandKind::buffers}),
        scratch_(device, reduce_.scratch_size(), kStorageUsage, MemoryKind::device_local),
        result_(device, 16, kStorageUsage, MemoryKind::device_local) {
    device.run_once([&](const vk::raii::CommandBuffer& cmd) {
      reduce_.record_scratch_init(*cmd, scratch_.handle());
    });
    const Operand in = Operand::of(input.buffer().handle()), out = Operand::of(result_.handle()),
                  scratch = Operand::of(scratch_.handle());
    program_.emplace(
        device,
        [this, in, out, scratch](const vk::raii::CommandBuffer& cmd) {
          reduce_.record(*cmd, in, out, scratch);
        },
        ReadBack{&result_, 0, size_of(reduce_.result_dtype())});
  }

  std::vector<CompiledPass> compiled() const { return reduce_.compiled(); }

  // `calls` calls; the last one's result, as an accumulator, and the time per call.
  std::pair<Value, Timing> run(int calls) {
    const Timing timing = program_->run(calls);
    return {Value::from_bytes(reduce_.result_dtype(), program_->read_back()), timing};
  }

 private:
  Reduce reduce_;
  Buffer scratch_;
  Buffer result_;
  std::optional<Program> program_;  // made last: it records over the buffers above
};

class VulkanReducer final : public ProgramReducer<Device, ReduceSpec, ReduceProgram> {
 public:
  VulkanReducer(std::shared_ptr<Device> device, const ReduceSpec& spec)
      : ProgramReducer(Variants::info(Primitive::reduce, spec.id()), "n = 0: nothing is dispatched",
                       std::move(device), spec, kProgramsKept) {}

 private:
  void prepare(DeviceArray& input) override {
    device_array(input, *device_);
    device_->raise_validation();
    require_dtype(info().id, input.dtype(), spec_.needs, reduce_group_memory_bytes(spec_.schedule),
                  device_->facts());
  }
  Timing empty_timing() const override { return Timing{0, 0, device_->facts().timestamps()}; }
  void after_calls() override { device_->raise_validation(); }
};

}  // namespace

std::unique_ptr<Reducer> make_reducer(std::shared_ptr<Device> device, const ReduceSpec& spec) {
  return std::make_unique<VulkanReducer>(std::move(device), spec);
}

}  // namespace xr::vulkan
