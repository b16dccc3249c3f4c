#include <cstring>

#include "vk_program.hpp"
#include "vk_user_ptx.hpp"
#include "vk_user_variants.hpp"
#include "xreduce/device_variant.hpp"
#include "xreduce/error.hpp"

namespace xr::vulkan {
namespace {

// What one (array, op) keeps: the partials' buffers, each padded with the identity to whole
// tiles, and the recorded program: the kernel's SPIR-V modules, or its PTX (`cuda`).
class UserReduceProgram {
 public:
  UserReduceProgram(Device& device, UserModules& modules, const UserCudaModule* cuda,
                    const UserKernel& k, const VulkanArray& input, Op op)
      : accumulator_(accumulator_of(input.dtype())), cuda_(cuda) {
    if (cuda)
      record_ptx(device, k, input, op);
    else
      record_modules(device, modules, k, input, op);
  }

  std::uint64_t tile() const { return tile_; }
  std::vector<CompiledPass> compiled() const {
    return cuda_ ? cuda_->describe(launches_) : program_->compiled();
  }

  std::pair<Value, Timing> run(int calls) {
    const Timing timing = program_->run(calls);
    Value result = visit_element_dtype(accumulator_, [&](auto tag) {
      typename decltype(tag)::type v;
      std::memcpy(&v, program_->read_back(), sizeof v);
      return Value::of(v);
    });
    return {result, timing};
  }

 private:
  // Level i + 1's buffer, its tail past the partials holding the identity once and for all, then
  // the slack every array has.
  void make_levels(Device& device, const UserKernel& k, Op op) {
    const std::size_t acc = size_of(accumulator_);
    for (std::size_t i = 1; i < counts_.size(); ++i) {
      const std::uint64_t padded = kernel_padded(counts_[i], tile_, accumulator_, k.id);
      levels_.emplace_back(device, padded * acc + kKernelSlackBytes, kStorageUsage,
                           MemoryKind::device_local);
      const std::vector<std::byte> pad = identity_bytes(accumulator_, op, padded - counts_[i]);
      device.write_buffer(levels_.back(), pad.data(), pad.size(), counts_[i] * acc);
    }
  }

  void record_modules(Device& device, UserModules& modules, const UserKernel& k,
                      const VulkanArray& input, Op op) {
    const UserModule& first = modules.get(
        k, {.data = input.dtype(), .dtype = input.dtype(), .op = op}, user_kernel_limits(device));
    const UserModule& rest = modules.get(
        k, {.data = accumulator_, .dtype = input.dtype(), .op = op}, user_kernel_limits(device));
    tile_ = k.tile(first.workgroup);
    counts_ = kernel_reduce_levels(input.size(), tile_, k.max_groups);
    make_levels(device, k, op);
    std::vector<ProgramPass> passes;
    std::vector<OperandBuffers> sets;
    for (std::size_t i = 0; i + 1 < counts_.size(); ++i) {
      const Buffer& src = i == 0 ? input.buffer() : levels_[i - 1];
      const UserModule& m = i == 0 ? first : rest;
      check_user_grid(device, counts_[i + 1], src.size(), k.id);
      device.pipelines().add_module(m.name, m.words, m.entry);
      sets.push_back({&src, &levels_[i], &levels_[i]});
      passes.push_back(
          {.workgroup = m.workgroup,
           .operands = i,
           .push = {.n = counts_[i], .groups = static_cast<std::uint32_t>(counts_[i + 1])},
           .grid = {static_cast<std::uint32_t>(counts_[i + 1]), 1},
           .module = m.name});
    }
    program_.emplace(device, std::move(passes), sets, op,
                     ReadBack{&levels_.back(), 0, size_of(accumulator_)});
  }

  // The PTX's one entry over every level: a prebuilt module serves one XR_T, the partials' too.
  void record_ptx(Device& device, const UserKernel& k, const VulkanArray& input, Op op) {
    tile_ = k.tile(k.block);
    counts_ = kernel_reduce_levels(input.size(), tile_, k.max_groups);
    make_levels(device, k, op);
    for (std::size_t i = 0; i + 1 < counts_.size(); ++i) {
      const Buffer& src = i == 0 ? input.buffer() : levels_[i - 1];
      launches_.push_back({.pass = 0,
                           .groups = static_cast<std::uint32_t>(counts_[i + 1]),
                           .pointers = {src.address(), levels_[i].address()},
                           .n = static_cast<std::uint32_t>(counts_[i])});
    }
    program_.emplace(
        device,
        [cuda = cuda_, launches = launches_](const vk::raii::CommandBuffer& cmd) {
          cuda->record(cmd, launches);
        },
        ReadBack{&levels_.back(), 0, size_of(accumulator_)});
  }

