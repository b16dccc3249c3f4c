#include "vk_reducer.hpp"

#include <cstring>
#include <tuple>

#include "vk_array.hpp"
#include "vk_program.hpp"
#include "vk_requirements.hpp"
#include "xreduce/call_check.hpp"
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
                                   .variant = std::string(spec.id),
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
    Value result = visit_dtype(reduce_.result_dtype(), [&](auto tag) {
      typename decltype(tag)::type v;
      std::memcpy(&v, program_->read_back(), sizeof v);
      return Value::of(v);
    });
    return {result, timing};
  }

 private:
  Reduce reduce_;
  Buffer scratch_;
  Buffer result_;
  std::optional<Program> program_;  // made last: it records over the buffers above
};

class VulkanReducer final : public Reducer {
 public:
  VulkanReducer(std::shared_ptr<Device> device, const ReduceSpec& spec)
      : device_(std::move(device)), spec_(spec), info_(reduce_info(spec)) {}

  const VariantInfo& info() const override { return info_; }
  Reduction reduce(DeviceArray& input, Op op) override { return run(input, op, 1); }
  Reduction reduce_batch(DeviceArray& input, Op op, int calls) override {
    return run(input, op, calls);
  }

  CompiledCall inspect(DeviceArray& input, Op op) override {
    check_reduce_call(info_, input, op, 1);
    auto& array = device_array(input, *device_);
    require_dtype(info_.id, input.dtype(), spec_.needs, reduce_shared_bytes(spec_),
                  device_->facts());
    if (array.size() == 0) return {.passes = {}, .note = "n = 0: nothing is dispatched"};
    return {.passes = program(array, op).compiled(), .note = {}};
  }

 private:
  ReduceProgram& program(const VulkanArray& array, Op op) {
    return programs_.get({array.serial(), op}, [&] {
      return std::make_unique<ReduceProgram>(*device_, spec_, array, op);
    });
  }

  Reduction run(DeviceArray& input, Op op, int calls) {
    check_reduce_call(info_, input, op, calls);
    auto& array = device_array(input, *device_);
    device_->raise_validation();
    require_dtype(info_.id, input.dtype(), spec_.needs, reduce_shared_bytes(spec_),
                  device_->facts());
    if (array.size() == 0)
      return {Value::identity_of(array.dtype(), op), Timing{0, 0, device_->facts().timestamps()}};
    ReduceProgram& program = this->program(array, op);
    auto [accumulated, timing] = program.run(calls);
    device_->raise_validation();
    return {Value::from_accumulator(array.dtype(), accumulated), timing};
  }

  // Declared first, destroyed last: the programs hold command buffers of its pool.
  std::shared_ptr<Device> device_;
  const ReduceSpec& spec_;
  VariantInfo info_;
  RecentCache<std::pair<std::uint64_t, Op>, ReduceProgram> programs_{kProgramsKept};
};

}  // namespace

std::unique_ptr<Reducer> make_reducer(std::shared_ptr<Device> device, const ReduceSpec& spec) {
  return std::make_unique<VulkanReducer>(std::move(device), spec);
}

}  // namespace xr::vulkan
