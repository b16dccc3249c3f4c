#include "xreduce/user_build.hpp"

namespace xr {

std::string user_source(const UserKernel& k, const UserBuildKey& key) {
  const KernelMacros macros = kernel_macros(k.language, key.data, key.dtype, key.op, key.kind,
                                            k.block, k.items, /*pass=*/0);
  return kernel_prelude(k.language, macros) + "#line 1 \"" + k.path.string() + "\"\n" + k.contents;
}

}  // namespace xr
