// A digit pass's tile, shared by radix/onesweep and radix/reduce-then-scan: WG invocations x
// ITEMS keys, each invocation holding ITEMS slots (slot_of: which, by the ranking), so slot order
// is input order. Each key is ranked stably within the tile by its digit and staged in shared
// memory in digit order; then consecutive invocations write runs of one digit out. Slots past the
// tile's last key take the largest digit, kPad: ranked in slot order, they come after every key
// and are never written.
//
// Two rankings, one module each (shaders/CMakeLists.txt), both defining tile_counters, slot_of,
// zero_tile_counters, count_tile and place_tile: by subgroup ballots (sort_rank_ballot.glsl), and
// by counting in shared memory without any subgroup operation (sort_rank_count.glsl, the modules
// that define SORT_RANK_COUNT), for devices without subgroup ballots, shuffles or arithmetic.

layout(constant_id = 1) const uint ITEMS = 16;
const uint TILE = WG * ITEMS;
const uint kPad = kRadix - 1u;

// The tile in digit order: keys, then the values a word at a time (a u64 value's two words in
// turn, so values of any width fit the keys' memory).
shared uint staged[TILE * KEY_WORDS];
// A digit's output index less its first place in the tile; before that, the ballot ranking's
// digit counts and first places, handed between the invocations of digits and of words.
shared IDX digit_first[kRadix];

// Registers decide how many workgroups an SM holds (a digit, a rank and an output digit per item
// hold a tile to one workgroup an SM; docs/results/H200/tuning-notes.md): an item's digit is
// taken again from its key whenever it is needed, not held, and a key is staged as soon as it is
// ranked, so only pairs keep their ranks (for the values).
const uint kDigitWords = (ITEMS + 3u) / 4u;
BITS tile_key[ITEMS];
uint tile_valid;  // the tile's keys: slots from here on are padding, of digit kPad
#ifdef PAIRS
uint tile_rank[ITEMS];
VALUE tile_value[ITEMS];
uint out_digits[kDigitWords];  // the digit of each place this invocation writes out
#endif

uint unpack_digit(uint words_of_digits, uint i) { return (words_of_digits >> (8u * (i & 3u))) & 0xffu; }
uint slot_of(uint i);  // the ranking's (below)
uint item_digit(uint i) {
  return slot_of(i) < tile_valid ? digit_at(sort_bits(tile_key[i]), pc.shift, pc.width) : kPad;
}

void stage_key(uint place, BITS k) {
#if KEY_WORDS == 2
  staged[2u * place] = uint(k);
  staged[2u * place + 1u] = uint(k >> 32);
#else
  staged[place] = k;
#endif
}

BITS staged_key(uint place) {
#if KEY_WORDS == 2
  return BITS(staged[2u * place]) | (BITS(staged[2u * place + 1u]) << 32);
#else
  return staged[place];
#endif
}

// f32 keys load their items (and the ballot ranking counts them) in rolled loops (kRolledItems),
// the other keys in unrolled ones: NVIDIA's compiler runs f32 digit passes faster rolled and u32
// ones slower, uniform digits or not (docs/results/H200/sort/key-types); the other widths are not
// measured rolled.
const bool kRolledItems = kKind == 2u && KEY_BITS == 32;

#ifdef SORT_RANK_COUNT
#include "sort_rank_count.glsl"
#else
#include "sort_rank_ballot.glsl"
#endif

void load_item(IDX base, uint valid, uint i) {
  const uint s = slot_of(i);
  tile_key[i] = s < valid ? key_bits(base + s) : BITS(0);
}

// This invocation's keys of the tile at `base` with `valid` keys (item_digit takes their digits
// from them).
void load_tile(IDX base, uint valid) {
  tile_valid = valid;
  if (kRolledItems) {
    [[dont_unroll]] for (uint i = 0; i < ITEMS; ++i) load_item(base, valid, i);
  } else {
    [[unroll]] for (uint i = 0; i < ITEMS; ++i) load_item(base, valid, i);
  }
}

#ifdef PAIRS
void load_values(IDX base, uint valid) {
  [[unroll]] for (uint i = 0; i < ITEMS; ++i) {
    const uint s = slot_of(i);
    tile_value[i] = s < valid ? load_value(base + s) : VALUE(0u);
  }
}
#endif

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
// Word w of the values through the same places, after scatter_keys and a barrier.
void stage_values(uint w) {
  [[unroll]] for (uint i = 0; i < ITEMS; ++i)
    staged[tile_rank[i]] = value_word(tile_value[i], w);
}
void scatter_values(uint valid, uint w) {
  [[unroll]] for (uint j = 0; j < ITEMS; ++j) {
    const uint place = j * WG + gl_LocalInvocationIndex;
    if (place < valid)
      store_value_word(digit_first[unpack_digit(out_digits[j >> 2], j)] + place, w,
                       staged[place]);
  }
}
#endif

// After digit_first is written and a barrier: the keys (and values) out.
void write_tile(uint valid) {
  scatter_keys(valid);
#ifdef PAIRS
  [[unroll]] for (uint w = 0; w < kValueWords; ++w) {
    barrier();
    stage_values(w);
    barrier();
    scatter_values(valid, w);
  }
#endif
}
