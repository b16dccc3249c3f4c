// `xreduce kernel-header`: the text xreduce puts before a kernel's source for one combination
// (core's kernel_prelude: the headers or extensions its types need and the ABI's macros), so a
// prebuilt module — a .cubin or .ptx built by nvcc, a .spv built by glslc — is compiled with the
// same macros the run-time compilers see (docs/kernels.md, "Prebuilt modules").
#include <algorithm>
#include <cstdio>
#include <string>

#include "commands.hpp"
#include "xreduce/error.hpp"

namespace xr::app {
namespace {

template <class T, class Parse>
T chosen(const std::optional<std::string>& given, const std::vector<T>& claimed, Parse parse,
         const char* flag, const UserKernel& k) {
  if (!given) return claimed.front();
  const std::optional<T> v = parse(*given);
  if (!v) throw Error(ErrorCategory::usage, std::string(flag) + " " + *given + ": unknown value");
  if (std::find(claimed.begin(), claimed.end(), *v) == claimed.end())
    throw Error(ErrorCategory::usage, k.path.string() + " does not claim " + std::string(flag) +
                                          " " + *given + " (see its xreduce: declarations)");
  return *v;
}

// The language whose spelling the header takes: a prebuilt module's source language.
KernelLanguage source_language(KernelLanguage l) {
  switch (l) {
    case KernelLanguage::ptx:
    case KernelLanguage::cubin:
      return KernelLanguage::cuda;
    case KernelLanguage::spirv:
      return KernelLanguage::glsl;
    default:
      return l;
  }
}

}  // namespace

int run_kernel_header(const KernelHeaderOptions& o) {
  const UserKernel k = load_user_kernel(o.kernel, o.spec);
  const DType dtype = chosen(o.dtype, k.dtypes, parse_dtype, "--dtype", k);
  const Op op = chosen(o.op, k.ops, parse_op, "--op", k);
  const ScanKind kind = chosen(o.scan, k.kinds, parse_scan_kind, "--scan", k);
  if (o.pass >= k.passes.size())
    throw Error(ErrorCategory::usage, "--pass " + std::to_string(o.pass) + ": " + k.path.string() +
                                          " declares " + std::to_string(k.passes.size()) +
                                          " pass(es)");
  const KernelLanguage language = source_language(k.language);
  const DType data = o.partials ? accumulator_of(dtype) : dtype;
  const std::string text = kernel_prelude(
      language,
      kernel_macros(language, data, dtype, op, kind, k.block ? k.block : 256, k.items, o.pass));
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}

}  // namespace xr::app
