#include "cl_sources.hpp"

#include "xreduce/error.hpp"
#include "xreduce/sort_passes.hpp"

namespace xr::opencl {
namespace {

const EmbeddedSource* embedded(std::string_view name) {
  for (const EmbeddedSource& s : embedded_sources())
    if (s.name == name) return &s;
  return nullptr;
}

// `text` with each line `#include "dir/name"` replaced by embedded file `name`'s text (itself
// inlined): the device's compiler finds no files, and the definitions the kernels share with the
// shaders (core/include/xreduce/kernel) are embedded by their file names.
void append_inlined(std::string& out, std::string_view text) {
  constexpr std::string_view kInclude = "#include \"";
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line =
        text.substr(0, end == std::string_view::npos ? text.size() : end + 1);
    text.remove_prefix(line.size());
    const std::size_t close = line.find('"', kInclude.size());
    if (!line.starts_with(kInclude) || close == std::string_view::npos) {
      out += line;
      continue;
    }
    const std::string_view path = line.substr(kInclude.size(), close - kInclude.size());
    const std::string_view name = path.substr(path.rfind('/') + 1);
    const EmbeddedSource* s = embedded(name);
    if (!s)
      throw Error(ErrorCategory::usage, "xreduce::opencl: no embedded file '" + std::string(name) +
                                            "' for #include \"" + std::string(path) + "\"");
    append_inlined(out, s->text);
  }
}

}  // namespace

std::string_view kernel_source(std::string_view name) {
  for (const EmbeddedSource& s : embedded_sources())
    if (s.name.substr(0, s.name.size() - 3) == name && s.name.ends_with(".cl")) return s.text;
  throw Error(ErrorCategory::usage, "xreduce::opencl: no embedded kernel '" + std::string(name) +
                                        ".cl' (opencl_backend/kernels)");
}

std::string program_source(std::string_view kernel) {
  std::string text(kernel_source("common"));
  text += kernel_source("group");
  if (kernel.starts_with("scan_") || kernel.starts_with("bit_"))
    text += kernel_source("scan_common");
  // The fast/* scan tiles (fast/reduce-then-scan's tile pass, the look-back's).
  if (kernel.starts_with("scan_rts_") || kernel == "scan_lookback")
    text += kernel_source("scan_tile");
  if (kernel.starts_with("fast_")) text += kernel_source("vector_fold");
  if (kernel.starts_with("histogram_")) text += kernel_source("histogram_common");
  if (kernel == "probe_clock" || kernel == "probe_gate") text += kernel_source("ptx_timers");
  // A sort stage's, as its forms say (xreduce/sort_stages.h).
  if (const sort::StageForms* sort = sort_stage_forms(kernel)) {
    text += kernel_source("sort_common");
    if (sort->ranks) text += kernel_source("sort_tile");
    if (sort->items) text += kernel_source("sort_bitonic");
    if (sort->tile) text += kernel_source("sort_bitonic_tile");
  }
  text += kernel_source(kernel);
  std::string out;
  append_inlined(out, text);
  return out;
}

}  // namespace xr::opencl
