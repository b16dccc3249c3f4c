// A digit pass's tile, shared by radix/onesweep and radix/reduce-then-scan: WG invocations x
// ITEMS keys, subgroup-striped (invocation `lane` of subgroup s holds, as item i, the key in slot
// s * gl_SubgroupSize * ITEMS + i * gl_SubgroupSize + lane), so slot order is input order. Each
// key is ranked stably within the tile by its digit and staged in shared memory in digit order;
// then consecutive invocations write runs of one digit out. Slots past the tile's last key take
// the largest digit, kPad: ranked in slot order, they come after every key and are never written.
//
// Ranking without an assumption on the subgroup's size: the lanes of equal digits find each
// other through eight ballots (a uvec4 of up to 128 lanes), the highest of them moves its
// subgroup's place of that digit on by their number (one shared-memory atomic) and hands the
// place before to the others (a shuffle). A subgroup's counters are its own row, two 16-bit
// counters a word (a tile holds fewer than 2^16 keys, so no half carries into the other): rows
// for WG / MIN_SUBGROUP subgroups, the most the device may run, in half the shared memory
// (lavapipe's subgroups of 8 need 32 rows for 256 invocations).

layout(constant_id = 1) const uint ITEMS = 16;
// The smallest subgroup the device may give this pipeline (its minSubgroupSize).
layout(constant_id = 6) const uint MIN_SUBGROUP = 4;
const uint TILE = WG * ITEMS;
const uint kPad = kRadix - 1u;
const uint kRowWords = kRadix / 2u;

// Row s: subgroup s's count of each digit, then the place in the tile of its first key of it;
// digit d in the half d & 1 of word d / 2.
shared uint subgroup_digits[(WG / MIN_SUBGROUP) * kRowWords];
shared uint staged[TILE * KEY_WORDS];  // the tile in digit order: keys, then values
// A digit's output index less its first place in the tile; before that, each digit's count and
// first place in the tile, handed between the invocations of digits and of words.
shared IDX digit_first[kRadix];

// Registers decide how many workgroups an SM holds (134 a thread with a digit, a rank and an
// output digit per item at 384 x 20 on an H200: one workgroup): digits go four to a word, and a
// key is staged as soon as it is ranked, so only pairs keep their ranks (for the values).
const uint kDigitWords = (ITEMS + 3u) / 4u;
BITS tile_key[ITEMS];
uint tile_digits[kDigitWords];
#ifdef PAIRS
uint tile_rank[ITEMS];
uint tile_value[ITEMS];
uint out_digits[kDigitWords];  // the digit of each place this invocation writes out
#endif

uint unpack_digit(uint words_of_digits, uint i) { return (words_of_digits >> (8u * (i & 3u))) & 0xffu; }
uint item_digit(uint i) { return unpack_digit(tile_digits[i >> 2], i); }

uint slot_of(uint i) {
  return (gl_SubgroupID * ITEMS + i) * gl_SubgroupSize + gl_SubgroupInvocationID;
}

// This invocation's keys of the tile at `base` with `valid` keys, and their digits.
void load_tile(IDX base, uint valid) {
  [[unroll]] for (uint w = 0; w < kDigitWords; ++w) tile_digits[w] = 0u;
  [[unroll]] for (uint i = 0; i < ITEMS; ++i) {
    const uint s = slot_of(i);
    tile_key[i] = s < valid ? key_bits(base + s) : BITS(0);
    const uint digit = s < valid ? digit_at(sort_bits(tile_key[i]), pc.shift, pc.width) : kPad;
    tile_digits[i >> 2] |= digit << (8u * (i & 3u));
  }
}

#ifdef PAIRS
void load_values(IDX base, uint valid) {
  [[unroll]] for (uint i = 0; i < ITEMS; ++i) {
    const uint s = slot_of(i);
    tile_value[i] = s < valid ? load_value(base + s) : 0u;
  }
}
#endif

// The subgroup's own row of counters to zero (a barrier before count_digits).
void zero_subgroup_row() {
  for (uint w = gl_SubgroupInvocationID; w < kRowWords; w += gl_SubgroupSize)
    subgroup_digits[gl_SubgroupID * kRowWords + w] = 0u;
}

uint half_shift(uint digit) { return (digit & 1u) * 16u; }

void count_digits() {
  [[unroll]] for (uint i = 0; i < ITEMS; ++i)
    atomicAdd(subgroup_digits[gl_SubgroupID * kRowWords + (item_digit(i) >> 1)],
              1u << half_shift(item_digit(i)));
}

// After the counts: each subgroup's count of every digit becomes the count of it in the
// subgroups before it (invocation w < 128 for the two digits of word w, both halves at once);
// returns, for invocation d < 256, the tile's count of digit d (the padding included).
uint subgroup_offsets() {
  const uint w = gl_LocalInvocationIndex;
  if (w < kRowWords) {
    uint total = 0;
    for (uint s = 0; s < gl_NumSubgroups; ++s) {
      const uint c = subgroup_digits[s * kRowWords + w];
      subgroup_digits[s * kRowWords + w] = total;
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
    for (uint s = 0; s < gl_NumSubgroups; ++s) subgroup_digits[s * kRowWords + w] += both;
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

void stage_key(uint place, BITS k) {
#if KEY_WORDS == 2
  staged[2u * place] = uint(k);
  staged[2u * place + 1u] = uint(k >> 32);
#else
  staged[place] = k;
#endif
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
      place = (atomicAdd(subgroup_digits[row + (digit >> 1)], subgroupBallotBitCount(peers) << shift) >>
               shift) & 0xffffu;
    }
    const uint rank = subgroupShuffle(place, leader) + subgroupBallotExclusiveBitCount(peers);
    stage_key(rank, tile_key[i]);
#ifdef PAIRS
    tile_rank[i] = rank;
#endif
  }
}

BITS staged_key(uint place) {
#if KEY_WORDS == 2
  return BITS(staged[2u * place]) | (BITS(staged[2u * place + 1u]) << 32);
#else
  return staged[place];
#endif
}

// The staged keys out, after digit_first is known: consecutive invocations, runs of one digit.
void scatter_keys(uint valid) {
#ifdef PAIRS
  [[unroll]] for (uint w = 0; w < kDigitWords; ++w) out_digits[w] = 0u;
#endif
  [[unroll]] for (uint j = 0; j < ITEMS; ++j) {
    const uint place = j * WG + gl_LocalInvocationIndex;
    if (place < valid) {
      const BITS k = staged_key(place);
      const uint digit = digit_at(sort_bits(k), pc.shift, pc.width);
#ifdef PAIRS
      out_digits[j >> 2] |= digit << (8u * (j & 3u));
#endif
      store_key(digit_first[digit] + place, k);
    }
  }
}

#ifdef PAIRS
// The values through the same places, after scatter_keys and a barrier.
void stage_values() {
  [[unroll]] for (uint i = 0; i < ITEMS; ++i) staged[tile_rank[i]] = tile_value[i];
}
void scatter_values(uint valid) {
  [[unroll]] for (uint j = 0; j < ITEMS; ++j) {
    const uint place = j * WG + gl_LocalInvocationIndex;
    if (place < valid)
      store_value(digit_first[unpack_digit(out_digits[j >> 2], j)] + place, staged[place]);
  }
}
#endif

// The tile's digit counts (after zero_subgroup_row and a barrier): for invocation d < 256, its
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

// After digit_first is written and a barrier: the keys (and values) out.
void write_tile(uint valid) {
  scatter_keys(valid);
#ifdef PAIRS
  barrier();
  stage_values();
  barrier();
  scatter_values(valid);
#endif
}
