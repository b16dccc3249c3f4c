// A reduce (sum, min or max) of `count` elements to one value, recorded into the caller's
// command buffer: docs/library.md has the scratch contract and the barriers.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "xreduce/compiled.hpp"
#include "xreduce/state_ptr.hpp"
#include "xreduce/types.hpp"
#include "xreduce/vulkan/context.hpp"
#include "xreduce/vulkan/operand.hpp"

namespace xr::vulkan {

struct ReduceDesc {
  DType dtype = DType::i32;
  Op op = Op::sum;
  std::uint64_t count = 1;  // at least 1 (the reduce of nothing is the identity, no dispatch)
  std::string variant{};    // empty: the library's choice for this device (Context::variants)
  OperandKind operands = OperandKind::buffers;
};

class Reduce {
 public:
  // Throws xr::Error(unsupported) naming what the device lacks, Error(usage) for an unknown
  // variant id or a count of 0.
  Reduce(const Context& context, const ReduceDesc& desc);

  VkDeviceSize scratch_size() const;
  const std::string& variant() const;
  // What each pass's pipeline was compiled into and how it dispatches, in order (block, grid,
  // and registers, shared memory, local memory, stack and binary size where the device was made
  // with VK_KHR_pipeline_executable_properties' pipelineExecutableInfo; else a note saying so).
  std::vector<CompiledPass> compiled() const;
  // The type of the one value record() writes: accumulator_of(dtype), f32 for f16 and bf16
  // (summed in float, rounded by the caller once), the element type otherwise.
  DType result_dtype() const;

  // As Scan's: scratch must be zero before its first record() with this Reduce.
  void record_scratch_init(VkCommandBuffer cmd, VkBuffer scratch, VkDeviceSize offset = 0) const;
  // Records the reduce of `in` into one result_dtype() value at `out`; barriers as Scan's.
  void record(VkCommandBuffer cmd, const Operand& in, const Operand& out,
              const Operand& scratch) const;

  struct State;

 private:
  StatePtr<State> state_;
};

}  // namespace xr::vulkan
