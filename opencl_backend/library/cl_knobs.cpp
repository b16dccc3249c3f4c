#include "cl_knobs.hpp"

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "xreduce/shapes.hpp"

namespace xr::opencl {
namespace {

// The value of `name`, recorded in knobs.set, or nullptr when unset or empty.
const char* knob(OpenClKnobs& knobs, const char* name) {
  const char* value = std::getenv(name);
  if (!value || !*value) return nullptr;
  knobs.set.emplace_back(name, value);
  return value;
}

void first_error(OpenClKnobs& k, std::string message) {
  if (k.error.empty()) k.error = std::move(message);
}

std::optional<std::uint32_t> parse_u32(const char* s) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (end == s || *end != '\0' || s[0] == '-' || v > 0xffffffffull) return std::nullopt;
  return static_cast<std::uint32_t>(v);
}

void read_lookback(OpenClKnobs& k) {
  if (const char* v = knob(k, "XR_CL_LOOKBACK_POLLS")) {
    if (const auto polls = parse_u32(v)) {
      k.lookback.polls = *polls;
      k.polls_given = polls;
    } else {
      first_error(k, "XR_CL_LOOKBACK_POLLS must be a whole number from 0 to 4294967295");
    }
  }
  if (const char* v = knob(k, "XR_CL_LOOKBACK_SHAPE")) {
    unsigned wg = 0, vectors = 0;
    char tail = 0;
    if (std::sscanf(v, "%ux%u%c", &wg, &vectors, &tail) != 2 || wg < 32 || wg > 1024 ||
        (wg & (wg - 1)) || vectors < 1 || vectors > 32) {
      first_error(k,
                  "XR_CL_LOOKBACK_SHAPE must be <workgroup>x<vectors>, a power of two from 32 to "
                  "1024 and 1 to 32 (e.g. 128x8)");
    } else {
      k.lookback.shape = {wg, vectors};
    }
  }
  const ScanOneGroupKnob one_group = read_scan_one_group_knob();
  k.lookback.one_group_max = one_group.max;
  if (!one_group.given.empty()) k.set.emplace_back("XR_SCAN_ONE_GROUP_MAX", one_group.given);
  if (!one_group.error.empty()) first_error(k, one_group.error);
}

void read_sort_tile(OpenClKnobs& k) {
  const char* v = knob(k, "XR_CL_SORT_TILE");
  if (!v) return;
  unsigned threads = 0, items = 0;
  char tail = 0;
  if (std::sscanf(v, "%ux%u%c", &threads, &items, &tail) != 2 || threads < 256 || threads > 1024 ||
      threads % 32 || items < 1 || items > 32)
    first_error(
        k,
        "XR_CL_SORT_TILE must be <threads>x<items>, a multiple of 32 from 256 to 1024 and 1 "
        "to 32 (e.g. 768x10)");
  else
    k.sort_tile = SortTile{threads, items};
}

}  // namespace

OpenClKnobs read_opencl_knobs() {
  OpenClKnobs k;
  if (const char* v = knob(k, "XR_CL_VECTOR_LOADS")) {
    k.vload = std::string_view(v) == "vload";
    if (!k.vload && std::string_view(v) != "pointer")
      first_error(k, "XR_CL_VECTOR_LOADS must be pointer or vload");
  }
  if (const char* v = knob(k, "XR_CL_BUILD_OPTIONS")) k.build_options = v;
  read_lookback(k);
  read_sort_tile(k);
  if (const char* v = knob(k, "XR_CL_SUBGROUPS")) {
    k.single_subgroups = std::string_view(v) == "single";
    if (!k.single_subgroups && std::string_view(v) != "auto")
      first_error(k, "XR_CL_SUBGROUPS must be auto or single");
  }
  if (const char* v = knob(k, "XR_CL_SORT_WIDE")) {
    k.sort_wide = std::string_view(v) == "1";
    if (!k.sort_wide && std::string_view(v) != "0")
      first_error(k, "XR_CL_SORT_WIDE must be 0 or 1");
  }
  return k;
}

std::string OpenClKnobs::program_options() const {
  std::string o = vload ? "-DXR_VLOAD" : "";
  if (!build_options.empty()) o += (o.empty() ? "" : " ") + build_options;
  return o;
}

}  // namespace xr::opencl
