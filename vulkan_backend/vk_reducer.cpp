#include "vk_reducer.hpp"

#include <cstring>
#include <tuple>

#include "vk_array.hpp"
#include "vk_program.hpp"
#include "vk_reduce_plan.hpp"
#include "vk_requirements.hpp"
#include "xreduce/call_check.hpp"

namespace xr::vulkan {
namespace {

// The operand sets of a reduce program: pass 0 reads the input, the later ones the partials.
// Partials and the result are accumulators (accumulator_of: float for f16/bf16), so the later
// passes run the accumulator type's module.
enum ReduceOperands : std::size_t { from_input = 0, from_partials = 1 };

// What one (array, op) keeps: its scratch, the single pass's ticket and the recorded program.
class ReduceProgram {
 public:
  ReduceProgram(Device& device, const ReduceSpec& spec, const VulkanArray& input, Op op)
      : plan_(plan_reduce(spec, device.facts(), input.size())),
        accumulator_(accumulator_of(input.dtype())),
        scratch_(device, (plan_.scratch_elements) * size_of(accumulator_), kStorageUsage,
                 MemoryKind::device_local),
        ticket_(device, 16, kStorageUsage, MemoryKind::device_local) {
    // The ticket starts at 0; the last workgroup of fast/single-pass puts it back to 0.
    device.run_once([&](const vk::raii::CommandBuffer& cmd) {
      cmd.fillBuffer(ticket_.handle(), 0, VK_WHOLE_SIZE, 0);
    });
    const OperandBuffers sets[] = {{&input.buffer(), &scratch_, &ticket_},
                                   {&scratch_, &scratch_, &ticket_}};
    std::vector<ProgramPass> passes;
    for (const ReducePlanPass& p : plan_.passes)
      passes.push_back({.shader = spec.shader,
                        .dtype = p.from_input ? input.dtype() : accumulator_,
                        .workgroup = spec.workgroup,
                        .unroll = spec.unroll,
                        .operands = p.from_input ? from_input : from_partials,
                        .push = p.push,
                        .grid = p.grid});
    const vk::DeviceSize acc_bytes = size_of(accumulator_);
    program_.emplace(device, std::move(passes), sets,
                     addressing_for(device, input.size(), {input.buffer().size(), scratch_.size()}),
                     op, ReadBack{&scratch_, plan_.result_at * acc_bytes, acc_bytes});
  }

  // `calls` calls; the last one's result, as an accumulator, and the time per call.
  std::pair<Value, Timing> run(int calls) {
    const Timing timing = program_->run(calls);
    Value result = visit_dtype(accumulator_, [&](auto tag) {
      typename decltype(tag)::type v;
      std::memcpy(&v, program_->read_back(), sizeof v);
      return Value::of(v);
    });
    return {result, timing};
  }

 private:
  ReducePlan plan_;
  DType accumulator_;
  Buffer scratch_;
  Buffer ticket_;
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

 private:
  Reduction run(DeviceArray& input, Op op, int calls) {
    check_reduce_call(info_, input, op, calls);
    auto& array = device_array(input, *device_);
    device_->raise_validation();
    require_dtype(info_.id, input.dtype(), spec_.needs, reduce_shared_bytes(spec_),
                  device_->facts());
    if (array.size() == 0)
      return {Value::identity_of(array.dtype(), op), Timing{0, 0, device_->facts().timestamps()}};
    ReduceProgram& program = programs_.get({array.serial(), op}, [&] {
      return std::make_unique<ReduceProgram>(*device_, spec_, array, op);
    });
    auto [accumulated, timing] = program.run(calls);
    device_->raise_validation();
    // f16/bf16 results come back as float and are rounded once, here.
    const Value value = visit_dtype(array.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (HalfFloat<T>)
        return Value::of(narrow<T>(accumulated.template get<float>()));
      else
        return accumulated;
    });
    return {value, timing};
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
