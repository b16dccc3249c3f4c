// A user's kernel (`--kernel FILE`): the file, the language its extension names, and what it
// declares of itself, API-neutral. The backend of its language compiles it on the device it runs
// on (CUDA: NVRTC; Vulkan: libshaderc; OpenCL: the device's driver) and runs it through the same
// Reducer/Scanner interfaces, harness, checks and report as the built-in ladder. The ABI it is
// written against is in docs/kernels.md; the constants and macros here are that document's, in
// code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "xreduce/backend.hpp"

namespace xr {

enum class KernelLanguage : std::uint8_t { cuda, ptx, cubin, glsl, hlsl, spirv, opencl };
std::string_view to_string(KernelLanguage language);
// "cuda" for .cu/.ptx/.cubin, "vulkan" for .comp/.glsl/.hlsl/.spv, "opencl" for .cl: the backend
// that runs it, and runs it by default.
std::string_view backend_of(KernelLanguage language);
// Every backend that takes kernels of `language`, backend_of's first: PTX runs on OpenCL and
// Vulkan too, where NVIDIA's drivers launch it (OpenCL's as a program binary, Vulkan's through
// VK_NVX_binary_import); other drivers refuse its variant when it is made, saying why.
std::vector<std::string_view> backends_taking(KernelLanguage language);
bool runs_on(KernelLanguage language, std::string_view backend);
// Compiled at run time (cuda, glsl, hlsl, opencl) rather than loaded as it is (ptx, cubin, spirv).
bool is_source(KernelLanguage language);

// The grid of one pass: one block per tile of block * items elements, or a single block.
enum class KernelGrid : std::uint8_t { tiles, one };

// One entry point of a kernel, in the order the framework launches them with a barrier between.
struct KernelPass {
  std::string entry;
  KernelGrid grid = KernelGrid::tiles;
};

// Where the kernel's declarations put its ABI's buffers (Vulkan bindings of descriptor set 0;
// CUDA and OpenCL parameters in this order): docs/kernels.md, "Buffers".
inline constexpr std::uint32_t kKernelInputBinding = 0;
inline constexpr std::uint32_t kKernelOutputBinding = 1;
inline constexpr std::uint32_t kKernelScratchBinding = 2;
// A Vulkan kernel's push constants: { uint n; uint tiles; }, at most this many bytes.
inline constexpr std::uint32_t kKernelPushBytes = 8;

// Bytes past n every GPU array of xreduce holds (DeviceArray), so a kernel that reads a whole
// last tile without a bound check (as the classic kernels do) reads the op's identity there: the
// framework writes it before each call. A tile of block * items elements must fit.
inline constexpr std::uint64_t kKernelSlackBytes = std::uint64_t{1} << 18;

struct UserKernel {
  std::filesystem::path path;
  KernelLanguage language = KernelLanguage::cuda;
  std::string contents;  // the file's bytes (source text, PTX, cubin or SPIR-V)
  std::string id;        // "user/<file stem>", or "user/<id>" as declared or given
  Primitive primitive = Primitive::reduce;
  // Threads per block (workgroup). 0: a Vulkan module's own local size; CUDA and OpenCL need a
  // number and take 256 where none is declared.
  std::uint32_t block = 0;
  std::uint32_t items = 1;  // elements per thread per tile: tile = block * items
  // grid=N: at most N blocks in a `tiles` pass, for a kernel that loops over its input with a
  // grid stride (as the classic warp-shuffle deviceReduce); 0: one block per tile.
  std::uint64_t max_groups = 0;
  std::vector<DType> dtypes{DType::i32};
  std::vector<Op> ops{Op::sum};
  std::vector<ScanKind> kinds{ScanKind::inclusive};  // scan only
  std::vector<KernelPass> passes;      // reduce: one, run again over the partials until one is left
  std::uint64_t scratch_per_tile = 0;  // scan: zeroed scratch bytes per tile of the input...
  std::uint64_t scratch_bytes = 0;     // ...plus these, before every call
  bool writes_input = false;
  bool deterministic = true;

