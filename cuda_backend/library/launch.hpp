// What reduce's and scan's dispatch layers share: the printable policy of a kernel, grid
// arithmetic, and the (dtype, op) a kernel is instantiated for.
#pragma once

#include <cstddef>
#include <string>

#include "xreduce/error.hpp"
#include "xreduce/types.hpp"

namespace xr::cuda {

// Tuning as data: printable, and each constant's comment (or core's shape table,
// xreduce/shapes.hpp) names the measurement that chose it.
struct Policy {
  int block_threads = 256;
  int items_per_thread = 1;   // elements each thread folds before the block-level tree
  int vector_bytes = 4;       // width of one load
  int max_blocks_per_sm = 0;  // 0: one block per data block (no grid cap)
  const char* chosen_by = "";
  std::string to_string() const;
};

// The (dtype, op) a kernel is instantiated for: i32 and i64 sums run as u32 and u64 sums, same
// bits, so the wrap-around modulo 2^32 and 2^64 is defined behaviour.
struct TypeOp {
  DType dtype;
  Op op;
};
inline TypeOp compute_type(DType t, Op op) {
  if (op == Op::sum && t == DType::i32) return {DType::u32, op};
  if (op == Op::sum && t == DType::i64) return {DType::u64, op};
  return {t, op};
}

inline std::size_t ceil_div(std::size_t a, std::size_t b) {
  return (a + b - 1) / b;
}

// A block count as a grid dimension; CUDA's x-dimension limit is 2^31 - 1.
inline unsigned to_grid(std::size_t blocks) {
  if (blocks > 0x7fffffffu)
    throw Error(ErrorCategory::unsupported,
                "cuda: " + std::to_string(blocks) + " blocks exceed the grid limit 2^31-1");
  return static_cast<unsigned>(blocks);
}

// Rounds a scratch offset up to 256 bytes (cudaMalloc's alignment), so every region of a plan's
// scratch is aligned for vector loads and 64-bit atomics.
inline std::size_t align256(std::size_t bytes) {
  return (bytes + 255) / 256 * 256;
}

}  // namespace xr::cuda
