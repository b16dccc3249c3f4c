#include "vk_knobs.hpp"

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace xr::vulkan {
namespace {

// The value of `name`, recorded in knobs.set, or nullptr when unset.
const char* knob(VulkanKnobs& knobs, const char* name) {
  const char* value = std::getenv(name);
  if (value && *value) knobs.set.emplace_back(name, value);
  return value;
}

// A whole number from 0 to 2^32 - 1, or nullopt.
std::optional<std::uint32_t> parse_u32(const char* s) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (end == s || *end != '\0' || s[0] == '-' || v > 0xffffffffull) return std::nullopt;
  return static_cast<std::uint32_t>(v);
}

void first_error(std::string& error, std::string message) {
  if (error.empty()) error = std::move(message);
}

void read_device_knobs(VulkanKnobs& k) {
  k.timeout = read_device_timeout();
  if (!k.timeout.given.empty()) k.set.emplace_back("XR_DEVICE_TIMEOUT", k.timeout.given);
  if (!k.timeout.error.empty()) first_error(k.device_error, k.timeout.error);
  if (const char* v = knob(k, "XR_VK_VALIDATION")) k.validation = std::string_view(v) == "1";
  if (const char* v = knob(k, "XR_VK_ADDRESSING"); v && *v) {
    k.force_address = std::string_view(v) == "address";
    if (!k.force_address && std::string_view(v) != "auto")
      first_error(k.device_error, "XR_VK_ADDRESSING must be auto or address");
  }
  if (const char* v = knob(k, "XR_VK_SORT_RANKING"); v && *v) {
    k.force_counting = std::string_view(v) == "counting";
    if (!k.force_counting && std::string_view(v) != "auto")
      first_error(k.device_error, "XR_VK_SORT_RANKING must be auto or counting");
  }
  if (const char* v = knob(k, "XR_VK_CAPTURE_IR"); v && *v) k.capture_ir_dir = v;
  if (const char* v = knob(k, "XR_VK_BLOCK_BYTES"); v && *v) {
    char* end = nullptr;
    const unsigned long long bytes = std::strtoull(v, &end, 10);
    if (*end != '\0' || v[0] == '-' || bytes < (1u << 20))
      first_error(k.device_error,
                  "XR_VK_BLOCK_BYTES must be a number of bytes of at least 1048576");
    else
      k.block_bytes = bytes;
  }
  if (const char* v = knob(k, "XR_VK_SORT_TILE")) {
    unsigned threads = 0, items = 0;
    char tail = 0;
    if (std::sscanf(v, "%ux%u%c", &threads, &items, &tail) != 2 || threads < 256 ||
        threads > 1024 || threads % 32 || items < 1 || items > 32)
      first_error(k.device_error,
                  "XR_VK_SORT_TILE must be <threads>x<items>, a multiple of 32 from 256 to 1024 "
                  "and 1 to 32 (e.g. 384x20)");
    else
      k.sort_tile = SortTile{threads, items};
  }
}

void read_lookback_knobs(VulkanKnobs& k) {
  for (auto [name, field] : {std::pair{"XR_VK_LOOKBACK_POLLS", &k.lookback_polls},
                             std::pair{"XR_VK_LOOKBACK_BACKOFF", &k.lookback_backoff}})
    if (const char* v = knob(k, name)) {
      *field = parse_u32(v);
      if (!*field)
        first_error(k.scan_error,
                    std::string(name) + " must be a whole number from 0 to 4294967295");
    }
  if (const char* v = knob(k, "XR_VK_LOOKBACK_EXPERIMENT"); v && *v) {
    k.lookback_no_wait = std::string_view(v) == "no-wait";
    k.lookback_plain_loads = std::string_view(v) == "plain-loads";
    if (!k.lookback_no_wait && !k.lookback_plain_loads)
      first_error(k.scan_error, "XR_VK_LOOKBACK_EXPERIMENT must be no-wait, plain-loads or empty");
  }
  if (const char* v = knob(k, "XR_VK_LOOKBACK_WINDOW")) {
    k.lookback_window = parse_u32(v);
    if (!k.lookback_window || *k.lookback_window < 1 || *k.lookback_window > 4)
      first_error(k.scan_error, "XR_VK_LOOKBACK_WINDOW must be 1, 2, 3 or 4 (words per lane)");
  }
  if (const char* v = knob(k, "XR_VK_LOOKBACK_CLOCK"); v && *v) {
    k.lookback_clock = std::string_view(v) == "1";
    if (!*k.lookback_clock && std::string_view(v) != "0")
      first_error(k.scan_error, "XR_VK_LOOKBACK_CLOCK must be 0 or 1");
  }
  k.one_group = read_scan_one_group_knob();
  if (!k.one_group.given.empty()) k.set.emplace_back("XR_SCAN_ONE_GROUP_MAX", k.one_group.given);
  if (!k.one_group.error.empty()) first_error(k.scan_error, k.one_group.error);
  if (const char* v = knob(k, "XR_VK_LOOKBACK_SHAPE")) {
    unsigned wg = 0, vecs = 0;
    char tail = 0;
    if (std::sscanf(v, "%ux%u%c", &wg, &vecs, &tail) != 2 || wg < 32 || wg > 1024 ||
        (wg & (wg - 1)) || vecs < 1 || vecs > 32)
      first_error(k.scan_error,
                  "XR_VK_LOOKBACK_SHAPE must be <workgroup>x<vectors>, a power of two from 32 to "
                  "1024 and 1 to 32 (e.g. 128x8)");
    else
      k.lookback_shape = LookBackShape{wg, vecs};
  }
}

}  // namespace

VulkanKnobs read_vulkan_knobs() {
  VulkanKnobs knobs;
  read_device_knobs(knobs);
  read_lookback_knobs(knobs);
  return knobs;
}

}  // namespace xr::vulkan
