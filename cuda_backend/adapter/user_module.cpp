#include "user_module.hpp"

#include "user_compile.hpp"
#include "xreduce/error.hpp"
#include "xreduce/kernel_cache.hpp"

namespace xr::cuda {
namespace {

// Part of every cached cubin's key: a new way of compiling makes new cubins.
constexpr std::string_view kCompilerTag = "nvrtc-cubin/1";

[[noreturn]] void bad(const UserKernel& k, const std::string& what) {
  throw Error(ErrorCategory::usage, k.path.string() + ": " + what);
}

std::string sm(const DeviceLimits& limits) {
  return "sm_" + std::to_string(limits.cc_major) + std::to_string(limits.cc_minor);
}

std::string module_name(const UserKernel& k, const UserModuleKey& key, const DeviceLimits& dev) {
  std::string name = k.id + "@" + sm(dev);
  if (!is_source(k.language)) return name;
  return name + "." + std::string(to_string(key.data)) + "." + std::string(to_string(key.dtype)) +
         "." + std::string(to_string(key.op)) + "." + std::string(to_string(key.kind));
}

cudaLibrary_t load(const UserKernel& k, const std::string& image, const DeviceLimits& dev) {
  cudaLibrary_t library = nullptr;
  // A PTX image is text the driver compiles: it must end in a NUL, which c_str() gives.
  const cudaError_t e =
      cudaLibraryLoadData(&library, image.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0);
  if (e == cudaSuccess) return library;
  (void)cudaGetLastError();
  const ErrorCategory category = classify(e);
  if (category == ErrorCategory::out_of_memory || category == ErrorCategory::unavailable)
    throw Error(category, k.path.string() + ": " + describe(e));
  bad(k, "cannot be loaded on this " + sm(dev) + " device: " + cudaGetErrorName(e) + ": " +
             cudaGetErrorString(e));
}

// Every kernel's name in `library`, for the message of a missing entry point.
std::string kernel_names(cudaLibrary_t library) {
  unsigned count = 0;
  if (cudaLibraryGetKernelCount(&count, library) != cudaSuccess) {
    (void)cudaGetLastError();
    return "?";
  }
  std::vector<cudaKernel_t> kernels(count);
  if (count && cudaLibraryEnumerateKernels(kernels.data(), count, library) != cudaSuccess) {
    (void)cudaGetLastError();
    return "?";
  }
  std::string names;
  for (cudaKernel_t kernel : kernels) {
    const char* name = nullptr;
    if (cudaFuncGetName(&name, reinterpret_cast<const void*>(kernel)) != cudaSuccess || !name) {
      (void)cudaGetLastError();
      continue;
    }
    names += (names.empty() ? "" : ", ") + std::string(name);
  }
  return names.empty() ? "none" : names;
}

cudaKernel_t find_kernel(const UserKernel& k, cudaLibrary_t library, const std::string& entry,
                         const DeviceLimits& dev) {
  cudaKernel_t kernel = nullptr;
  if (cudaLibraryGetKernel(&kernel, library, entry.c_str()) == cudaSuccess) return kernel;
  (void)cudaGetLastError();
  const std::string names = kernel_names(library);
  // A cubin of another architecture loads, and holds no kernel this device can run.
  if (names == "none")
    bad(k, "holds no kernel this " + sm(dev) +
               " device can run (machine code for another architecture?)");
  bad(k, "no kernel '" + entry + "' (the module has: " + names +
             "); declare it with entry= or pass=, and define it extern \"C\" so that its name is "
             "not mangled");
}

std::string list_of(const std::vector<std::size_t>& sizes) {
  std::string s;
  for (std::size_t size : sizes) s += (s.empty() ? "" : ", ") + std::to_string(size);
  return "(" + s + ")";
}

// The ABI's parameters, each of its size. A call past a kernel's last parameter fails (CUDA gives
// no count), which compute-sanitizer reports as an API error: only the ABI's indices are asked,
// so a good kernel makes no failing call, and parameters past the ABI's go unseen.
void check_parameters(const UserKernel& k, cudaKernel_t kernel, const std::string& entry) {
  const std::vector<std::size_t> expected = abi_parameter_sizes(k.primitive);
  std::vector<std::size_t> sizes;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    std::size_t offset = 0, size = 0;
    if (cudaFuncGetParamInfo(reinterpret_cast<const void*>(kernel), i, &offset, &size) !=
        cudaSuccess) {
      (void)cudaGetLastError();  // past the last parameter
      break;
    }
    sizes.push_back(size);
  }
  if (sizes != expected)
    bad(k, "kernel '" + entry + "' takes " +
               (sizes.size() < expected.size() ? std::to_string(sizes.size()) + " parameters"
                                               : std::string("parameters")) +
               " of " + list_of(sizes) + " bytes; the " + std::string(to_string(k.primitive)) +
               " ABI's are " +
               (k.primitive == Primitive::reduce
                    ? "(const XR_T* in, XR_ACC* partials, unsigned int n)"
                    : "(const XR_T* in, XR_T* out, unsigned char* scratch, unsigned int n)") +
               ", of " + list_of(expected) + " bytes (docs/kernels.md)");
}

// The declared block must fit the device, the kernel's registers and its __launch_bounds__, and
// its static shared memory the device's per-block limit: checked before the first launch, which
// would otherwise fail (too many resources) or, for a cubin or PTX built elsewhere, never start.
void check_block(const UserKernel& k, cudaKernel_t kernel, const std::string& entry,
                 const DeviceLimits& dev) {
  cudaFuncAttributes a{};
  XR_CUDA_CHECK(cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(kernel)));
  const KernelResources r{a.numRegs, a.sharedSizeBytes, a.maxThreadsPerBlock};
  if (std::string why = block_refusal(entry, r, k.block, dev); !why.empty()) bad(k, why);
}

}  // namespace

