// --kernel: users' kernels read, checked and added to the registry before a command runs, so
// every command sees them as variants of their backends.
#include "commands.hpp"
#include "xreduce/error.hpp"

namespace xr::app {

std::vector<UserKernel> add_user_kernels(const Registry& registry, const KernelFlags& flags) {
  if (flags.files.empty() && (!flags.spec.empty() || !flags.id.empty()))
    throw Error(ErrorCategory::usage, "--kernel-spec and --kernel-id apply to a --kernel FILE");
  std::vector<UserKernel> kernels;
  for (const std::string& file : flags.files)
    kernels.push_back(load_user_kernel(file, flags.spec, flags.id));
  check_kernel_ids(kernels);
  for (const UserKernel& k : kernels) registry.add_kernel(k);
  return kernels;
}

}  // namespace xr::app
