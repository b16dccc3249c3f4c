// xr_spirv_embed: the build's shader step for one GLSL source. Compiles each module the build
// asks for (a name and its defines), validates it, writes it (.spv, and .spvasm with
// --disassemble) into the output directory for reading, and writes one C++ file embedding every
// module as a uint32 array with a function listing them (xreduce/spirv_modules.hpp).
//
//   xr_spirv_embed --source S.comp --function NAME --cpp OUT.cpp --out-dir DIR
//                  [--include-dir DIR] [--depend FILE]... [--cache DIR] [--disassemble]
//                  MODULE[=DEFINE,DEFINE...]...
//
// --cache DIR: a module whose inputs were compiled before (the same compiler binary, defines,
// source and --depend files) is taken from DIR instead of compiled again; the release and the
// sanitizer builds share one cache, since SPIR-V does not depend on how the host code is built.
// A failure prints the module and the messages and exits 1, leaving no output file.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "shader_compiler.hpp"
#include "xreduce/kernel_cache.hpp"

namespace fs = std::filesystem;

namespace {

struct ModuleRequest {
  std::string name;
  std::vector<std::string> defines;
};

struct Arguments {
  fs::path source, cpp, out_dir;
  std::string function;
  std::vector<fs::path> include_dirs, depends;
  std::optional<fs::path> cache;
  bool disassemble = false;
  std::vector<ModuleRequest> modules;
};

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "xr_spirv_embed: %s\n", message.c_str());
  std::exit(1);
}

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot read " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Writes through a temporary beside `path` and a rename: a reader (make, a second build sharing
// the cache) never sees a partial file.
void write_bytes(const fs::path& path, const void* data, std::size_t size) {
  const fs::path tmp = path.string() + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) fail("cannot write " + tmp.string());
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) fail("cannot write " + path.string() + ": " + ec.message());
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, sep);)
    if (!item.empty()) out.push_back(item);
  return out;
}

Arguments parse(int argc, char** argv) {
  Arguments a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) fail(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--source")
      a.source = value();
    else if (arg == "--cpp")
      a.cpp = value();
    else if (arg == "--out-dir")
      a.out_dir = value();
    else if (arg == "--function")
      a.function = value();
    else if (arg == "--include-dir")
      a.include_dirs.push_back(value());
    else if (arg == "--depend")
      a.depends.push_back(value());
    else if (arg == "--cache")
      a.cache = fs::path(value());
    else if (arg == "--disassemble")
      a.disassemble = true;
    else if (arg.rfind("--", 0) == 0)
      fail("unknown option " + arg);
    else {
      const auto eq = arg.find('=');
      a.modules.push_back({arg.substr(0, eq), eq == std::string::npos
                                                  ? std::vector<std::string>{}
                                                  : split(arg.substr(eq + 1), ',')});
    }
  }
  if (a.source.empty() || a.cpp.empty() || a.out_dir.empty() || a.function.empty() ||
      a.modules.empty())
    fail("usage: --source S --function NAME --cpp OUT --out-dir DIR MODULE[=DEFINES]...");
  return a;
}

// FNV-1a, 64 bits: the cache key of a module's inputs.
using Fnv = xr::StableHash;

std::vector<std::uint32_t> words_of(const std::string& bytes) {
  std::vector<std::uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

// The module from the cache, or compiled (and stored there). core's KernelCache verifies an
// entry (its key, length and hash) before the module is embedded in the build.
std::vector<std::uint32_t> build_module(xr::shaders::ShaderCompiler& compiler, const Arguments& a,
                                        const std::string& source_text, const Fnv& inputs,
                                        const ModuleRequest& m) {
  Fnv key = inputs;
  for (const auto& d : m.defines) key.add(d);
  const xr::KernelCache cache(a.cache ? a.cache->string() : std::string(), "xr_spirv_embed");
  if (auto cached = cache.load(key.hex(), ".spv", {"module"})) {
    std::vector<std::uint32_t> words = words_of(cached->at("module"));
    if (!words.empty() && words[0] == 0x07230203u && compiler.validate(words).empty()) return words;
    cache.discard(key.hex(), ".spv", "not a valid SPIR-V module");
  }
  const xr::shaders::Compiled c =
      compiler.compile_glsl(a.source, source_text, {m.defines, a.include_dirs, true});
  if (!c.ok()) fail(m.name + " (" + a.source.string() + "):\n" + c.errors);
  cache.store(
      key.hex(), ".spv",
      {{"module", std::string(reinterpret_cast<const char*>(c.words.data()), c.words.size() * 4)}});
  return c.words;
}

void append_array(std::string& cpp, std::size_t index, const std::vector<std::uint32_t>& words) {
  cpp += "const std::uint32_t kModule" + std::to_string(index) + "[] = {";
  char word[32];
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::snprintf(word, sizeof word, "%s0x%08x,", i % 8 ? "" : "\n    ", words[i]);
    cpp += word;
  }
  cpp += "\n};\n";
}

}  // namespace

int main(int argc, char** argv) {
  const Arguments a = parse(argc, argv);
  const std::string source_text = read_bytes(a.source);
  // Everything a module's words depend on but its defines: the compiler (this very binary), the
  // source and what it may include.
  Fnv inputs;
  inputs.add(read_bytes("/proc/self/exe"));
  inputs.add(source_text);
  for (const auto& d : a.depends) inputs.add(read_bytes(d));

  xr::shaders::ShaderCompiler compiler;
  std::error_code ec;
  fs::create_directories(a.out_dir, ec);
  std::string cpp = "// Generated by xr_spirv_embed from " + a.source.filename().string() +
                    ": do not edit.\n#include \"xreduce/spirv_modules.hpp\"\n\n"
                    "namespace xr::vulkan::spirv {\nnamespace {\n\n";
  std::string table = "const Module kModules[] = {\n";
  for (std::size_t i = 0; i < a.modules.size(); ++i) {
    const ModuleRequest& m = a.modules[i];
    const std::vector<std::uint32_t> words = build_module(compiler, a, source_text, inputs, m);
    write_bytes(a.out_dir / (m.name + ".spv"), words.data(), words.size() * 4);
    if (a.disassemble) {
      const std::string text = compiler.disassemble(words);
      write_bytes(a.out_dir / (m.name + ".spvasm"), text.data(), text.size());
    }
    append_array(cpp, i, words);
    table += "    {\"" + m.name + "\", kModule" + std::to_string(i) + "},\n";
  }
  cpp += "\n" + table + "};\n\n}  // namespace\n\nstd::span<const Module> " + a.function +
         "() { return kModules; }\n\n}  // namespace xr::vulkan::spirv\n";
  write_bytes(a.cpp, cpp.data(), cpp.size());
  return 0;
}
