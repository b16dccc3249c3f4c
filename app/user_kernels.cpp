// --kernel: users' kernels read, checked and added to the registry before a command runs, so
// every command sees them as variants of their backends; and what the commands take from the
// kernels' claims where the user named no dtype, op or scan kind.
#include <algorithm>

#include <fmt/format.h>

#include "commands.hpp"
#include "xreduce/error.hpp"
#include "xreduce/printable.hpp"

namespace xr::app {
namespace {

// The first of the first kernel's claims that every kernel makes; the first kernel's first
// where they share none (the others then report that point unsupported, as any variant would).
template <class T>
T first_shared(const std::vector<UserKernel>& kernels, std::vector<T> UserKernel::*claims) {
  const std::vector<T>& first = kernels.front().*claims;
  for (const T& claim : first)
    if (std::all_of(kernels.begin(), kernels.end(), [&](const UserKernel& k) {
          const std::vector<T>& c = k.*claims;
          return std::find(c.begin(), c.end(), claim) != c.end();
        }))
      return claim;
  return first.front();
}

}  // namespace

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

void check_kernel_primitive(const UserKernel& kernel, const std::vector<Primitive>& asked,
                            std::string_view asked_text) {
  if (std::find(asked.begin(), asked.end(), kernel.primitive) == asked.end())
    throw Error(ErrorCategory::usage,
                fmt::format("--kernel {} declares primitive={}, which --primitive {} does not ask "
                            "for (a kernel runs as the primitive it declares)",
                            kernel.path.string(), to_string(kernel.primitive), asked_text));
}

ClaimDefaults claim_defaults(const std::vector<UserKernel>& kernels, const GivenAxes& given) {
  ClaimDefaults d;
  if (kernels.empty()) return d;
  std::vector<std::string> flags;
  if (!given.dtype) {
    d.dtype = first_shared(kernels, &UserKernel::dtypes);
    flags.push_back(fmt::format("--dtype {}", to_string(*d.dtype)));
  }
  if (!given.op) {
    d.op = first_shared(kernels, &UserKernel::ops);
    flags.push_back(fmt::format("--op {}", to_string(*d.op)));
  }
  const bool scans = std::any_of(kernels.begin(), kernels.end(), [](const UserKernel& k) {
    return k.primitive == Primitive::scan;
  });
  if (!given.kind && scans) {
    std::vector<UserKernel> scanners;
    std::copy_if(kernels.begin(), kernels.end(), std::back_inserter(scanners),
                 [](const UserKernel& k) { return k.primitive == Primitive::scan; });
    d.kind = first_shared(scanners, &UserKernel::kinds);
    flags.push_back(fmt::format("--scan {}", to_string(*d.kind)));
  }
  if (flags.empty()) return d;
  std::string files;
  for (const UserKernel& k : kernels)
    files += (files.empty() ? "" : ", ") + printable(k.path.filename().string());
  d.note = fmt::format("{}: {} first claim{} ({}), as no flag named {}", fmt::join(flags, " "),
                       kernels.size() == 1 ? "the --kernel's" : "every --kernel's shared",
                       flags.size() == 1 ? "" : "s", files, flags.size() == 1 ? "it" : "them");
  return d;
}

}  // namespace xr::app
