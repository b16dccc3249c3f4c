// A recorded program: one call over fixed buffers (the library's Scan or Reduce, or a user
// kernel's passes), recorded once into a timed command buffer (and, on first use per count, a
// batch of back-to-back calls) and resubmitted for every call, with what it reads back after
// the timing. Reducers and scanners own a few programs (RecentCache).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "vk_buffer.hpp"
#include "vk_commands.hpp"
#include "xreduce/compiled.hpp"
#include "xreduce/recent_cache.hpp"
#include "xreduce/types.hpp"

namespace xr::vulkan {

// One pass of a user's kernel (vk_user_module.hpp): its added module, which of the program's
// operand sets it binds, the user ABI's { n, tiles } (push.n, push.groups) and its grid.
struct ProgramPass {
  std::uint32_t workgroup = 256;
  std::size_t operands = 0;
  PushConstants push;
  Grid grid;
  std::string module;
};

// What one call records into the program's command buffer: the library's Scan or Reduce
// (xreduce/vulkan), or a user kernel's passes.
using CallRecorder = std::function<void(const vk::raii::CommandBuffer&)>;

// The three buffers of an operand set (shaders/params.glsl: src, dst, aux).
struct OperandBuffers {
  const Buffer* src = nullptr;
  const Buffer* dst = nullptr;
  const Buffer* aux = nullptr;
};

// What a program copies to the host after its timed interval: `bytes` of `from` at `offset`.
struct ReadBack {
  const Buffer* from = nullptr;
  vk::DeviceSize offset = 0;
  vk::DeviceSize bytes = 0;
};

// The first `bytes` of `buffer`, zeroed at the start of every call (a user's scan's scratch, not
// its slack).
struct ZeroedBytes {
  const Buffer* buffer = nullptr;
  vk::DeviceSize bytes = 0;
};

class Program {
 public:
  // Whatever `record_call` records must outlive the program. Successive calls of a batch are
  // ordered by a compute barrier (or by the zeroing's).
  // `zeroed`: buffer ranges filled with zeros at the start of every call, inside its interval.
  Program(Device& device, CallRecorder record_call, std::optional<ReadBack> read_back,
          std::vector<ZeroedBytes> zeroed = {});
  // A user kernel's passes over `sets`, bound by descriptor set (the buffers must outlive the
  // program).
  Program(Device& device, std::vector<ProgramPass> passes, std::span<const OperandBuffers> sets,
          Op op, std::optional<ReadBack> read_back = std::nullopt,
          std::vector<ZeroedBytes> zeroed = {});
  ~Program();  // drains the queue first: a timed-out call may still run its command buffers
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  // `calls` >= 1 calls back to back in one command buffer and one interval; the time per call.
  Timing run(int calls);
  // What a user kernel's passes compiled into and how they dispatch (vk_compiled.hpp); empty for
  // a program made from a recorder (the library's Scan and Reduce say it themselves).
  std::vector<CompiledPass> compiled() const;
  // What the last run read back (host-visible); nullptr without a read-back.
  const void* read_back() const { return host_ ? host_->mapped() : nullptr; }

 private:
  struct Deferred {};  // made without recording: the user passes' constructor records later
  Program(Device& device, CallRecorder record_call, std::optional<ReadBack> read_back,
          std::vector<ZeroedBytes> zeroed, Deferred);
  void record(TimedCommands& commands, int calls);
  void record_zeroing(const vk::raii::CommandBuffer& cmd, bool after_passes) const;
  void record_user_passes(const vk::raii::CommandBuffer& cmd) const;

  Device* device_;
  CallRecorder record_call_;
  std::vector<ProgramPass> passes_;      // a user kernel's
  std::vector<vk::Pipeline> pipelines_;  // per pass, owned by the device's pipeline table
  std::optional<BindingSets> sets_;      // where the passes bind their operands
  std::optional<ReadBack> read_back_;
  std::vector<ZeroedBytes> zeroed_;
  std::optional<Buffer> host_;  // the read-back's host-visible copy
  TimedCommands single_;
  std::optional<TimedCommands> batch_;  // batch_calls_ calls in one command buffer
  int batch_calls_ = 0;
};

// Programs kept per reducer and per scanner's (n, dtype, op): a sweep alternates few.
inline constexpr std::size_t kProgramsKept = 8;

}  // namespace xr::vulkan
