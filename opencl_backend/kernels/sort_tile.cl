// A digit pass's tile, shared by radix/onesweep and radix/reduce-then-scan (the OpenCL
// counterpart of shaders/sort_tile.glsl): WG work-items x ITEMS keys, sub-group-striped
// (work-item `lane` of sub-group s holds, as item i, the key in slot s * SG * ITEMS + i * SG +
// lane; with SG == 1 each work-item holds a run), so slot order is input order. Each key is
// ranked stably within the tile by its digit and staged in local memory in digit order; then
// consecutive work-items write runs of one digit out. Slots past the tile's last key take the
// largest digit, kPad: ranked in slot order, they come after every key and are never written.
//
// Two rankings, by what the device gives OpenCL C (group.cl):
//  - NVIDIA's warps (XR_SG_PTX): as the Vulkan tile: the lanes of equal digits find each other
//    by eight ballots (CUDA's PTX; XR_SORT_MATCH_ANY, an experiment, by one match.any, sm_70+:
//    slower, cl_sort_plan.cpp); a warp's counters are its own row, two 16-bit
//    counters a word (a tile holds fewer than 2^16 keys); the highest lane of a digit moves the
//    row on by their number with one local atomic and hands the place before to the others by a
//    shuffle.
//  - no sub-groups (pocl, any device without NVIDIA's warps): the digit counts by local atomics,
//    and the ranks by counting, stable without any vote: two rounds over the digit's nibbles
//    (low, then high: a stable LSD sort of the tile), each work-item counting its run's nibbles
//    in its own column of 16 counters, the columns scanned nibble-major.
#define ITEMS UNROLL
#define TILE (WG * ITEMS)

#define kPad (kRadix - 1u)
#define kDigitWords ((ITEMS + 3u) / 4u)
#define kRowWords (kRadix / 2u)

// XR_SORT_INLINE (an experiment: XR_CL_BUILD_OPTIONS=-DXR_SORT_INLINE) inlines the tile's
// functions by force. A struct passed by pointer to a function the compiler does not inline stays
// in memory: LLVM keeps a work-item's TileItems in a stack frame unless these are inlined.
#ifdef XR_SORT_INLINE
#define TILE_FN __attribute__((always_inline))
#else
#define TILE_FN
#endif

#if SG > 1
#define TILE_COUNTER_WORDS ((WG / SG) * kRowWords)
#else
#define TILE_COUNTER_WORDS (16u * WG)
#endif

// The tile's local memory, declared at the kernel's scope (TILE_LOCALS) and handed to the
// functions below.
typedef struct {
  __local uint* staged;       // the tile in digit order: keys, then values
  __local IDX* digit_first;   // a digit's output index less its first place in the tile
  __local uint* counters;     // the rankings' counters (free once the tile is ranked)
  __local uint* totals;       // no sub-groups: the digit counts; then each slot's final place
  __local uint* origins;      // no sub-groups: each staged key's slot between the two rounds
  __local uint* slots;        // wg_exclusive_u's
} TileLocal;

