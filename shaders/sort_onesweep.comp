#version 450
// radix/onesweep's digit pass (Adinets & Merrill, "Onesweep", 2022) with the decoupled fallback
// of Smith, Levien & Owens (SPAA 2025): a workgroup draws its tile from the launch's counter,
// counts its digits and publishes them at once, ranks and stages its keys (sort_tile.glsl), then
// finds where each digit of its tile goes with a look-back over the tiles before it, one
// invocation per digit, and writes the tile out.
//
// Status: one 32-bit word per (tile, digit), the flag in the top two bits and the count below
// (CUB's layout), so flag and count travel in one atomic access and relaxed device-scope atomics
// suffice: nothing else crosses workgroups. A tile publishes its count (kAggregate), then the
// count of itself and every tile before it (kPrefix); zero is "not yet". Two status sets
// alternate between launches: a launch zeroes the set the next one uses (the init pass zeroes the
// first), so no fill runs between passes.
//
// Forward progress: Vulkan promises none between workgroups, so no wait is unbounded. An
// invocation whose predecessor stays unpublished for pc.limit polls stops; once every digit's
// walk has ended or stopped, the workgroup counts the digits of the nearest stopped predecessor
// itself from the pass's input (read-only for the launch), the walks at that tile take its count
// and go on, and the fallbacks are counted at pc.fallbacks. Each round ends one stop, so the
// pass finishes whatever the scheduler does. pc.limit = 0 forces the fallback at every
// predecessor that has not published its prefix (its aggregate is not taken), the tests' and the
// fallback cost's measure.
#ifndef SORT_RANK_COUNT  // sort_tile.glsl: the ranking by ballots
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
#include "sort_common.glsl"
#include "sort_tile.glsl"

// Predecessors one poll reads per digit, as independent loads (one round trip).
layout(constant_id = 4) const uint WINDOW = 8;

const uint kAggregate = 1u << 30;
const uint kPrefix = 2u << 30;
const uint kFlags = 3u << 30;
const uint kCount = ~kFlags;

shared uint drawn;
// The launch's tiles and the rows it zeroes: the plan's, or a counted call's from its count (one
// portion).
uint tiles, zero_rows;
shared int stalled;  // the nearest predecessor a walk stopped at, -1 for none

uint observe(uint at) {
  return atomicLoad(words[at], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}
void publish(uint tile, uint digit, uint word) {
  atomicStore(words[pc.status + tile * kRadix + digit], word, gl_ScopeDevice,
              gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}

// Invocation d's walk from `next` down, adding counts, until a prefix (done) or pc.limit polls
// without progress (the stop is posted to `stalled`).
void walk(inout int next, inout uint before, inout bool done) {
  const uint d = gl_LocalInvocationIndex;
  uint polls = 0;
  while (!done) {
    uint seen[WINDOW];
    [[unroll]] for (uint w = 0; w < WINDOW; ++w)
      seen[w] = next - int(w) >= 0 ? observe(pc.status + uint(next - int(w)) * kRadix + d)
                                   : kPrefix;  // before tile 0: a prefix of nothing
    bool waiting = false, progress = false;
    [[unroll]] for (uint w = 0; w < WINDOW; ++w) {
      if (done || waiting) continue;
      // pc.limit 0 (the forced fallback) takes prefixes only: every predecessor short of one is
      // counted by the workgroup itself.
      waiting = (seen[w] & (pc.limit == 0u ? kPrefix : kFlags)) == 0u;
      if (waiting) continue;
      before += seen[w] & kCount;
      done = (seen[w] & kPrefix) != 0u;
      progress = true;
      --next;
    }
    if (done) return;
    polls = progress ? 0u : polls + 1u;
    if (polls > pc.limit) {
      atomicMax(stalled, next);
      return;
    }
  }
}

// The fallback: the workgroup counts the digits of full tile `t` of the portion into row 0 of
// tile_counters (free once the tile is ranked).
void count_predecessor(uint t) {
  for (uint k = gl_LocalInvocationIndex; k < kRadix; k += WG) tile_counters[k] = 0u;
  barrier();
  const IDX base = IDX(pc.first_tile + t) * TILE;
  [[unroll]] for (uint j = 0; j < ITEMS; ++j)
    atomicAdd(tile_counters[digit_at(sort_bits(key_bits(base + j * WG + gl_LocalInvocationIndex)),
                                       pc.shift, pc.width)],
              1u);
  barrier();
}

// Invocation d < 256: the count of digit d in every tile of the portion before `tile`. Every
// invocation calls (the fallback is the workgroup's).
uint look_back(uint tile) {
  uint before = 0;
  int next = int(tile) - 1;
  bool done = gl_LocalInvocationIndex >= kRadix || tile == 0u;
  for (;;) {
    if (gl_LocalInvocationIndex == 0u) stalled = -1;
    barrier();
    walk(next, before, done);
    barrier();
    const int stop = stalled;
    if (stop < 0) return before;  // every walk ended at a prefix
    count_predecessor(uint(stop));
    if (!done && next == stop) {
      before += tile_counters[gl_LocalInvocationIndex];
      --next;
      done = next < 0;
    }
    if (gl_LocalInvocationIndex == 0u) atomicAdd(words[pc.fallbacks], 1u);
    barrier();  // the counts read before they are zeroed again
  }
}

// Zeroes the next launch's status rows that this tile stands for.
void zero_next_status(uint tile) {
  for (uint r = tile; r < zero_rows; r += tiles)
    for (uint d = gl_LocalInvocationIndex; d < kRadix; d += WG)
      words[pc.next_status + r * kRadix + d] = 0u;
}

void main() {
  if (gl_LocalInvocationIndex == 0u) drawn = atomicAdd(words[pc.counter], 1u);
  zero_tile_counters();
  const IDX n = sort_n();
  tiles = pc.counted != 0u ? uint((n + TILE - 1u) / TILE) : pc.tiles;
  zero_rows = pc.counted != 0u ? tiles : pc.zero_rows;
  barrier();
  const uint tile = drawn;
  if (tile >= tiles) return;  // a 2-D grid's workgroups, or a counted call's, past the tiles
  zero_next_status(tile);
  const IDX base = IDX(pc.first_tile + tile) * TILE;
  const uint valid = uint(min(IDX(TILE), n - base));
  load_tile(base, valid);

  const uint d = gl_LocalInvocationIndex;
  uint total;
  const uint count = count_tile(valid, total);
  if (d < kRadix) publish(tile, d, (tile == 0u ? kPrefix : kAggregate) | count);
  const uint start = place_tile(total);
#ifdef PAIRS
  load_values(base, valid);
#endif
  barrier();  // ranked: tile_counters is free for the fallback
  // Last, so that the tiles before have had the ranking's time to publish their prefixes.
  const uint before = look_back(tile);
  if (d < kRadix) {
    if (tile > 0u) publish(tile, d, kPrefix | (before + count));
    const IDX first = load_count(pc.bins_in + d * kCountWords) + before;
    if (tile + 1u == tiles) store_count(pc.bins_out + d * kCountWords, first + count);
    digit_first[d] = first - start;
  }
  barrier();
  write_tile(valid);
}
