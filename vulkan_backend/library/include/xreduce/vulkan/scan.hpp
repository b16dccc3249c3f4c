// A scan (prefix sum, min or max) of `count` elements that records into the caller's command
// buffer: docs/library.md has the scratch contract and the barriers.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "xreduce/compiled.hpp"
#include "xreduce/primitive.hpp"
#include "xreduce/state_ptr.hpp"
#include "xreduce/types.hpp"
#include "xreduce/vulkan/context.hpp"
#include "xreduce/vulkan/operand.hpp"

namespace xr::vulkan {

struct ScanDesc {
  DType dtype = DType::i32;
  Op op = Op::sum;
  std::uint64_t count = 0;
  std::string variant{};  // empty: the library's choice for this device (Context::variants)
  OperandKind operands = OperandKind::buffers;
};

class Scan {
 public:
  // Plans the passes and creates their pipelines. Throws xr::Error(unsupported) naming what the
  // device lacks for this variant and dtype, Error(usage) for an unknown variant id.
  Scan(const Context& context, const ScanDesc& desc);

  // Bytes of scratch the caller provides to record(): phase one of the two-phase call.
  VkDeviceSize scratch_size() const;
  // The variant that runs (ScanDesc::variant, or the library's choice).
  const std::string& variant() const;
  // What each pass's pipeline was compiled into and how it dispatches, in order (block, grid,
  // and registers, shared memory, local memory, stack and binary size where the device was made
  // with VK_KHR_pipeline_executable_properties' pipelineExecutableInfo; else a note saying so).
  std::vector<CompiledPass> compiled() const;

  // Zeroes `scratch` (vkCmdFillBuffer) and orders the fill after every earlier compute-shader,
  // indirect-command and transfer access (an earlier record with this scratch, of any object) and
  // before the compute shaders that follow: scratch must be zero before its first record() with
  // this Scan, and zeroed again, with no barrier of the caller's, to pass it to another.
  void record_scratch_init(VkCommandBuffer cmd, VkBuffer scratch, VkDeviceSize offset = 0) const;
  // Records the scan of `in` into `out` (count elements of dtype each, not overlapping) with
  // `scratch` (scratch_size() bytes), and nothing else: the caller's barriers make
  // `in` visible to compute shaders before and `out` visible to its readers after, and order
  // two records that share a scratch (docs/library.md). Host cost: a few push and dispatch
  // commands, no allocation. Thread-safe on distinct command buffers.
  void record(VkCommandBuffer cmd, ScanKind kind, const Operand& in, const Operand& out,
              const Operand& scratch) const;

  // The look-back's running count of tiles that fell back (reduced a predecessor's input rather
  // than wait for it): a uint64 at this byte offset of scratch, for diagnostics. Empty for the
  // variants without a look-back.
  std::optional<VkDeviceSize> fallback_count_offset() const;
  // Tiles of one call of the look-back (the fallback count's denominator); 0 without one.
  std::uint64_t tiles() const;

  struct State;

 private:
  StatePtr<State> state_;
};

}  // namespace xr::vulkan
