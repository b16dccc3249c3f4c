// What every record() checks of the caller's operands before it records anything (operand.hpp):
// present, of the form the call takes, aligned, holding the bytes the call reaches, no two
// sharing a byte. Vulkan checks none of it at record time: a short buffer is an access past its
// end inside a shader, an overlap a wrong answer.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "vk_hpp.hpp"
#include "xreduce/vulkan/operand.hpp"

namespace xr::vulkan {

struct ContextState;

// One of a call's operands: the bytes it reaches from the operand's start (0: none, and the
// operand is not read) and whether the call binds it (a buffer is needed) or may take its
// device address.
struct OperandUse {
  Operand operand;
  vk::DeviceSize bytes;
  bool bound;
  std::string_view name;      // as the call's parameter is named: "keys_in"
  std::string_view why = {};  // what sizes it, for a refusal: " (Sort::scratch_size())"
};

// Error(usage) "xreduce::vulkan: <call>: `name` ..." for an operand with neither a buffer nor an
// address, an address where the call binds (`bound_by` says why it does), an offset or address
// off Context::operand_alignment(), fewer bytes than the call reaches, or two that overlap.
void check_operands(const ContextState& context, std::string_view call, std::string_view bound_by,
                    std::initializer_list<OperandUse> operands);

}  // namespace xr::vulkan
