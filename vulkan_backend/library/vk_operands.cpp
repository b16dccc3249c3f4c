#include "vk_operands.hpp"

#include <bit>
#include <optional>
#include <string>
#include <vector>

#include "vk_context.hpp"
#include "xreduce/error.hpp"
#include "xreduce/operand_spans.hpp"

namespace xr::vulkan {
namespace {

[[noreturn]] void refuse(std::string_view who, std::string_view name, const std::string& why) {
  throw Error(ErrorCategory::usage, std::string(who) + ": `" + std::string(name) + "` " + why);
}

// The bytes `buffer` may hold: its memory requirements' size (at least the size it was made
// with; Vulkan tells no closer bound).
vk::DeviceSize buffer_bytes(const ContextState& context, VkBuffer buffer) {
  VkMemoryRequirements requirements{};
  context.dispatch().vkGetBufferMemoryRequirements(**context.device, buffer, &requirements);
  return requirements.size;
}

// The bytes an operand may use from its start: its range, within its buffer's bytes; to the end
// of the buffer without one; empty for an address without one (Vulkan cannot tell).
std::optional<vk::DeviceSize> operand_bytes(const ContextState& context, std::string_view who,
                                            const OperandUse& use) {
  const Operand& o = use.operand;
  if (!o.buffer) {
    if (o.range == VK_WHOLE_SIZE) return std::nullopt;
    return o.range;
  }
  const vk::DeviceSize held = buffer_bytes(context, o.buffer);
  if (o.offset >= held)
    refuse(who, use.name,
           "starts at offset " + std::to_string(o.offset) + ", past its buffer's " +
               std::to_string(held) + " bytes");
  const vk::DeviceSize rest = held - o.offset;
  if (o.range == VK_WHOLE_SIZE) return rest;
  if (o.range > rest)
    refuse(who, use.name,
           "has a range of " + std::to_string(o.range) + " bytes from offset " +
               std::to_string(o.offset) + ", past its buffer's " + std::to_string(held));
  return o.range;
}

void check_form(const ContextState& context, std::string_view who, std::string_view bound_by,
                const OperandUse& use) {
  const Operand& o = use.operand;
  if (!o.buffer && !o.address) refuse(who, use.name, "has neither a buffer nor an address");
  if (use.bound && !o.buffer)
    refuse(who, use.name,
           "is a device address (Operand::at), and " + std::string(bound_by) +
               " binds it: pass its buffer (Operand::of)");
  const vk::DeviceSize alignment = context.operand_alignment();
  if ((o.buffer ? o.offset : o.address) % alignment)
    refuse(
        who, use.name,
        (o.buffer ? "offset " + std::to_string(o.offset) : "address " + std::to_string(o.address)) +
            " is not a multiple of " + std::to_string(alignment) +
            " bytes (Context::operand_alignment)");
}

}  // namespace

void check_operands(const ContextState& context, std::string_view call, std::string_view bound_by,
                    std::initializer_list<OperandUse> operands) {
  const CallName who("xreduce::vulkan", call);
  OperandSpans spans;
  for (const OperandUse& use : operands) {
    if (!use.bytes) continue;
    check_form(context, who, bound_by, use);
    if (const auto held = operand_bytes(context, who, use))
      require_holds(who, use.name, *held, use.bytes,
                    use.operand.buffer ? " from its offset" : " (its range)", use.why);
    const Operand& o = use.operand;
    // Buffers are compared within one buffer, addresses (space 0) among themselves.
    spans.add(who, {.space = o.buffer ? std::bit_cast<std::uint64_t>(o.buffer) : 0,
                    .begin = o.buffer ? o.offset : o.address,
                    .bytes = use.bytes,
                    .name = use.name});
  }
  require_disjoint(who, spans);
}

}  // namespace xr::vulkan
