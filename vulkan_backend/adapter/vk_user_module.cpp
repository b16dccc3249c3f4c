#include "vk_user_module.hpp"

#include <algorithm>
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

void check_resources(const UserKernel& k, const shaders::ModuleInterface& m) {
  const std::uint32_t last =
      k.primitive == Primitive::scan ? kKernelScratchBinding : kKernelOutputBinding;
  bool output = false;
  for (const auto& r : m.resources) {
    const std::string what = r.name.empty() ? "a resource" : "'" + r.name + "'";
    if (r.kind != shaders::ResourceKind::storage_buffer)
      bad(k, what + " is not a storage buffer; the ABI has storage buffers only (docs/kernels.md)");
    if (!r.has_binding || r.set != 0 || r.binding > last)
      bad(k, what + " is at set " + std::to_string(r.set) + " binding " +
                 std::to_string(r.binding) + "; the " + std::string(to_string(k.primitive)) +
                 " ABI has set 0, bindings 0 (input), 1 (output)" +
                 (k.primitive == Primitive::scan ? ", 2 (scratch)" : ""));
    output = output || (r.binding == kKernelOutputBinding && r.writable);
  }
  // A scan's passes may each leave a buffer out (the optimizer drops what a pass never uses);
  // whether the output is written at all, its conformance check sees.
  if (!output && k.primitive == Primitive::reduce)
    bad(k, "writes no storage buffer at binding 1 (the partials)");
  if (m.push_constant_bytes && *m.push_constant_bytes > kKernelPushBytes)
    bad(k, "its push constants take " + std::to_string(*m.push_constant_bytes) +
               " bytes; the ABI's are { uint n; uint tiles; } (8 bytes)");
}

}  // namespace

UserModules::UserModules() = default;
UserModules::~UserModules() = default;

const UserModule& UserModules::get(const UserKernel& k, const UserModuleKey& key) {
  const std::string name = module_name(k, key);
  if (auto it = modules_.find(name); it != modules_.end()) return *it->second;
  auto module = std::make_unique<UserModule>();
  module->name = name;
  module->words = compile(k, key);
  shaders::ModuleInterface m;
  try {
    m = shaders::read_interface(module->words);
  } catch (const std::invalid_argument& e) {
    bad(k, e.what());
  }
  const shaders::EntryPoint& entry = find_entry(k, m, k.passes[key.pass].entry);
  module->entry = entry.name;
  module->workgroup = check_local_size(k, entry);
  check_resources(k, m);
  return *modules_.emplace(name, std::move(module)).first->second;
}

std::vector<std::uint32_t> UserModules::compile(const UserKernel& k, const UserModuleKey& key) {
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
  if (auto cached = cache.load(cache_key, ".spv"); cached && cached->size() % 4 == 0)
    return words_of(*cached);
  shaders::CompileOptions options;
  options.entry_point = entry;
  options.auto_bind = true;
  const shaders::Compiled c =
      compiler_->compile(k.path, source,
                         k.language == KernelLanguage::hlsl ? shaders::SourceLanguage::hlsl
                                                            : shaders::SourceLanguage::glsl,
                         options);
  if (!c.ok()) bad(k, "does not compile: " + c.errors);
  cache.store(cache_key, ".spv", bytes_of(c.words));
  return c.words;
}

}  // namespace xr::vulkan