  DType accumulator_;
  const UserCudaModule* cuda_;        // the PTX's module, or none
  std::vector<CudaLaunch> launches_;  // the PTX's launches
  std::uint64_t tile_ = 1;
  std::vector<std::uint64_t> counts_;
  std::deque<Buffer> levels_;       // stable addresses: the program's sets point at them
  std::optional<Program> program_;  // made last: it records over the buffers above
};

class UserReducer final : public DeviceReducer {
 public:
  UserReducer(std::shared_ptr<Device> device, const UserKernel& kernel, UserModules& modules)
      : DeviceReducer(kernel.info(), "n = 0: nothing is dispatched"),
        device_(std::move(device)),
        kernel_(kernel),
        modules_(modules) {
    if (kernel.language == KernelLanguage::ptx) cuda_.emplace(*device_, kernel);
  }

 private:
  void prepare(DeviceArray& input) override {
    device_array(input, *device_);
    device_->raise_validation();
  }
  Timing empty_timing() const override { return Timing{0, 0, device_->facts().timestamps()}; }

  Reduction run(DeviceArray& input, Op op, int calls) override {
    auto& array = device_array(input, *device_);
    UserReduceProgram& program = this->program(array, op);
    pad_with_identity(*device_, array, op, program.tile(), kernel_.id);
    const CpuFaultGuard guard = user_call_guard(*device_, kernel_);
    auto [accumulated, timing] = program.run(calls);
    device_->raise_validation();
    return {Value::from_accumulator(array.dtype(), accumulated), timing};
  }
  std::vector<CompiledPass> compiled(DeviceArray& input, Op op) override {
    return program(device_array(input, *device_), op).compiled();
  }

  UserReduceProgram& program(const VulkanArray& array, Op op) {
    return programs_.get({array.serial(), op}, [&] {
      return std::make_unique<UserReduceProgram>(*device_, modules_, cuda_ ? &*cuda_ : nullptr,
                                                 kernel_, array, op);
    });
  }

  std::shared_ptr<Device> device_;  // first: the programs hold command buffers of its pool
  const UserKernel& kernel_;
  UserModules& modules_;
  std::optional<UserCudaModule> cuda_;  // a .ptx kernel's, before the programs that launch it
  RecentCache<std::pair<std::uint64_t, Op>, UserReduceProgram> programs_{kProgramsKept};
};

}  // namespace

std::unique_ptr<Reducer> make_user_reducer(std::shared_ptr<Device> device, const UserKernel& kernel,
                                           UserModules& modules) {
  return std::make_unique<UserReducer>(std::move(device), kernel, modules);
}

CpuFaultGuard user_call_guard(const Device& device, const UserKernel& kernel) {
  return CpuFaultGuard(device.facts().cpu(), "vulkan", kernel.id, device.facts().info.name);
}

void pad_with_identity(Device& device, const VulkanArray& array, Op op, std::uint64_t tile,
                       std::string_view id) {
  const std::uint64_t n = array.size();
  const std::uint64_t padded = kernel_padded(n, tile, array.dtype(), id);
  if (padded == n) return;
  const std::vector<std::byte> pad = identity_bytes(array.dtype(), op, padded - n);
  device.write_buffer(array.buffer(), pad.data(), pad.size(), n * size_of(array.dtype()));
}

void check_user_grid(const Device& device, std::uint64_t groups, std::uint64_t bytes,
                     std::string_view id) {
  const auto& limits = device.facts().limits;
  if (groups > limits.maxComputeWorkGroupCount[0])
    throw Error(ErrorCategory::unsupported,
                std::string(id) + ": " + std::to_string(groups) +
                    " workgroups exceed the one-dimensional dispatch of " +
                    device.facts().info.name + " (" +
                    std::to_string(limits.maxComputeWorkGroupCount[0]) + ")");
  if (bytes > limits.maxStorageBufferRange)
    throw Error(ErrorCategory::unsupported,
                std::string(id) + ": a buffer of " + std::to_string(bytes) +
                    " bytes exceeds one storage-buffer binding on " + device.facts().info.name +
                    " (" + std::to_string(limits.maxStorageBufferRange) + ")");
}

UserKernelLimits user_kernel_limits(const Device& device) {
  const auto& l = device.facts().limits;
  return {.device = device.facts().info.name,
          .max_shared_bytes = l.maxComputeSharedMemorySize,
          .max_invocations = l.maxComputeWorkGroupInvocations,
          .max_size_x = l.maxComputeWorkGroupSize[0],
          .max_push_bytes = l.maxPushConstantsSize};
}

void compile_first_claim(const UserKernel& kernel, UserModules& modules, const Device& device) {
  // A PTX's module loads as its variant is made (UserCudaModule): nothing to compile here.
  if (kernel.language == KernelLanguage::ptx) return;
  modules.get(kernel,
              {.data = kernel.dtypes.front(),
               .dtype = kernel.dtypes.front(),
               .op = kernel.ops.front(),
               .kind = kernel.kinds.front()},
              user_kernel_limits(device));
}

}  // namespace xr::vulkan
