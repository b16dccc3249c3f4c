// GLSL (and HLSL) compute shaders to SPIR-V in process: libshaderc (glslang and the SPIR-V
// optimizer) and SPIRV-Tools' validator, kept alive across compiles. The build compiles every
// embedded module through it (spirv_embed.cpp, one process per shader source instead of one glslc,
// spirv-val and spirv-dis per module). Plain C++: no Vulkan header, no xreduce core.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace xr::shaders {

enum class SourceLanguage { glsl, hlsl };

struct CompileOptions {
  std::vector<std::string> defines;                 // "NAME" or "NAME=VALUE"
  std::vector<std::filesystem::path> include_dirs;  // searched after the including file's dir
  bool optimize = true;                             // glslc -O
  std::string entry_point = "main";                 // HLSL's entry function (GLSL's is main)
  // Bindings for resources that declare none, in declaration order, in set 0 (HLSL's
  // StructuredBuffer without register(), as the HLSL reduction steps declare); HLSL's
  // register(uN/tN) map to bindings.
  bool auto_bind = false;
};

// A compile's words, or what went wrong (the compiler's or the validator's messages).
struct Compiled {
  std::vector<std::uint32_t> words;
  std::string errors;
  bool ok() const { return errors.empty(); }
};

// One compiler for many modules; not thread-safe. The target environment is Vulkan 1.2
// (SPIR-V 1.5): the oldest the backend accepts, and the first with the Vulkan memory model and
// 64-bit buffer atomics in core.
class ShaderCompiler {
 public:
  ShaderCompiler();
  ~ShaderCompiler();
  ShaderCompiler(const ShaderCompiler&) = delete;
  ShaderCompiler& operator=(const ShaderCompiler&) = delete;

  // Compiles the GLSL compute shader `text` (named `path` in messages, its directory searched
  // first for #include "...") and validates the result.
  Compiled compile_glsl(const std::filesystem::path& path, const std::string& text,
                        const CompileOptions& options) {
    return compile(path, text, SourceLanguage::glsl, options);
  }
  // The same for either language: HLSL compute shaders (16-bit types enabled) through glslang's
  // HLSL front end.
  Compiled compile(const std::filesystem::path& path, const std::string& text,
                   SourceLanguage language, const CompileOptions& options);
  // spirv-val's verdict on `words` for Vulkan 1.2: empty when valid.
  std::string validate(std::span<const std::uint32_t> words) const;
  // spirv-dis's text of `words`, for reading beside the module.
  std::string disassemble(std::span<const std::uint32_t> words) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace xr::shaders
