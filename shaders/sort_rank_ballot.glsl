// A tile's ranking by subgroup ballots (sort_tile.glsl), without an assumption on the subgroup's
// size: invocation `lane` of subgroup s holds, as item i, the key in slot
// s * gl_SubgroupSize * ITEMS + i * gl_SubgroupSize + lane. The lanes of equal digits find each
// other through eight ballots (a uvec4 of up to 128 lanes), the highest of them moves its
// subgroup's place of that digit on by their number (one shared-memory atomic) and hands the
// place before to the others (a shuffle). A subgroup's counters are its own row, two 16-bit
// counters a word (a tile holds fewer than 2^16 keys, so no half carries into the other): rows
// for WG / MIN_SUBGROUP subgroups, the most the device may run, in half the shared memory
// (lavapipe's subgroups of 8 need 32 rows for 256 invocations).

// The smallest subgroup the device may give this pipeline (its minSubgroupSize).
layout(constant_id = 6) const uint MIN_SUBGROUP = 4;
const uint kRowWords = kRadix / 2u;

// Row s: subgroup s's count of each digit, then the place in the tile of its first key of it;
// digit d in the half d & 1 of word d / 2. Free once the tile is ranked (onesweep's fallback
// counts into its first 256 words).
shared uint tile_counters[(WG / MIN_SUBGROUP) * kRowWords];

uint slot_of(uint i) {
  return (gl_SubgroupID * ITEMS + i) * gl_SubgroupSize + gl_SubgroupInvocationID;
}

// The subgroup's own row of counters to zero (a barrier before count_tile).
void zero_tile_counters() {
  for (uint w = gl_SubgroupInvocationID; w < kRowWords; w += gl_SubgroupSize)
    tile_counters[gl_SubgroupID * kRowWords + w] = 0u;
}

// The exclusive scan of `v` over the workgroup's first 256 invocations, every invocation calling
// (those past 256 with 0). Needs WG >= 256; subgroups of at least 4 invocations cover the digits
// in 64 subgroups, the only ones whose totals count.
shared uint digit_scan_totals[64];
uint exclusive_over_digits(uint v) {
  const uint inclusive = subgroupInclusiveAdd(v);
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u && gl_SubgroupID < 64u)
    digit_scan_totals[gl_SubgroupID] = inclusive;
  barrier();
  uint before = 0;
  for (uint s = 0; s < min(gl_SubgroupID, 64u); ++s) before += digit_scan_totals[s];
  barrier();
  return before + inclusive - v;
}

uint half_shift(uint digit) { return (digit & 1u) * 16u; }

void count_item(uint i) {
  atomicAdd(tile_counters[gl_SubgroupID * kRowWords + (item_digit(i) >> 1)],
            1u << half_shift(item_digit(i)));
}

// Rolled for float keys, as load_tile's loops (sort_tile.glsl).
void count_digits() {
  if (kRolledItems) {
    [[dont_unroll]] for (uint i = 0; i < ITEMS; ++i) count_item(i);
  } else {
    [[unroll]] for (uint i = 0; i < ITEMS; ++i) count_item(i);
  }
}

// After the counts: each subgroup's count of every digit becomes the count of it in the
// subgroups before it (invocation w < 128 for the two digits of word w, both halves at once);
// returns, for invocation d < 256, the tile's count of digit d (the padding included).
uint subgroup_offsets() {
  const uint w = gl_LocalInvocationIndex;
  if (w < kRowWords) {
    uint total = 0;
    for (uint s = 0; s < gl_NumSubgroups; ++s) {
      const uint c = tile_counters[s * kRowWords + w];
      tile_counters[s * kRowWords + w] = total;
      total += c;
    }
    digit_first[2u * w] = total & 0xffffu;
    digit_first[2u * w + 1u] = total >> 16;
  }
  barrier();
  return gl_LocalInvocationIndex < kRadix ? uint(digit_first[gl_LocalInvocationIndex]) : 0u;
}

// Every subgroup's place of each digit moves on by the digit's first place in the tile (each
// invocation d < 256 posts its `start`).
void add_start(uint start) {
  if (gl_LocalInvocationIndex < kRadix) digit_first[gl_LocalInvocationIndex] = start;
  barrier();
  const uint w = gl_LocalInvocationIndex;
  if (w < kRowWords) {
    const uint both = uint(digit_first[2u * w]) | (uint(digit_first[2u * w + 1u]) << 16);
    for (uint s = 0; s < gl_NumSubgroups; ++s) tile_counters[s * kRowWords + w] += both;
  }
}

// The lanes of the subgroup whose digit equals this lane's.
uvec4 match_digit(uint digit) {
  uvec4 peers = subgroupBallot(true);
  [[unroll]] for (uint b = 0; b < 8u; ++b) {
    const bool set = ((digit >> b) & 1u) != 0u;
    const uvec4 vote = subgroupBallot(set);
    peers &= set ? vote : ~vote;
  }
  return peers;
}

// Each item's place in the tile, stable in slot order; its key staged there.
void rank_tile() {
  const uint row = gl_SubgroupID * kRowWords;
  [[unroll]] for (uint i = 0; i < ITEMS; ++i) {
    const uint digit = item_digit(i);
    const uvec4 peers = match_digit(digit);
    const uint leader = subgroupBallotFindMSB(peers);
    uint place = 0;
    if (gl_SubgroupInvocationID == leader) {
      const uint shift = half_shift(digit);
      place = (atomicAdd(tile_counters[row + (digit >> 1)], subgroupBallotBitCount(peers) << shift) >>
               shift) & 0xffffu;
    }
    const uint rank = subgroupShuffle(place, leader) + subgroupBallotExclusiveBitCount(peers);
    stage_key(rank, tile_key[i]);
#ifdef PAIRS
    tile_rank[i] = rank;
#endif
  }
}

// The tile's digit counts (after zero_tile_counters and a barrier): for invocation d < 256, its
// count of digit d with the padding (`total`, what the places follow) and without (returned).
uint count_tile(uint valid, out uint total) {
  count_digits();
  barrier();
  total = subgroup_offsets();
  return gl_LocalInvocationIndex == kPad ? total - (TILE - valid) : total;
}

// Every key's place in the tile, staged there; returns, for invocation d < 256, the first place
// of digit d.
uint place_tile(uint total) {
  const uint start = exclusive_over_digits(gl_LocalInvocationIndex < kRadix ? total : 0u);
  add_start(start);
  barrier();
  rank_tile();
  return start;
}
