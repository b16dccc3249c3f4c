// A Vulkan object's diagnostics (xreduce/diagnostics.hpp): the passes' compiled code, the tuning
// entry, and what only Vulkan's sorts have: how they rank a tile's keys, and where their scratch
// keeps a running count of look-back fallbacks for the tool to read back.
#pragma once

#include <vulkan/vulkan_core.h>

#include <optional>
#include <string_view>

#include "xreduce/diagnostics.hpp"

namespace xr::vulkan {

class Diagnostics : public PassDiagnostics {
 public:
  class Source : public PassDiagnostics::Source {
   public:
    virtual std::optional<VkDeviceSize> fallback_count_offset() const = 0;
    virtual std::string_view ranking() const = 0;

   protected:
    ~Source() = default;
  };

  explicit Diagnostics(const Source& source) : PassDiagnostics(source), source_(&source) {}

  // Onesweep's running count of look-back fallbacks (a workgroup counting a predecessor's digits
  // itself rather than wait for it): a uint32 at this byte offset of scratch. Empty otherwise.
  std::optional<VkDeviceSize> fallback_count_offset() const {
    return source_->fallback_count_offset();
  }
  // How the radix sorts rank a tile's keys on this device: "subgroup ballots", or "counting" (in
  // shared memory, no subgroup operation) where it lacks subgroup ballots, shuffles or arithmetic
  // or the tool asks for counting. Empty for what ranks none.
  std::string_view ranking() const { return source_->ranking(); }

 private:
  const Source* source_;
};

}  // namespace xr::vulkan
