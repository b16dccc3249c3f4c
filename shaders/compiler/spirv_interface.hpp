// What a SPIR-V module shows the pipeline that runs it: entry points with their local sizes, the
// descriptor resources and the push-constant block. Read from the words, so a user's kernel
// (`--kernel`, vulkan_backend/adapter/vk_user_module) is checked against the ABI before a pipeline
// is made from it. Plain C++: no Vulkan header, no xreduce core.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace xr::shaders {

// One dimension of a local size: a literal, or a specialization constant (its id and default).
struct LocalDim {
  std::uint32_t value = 1;
  std::optional<std::uint32_t> spec_id;
};

struct EntryPoint {
  std::string name;
  std::uint32_t model = 0;  // SPIR-V ExecutionModel
  bool compute = false;     // GLCompute
  std::array<LocalDim, 3> local_size{};
};

enum class ResourceKind {
  storage_buffer,
  uniform_buffer,
  sampled_image,           // GLSL texture*, HLSL Texture*
  storage_image,           // GLSL image*, HLSL RWTexture*
  uniform_texel_buffer,    // GLSL textureBuffer, HLSL Buffer<T>
  storage_texel_buffer,    // GLSL imageBuffer, HLSL RWBuffer<T>
  sampler,                 // GLSL sampler, HLSL SamplerState
  combined_image_sampler,  // GLSL sampler2D and the like
  acceleration_structure,
  other,
};

struct Resource {
  std::string name;                  // OpName of the variable, else of its block type; may be empty
  std::string block;                 // OpName of its block type (HLSL's globals: "$Global")
  std::vector<std::string> members;  // the block's member names, where the module names them
  ResourceKind kind = ResourceKind::other;
  std::uint32_t set = 0;
  std::uint32_t binding = 0;
  bool has_binding = false;
  bool writable = true;  // false when the variable or every member is NonWritable
};

struct ModuleInterface {
  std::vector<EntryPoint> entry_points;
  std::vector<Resource> resources;
  std::optional<std::uint32_t> push_constant_bytes;  // the block's extent, when there is one
};

// std::invalid_argument with one line for what is not a module: bad magic (byte-swapped said
// so), a truncated header, an instruction of 0 words or running past the end.
ModuleInterface read_interface(std::span<const std::uint32_t> words);
// The bytes of the module's Workgroup variables (GLSL `shared`, HLSL `groupshared`), each laid
// out naturally (every scalar aligned to its own size: the least any implementation allocates),
// with `specialization` (SpecId -> value, as the pipeline sets them) applied to the spec
// constants array lengths are written with. std::nullopt when a length is an expression this
// reader does not evaluate (integer arithmetic, shifts, conversions and the components of
// gl_WorkGroupSize are). std::invalid_argument as read_interface.
std::optional<std::uint64_t> workgroup_memory_bytes(
    std::span<const std::uint32_t> words,
    const std::map<std::uint32_t, std::uint32_t>& specialization = {});
// A file's bytes as words: std::invalid_argument when they are not a whole number of words or
// do not start with SPIR-V's magic.
std::vector<std::uint32_t> words_from_bytes(std::string_view bytes);

}  // namespace xr::shaders
