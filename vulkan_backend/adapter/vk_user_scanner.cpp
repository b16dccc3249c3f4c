#include "vk_program.hpp"
#include "vk_user_ptx.hpp"
#include "vk_user_variants.hpp"
#include "xreduce/device_variant.hpp"
#include "xreduce/error.hpp"

namespace xr::vulkan {
namespace {

// What one (input, output, op, kind) keeps: the zeroed scratch and the recorded program: the
// kernel's SPIR-V modules, or its PTX (`cuda`).
class UserScanProgram {
 public:
  UserScanProgram(Device& device, UserModules& modules, const UserCudaModule* cuda,
                  const UserKernel& k, const VulkanArray& in, const VulkanArray& out, Op op,
                  ScanKind kind)
      : cuda_(cuda) {
    if (cuda)
      record_ptx(device, k, in, out);
    else
      record_modules(device, modules, k, in, out, op, kind);
  }

  std::uint64_t tile() const { return tile_; }
  std::vector<CompiledPass> compiled() const {
    return cuda_ ? cuda_->describe(launches_) : program_->compiled();
  }
  Timing run(int calls) { return program_->run(calls); }

 private:
  // The scratch of `n` elements in tiles of tile_, zeroed at the start of every call; its bytes.
  std::uint64_t make_scratch(Device& device, const UserKernel& k, std::uint64_t n) {
    const std::uint64_t bytes = kernel_scratch_bytes(k, n, tile_);
    // The slack every array has past the scratch: a stray write lands in memory of its own.
    scratch_.emplace(device, bytes + kKernelSlackBytes, kStorageUsage, MemoryKind::device_local);
    return bytes;
  }

  void record_modules(Device& device, UserModules& modules, const UserKernel& k,
                      const VulkanArray& in, const VulkanArray& out, Op op, ScanKind kind) {
    std::vector<const UserModule*> ms;
    for (std::size_t i = 0; i < k.passes.size(); ++i)
      ms.push_back(&modules.get(
          k, {.pass = i, .data = in.dtype(), .dtype = in.dtype(), .op = op, .kind = kind},
          user_kernel_limits(device)));
    tile_ = k.tile(k.block ? k.block : ms.front()->workgroup);
    const std::uint64_t n = in.size();
    const std::uint64_t scratch_bytes = make_scratch(device, k, n);
    const OperandBuffers sets[] = {{&in.buffer(), &out.buffer(), &*scratch_}};
    std::vector<ProgramPass> passes;
    for (std::size_t i = 0; i < ms.size(); ++i) {
      const std::uint64_t groups = k.groups(k.passes[i].grid, n, tile_);
      check_user_grid(device, groups, std::max(in.buffer().size(), scratch_->size()), k.id);
      device.pipelines().add_module(ms[i]->name, ms[i]->words, ms[i]->entry);
      passes.push_back({.workgroup = ms[i]->workgroup,
                        .operands = 0,
                        .push = {.n = n, .groups = static_cast<std::uint32_t>(groups)},
                        .grid = {static_cast<std::uint32_t>(groups), 1},
                        .module = ms[i]->name});
    }
    program_.emplace(device, std::move(passes), sets, op, std::nullopt,
                     std::vector<ZeroedBytes>{{&*scratch_, scratch_bytes}});
  }

  void record_ptx(Device& device, const UserKernel& k, const VulkanArray& in,
                  const VulkanArray& out) {
    tile_ = k.tile(k.block);
    const std::uint64_t n = in.size();
    const std::uint64_t scratch_bytes = make_scratch(device, k, n);
    for (std::size_t i = 0; i < k.passes.size(); ++i)
      launches_.push_back(
          {.pass = i,
           .groups = static_cast<std::uint32_t>(k.groups(k.passes[i].grid, n, tile_)),
           .pointers = {in.buffer().address(), out.buffer().address(), scratch_->address()},
           .n = static_cast<std::uint32_t>(n)});
    program_.emplace(
        device,
        [cuda = cuda_, launches = launches_](const vk::raii::CommandBuffer& cmd) {
          cuda->record(cmd, launches);
        },
        std::nullopt, std::vector<ZeroedBytes>{{&*scratch_, scratch_bytes}});
  }

  const UserCudaModule* cuda_;        // the PTX's module, or none
  std::vector<CudaLaunch> launches_;  // the PTX's launches
  std::uint64_t tile_ = 1;
  std::optional<Buffer> scratch_;
  std::optional<Program> program_;  // made last: it records over the buffers above
};

struct ScanKey {
  std::uint64_t in = 0, out = 0;
  Op op = Op::sum;
  ScanKind kind = ScanKind::inclusive;
  bool operator==(const ScanKey&) const = default;
};

class UserScanner final : public DeviceScanner {
 public:
  UserScanner(std::shared_ptr<Device> device, const UserKernel& kernel, UserModules& modules)
      : DeviceScanner(kernel.info(), "n = 0: nothing is dispatched"),
        device_(std::move(device)),
        kernel_(kernel),
        modules_(modules) {
    if (kernel.language == KernelLanguage::ptx) cuda_.emplace(*device_, kernel);
  }

 private:
  void prepare(DeviceArray& input, DeviceArray& output) override {
    device_array(input, *device_);
    device_array(output, *device_);
    device_->raise_validation();
  }
  Timing empty_timing() const override { return Timing{0, 0, device_->facts().timestamps()}; }

  Timing run(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind, int calls) override {
    auto& in = device_array(input, *device_);
    UserScanProgram& program = this->program(in, device_array(output, *device_), op, kind);
    pad_with_identity(*device_, in, op, program.tile(), kernel_.id);
    const CpuFaultGuard guard = user_call_guard(*device_, kernel_);
    const Timing timing = program.run(calls);
    device_->raise_validation();
    return timing;
  }
  std::vector<CompiledPass> compiled(DeviceArray& input, DeviceArray& output, Op op,
                                     ScanKind kind) override {
    return program(device_array(input, *device_), device_array(output, *device_), op, kind)
        .compiled();
  }

  UserScanProgram& program(const VulkanArray& in, const VulkanArray& out, Op op, ScanKind kind) {
    return programs_.get({in.serial(), out.serial(), op, kind}, [&] {
      return std::make_unique<UserScanProgram>(*device_, modules_, cuda_ ? &*cuda_ : nullptr,
                                               kernel_, in, out, op, kind);
    });
  }

  std::shared_ptr<Device> device_;  // first: the programs hold command buffers of its pool
  const UserKernel& kernel_;
  UserModules& modules_;
  std::optional<UserCudaModule> cuda_;  // a .ptx kernel's, before the programs that launch it
  RecentCache<ScanKey, UserScanProgram> programs_{kProgramsKept};
};

}  // namespace

std::unique_ptr<Scanner> make_user_scanner(std::shared_ptr<Device> device, const UserKernel& kernel,
                                           UserModules& modules) {
  return std::make_unique<UserScanner>(std::move(device), kernel, modules);
}

}  // namespace xr::vulkan
