#version 450
// fast/decoupled-lookback: the single-pass scan of Merrill & Garland (2016) with the decoupled
// fallback of Smith, Levien & Owens (SPAA 2025), so it finishes on any Vulkan device.
//
// A workgroup draws a ticket from a 64-bit counter (pc.aux at pc.aux_offset + pc.param); the
// ticket gives its tile (ticket % pc.groups) and its epoch (ticket / pc.groups): tiles are
// claimed in order, and the status words of earlier dispatches read as "not yet published", so
// nothing is reset between submissions of the recorded command buffer. The workgroup scans its
// tile (scan_vector_tile.glsl); subgroup 0 publishes the tile's aggregate, looks back over its
// predecessors' status words a subgroup-width window at a time, and publishes the inclusive
// prefix; then the tile is stored with its exclusive prefix.
//
// Forward progress: Vulkan promises none between workgroups. A window that still holds an
// unpublished predecessor after pc.limit polls stops waiting: subgroup 0 reduces that tile's
// input itself (the input is read-only for the whole dispatch), offers the aggregate to the
// tile's status word (compare-and-swap from the word it read) and goes on. Every wait is
// bounded, so the scan ends whatever the scheduler does. Fallbacks are counted at
// pc.aux_offset + pc.param + 1.
//
// Memory model: everything workgroups share is a 64-bit word written and read by device-scope
// atomics (flag, epoch and value in one word, as CUB's ScanTileState packs 4-byte values): a
// reader never pairs a flag with another write's value, so relaxed ordering suffices and no
// non-atomic data crosses workgroups. GLSL450 memory model with explicit scopes (see
// fast_single_pass.comp for why not VulkanMemoryModel).
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#include "scan_common.glsl"

// The 64-bit words at pc.aux: a status word per tile, the ticket counter, the fallback count.
// Coherent, as the memory model above needs; reached only through atomics.
#ifdef XR_ADDRESS
layout(buffer_reference, std430, buffer_reference_align = 8) coherent buffer State {
  uint64_t w;
};
#define STATE(k) State(pc.aux + (uint64_t(pc.aux_offset) + (k)) * 8).w
#else
layout(set = 0, binding = 2) coherent buffer States { uint64_t states[]; };
#define STATE(k) states[pc.aux_offset + (k)]
#endif

#include "scan_vector_tile.glsl"

// The pause between two polls of an incomplete window, in dependent integer steps (about 4
// cycles each), and twice that before the first look: hundreds of subgroups polling the same
// status words slow every L2 access (CUDA's look-back pauses with __nanosleep; GLSL has no sleep,
// so the subgroup spins on registers instead of memory). 0: no pause (small grids).
layout(constant_id = 2) const uint BACKOFF = 0;

shared uint s_sink;

void back_off(uint steps) {
  uint x = gl_SubgroupInvocationID + 1u;
  for (uint i = 0; i < steps; ++i) x = x * 1664525u + 1013904223u;
  if (x == 0u) s_sink = x;  // keeps the loop: the compiler cannot prove x never reaches 0
}

const uint kAggregate = 1u;  // the word holds the tile's own total
const uint kPrefix = 2u;     // the word holds everything up to and including the tile
const uint kEpochs = (1u << 30) - 1u;  // epoch 0 is "never written"

#if defined(T_F32)
uint bits_of(T v) { return floatBitsToUint(v); }
T value_of(uint b) { return uintBitsToFloat(b); }
#else
uint bits_of(T v) { return uint(v); }
T value_of(uint b) { return T(b); }
#endif

uint64_t pack(uint epoch, uint flag, T v) {
  return (uint64_t((epoch << 2) | flag) << 32) | uint64_t(bits_of(v));
}
// 0 when the word is of another epoch (not yet published in this dispatch), else its flag.
uint flag_of(uint64_t w, uint epoch) {
  const uint hi = uint(w >> 32);
  return (hi >> 2) == epoch ? (hi & 3u) : 0u;
}

