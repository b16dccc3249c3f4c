// A tile's ranking by counting (sort_tile.glsl), for devices without subgroup ballots, shuffles
// or arithmetic: no subgroup operation at all. Invocation t holds the run of slots t * ITEMS to
// t * ITEMS + ITEMS - 1. The digits are counted by shared-memory atomics, and the ranks by
// counting, stable without any vote: kRounds rounds over the digit's kRankBits-bit parts (low
// first: a stable LSD sort of the tile), each invocation counting its run's parts in its own
// column of kBuckets counters, the columns scanned bucket-major. The OpenCL tile ranks the same
// way where a device has no sub-groups (opencl_backend/kernels/sort_tile.cl), in two rounds of
// 16 counters; here four rounds of 4 take 4 KiB of counters at 256 invocations rather than 16,
// so that a tile fits Vulkan's least shared memory (16 KiB) beside its keys.

const uint kRankBits = 2u;
const uint kBuckets = 1u << kRankBits;
const uint kRounds = 8u / kRankBits;
// Bucket b's count in invocation t's run at b * WG + t, then its place; free once the tile is
// ranked (onesweep's fallback counts into its first 256 words: WG >= 256).
shared uint tile_counters[kBuckets * WG];
// The tile's digit counts; between the rounds, each staged key's slot and digit; then each slot's
// place in the tile (TILE >= kRadix: WG >= 256).
shared uint slot_words[TILE];

uint slot_of(uint i) { return gl_LocalInvocationIndex * ITEMS + i; }

// The digit counts to zero (a barrier before count_tile).
void zero_tile_counters() {
  for (uint d = gl_LocalInvocationIndex; d < kRadix; d += WG) slot_words[d] = 0u;
}

// The tile's digit counts (after zero_tile_counters and a barrier): for invocation d < 256, its
// count of digit d with the padding (`total`, what the places follow) and without (returned).
uint count_tile(uint valid, out uint total) {
  [[unroll]] for (uint i = 0; i < ITEMS; ++i) atomicAdd(slot_words[item_digit(i)], 1u);
  barrier();
  const uint d = gl_LocalInvocationIndex;
  total = d < kRadix ? slot_words[d] : 0u;
  return d == kPad ? total - (TILE - valid) : total;
}

// This invocation's keys in the round: each key, its origin (its slot << 8 | its digit) and its
// bucket; rank_round gives each its place.
uint round_origin[ITEMS];
uint round_bucket[ITEMS];
uint round_place[ITEMS];

// One round: the places, stable in run order, of this invocation's ITEMS keys by their buckets.
// Column t of tile_counters, bucket-major, is scanned as one array of kBuckets x WG counts:
// each invocation takes kBuckets consecutive counters.
void rank_round() {
  const uint t = gl_LocalInvocationIndex;
  for (uint b = 0; b < kBuckets; ++b) tile_counters[b * WG + t] = 0u;
  [[unroll]] for (uint i = 0; i < ITEMS; ++i)
    round_place[i] = tile_counters[round_bucket[i] * WG + t]++;
  barrier();
  uint sum = 0;
  for (uint k = 0; k < kBuckets; ++k) sum += tile_counters[t * kBuckets + k];
  uint at = exclusive_over_workgroup(sum);
  for (uint k = 0; k < kBuckets; ++k) {
    const uint c = tile_counters[t * kBuckets + k];
    tile_counters[t * kBuckets + k] = at;
    at += c;
  }
  barrier();
  [[unroll]] for (uint i = 0; i < ITEMS; ++i)
    round_place[i] += tile_counters[round_bucket[i] * WG + t];
  barrier();  // the counters are read before the next round zeroes them
}

// Every key's place in the tile, staged there; returns, for invocation d < 256, the first place
// of digit d.
uint place_tile(uint total) {
  const uint d = gl_LocalInvocationIndex;
  const uint start = exclusive_over_workgroup(d < kRadix ? total : 0u);
  // Round 0 from slot order; each later one from the one before's order (a run each again).
  [[unroll]] for (uint i = 0; i < ITEMS; ++i) round_origin[i] = (slot_of(i) << 8) | item_digit(i);
  for (uint r = 0; r < kRounds; ++r) {
    if (r > 0u) {
      [[unroll]] for (uint i = 0; i < ITEMS; ++i) {
        tile_key[i] = staged_key(d * ITEMS + i);
        round_origin[i] = slot_words[d * ITEMS + i];
      }
    }
    [[unroll]] for (uint i = 0; i < ITEMS; ++i)
      round_bucket[i] = (round_origin[i] >> (r * kRankBits)) & (kBuckets - 1u);
    // Its barriers order the reads above (and count_tile's of slot_words) before the writes.
    rank_round();
    const bool last = r + 1u == kRounds;
    [[unroll]] for (uint i = 0; i < ITEMS; ++i) {
      stage_key(round_place[i], tile_key[i]);
      if (last)
        slot_words[round_origin[i] >> 8] = round_place[i];  // slot -> place: values follow keys
      else
        slot_words[round_place[i]] = round_origin[i];
    }
    barrier();
  }
#ifdef PAIRS
  [[unroll]] for (uint i = 0; i < ITEMS; ++i) tile_rank[i] = slot_words[slot_of(i)];
#endif
  return start;
}
