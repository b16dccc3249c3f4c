#version 450
// fast/decoupled-lookback: the single-pass scan of Merrill & Garland (2016) with the decoupled
// fallback of Smith, Levien & Owens (SPAA 2025), so it finishes on any Vulkan device.
//
// A workgroup draws a ticket from a 64-bit counter (pc.aux at pc.aux_offset + pc.param); the
// ticket gives its tile (ticket % pc.groups) and its epoch (ticket / pc.groups): tiles are
// claimed in order, and the status words of earlier dispatches read as "not yet published", so
// nothing is reset between submissions of the recorded command buffer. The workgroup scans its
// tile (scan_vector_tile.glsl); subgroup 0 publishes the tile's aggregate, looks back over its
// predecessors' status words a window at a time (each lane reads WINDOW consecutive words per
// poll: WINDOW x subgroup-size predecessors per L2 round trip), and publishes the inclusive
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
// atomics, flag and epoch beside the value (as CUB's ScanTileState packs 4-byte values): a reader
// never pairs a flag with another write's value, so relaxed ordering suffices and no non-atomic
// data crosses workgroups. An 8-byte accumulator (i64, u64, f64) does not fit beside its flag, so
// its tile has two words, each with the flag and epoch and one 32-bit half of the value. A reader
// takes the value only when both words carry the same flag and epoch: each (tile, epoch, flag)
// is published by one workgroup alone, once, so matching words are halves of one value. For the
// same reason the fallback does not publish what it reduces for 8-byte values (a second writer
// could pair its half with the owner's); it keeps the total for its own look-back. GLSL450
// memory model with explicit scopes (see fast_single_pass.comp for why not VulkanMemoryModel).
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
#ifdef XR_CLOCK  // scan_lookback_clock: the back-off counts subgroup-clock cycles
#extension GL_ARB_shader_clock : require
#endif
#include "scan_common.glsl"

// The 64-bit words at pc.aux: kWords status words per tile, then the ticket counter (word
// pc.param) and the fallback count. Coherent, as the memory model above needs; reached only
// through atomics.
#ifdef XR_ADDRESS
layout(buffer_reference, std430, buffer_reference_align = 8) coherent buffer State {
  uint64_t w;
};
#define STATE(k) State(pc.aux + (uint64_t(pc.aux_offset) + (k)) * 8).w
// The plain-loads experiment's view of the same words (MODE bit 4).
layout(buffer_reference, std430, buffer_reference_align = 8) coherent volatile buffer PlainState {
  uint64_t w;
};
#define PLAIN_STATE(k) PlainState(pc.aux + (uint64_t(pc.aux_offset) + (k)) * 8).w
#else
layout(set = 0, binding = 2) coherent buffer States { uint64_t states[]; };
layout(set = 0, binding = 2) coherent volatile buffer PlainStates { uint64_t plain_states[]; };
#define STATE(k) states[pc.aux_offset + (k)]
#define PLAIN_STATE(k) plain_states[pc.aux_offset + (k)]
#endif

#include "scan_vector_tile.glsl"

// The pause between two polls of an incomplete window, and twice that before the first look:
// hundreds of subgroups polling the same status words slow every L2 access (CUDA's look-back
// pauses with __nanosleep; GLSL has no sleep, so the subgroup spins on registers instead of
// memory): dependent integer steps (about 4 cycles each), or with XR_CLOCK cycles of the
// subgroup clock. 0: no pause (small grids).
layout(constant_id = 2) const uint BACKOFF = 0;
// The look-back's mode: bits 0-3 the window (status words per lane and poll, 1 to kMaxWindow),
// bit 4 the plain-loads experiment (vk_scan_plan.cpp).
layout(constant_id = 4) const uint MODE = 1;
const uint kMaxWindow = 4;
const uint WINDOW = MODE & 15u;
const bool PLAIN_LOADS = (MODE & 16u) != 0u;

shared uint s_sink;

void back_off(uint steps) {
#ifdef XR_CLOCK
  const uint64_t start = clockARB();
  while (clockARB() - start < uint64_t(steps)) {
  }
#else
  uint x = gl_SubgroupInvocationID + 1u;
  for (uint i = 0; i < steps; ++i) x = x * 1664525u + 1013904223u;
  if (x == 0u) s_sink = x;  // keeps the loop: the compiler cannot prove x never reaches 0
#endif
}

