// Host-side copies of the backends' transfer paths: staging a user's array into pinned or
// host-visible memory and back is a memcpy that one core performs at a fraction of the host
// link's speed, so large ones are split over the host's cores.
#pragma once

#include <cstddef>

namespace xr {

// memcpy(dst, src, bytes), in parallel pieces above kParallelCopyMin bytes.
void copy_parallel(void* dst, const void* src, std::size_t bytes);

// Below this a copy stays on the calling thread: waking the pool costs more than it saves.
inline constexpr std::size_t kParallelCopyMin = std::size_t{1} << 20;

// The staged transfers of both GPU backends: two staging buffers of kStagingBytes, a transfer
// cut into chunks of an eighth of it, from 4 MiB up to kStagingBytes. The DMA of one chunk
// overlaps the host copy of the next, but the first chunk's host copy and the last one's DMA
// are not overlapped: chunks must be small next to the whole, and large next to the fixed cost
// of a chunk in waits and in waking the copy threads (docs/results/H200/tuning-notes.md).
inline constexpr std::size_t kStagingBytes = std::size_t{32} << 20;
std::size_t staging_chunk_bytes(std::size_t transfer_bytes);

}  // namespace xr