#if SG > 1
#define TILE_TOTALS_WORDS 1u
#define TILE_ORIGIN_WORDS 1u
#else
#define TILE_TOTALS_WORDS (TILE > kRadix ? TILE : kRadix)
#define TILE_ORIGIN_WORDS TILE
#endif
#define TILE_LOCALS(name)                                                       \
  __local uint name##_staged[TILE * KEY_WORDS];                                 \
  __local IDX name##_digit_first[kRadix];                                       \
  __local uint name##_counters[TILE_COUNTER_WORDS];                             \
  __local uint name##_totals[TILE_TOTALS_WORDS];                                \
  __local uint name##_origins[TILE_ORIGIN_WORDS];                               \
  __local uint name##_slots[WG_SCAN_SLOTS];                                     \
  const TileLocal name = {name##_staged,   name##_digit_first, name##_counters, \
                          name##_totals,   name##_origins,     name##_slots}

// A work-item's share of the tile (private; fully unrolled, in registers). Registers decide the
// work-groups an SM holds: a pair's rank is kept two to a word (a tile holds fewer than 2^16
// keys) and its value is read only when the keys are out, straight into local memory (holding
// every rank and value through the look-back leaves one work-group an SM;
// docs/results/H200/tuning-notes.md).
#define kRankWords ((ITEMS + 1u) / 2u)
typedef struct {
  BITS key[ITEMS];
  uint digits[kDigitWords];  // four to a word
#ifdef PAIRS
  uint ranks[kRankWords];        // each item's place in the tile, two to a word
  uint out_digits[kDigitWords];  // the digit of each place this work-item writes out
#endif
} TileItems;

#ifdef PAIRS
TILE_FN
void keep_rank(TileItems* t, uint i, uint rank) { t->ranks[i >> 1] |= rank << (16u * (i & 1u)); }
TILE_FN
uint rank_of_item(const TileItems* t, uint i) {
  return (t->ranks[i >> 1] >> (16u * (i & 1u))) & 0xffffu;
}
#endif

uint unpack_digit(uint words_of_digits, uint i) {
  return (words_of_digits >> (8u * (i & 3u))) & 0xffu;
}
TILE_FN
uint item_digit(const TileItems* t, uint i) { return unpack_digit(t->digits[i >> 2], i); }

uint slot_of(uint i) { return (sg_id() * ITEMS + i) * SG + sg_lane(); }

// The digit of staged key `k` (a key of the tile, not padding).
uint key_digit(BITS k, const SortArgs* pc, uint mode) {
  return digit_at(sort_bits(k, mode), pc->shift, pc->width);
}

// This work-item's keys of the tile at `base` with `valid` keys, and their digits.
TILE_FN
void load_tile(TileItems* t, __global const KEY* keys_in, IDX base, uint valid,
               const SortArgs* pc, uint mode) {
#pragma unroll
  for (uint w = 0; w < kDigitWords; ++w) t->digits[w] = 0u;
#ifdef PAIRS
#pragma unroll
  for (uint w = 0; w < kRankWords; ++w) t->ranks[w] = 0u;
#endif
#pragma unroll
  for (uint i = 0; i < ITEMS; ++i) {
    const uint s = slot_of(i);
    t->key[i] = s < valid ? (BITS)keys_in[base + s] : (BITS)0;
    const uint digit = s < valid ? key_digit(t->key[i], pc, mode) : kPad;
    t->digits[i >> 2] |= digit << (8u * (i & 3u));
  }
}


TILE_FN
void stage_key(const TileLocal* l, uint place, BITS k) {
#if KEY_WORDS == 2
  l->staged[2u * place] = (uint)k;
  l->staged[2u * place + 1u] = (uint)(k >> 32);
#else
  l->staged[place] = (uint)k;
#endif
}
TILE_FN
BITS staged_key(const TileLocal* l, uint place) {
#if KEY_WORDS == 2
  return (BITS)l->staged[2u * place] | ((BITS)l->staged[2u * place + 1u] << 32);
#else
  return (BITS)l->staged[place];
#endif
}

#if SG > 1
// --- NVIDIA's warps -----------------------------------------------------------------------

#ifdef XR_SORT_MATCH_ANY
uint match_digit(uint digit) {
  uint m;
  __asm__ volatile("match.any.sync.b32 %0, %1, -1;" : "=r"(m) : "r"(digit));
  return m;
}
#else
// CUDA's eight ballots, one a bit of the digit, each complemented in the lanes whose bit is clear.
uint match_digit(uint digit) {
  uint peers = 0xffffffffu;
#pragma unroll
  for (uint b = 0; b < 8u; ++b) {
    uint agree;
    __asm__ volatile(
        "{\n\t.reg .pred set;\n\tsetp.ne.u32 set, %1, 0;\n\t"
        "vote.sync.ballot.b32 %0, set, 0xffffffff;\n\t@!set not.b32 %0, %0;\n\t}"
        : "=r"(agree)
        : "r"(digit & (1u << b)));
    peers &= agree;
  }
  return peers;
}
#endif
uint lanes_below(void) {
  uint m;
  __asm__ volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}
uint half_shift(uint digit) { return (digit & 1u) * 16u; }

// The digit counts: each warp's in its row. Returns, for work-item d < 256, the tile's count of
// digit d with the padding (`total`) and without (returned).
TILE_FN
uint count_tile(const TileLocal* l, const TileItems* t, uint valid, uint* total) {
  const uint row = sg_id() * kRowWords;
  for (uint w = sg_lane(); w < kRowWords; w += SG) l->counters[row + w] = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (uint i = 0; i < ITEMS; ++i)
    atomic_add(&l->counters[row + (item_digit(t, i) >> 1)], 1u << half_shift(item_digit(t, i)));
  barrier(CLK_LOCAL_MEM_FENCE);
  // Each warp's count of every digit becomes the count of it in the warps before (work-item
  // w < 128 for the two digits of word w, both halves at once).
  const uint w = (uint)get_local_id(0);
  if (w < kRowWords) {
    uint sum = 0;
    for (uint s = 0; s < WG / SG; ++s) {
      const uint c = l->counters[s * kRowWords + w];
      l->counters[s * kRowWords + w] = sum;
      sum += c;
    }
    l->digit_first[2u * w] = sum & 0xffffu;
    l->digit_first[2u * w + 1u] = sum >> 16;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  *total = w < kRadix ? (uint)l->digit_first[w] : 0u;
  return w == kPad ? *total - (TILE - valid) : *total;
}

// Every key's place in the tile, staged there (and kept, for pairs); returns, for work-item
// d < 256, the first place of digit d.
TILE_FN
uint place_tile(const TileLocal* l, TileItems* t, uint total, const SortArgs* pc, uint mode) {
  (void)pc, (void)mode;
  const uint d = (uint)get_local_id(0);
  const uint start = wg_exclusive_u(d < kRadix ? total : 0u, l->slots);
  if (d < kRadix) l->digit_first[d] = start;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (d < kRowWords) {  // every warp's place of each digit moves on by the digit's start
    const uint both = (uint)l->digit_first[2u * d] | ((uint)l->digit_first[2u * d + 1u] << 16);
    for (uint s = 0; s < WG / SG; ++s) l->counters[s * kRowWords + d] += both;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint row = sg_id() * kRowWords;
#pragma unroll
  for (uint i = 0; i < ITEMS; ++i) {
    const uint digit = item_digit(t, i);
    const uint peers = match_digit(digit);
    const uint leader = 31u - clz(peers);
    uint place = 0;
    if (sg_lane() == leader) {
      const uint shift = half_shift(digit);
      place = (atomic_add(&l->counters[row + (digit >> 1)], popcount(peers) << shift) >> shift) &
              0xffffu;
    }
    const uint rank = shfl_idx_u32(place, leader) + popcount(peers & lanes_below());
    stage_key(l, rank, t->key[i]);
#ifdef PAIRS
    keep_rank(t, i, rank);
#endif
  }
  return start;
}

#else
// --- no sub-groups ------------------------------------------------------------------------

TILE_FN
uint count_tile(const TileLocal* l, const TileItems* t, uint valid, uint* total) {
  const uint d = (uint)get_local_id(0);
  if (d < kRadix) l->totals[d] = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (uint i = 0; i < ITEMS; ++i) atomic_inc(&l->totals[item_digit(t, i)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  *total = d < kRadix ? l->totals[d] : 0u;
  return d == kPad ? *total - (TILE - valid) : *total;
}

// One round of the ranking: the places, stable in run order, of the work-item's ITEMS keys by
// `nibble[i]` (0..15). Column t of `counters` is work-item t's count of each nibble (nibble-
// major), scanned as one array of 16 WG counts: each work-item takes 16 consecutive counters.
TILE_FN
void rank_by_nibble(const TileLocal* l, const uint* nibble, uint* place) {
  const uint tid = (uint)get_local_id(0);
  for (uint b = 0; b < 16u; ++b) l->counters[b * WG + tid] = 0u;
  for (uint i = 0; i < ITEMS; ++i) place[i] = l->counters[nibble[i] * WG + tid]++;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint sum = 0;
  for (uint k = 0; k < 16u; ++k) sum += l->counters[tid * 16u + k];
  uint at = wg_exclusive_u(sum, l->slots);
  for (uint k = 0; k < 16u; ++k) {
    const uint c = l->counters[tid * 16u + k];
    l->counters[tid * 16u + k] = at;
    at += c;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = 0; i < ITEMS; ++i) place[i] += l->counters[nibble[i] * WG + tid];
  barrier(CLK_LOCAL_MEM_FENCE);  // the counters are read before the next round zeroes them
}

TILE_FN
uint place_tile(const TileLocal* l, TileItems* t, uint total, const SortArgs* pc, uint mode) {
  (void)pc, (void)mode;
  const uint d = (uint)get_local_id(0);
  const uint start = wg_exclusive_u(d < kRadix ? total : 0u, l->slots);
  uint nibble[ITEMS], place[ITEMS];
  // Round 1: by the low nibble, from slot order; each staged key keeps its slot and digit.
  for (uint i = 0; i < ITEMS; ++i) nibble[i] = item_digit(t, i) & 15u;
  rank_by_nibble(l, nibble, place);
  for (uint i = 0; i < ITEMS; ++i) {
    stage_key(l, place[i], t->key[i]);
    l->origins[place[i]] = (slot_of(i) << 8) | item_digit(t, i);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Round 2: by the high nibble, from round 1's order (a run each again).
  BITS key[ITEMS];
  uint origin[ITEMS];
  for (uint i = 0; i < ITEMS; ++i) {
    key[i] = staged_key(l, d * ITEMS + i);
    origin[i] = l->origins[d * ITEMS + i];
    nibble[i] = (origin[i] >> 4) & 15u;
  }
  rank_by_nibble(l, nibble, place);  // its barriers order the reads above before the writes
  for (uint i = 0; i < ITEMS; ++i) {
    stage_key(l, place[i], key[i]);
    l->totals[origin[i] >> 8] = place[i];  // slot -> place: the values follow their keys
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#ifdef PAIRS
  for (uint i = 0; i < ITEMS; ++i) keep_rank(t, i, l->totals[slot_of(i)]);
#endif
  return start;
}
#endif

// The staged keys out, after digit_first is known: consecutive work-items, runs of one digit.
TILE_FN
void scatter_keys(const TileLocal* l, TileItems* t, __global KEY* keys_out, uint valid,
                  const SortArgs* pc, uint mode) {
  const uint tid = (uint)get_local_id(0);
#ifdef PAIRS
#pragma unroll
  for (uint w = 0; w < kDigitWords; ++w) t->out_digits[w] = 0u;
#else
  (void)t;
#endif
#pragma unroll
  for (uint j = 0; j < ITEMS; ++j) {
    const uint place = j * WG + tid;
    if (place < valid) {
      const BITS k = staged_key(l, place);
      const uint digit = key_digit(k, pc, mode);
#ifdef PAIRS
      t->out_digits[j >> 2] |= digit << (8u * (j & 3u));
#endif
      keys_out[l->digit_first[digit] + place] = (KEY)k;
    }
  }
}

#ifdef PAIRS
// The values through the same places, after scatter_keys, a word at a time (a u64 value's two in
// turn, so values of any width fit the keys' local memory): each read from the tile at `base` of
// values_in into its key's place.
TILE_FN
void write_values(const TileLocal* l, const TileItems* t, __global const uint* values_in,
                  __global uint* values_out, IDX base, uint valid) {
  const uint tid = (uint)get_local_id(0);
  for (uint w = 0; w < VALUE_WORDS; ++w) {
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (uint i = 0; i < ITEMS; ++i)
      if (slot_of(i) < valid)
        l->staged[rank_of_item(t, i)] = *value_word_in(values_in, base + slot_of(i), w);
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (uint j = 0; j < ITEMS; ++j) {
      const uint place = j * WG + tid;
      if (place < valid)
        *value_word_out(values_out, l->digit_first[unpack_digit(t->out_digits[j >> 2], j)] + place,
                        w) = l->staged[place];
    }
  }
}
#endif

// After digit_first is written and a barrier: the keys (and the values of the tile at `base`)
// out.
TILE_FN
void write_tile(const TileLocal* l, TileItems* t, __global KEY* keys_out,
                __global const uint* values_in, __global uint* values_out, IDX base, uint valid,
                const SortArgs* pc, uint mode) {
  scatter_keys(l, t, keys_out, valid, pc, mode);
#ifdef PAIRS
  write_values(l, t, values_in, values_out, base, valid);
#else
  (void)values_in, (void)values_out, (void)base;
#endif
}
