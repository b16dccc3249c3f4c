// What a shared variant id promises beyond its name (one id, one algorithm, on every backend that
// implements it): the tile each block (workgroup) works on, the n up to which one block does the
// whole job, and how a multi-pass reduce and a tiled scan lay out their passes and scratch. The GPU
// backends plan from these; tests/shapes checks that each backend's plans follow them, and lists
// the shapes a backend keeps apart, each with its measurement.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "xreduce/primitive.hpp"

namespace xr {

// Threads per block (workgroup) and elements per thread of one tile, for 4-byte elements. The
// vectorised fast/* tiles are vectors of 16 bytes in CUDA and of four elements in Vulkan: the
// same for 4-byte elements, and one of kShapeExceptions for the other sizes.
struct TileShape {
  std::uint32_t threads = 0;
  std::uint32_t items = 1;
  constexpr std::uint64_t tile() const { return std::uint64_t{threads} * items; }
  constexpr bool operator==(const TileShape&) const = default;
};

struct SharedShape {
  Primitive primitive;
  std::string_view id;
  TileShape shape;
  std::string_view chosen_by;  // the measurement or the reason behind it
};

// Every shared id's shape, in catalog order. Ids one backend alone implements keep their shapes
// in that backend (warp/shuffle-up's is the register scan's below, as subgroup/*'s are).
inline constexpr SharedShape kSharedShapes[] = {
    {Primitive::reduce,
     "smem/interleaved-divergent",
     {256, 1},
     "Harris used 128; 256 fills an SM with 8 blocks of the shared tree, as the HLSL reduction "
     "steps. Not swept"},
    {Primitive::reduce, "smem/interleaved-strided", {256, 1}, "as interleaved-divergent"},
    {Primitive::reduce, "smem/sequential", {256, 1}, "as interleaved-divergent"},
    {Primitive::reduce, "smem/first-add", {256, 2}, "Harris #4: two elements per thread on load"},
    {Primitive::reduce, "smem/unroll-last-warp", {256, 2}, "as first-add"},
    {Primitive::reduce, "smem/complete-unroll", {256, 2}, "as first-add"},
    {Primitive::reduce,
     "smem/multi-element",
     {256, 2},
     "as first-add, over a grid-stride loop; H200 2^28 f32: 3607 GB/s (CUDA), 3697 (Vulkan)"},
    {Primitive::reduce,
     "fast/vectorized",
     {256, 16},
     "4 loads of 16 bytes in flight per thread; H200 2^28 f32: 0.994x CUB (xreduce_cuda_tune), "
     "every block of 128..512 x unroll 2..8 within 0.987x..0.998x"},
    {Primitive::reduce, "fast/single-pass", {256, 16}, "as fast/vectorized"},
    {Primitive::scan, "smem/hillis-steele", {512, 1}, "GPU Gems 3 39.2.1: one element per thread"},
    {Primitive::scan, "bit/one-layer", {256, 1}, "the BIT scan's 256 threads"},
    {Primitive::scan, "bit/between-blocks", {256, 1}, "the BIT scan's 256 threads"},
    {Primitive::scan, "bit/smem", {256, 1}, "the BIT scan's 256 threads"},
    {Primitive::scan, "bit/unrolled", {256, 1}, "the BIT scan's 256 threads"},
    {Primitive::scan,
     "blelloch/bcao",
     {512, 2},
     "the bcao the BIT scan is measured against: 512 threads x 2"},
    {Primitive::scan,
     "fast/reduce-then-scan",
     {256, 16},
     "4 vectors of 16 bytes per thread and tile; pass 3 at 3.9 TB/s of its 3n bytes (H200)"},
    {Primitive::scan,
     "fast/decoupled-lookback",
     {128, 32},
     "8 vectors of 16 bytes, pauses 1200/600 ns: 1.05x CUB on an H200 at 2^28 "
     "(xreduce_cuda_scan_tune; 256 x 4 0.78x, 256 x 8 0.99x, 128 x 6 1.03x)"},
};

// The register scans (warp/shuffle-up in CUDA, subgroup/shuffle-up and subgroup/arithmetic in
// Vulkan): eight consecutive items per thread in registers, a subgroup (warp) scan of the
// threads' totals. Not swept.
inline constexpr TileShape kRegisterScanShape{256, 8};

// The shape of shared id `id` of `primitive`; {0, 0} for an id without one (constexpr: CUDA's
// kernels take it as template arguments).
constexpr TileShape shared_shape(Primitive primitive, std::string_view id) {
  for (const SharedShape& s : kSharedShapes)
    if (s.primitive == primitive && s.id == id) return s.shape;
  return {0, 0};
}

// A shape a backend keeps apart from the shared one, for some element types, with the
// measurement that chose it.
struct ShapeException {
  std::string_view backend;
  Primitive primitive;
  std::string_view ids;     // an id, or "family/*"
  std::string_view dtypes;  // the element types it applies to, comma-separated
  std::string_view what;    // the shape kept
  std::string_view measurement;
};
inline constexpr ShapeException kShapeExceptions[] = {
    {"vulkan", Primitive::scan, "fast/decoupled-lookback", "i64,u64,f64",
     "64 x 16 vectors of 4 elements (64 x 64) for 8-byte accumulators, paused 1200 cycles",
     "H200, 2^28, cold, bench/gpu/scan-study, i64 / f64 ms: 64 x 16 1.349 / 1.563, 128 x 8 "
     "1.632 / 1.506, 256 x 8 unpaused 1.719 / 1.800 (CUDA's 1.196 in the same processes); the "
     "32-bit types take the shared 128 x 32 (vk_scan_table.cpp has their sweep)"},
    {"vulkan", Primitive::scan, "fast/*", "f16,bf16",
     "lanes take 8 elements (one 16-byte vector, CUDA's), not 4: the 16-bit tiles twice the shared "
     "one (scan_vector_tile.glsl)",
     "H200, 2^28, cold, Vulkan ms 4 -> 8 per lane: f16 / bf16 fast/reduce-then-scan 0.568 -> "
     "0.499 / 0.496 -> 0.451, look-back 0.605 -> 0.587 / 0.547 -> 0.544 (CUDA rts 0.442 / 0.426, "
     "look-back 0.359 / 0.356); docs/results/H200/compiled"},
    {"opencl", Primitive::scan, "fast/*", "f16,bf16",
     "lanes take 8 elements (one 16-byte vector, CUDA's and Vulkan's), not 4: the 16-bit tiles "
     "twice the shared one (kernels/scan_tile.cl)",
     "Vulkan's measurement (the vulkan entry above); not measured apart on OpenCL"},
    {"cuda", Primitive::reduce, "fast/*", "i64,u64,f64,f16,bf16",
     "vectors of 16 bytes whatever the element (2 of 8 bytes, 8 of 2), where Vulkan's hold 4 "
     "elements (32 and 8 bytes): the bytes in flight stay those tuned on 4-byte types",
     "Vulkan: u16vec4 -> uvec2 (one 64-bit access) took the look-back's f16 tile pass from 0.358 "
     "to 0.350 ms (H200, 2^27); its fast/* scans take 8 halves per lane (the Vulkan entry)"},
    {"cuda", Primitive::scan, "fast/reduce-then-scan", "i64,u64,f64,f16,bf16",
     "as the reduce fast/* entry", "not measured apart from the look-back"},
    {"cuda", Primitive::scan, "fast/decoupled-lookback", "f16,bf16", "as the reduce fast/* entry",
     "f16/bf16 look-back: 1.30x CUB's float-accumulator scan (H100, 2^28); 8-byte types take 16 "
     "vectors of two, the shared 128 x 32 (dispatch_scan_fast.cu has the sweep)"},
};

// Whether core lists `backend`'s shape of `id` over `dtype` as an exception.
bool shape_exception(std::string_view backend, Primitive primitive, std::string_view id,
                     std::string_view dtype);

// fast/single-pass: one block, without partials or ticket, up to this n; the ticket's chain of L2
// round trips (partial store, fence, atomic, the last block's loads) costs more than one block's
// extra iterations below it; one block still wins at 16K and loses at 32K in both APIs (the
// 8K..64K sweep is in docs/results/H200/tuning-notes.md).
inline constexpr std::uint64_t kSinglePassOneBlockMax = 16384;

// fast/decoupled-lookback (both APIs) up to this n: one block (workgroup) scans the array tile by
// tile with a running carry (fast/reduce-then-scan's tile pass over one chunk), without ticket,
// status words or look-back, whose L2 round trips and larger code cost more than one block's
// extra tiles below it (cold, the look-back's code itself is fetched from DRAM). Chosen by
// XR_SCAN_ONE_GROUP_MAX sweeps (docs/results/H200/scan/vulkan-vs-cuda.md; the points are in
// docs/results/H200/tuning-notes.md): one tile of the pass (256 x 4 vectors) is where it stops
// paying.
inline constexpr std::uint64_t kScanOneGroupMax = 4096;

// XR_SCAN_ONE_GROUP_MAX=N: kScanOneGroupMax for this process (0: never one group), for the
// sweep that chose it. Read once by each GPU backend's knobs.
struct ScanOneGroupKnob {
  std::uint64_t max = kScanOneGroupMax;
  std::string given;  // as set, when well-formed; empty otherwise
  std::string error;  // one line when set but not a whole number up to 2^32
};
ScanOneGroupKnob read_scan_one_group_knob();

// One pass of a multi-pass reduce: `count` elements from `in_offset` (of the input for pass 0,
// else of the partials in scratch) into `blocks` partials at `out_offset` of scratch; the last
// pass has one block, whose partial is the result.
struct ReducePass {
  std::uint64_t count = 0;
  std::uint64_t in_offset = 0;
  std::uint64_t out_offset = 0;
  std::uint64_t blocks = 1;
};
// The passes over n elements, where blocks(m) gives a pass's blocks over m elements (at least
// 1): each pass reduces the previous one's partials until one block remains. Partials of
// successive passes sit one after another in scratch, each segment starting on a multiple of
// `align` elements so vector loads of the next pass stay aligned. Scratch holds
// scratch_elements(passes) partials.
std::vector<ReducePass> reduce_passes(std::uint64_t n, std::uint64_t align,
                                      const std::function<std::uint64_t(std::uint64_t m)>& blocks);
std::uint64_t scratch_elements(std::span<const ReducePass> passes, std::uint64_t align);

// A tiled scan (smem/hillis-steele, blelloch/bcao, the register scans): level 0 scans n elements
// tile by tile and writes each tile's total, level k scans level k-1's totals (exclusively)
// until one tile holds them, then each level below the top gets its tiles' prefixes added, top
// down. Scratch holds, for each level k >= 1, its input (the totals) and its output, in
// accumulators, and for a 16-bit scan of more than one tile (`wide_outputs`) level 0's n
// accumulators, so the last add rounds each output once.
struct TiledScanLayout {
  std::vector<std::uint64_t> counts;   // elements scanned at level k; counts[0] = n
  std::vector<std::uint64_t> totals;   // [k - 1]: bytes into scratch of level k's input
  std::vector<std::uint64_t> scanned;  // [k - 1]: bytes into scratch of level k's output
  std::optional<std::uint64_t> wide;   // bytes into scratch of level 0's accumulators
  std::uint64_t scratch_bytes = 0;
  std::size_t levels() const { return counts.size(); }
};
// Each region starts at a multiple of `align` bytes (CUDA: 256, cudaMalloc's alignment; Vulkan:
// one vector of four accumulators).
TiledScanLayout tiled_scan_layout(std::uint64_t n, std::uint64_t tile, std::size_t acc_bytes,
                                  bool wide_outputs, std::uint64_t align);

}  // namespace xr