uint64_t load_status(uint tile) {
  return atomicLoad(STATE(tile), gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}
void store_status(uint tile, uint64_t w) {
  atomicStore(STATE(tile), w, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}

// The fallback: the total of full tile j, reduced by subgroup 0 from the input.
T reduce_tile(uint j) {
  const IDX at = src_base(pc.in_offset + IDX(j) * tile_elements());
  T4 acc = T4(IDENTITY);
  for (uint v = gl_SubgroupInvocationID; v < tile_elements() / 4; v += gl_SubgroupSize)
    acc = OP(acc, load_src4(at, v));
  return SUBGROUP_OP(OP(OP(acc.x, acc.y), OP(acc.z, acc.w)));
}

// Subgroup 0 of tile `tile` (> 0): the combination of every earlier tile, in every lane. Lane l
// watches tile (window end - l); the window slides back a subgroup at a time until it meets a
// published prefix. Every branch is subgroup-uniform (votes and ballots).
T look_back(uint tile, uint epoch) {
  const uint lane = gl_SubgroupInvocationID;
  T exclusive = T(IDENTITY);
  int end = int(tile) - 1;
  if (BACKOFF > 0u) back_off(2u * BACKOFF);  // while the predecessors' words travel to L2
  for (;;) {
    const int idx = end - int(lane);
    uint64_t w;
    uint flag;
    for (uint polls = 0;; ++polls) {
      w = idx >= 0 ? load_status(uint(idx)) : pack(epoch, kPrefix, T(IDENTITY));
      flag = flag_of(w, epoch);
      // Lanes past the nearest published prefix are not needed.
      const bool any_prefix = subgroupAny(flag == kPrefix);
      const uint needed =
          any_prefix ? subgroupBallotFindLSB(subgroupBallot(flag == kPrefix)) : gl_SubgroupSize - 1;
      const bool waiting = lane <= needed && flag == 0u;
      if (!subgroupAny(waiting)) break;
      if (polls >= pc.limit) {  // stop waiting: reduce every missing tile here
        const uvec4 missing = subgroupBallot(waiting);
        for (uint l = 0; l <= needed; ++l) {
          if (!subgroupBallotBitExtract(missing, l)) continue;
          const uint j = uint(end) - l;
          const T total = reduce_tile(j);
          if (lane == l) {
            const uint64_t mine = pack(epoch, kAggregate, total);
            atomicCompSwap(STATE(j), w, mine, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                           gl_SemanticsRelaxed, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
            w = mine;
            flag = kAggregate;
          }
        }
        if (lane == 0)
          atomicAdd(STATE(pc.param + 1), uint64_t(subgroupBallotBitCount(missing)),
                    gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
        break;
      }
      if (BACKOFF > 0u) back_off(BACKOFF);
    }
    const bool found = subgroupAny(flag == kPrefix);
    const uint last = found ? subgroupBallotFindLSB(subgroupBallot(flag == kPrefix))
                            : gl_SubgroupSize - 1;  // nearest published prefix
    const T v = SUBGROUP_OP(lane <= last ? value_of(uint(w)) : T(IDENTITY));
    exclusive = OP(v, exclusive);
    if (found) return exclusive;
    end -= int(gl_SubgroupSize);
  }
}

shared uint s_tile;
shared uint s_epoch;
shared T s_prefix;

void main() {
  if (gl_LocalInvocationIndex == 0) {
    const uint64_t ticket = atomicAdd(STATE(pc.param), uint64_t(1), gl_ScopeDevice,
                                      gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    s_tile = uint(ticket % uint64_t(pc.groups));
    s_epoch = uint((ticket / uint64_t(pc.groups)) % uint64_t(kEpochs)) + 1u;
  }
  barrier();
  const uint tile = s_tile, epoch = s_epoch;
  const uint tiles = uint((PC_N + tile_elements() - 1) / tile_elements());
  if (tile >= tiles) return;  // uniform: the dispatch's spare workgroups (2-D grids)
  const IDX tile_base = IDX(tile) * tile_elements();  // may pass 2^32
  tile_load(tile_base, PC_N);
  tile_scan();
  if (gl_SubgroupID == 0) {
    const bool leader = gl_SubgroupInvocationID == 0;
    T prefix = T(IDENTITY);
    if (tile == 0 || (pc.flags & kNoWait) != 0u) {  // the experiment skips the look-back
      if (leader) store_status(tile, pack(epoch, kPrefix, aggregate));
    } else {
      if (leader) store_status(tile, pack(epoch, kAggregate, aggregate));
      prefix = look_back(tile, epoch);
      if (leader) store_status(tile, pack(epoch, kPrefix, OP(prefix, aggregate)));
    }
    if (leader) s_prefix = prefix;
  }
  barrier();
  tile_store(tile_base, PC_N, s_prefix, exclusive_scan());
}
