#include "vk_user_module.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>

#include "shader_compiler.hpp"
#include "spirv_interface.hpp"
#include "xreduce/error.hpp"
#include "xreduce/kernel_cache.hpp"

namespace xr::vulkan {
namespace {

// Part of every cache key: a new compiler or target makes new modules.
constexpr std::string_view kCompilerTag = "libshaderc/glsl-vulkan1.2/hlsl-vulkan1.1/2";

[[noreturn]] void bad(const UserKernel& k, const std::string& what) {
  throw Error(ErrorCategory::usage, k.path.string() + ": " + what);
}

bool prebuilt(const UserKernel& k) {
  return k.language == KernelLanguage::spirv;
}

std::string module_name(const UserKernel& k, const UserModuleKey& key) {
  std::string name = k.id + "#" + std::to_string(key.pass);
  if (prebuilt(k)) return name;
  return name + "." + std::string(to_string(key.data)) + "." + std::string(to_string(key.dtype)) +
         "." + std::string(to_string(key.op)) + "." + std::string(to_string(key.kind));
}

// GLSL: the prelude goes after the #version line (extensions must follow it), and a #line
// directive puts the user's lines back at their numbers; a file without #version gets 450.
std::string glsl_with_prelude(const UserKernel& k, const std::string& prelude) {
  std::istringstream in(k.contents);
  std::string head, line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    head += line + "\n";
    if (line.find_first_not_of(" \t") != std::string::npos &&
        line.compare(line.find_first_not_of(" \t"), 8, "#version") == 0) {
      std::string rest((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      return head + prelude + "#line " + std::to_string(number + 1) + "\n" + rest;
    }
  }
  return "#version 450\n" + prelude + "#line 1\n" + k.contents;
}

std::string source_with_prelude(const UserKernel& k, const UserModuleKey& key) {
  const std::uint32_t block = k.block ? k.block : 256;
  const std::string prelude = kernel_prelude(
      k.language,
      kernel_macros(k.language, key.data, key.dtype, key.op, key.kind, block, k.items, key.pass));
  if (k.language == KernelLanguage::glsl) return glsl_with_prelude(k, prelude);
  return prelude + "#line 1 \"" + k.path.string() + "\"\n" + k.contents;
}

std::vector<std::uint32_t> words_of(const std::string& bytes) {
  std::vector<std::uint32_t> words(bytes.size() / 4);
  std::copy_n(bytes.data(), words.size() * 4, reinterpret_cast<char*>(words.data()));
  return words;
}

std::string bytes_of(const std::vector<std::uint32_t>& words) {
  return std::string(reinterpret_cast<const char*>(words.data()), words.size() * 4);
}

shaders::ModuleInterface read_module(const UserKernel& k, std::span<const std::uint32_t> words) {
  try {
    return shaders::read_interface(words);
  } catch (const std::invalid_argument& e) {
    bad(k, e.what());
  }
}

// ---- the ABI's checks on a module ------------------------------------------------------------

const shaders::EntryPoint& find_entry(const UserKernel& k, const shaders::ModuleInterface& m,
                                      const std::string& entry) {
  std::string found;
  for (const auto& e : m.entry_points) {
    if (e.compute && e.name == entry) return e;
    found += (found.empty() ? "" : ", ") + e.name;
  }
  bad(k, "no compute entry point '" + entry + "' (the module has: " +
             (found.empty() ? "none" : found) + "); declare it with entry= or pass=");
}

// The local size: literal, or set through specialization constant 0 (the block declared, 256
// by default), one-dimensional either way.
std::uint32_t check_local_size(const UserKernel& k, const shaders::EntryPoint& e) {
  if (e.local_size[1].value != 1 || e.local_size[2].value != 1)
    bad(k, "the workgroup is " + std::to_string(e.local_size[0].value) + "x" +
               std::to_string(e.local_size[1].value) + "x" + std::to_string(e.local_size[2].value) +
               "; the ABI's is one-dimensional (N,1,1)");
  const auto& x = e.local_size[0];
  if (x.spec_id) {
    if (*x.spec_id != 0)
      bad(k, "the local size comes from specialization constant " + std::to_string(*x.spec_id) +
                 "; the ABI sets constant 0 (local_size_x_id = 0)");
    return k.block ? k.block : 256;
  }
  if (k.block && k.block != x.value)
    bad(k, "declares block=" + std::to_string(k.block) + " but its workgroup is " +
               std::to_string(x.value));
  if (x.value == 0 || (x.value & (x.value - 1)) != 0)
    bad(k, "the workgroup size " + std::to_string(x.value) + " is not a power of two");
  return x.value;
}

// What a resource is, in the words of the kernel's language.
std::string kind_text(shaders::ResourceKind kind) {
  using K = shaders::ResourceKind;
  switch (kind) {
    case K::storage_buffer:
      return "a storage buffer";
    case K::uniform_buffer:
      return "a uniform buffer (GLSL uniform block, HLSL cbuffer or ConstantBuffer)";
    case K::sampled_image:
      return "a sampled image (GLSL texture*, HLSL Texture*)";
    case K::storage_image:
      return "a storage image (GLSL image*, HLSL RWTexture*)";
    case K::uniform_texel_buffer:
      return "a uniform texel buffer (GLSL textureBuffer, HLSL Buffer<T>)";
    case K::storage_texel_buffer:
      return "a storage texel buffer (GLSL imageBuffer, HLSL RWBuffer<T>)";
    case K::sampler:
      return "a sampler (GLSL sampler, HLSL SamplerState)";
    case K::combined_image_sampler:
      return "a combined image sampler (GLSL sampler2D and the like)";
    case K::acceleration_structure:
      return "an acceleration structure";
    case K::other:
      break;
  }
  return "a resource of a kind the ABI does not have";
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// A resource that is not a storage buffer, named by its kind and, for HLSL's implicit globals
// block, by what it means: glslang puts every global variable outside a push-constant block
// into a uniform buffer named $Global (a push-constant struct instance included).
std::string not_a_storage_buffer(const shaders::Resource& r) {
  const std::string at =
      " at set " + std::to_string(r.set) + " binding " + std::to_string(r.binding);
  if (r.block == "$Global")
    return "HLSL's $Globals is a uniform buffer" + at +
           ", holding the global variables outside a push-constant block (" +
           (r.members.empty() ? std::string("?") : joined(r.members)) +
           "): the ABI has storage buffers only. Push constants are `[[vk::push_constant]] "
           "ConstantBuffer<P> p;` or `[[vk::push_constant]] cbuffer P { ... };`; glslang puts a "
           "`[[vk::push_constant]] P p;` into $Globals (docs/kernels.md)";
  const std::string what = r.name.empty() ? "a resource" : "'" + r.name + "'";
  return what + " is " + kind_text(r.kind) + at +
         "; the ABI has storage buffers only (docs/kernels.md)";
}

// What about the module's resources breaks the ABI, if anything.
std::optional<std::string> resource_mismatch(const UserKernel& k,
                                             const shaders::ModuleInterface& m) {
  const std::uint32_t last =
      k.primitive == Primitive::scan ? kKernelScratchBinding : kKernelOutputBinding;
  bool output = false;
  for (const auto& r : m.resources) {
    if (r.kind != shaders::ResourceKind::storage_buffer) return not_a_storage_buffer(r);
    if (!r.has_binding || r.set != 0 || r.binding > last)
      return (r.name.empty() ? "a storage buffer" : "'" + r.name + "', a storage buffer,") +
             " is at set " + std::to_string(r.set) + " binding " + std::to_string(r.binding) +
             "; the " + std::string(to_string(k.primitive)) +
             " ABI has set 0, bindings 0 (input), 1 (output)" +
             (k.primitive == Primitive::scan ? ", 2 (scratch)" : "");
    output = output || (r.binding == kKernelOutputBinding && r.writable);
  }
  // A scan's passes may each leave a buffer out (the optimizer drops what a pass never uses);
  // whether the output is written at all, its conformance check sees.
  if (!output && k.primitive == Primitive::reduce)
    return "writes no storage buffer at binding 1 (the partials)";
  return std::nullopt;
}

// The names the optimizer strips, taken from an unoptimized build of the same source by set and
// binding: for the message of a mismatch only, which then speaks of the kernel's own names.
void name_resources(shaders::ModuleInterface& m, const shaders::ModuleInterface& named) {
  for (auto& r : m.resources)
    for (const auto& n : named.resources)
      if (n.set == r.set && n.binding == r.binding && n.kind == r.kind) {
        r.name = n.name;
        r.block = n.block;
        r.members = n.members;
      }
}

// ---- the device's limits --------------------------------------------------------------------

std::string allows(const UserKernelLimits& limits, std::uint64_t limit, const char* name) {
  return "; " + limits.device + " allows " + std::to_string(limit) + " (" + name + ")";
}

void check_workgroup_size(const UserKernel& k, std::uint32_t workgroup,
                          const UserKernelLimits& limits) {
  if (workgroup > limits.max_size_x)
    bad(k, "its workgroup is " + std::to_string(workgroup) + " invocations wide" +
               allows(limits, limits.max_size_x, "maxComputeWorkGroupSize[0]"));
  if (workgroup > limits.max_invocations)
    bad(k, "its workgroup has " + std::to_string(workgroup) + " invocations" +
               allows(limits, limits.max_invocations, "maxComputeWorkGroupInvocations"));
}

// The device's limit first (the harder one), then the ABI's 8 bytes.
void check_push_constants(const UserKernel& k, const shaders::ModuleInterface& m,
                          const UserKernelLimits& limits) {
  if (!m.push_constant_bytes) return;
  const std::uint32_t bytes = *m.push_constant_bytes;
  if (bytes > limits.max_push_bytes)
    bad(k, "its push constants take " + std::to_string(bytes) + " bytes" +
               allows(limits, limits.max_push_bytes, "maxPushConstantsSize"));
  if (bytes > kKernelPushBytes)
    bad(k, "its push constants take " + std::to_string(bytes) +
               " bytes; the ABI's are { uint n; uint tiles; } (8 bytes)");
}

// Workgroup memory as the pipeline will specialise it (constant 0: the workgroup size, where the
// local size comes from it).
void check_workgroup_memory(const UserKernel& k, std::span<const std::uint32_t> words,
                            const shaders::EntryPoint& entry, std::uint32_t workgroup,
                            const UserKernelLimits& limits) {
  std::map<std::uint32_t, std::uint32_t> specialization;
  if (entry.local_size[0].spec_id == 0u) specialization[0] = workgroup;
  const std::optional<std::uint64_t> bytes = shaders::workgroup_memory_bytes(words, specialization);
  if (!bytes)
    bad(k,
        "the size of its workgroup (shared) memory is an expression xreduce does not evaluate, "
        "so it cannot be checked against the device's limit: size its arrays with constants, "
        "XR_BLOCK or gl_WorkGroupSize.x (docs/kernels.md)");
  if (*bytes > limits.max_shared_bytes)
    bad(k, "declares " + std::to_string(*bytes) +
               " bytes of workgroup memory (GLSL shared, HLSL groupshared)" +
               allows(limits, limits.max_shared_bytes, "maxComputeSharedMemorySize"));
}

}  // namespace

UserModules::UserModules() = default;
UserModules::~UserModules() = default;

const UserModule& UserModules::get(const UserKernel& k, const UserModuleKey& key,
                                   const UserKernelLimits& limits) {
  const std::string name = module_name(k, key);
  if (auto it = modules_.find(name); it != modules_.end()) return *it->second;
  auto module = std::make_unique<UserModule>();
  module->name = name;
  module->words = compile(k, key);
  shaders::ModuleInterface m = read_module(k, module->words);
  const shaders::EntryPoint& entry = find_entry(k, m, k.passes[key.pass].entry);
  module->entry = entry.name;
  module->workgroup = check_local_size(k, entry);
  if (std::optional<std::string> why = resource_mismatch(k, m)) {
    if (!prebuilt(k)) {
      name_resources(m, read_module(k, compile(k, key, /*optimize=*/false)));
      why = resource_mismatch(k, m);
    }
    bad(k, *why);
  }
  check_workgroup_size(k, module->workgroup, limits);
  check_push_constants(k, m, limits);
  try {
    check_workgroup_memory(k, module->words, entry, module->workgroup, limits);
  } catch (const std::invalid_argument& e) {
    bad(k, e.what());
  }
  return *modules_.emplace(name, std::move(module)).first->second;
}

std::vector<std::uint32_t> UserModules::compile(const UserKernel& k, const UserModuleKey& key,
                                                bool optimize) {
  if (!compiler_) compiler_ = std::make_unique<shaders::ShaderCompiler>();
  if (prebuilt(k)) {
    std::vector<std::uint32_t> words;
    try {
      words = shaders::words_from_bytes(k.contents);
    } catch (const std::invalid_argument& e) {
      bad(k, e.what());
    }
    if (std::string errors = compiler_->validate(words); !errors.empty()) bad(k, errors);
    return words;
  }
  const std::string source = source_with_prelude(k, key);
  const std::string& entry = k.passes[key.pass].entry;
  const KernelCache cache = KernelCache::from_environment();
  const std::string cache_key = StableHash()
                                    .add(kCompilerTag)
                                    .add(to_string(k.language))
                                    .add(entry)
                                    .add(k.path.string())
                                    .add(source)
                                    .hex();
  // A diagnostic build (names for a message) is neither looked up nor kept. A whole entry is
  // still validated before a driver sees it: its hash proves it is what was stored, not that
  // what was stored is a module (an entry written by hand, or by a damaged build).
  if (auto cached = optimize ? cache.load(cache_key, ".spv", {"module"}) : std::nullopt) {
    const std::string& bytes = cached->at("module");
    if (bytes.size() % 4 == 0) {
      const std::vector<std::uint32_t> words = words_of(bytes);
      if (!words.empty() && words[0] == 0x07230203u && compiler_->validate(words).empty())
        return words;
    }
    cache.discard(cache_key, ".spv", "not a valid SPIR-V module");
  }
  shaders::CompileOptions options;
  options.entry_point = entry;
  options.auto_bind = true;
  options.optimize = optimize;
  const shaders::Compiled c =
      compiler_->compile(k.path, source,
                         k.language == KernelLanguage::hlsl ? shaders::SourceLanguage::hlsl
                                                            : shaders::SourceLanguage::glsl,
                         options);
  if (!c.ok()) bad(k, "does not compile: " + c.errors);
  if (optimize) cache.store(cache_key, ".spv", {{"module", bytes_of(c.words)}});
  return c.words;
}

}  // namespace xr::vulkan