const uint kAggregate = 1u;  // the word holds the tile's own total
const uint kPrefix = 2u;     // the word holds everything up to and including the tile
const uint kEpochs = (1u << 30) - 1u;  // epoch 0 is "never written"

// A value's bits, and the words of a tile's status.
#if T_BYTES == 8
const uint kWords = 2u;  // the low half's word, then the high half's
#if defined(T_F64)
uint64_t bits_of(T v) { return doubleBitsToUint64(v); }
T value_of(uint64_t b) { return uint64BitsToDouble(b); }
#else
uint64_t bits_of(T v) { return uint64_t(v); }
T value_of(uint64_t b) { return T(b); }
#endif
#else
const uint kWords = 1u;
#if defined(T_F32) || defined(ACC_F32)  // f16/bf16 accumulate in float
uint bits_of(T v) { return floatBitsToUint(v); }
T value_of(uint b) { return uintBitsToFloat(b); }
#else
uint bits_of(T v) { return uint(v); }
T value_of(uint b) { return T(b); }
#endif
#endif

// A word: flag and epoch in the high half, 32 bits of the value in the low half.
uint64_t pack(uint epoch, uint flag, uint value_bits) {
  return (uint64_t((epoch << 2) | flag) << 32) | uint64_t(value_bits);
}
// 0 when the word is of another epoch (not yet published in this dispatch), else its flag.
uint flag_of(uint64_t w, uint epoch) {
  const uint hi = uint(w >> 32);
  return (hi >> 2) == epoch ? (hi & 3u) : 0u;
}