  // Elements of one tile once the block size is known.
  std::uint64_t tile(std::uint32_t block_size) const { return std::uint64_t{block_size} * items; }
  // The blocks of a pass over n elements in tiles of `tile`: kernel_groups, capped by grid=.
  std::uint64_t groups(KernelGrid grid, std::uint64_t n, std::uint64_t tile) const;
  // The variant as the registry lists it (mirrors: the file).
  VariantInfo info() const;
};

// Reads `path` and its declarations: `xreduce:` comment lines of a source or PTX file
// (`// xreduce: primitive=scan block=256 dtypes=i32,f32`), then `spec` (the --kernel-spec words,
// the same syntax, for a .cubin or .spv that cannot carry them), then `id` (--kernel-id).
// Error(usage) naming the file (and line) for an unknown extension, an unreadable file, a bad
// declaration, or a prebuilt module (.ptx, .cubin, .spv: nothing defines its macros) that claims
// more than one dtype, op or scan kind.
UserKernel load_user_kernel(const std::filesystem::path& path, std::string_view spec = {},
                            std::string_view id = {});

// The kernels of one command line: Error(usage) when two of one backend and primitive share an
// id (their ids start with "user/", so none takes a built-in variant's).
void check_kernel_ids(const std::vector<UserKernel>& kernels);

// The users' kernels one backend holds (--kernel), in a deque: each variant made from one keeps
// a reference to it.
class UserKernels {
 public:
  // Error(usage) "the <backend> backend already has a <primitive> variant '<id>'" when a built-in
  // variant (`built_in`) or another of its kernels has the id.
  void add(const UserKernel& kernel, std::string_view backend, bool built_in);
  const UserKernel* find(Primitive primitive, std::string_view id) const;
  // Each kernel's variant, in the order added.
  std::vector<VariantInfo> variants() const;

 private:
  std::deque<UserKernel> kernels_;
};

// The ABI's macros for one compile (docs/kernels.md, "Macros"), as NAME, VALUE pairs in the
// language's spelling: XR_T (the type this pass reads: `data`), XR_ACC, XR_OP(a,b), XR_IDENTITY,
// XR_TO_ACC(x), XR_FROM_ACC(x), XR_BLOCK, XR_ITEMS, XR_TILE, XR_EXCLUSIVE, XR_PASS (the pass's
// index: a GLSL file, whose one entry is main, serves several passes with #if XR_PASS == k),
// XR_DTYPE_<T>, XR_OP_<OP>. Error(unsupported) for a dtype the language has no type for (bf16 in
// GLSL, HLSL and OpenCL C). OpenCL C's signed sums wrap through unsigned arithmetic (its signed
// overflow is undefined).
using KernelMacros = std::vector<std::pair<std::string, std::string>>;
KernelMacros kernel_macros(KernelLanguage language, DType data, DType dtype, Op op, ScanKind kind,
                           std::uint32_t block, std::uint32_t items, std::size_t pass = 0);

// The text the framework puts before a kernel's source (after its #version line in GLSL): the
// extensions or headers its types need (CUDA: cuda_fp16.h or cuda_bf16.h for the 16-bit types
// only, so the other types compile without the toolkit's headers; OpenCL C: the cl_khr_fp64 or
// cl_khr_fp16 pragma for f64 or f16 only), then `#define NAME VALUE` for
// each macro. A prebuilt .ptx/.cubin/.spv compiled with the same text (`xreduce kernel-header`)
// sees the same macros.
std::string kernel_prelude(KernelLanguage language, const KernelMacros& macros);

// The grid of `pass` over n elements in tiles of `tile`: ceil(n / tile) blocks (at least one, at
// most max_groups when set: grid=), or one.
std::uint64_t kernel_groups(KernelGrid grid, std::uint64_t n, std::uint64_t tile,
                            std::uint64_t max_groups = 0);
// n rounded up to whole tiles: what a pass may read. Error(unsupported) when the padding exceeds
// kKernelSlackBytes.
std::uint64_t kernel_padded(std::uint64_t n, std::uint64_t tile, DType t, std::string_view id);
// The element counts of a reduce's levels over n > 0 elements: level 0 is the input, level i + 1
// holds one partial per block of the pass over level i (one per tile, at most max_groups when
// set), the last holds one value (the classic recursive reduction). Error(usage) for a tile of
// fewer than 2 elements, which would never get there.
std::vector<std::uint64_t> kernel_reduce_levels(std::uint64_t n, std::uint64_t tile,
                                                std::uint64_t max_groups = 0);
// A scan's zeroed scratch over n elements in tiles of `tile`: scratch-per-tile per block of a
// `tiles` pass plus
// scratch-bytes, and at least kKernelMinScratchBytes (a buffer is bound even when none is
// declared).
inline constexpr std::uint64_t kKernelMinScratchBytes = 256;
std::uint64_t kernel_scratch_bytes(const UserKernel& kernel, std::uint64_t n, std::uint64_t tile);
// `count` elements of `t` holding the identity of `op`: what the padding holds.
std::vector<std::byte> identity_bytes(DType t, Op op, std::size_t count);

}  // namespace xr
