#include "shader_compiler.hpp"

#include <fstream>
#include <shaderc/shaderc.hpp>
#include <spirv-tools/libspirv.hpp>
#include <sstream>

namespace xr::shaders {
namespace {

constexpr spv_target_env kTargetEnv = SPV_ENV_VULKAN_1_2;

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// #include "name": the including file's directory first, then the include directories. shaderc
// owns the result until ReleaseInclude; an empty source_name tells it the file was not found
// (the content then holds the message).
class Includer final : public shaderc::CompileOptions::IncluderInterface {
 public:
  explicit Includer(std::vector<std::filesystem::path> dirs) : dirs_(std::move(dirs)) {}

  shaderc_include_result* GetInclude(const char* requested, shaderc_include_type,
                                     const char* requesting, std::size_t) override {
    auto* found = new Found;
    std::vector<std::filesystem::path> candidates{std::filesystem::path(requesting).parent_path() /
                                                  requested};
    for (const auto& dir : dirs_) candidates.push_back(dir / requested);
    for (const auto& path : candidates)
      if (std::filesystem::is_regular_file(path)) {
        found->name = path.string();
        found->content = read_text(path);
        break;
      }
    if (found->name.empty()) found->content = std::string("cannot find ") + requested;
    found->result = {found->name.c_str(), found->name.size(), found->content.c_str(),
                     found->content.size(), found};
    return &found->result;
  }

  void ReleaseInclude(shaderc_include_result* result) override {
    delete static_cast<Found*>(result->user_data);
  }

 private:
  struct Found {
    std::string name, content;
    shaderc_include_result result{};
  };
  std::vector<std::filesystem::path> dirs_;
};

}  // namespace

struct ShaderCompiler::State {
  shaderc::Compiler compiler;
  spvtools::SpirvTools tools{kTargetEnv};
};

ShaderCompiler::ShaderCompiler() : state_(std::make_unique<State>()) {}
ShaderCompiler::~ShaderCompiler() = default;

Compiled ShaderCompiler::compile(const std::filesystem::path& path, const std::string& text,
                                 SourceLanguage language, const CompileOptions& options) {
  shaderc::CompileOptions o;
  o.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_2);
  if (language == SourceLanguage::hlsl) {
    // glslang's HLSL front end decorates structured buffers BufferBlock, which SPIR-V 1.4 took
    // away: HLSL targets SPIR-V 1.3 (Vulkan 1.1), which the Vulkan 1.2 validator accepts.
    o.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
    o.SetSourceLanguage(shaderc_source_language_hlsl);
    o.SetHlsl16BitTypes(true);
    o.SetHlslIoMapping(true);
  }
  if (options.auto_bind) {
    o.SetAutoBindUniforms(true);
    o.SetAutoMapLocations(true);
  }
  o.SetOptimizationLevel(options.optimize ? shaderc_optimization_level_performance
                                          : shaderc_optimization_level_zero);
  for (const auto& define : options.defines) {
    const auto eq = define.find('=');
    if (eq == std::string::npos)
      o.AddMacroDefinition(define);
    else
      o.AddMacroDefinition(define.substr(0, eq), define.substr(eq + 1));
  }
  o.SetIncluder(std::make_unique<Includer>(options.include_dirs));
  const shaderc::SpvCompilationResult result =
      state_->compiler.CompileGlslToSpv(text.data(), text.size(), shaderc_compute_shader,
                                        path.string().c_str(), options.entry_point.c_str(), o);
  Compiled out;
  if (result.GetCompilationStatus() != shaderc_compilation_status_success) {
    out.errors = result.GetErrorMessage();
    return out;
  }
  out.words.assign(result.cbegin(), result.cend());
  out.errors = validate(out.words);
  if (!out.ok()) out.words.clear();
  return out;
}

std::string ShaderCompiler::validate(std::span<const std::uint32_t> words) const {
  std::string messages;
  state_->tools.SetMessageConsumer(
      [&](spv_message_level_t, const char*, const spv_position_t& at, const char* message) {
        messages += "spirv-val: word " + std::to_string(at.index) + ": " + message + "\n";
      });
  const bool valid = state_->tools.Validate(words.data(), words.size());
  if (!valid && messages.empty()) messages = "spirv-val: invalid module\n";
  return valid ? std::string() : messages;
}

std::string ShaderCompiler::disassemble(std::span<const std::uint32_t> words) const {
  std::string text;
  state_->tools.Disassemble(
      words.data(), words.size(), &text,
      SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT);
  return text;
}

}  // namespace xr::shaders