std::string user_image(const UserKernel& k, const UserModuleKey& key, int cc_major, int cc_minor) {
  if (k.language != KernelLanguage::cuda) return k.contents;
  const NvrtcSetup setup = nvrtc_setup(cc_major, cc_minor);
  const std::string source = user_source(k, key);
  StableHash hash;
  hash.add(kCompilerTag).add(setup.version);
  for (const std::string& option : setup.options) hash.add(option);
  const std::string cache_key = hash.add(k.path.string()).add(source).hex();
  const KernelCache cache = KernelCache::from_environment();
  if (auto cached = cache.load(cache_key, ".cubin", {"cubin"})) return cached->at("cubin");
  std::string cubin = nvrtc_compile(k.path, source, setup);
  cache.store(cache_key, ".cubin", {{"cubin", cubin}});
  return cubin;
}

std::string block_refusal(const std::string& entry, const KernelResources& r, std::uint32_t block,
                          const DeviceLimits& dev) {
  const std::string kernel = "kernel '" + entry + "'";
  if (block > static_cast<std::uint32_t>(dev.max_threads_per_block))
    return "block=" + std::to_string(block) + " is past this device's " +
           std::to_string(dev.max_threads_per_block) + " threads per block (maxThreadsPerBlock)";
  if (r.static_shared > dev.shared_per_block)
    return kernel + " uses " + std::to_string(r.static_shared) +
           " bytes of static shared memory; this device allows " +
           std::to_string(dev.shared_per_block) + " per block (sharedMemPerBlock)";
  if (block > static_cast<std::uint32_t>(r.max_threads)) {
    const std::uint64_t needed = std::uint64_t(r.registers) * block;
    if (needed > static_cast<std::uint64_t>(dev.regs_per_block))
      return kernel + " uses " + std::to_string(r.registers) +
             " registers per thread: block=" + std::to_string(block) + " needs " +
             std::to_string(needed) + "; this device has " + std::to_string(dev.regs_per_block) +
             " per block (regsPerBlock), so it runs at most " + std::to_string(r.max_threads) +
             " threads per block";
    return kernel + " runs at most " + std::to_string(r.max_threads) +
           " threads per block (its __launch_bounds__, or " + std::to_string(r.registers) +
           " registers per thread), not block=" + std::to_string(block);
  }
  return {};
}

std::vector<std::size_t> abi_parameter_sizes(Primitive primitive) {
  if (primitive == Primitive::reduce) return {sizeof(void*), sizeof(void*), sizeof(unsigned)};
  return {sizeof(void*), sizeof(void*), sizeof(void*), sizeof(unsigned)};
}

UserModule& UserModules::get(const UserKernel& k, const UserModuleKey& key,
                             const DeviceLimits& limits) {
  const std::string name = module_name(k, key, limits);
  if (auto it = modules_.find(name); it != modules_.end()) return *it->second;
  const cudaLibrary_t library =
      load(k, user_image(k, key, limits.cc_major, limits.cc_minor), limits);
  std::unique_ptr<CUlib_st, LibraryUnload> owner(library);
  std::vector<cudaKernel_t> passes;
  for (const KernelPass& pass : k.passes) {
    const cudaKernel_t kernel = find_kernel(k, library, pass.entry, limits);
    check_parameters(k, kernel, pass.entry);
    check_block(k, kernel, pass.entry, limits);
    passes.push_back(kernel);
  }
  auto module = std::make_unique<UserModule>(owner.release(), std::move(passes));
  return *modules_.emplace(name, std::move(module)).first->second;
}

}  // namespace xr::cuda