uint64_t load_word(uint k) {
  if (PLAIN_LOADS) return PLAIN_STATE(k);
  return atomicLoad(STATE(k), gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}
void store_word(uint k, uint64_t w) {
  atomicStore(STATE(k), w, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}

// A tile's status as published in this epoch: its flag (0: not yet) and value.
struct Status {
  uint flag;
  T value;
#if T_BYTES == 4
  uint64_t word;  // as read: what the fallback's compare-and-swap expects
#endif
};

Status load_status(uint tile, uint epoch) {
  Status s;
#if T_BYTES == 8
  const uint64_t lo = load_word(2u * tile), hi = load_word(2u * tile + 1u);
  // Halves of two publications (aggregate, then prefix) read as "not yet": poll again.
  s.flag = uint(lo >> 32) == uint(hi >> 32) ? flag_of(lo, epoch) : 0u;
  s.value = value_of((hi << 32) | (lo & 0xffffffffu));
#else
  s.word = load_word(tile);
  s.flag = flag_of(s.word, epoch);
  s.value = value_of(uint(s.word));
#endif
  return s;
}

void publish(uint tile, uint epoch, uint flag, T v) {
#if T_BYTES == 8
  const uint64_t b = bits_of(v);
  store_word(2u * tile, pack(epoch, flag, uint(b)));
  store_word(2u * tile + 1u, pack(epoch, flag, uint(b >> 32)));
#else
  store_word(tile, pack(epoch, flag, bits_of(v)));
#endif
}

// The fallback: the total of full tile j, reduced by subgroup 0 from the input.
T reduce_tile(uint j) {
  const IDX at = src_base(pc.in_offset + IDX(j) * tile_elements());
  T4 acc = T4(IDENTITY);
  for (uint v = gl_SubgroupInvocationID; v < tile_elements() / 4; v += gl_SubgroupSize)
    acc = OP(acc, load_src4(at, v));
  return SUBGROUP_OP(OP(OP(acc.x, acc.y), OP(acc.z, acc.w)));
}

// Lane `lane`'s words of the window ending at tile `end`: tiles end - (lane * WINDOW + j),
// j < WINDOW, nearest first; before tile 0, the identity as a published prefix.
struct Window {
  Status s[kMaxWindow];
  uint first_prefix;  // the lane's nearest published prefix (j), kMaxWindow: none
  uint missing;       // bit j: word j is unpublished and nearer than first_prefix
};

Window poll_window(int end, uint epoch) {
  Window w;
  w.first_prefix = kMaxWindow;
  w.missing = 0u;
  [[unroll]] for (uint j = 0; j < kMaxWindow; ++j) {
    if (j >= WINDOW) break;
    const int idx = end - int(gl_SubgroupInvocationID * WINDOW + j);
    if (idx >= 0) {
      w.s[j] = load_status(uint(idx), epoch);
    } else {
      w.s[j].flag = kPrefix;
      w.s[j].value = T(IDENTITY);
    }
    if (w.first_prefix == kMaxWindow) {
      if (w.s[j].flag == kPrefix) w.first_prefix = j;
      else if (w.s[j].flag == 0u) w.missing |= 1u << j;
    }
  }
  return w;
}

// The fallback over lanes 0..needed: subgroup 0 reduces every missing tile itself and offers its
// aggregate to the tile's word (4-byte accumulators; 8-byte: see the top). Returns how many.
uint reduce_missing(inout Window w, int end, uint needed, uint epoch) {
  const uint lane = gl_SubgroupInvocationID;
  const uvec4 lanes = subgroupBallot(w.missing != 0u);
  for (uint l = 0; l <= needed; ++l) {
    if (!subgroupBallotBitExtract(lanes, l)) continue;
    const uint bits = subgroupShuffle(w.missing, l);
    [[unroll]] for (uint j = 0; j < kMaxWindow; ++j) {
      if ((bits & (1u << j)) == 0u) continue;
      const uint t = uint(end) - (l * WINDOW + j);
      const T total = reduce_tile(t);
      if (lane == l) {
#if T_BYTES == 4
        const uint64_t mine = pack(epoch, kAggregate, bits_of(total));
        atomicCompSwap(STATE(t), w.s[j].word, mine, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                       gl_SemanticsRelaxed, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
#endif
        w.s[j].flag = kAggregate;
        w.s[j].value = total;
      }
    }
  }
  return subgroupAdd(bitCount(w.missing));
}

// Subgroup 0 of tile `tile` (> 0): the combination of every earlier tile, in every lane. The
// window slides back WINDOW x subgroup-size tiles at a time until it meets a published prefix.
// Every branch is subgroup-uniform (votes and ballots).
T look_back(uint tile, uint epoch) {
  const uint lane = gl_SubgroupInvocationID;
  T exclusive = T(IDENTITY);
  int end = int(tile) - 1;
  if (BACKOFF > 0u) back_off(2u * BACKOFF);  // while the predecessors' words travel to L2
  for (;;) {
    Window w;
    uint needed;  // the lane holding the nearest published prefix; lanes past it are not needed
    bool found;
    for (uint polls = 0;; ++polls) {
      w = poll_window(end, epoch);
      const bool has_prefix = w.first_prefix < kMaxWindow;
      found = subgroupAny(has_prefix);
      needed = found ? subgroupBallotFindLSB(subgroupBallot(has_prefix)) : gl_SubgroupSize - 1;
      if (lane > needed) w.missing = 0u;
      if (!subgroupAny(w.missing != 0u)) break;
      if (polls >= pc.limit) {  // stop waiting: reduce every missing tile here
        const uint fell_back = reduce_missing(w, end, needed, epoch);
        if (lane == 0)
          atomicAdd(STATE(pc.param + 1), uint64_t(fell_back), gl_ScopeDevice,
                    gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
        break;
      }
      if (BACKOFF > 0u) back_off(BACKOFF);
    }
    T v = T(IDENTITY);
    [[unroll]] for (uint j = 0; j < kMaxWindow; ++j)
      if (j < WINDOW && lane <= needed && j <= w.first_prefix) v = OP(v, w.s[j].value);
    exclusive = OP(SUBGROUP_OP(v), exclusive);
    if (found) return exclusive;
    end -= int(WINDOW * gl_SubgroupSize);
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
      if (leader) publish(tile, epoch, kPrefix, aggregate);
    } else {
      if (leader) publish(tile, epoch, kAggregate, aggregate);
      prefix = look_back(tile, epoch);
      if (leader) publish(tile, epoch, kPrefix, OP(prefix, aggregate));
    }
    if (leader) s_prefix = prefix;
  }
  barrier();
  tile_store(tile_base, PC_N, s_prefix, exclusive_scan());
}
