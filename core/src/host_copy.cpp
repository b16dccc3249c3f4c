#include "xreduce/host_copy.hpp"

#include <algorithm>
#include <cstring>
#include <execution>
#include <numeric>
#include <vector>

namespace xr {
namespace {
// Pieces of 1 MiB: enough of them to spread a 32 MiB staging chunk over 16 cores twice, large
// enough that scheduling costs nothing next to the copy.
constexpr std::size_t kPieceBytes = std::size_t{1} << 20;
}  // namespace

void copy_parallel(void* dst, const void* src, std::size_t bytes) {
  if (bytes < kParallelCopyMin) {
    if (bytes) std::memcpy(dst, src, bytes);
    return;
  }
  std::vector<std::size_t> pieces((bytes + kPieceBytes - 1) / kPieceBytes);
  std::iota(pieces.begin(), pieces.end(), std::size_t{0});
  auto* out = static_cast<std::byte*>(dst);
  const auto* in = static_cast<const std::byte*>(src);
  std::for_each(std::execution::par, pieces.begin(), pieces.end(), [&](std::size_t piece) {
    const std::size_t begin = piece * kPieceBytes;
    std::memcpy(out + begin, in + begin, std::min(kPieceBytes, bytes - begin));
  });
}

std::size_t staging_chunk_bytes(std::size_t transfer_bytes) {
  constexpr std::size_t kMinChunk = std::size_t{4} << 20;
  constexpr std::size_t kChunksPerTransfer = 8;
  return std::clamp(transfer_bytes / kChunksPerTransfer, kMinChunk, kStagingBytes);
}

}  // namespace xr
