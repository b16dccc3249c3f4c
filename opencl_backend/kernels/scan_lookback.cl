// fast/decoupled-lookback (the port of shaders/scan_lookback.comp): the single-pass scan of
// Merrill & Garland (2016) with the decoupled fallback of Smith, Levien & Owens (SPAA 2025), so
// it finishes on any OpenCL device (OpenCL promises no forward progress between work-groups).
//
// A work-group draws a ticket from a 64-bit counter (word `param` of aux, from aux_offset, in
// 64-bit words); the ticket gives its tile (ticket % groups) and its epoch (ticket / groups + 1):
// tiles are claimed in order, so a tile only waits on tiles whose work-groups have started. The
// work-group scans its tile (scan_tile.cl); sub-group 0 publishes the tile's aggregate, looks back
// over its predecessors' status words (each lane reads WINDOW consecutive words per poll: WINDOW
// x SG predecessors per round trip), and publishes the inclusive prefix; then the tile is stored
// with its exclusive prefix. With SG == 1 (pocl) sub-group 0 is work-item 0, alone.
//
// Forward progress: a window that still holds an unpublished predecessor after `limit` polls
// stops waiting: sub-group 0 reduces that tile's input itself (the input is read-only for the
// whole pass), offers the aggregate to the tile's status word (compare-and-swap from the word it
// read; 4-byte accumulators) and goes on. Every wait is bounded, so the scan ends whatever the
// scheduler does. Fallbacks are counted (atomic add) in word param + 1.
//
// Memory: everything work-groups share is a 64-bit word written and read atomically (atom_xchg,
// atom_cmpxchg, and volatile 64-bit loads, single-copy atomic on every target this runs on),
// flag and epoch beside the value, so a reader never pairs a flag with another write's value and
// no non-atomic data crosses work-groups. An 8-byte accumulator does not fit beside its flag: its
// tile has two words, each with flag, epoch and one 32-bit half of the value, and a reader takes
// the value only when both carry the same flag and epoch (each (tile, epoch, flag) is published
// by one work-group, once, so matching words are halves of one value). For the same reason the
// fallback does not publish what it reduces for 8-byte values (a second writer could pair its
// half with the owner's); it keeps the total for its own look-back.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

#define kAggregate 1u  // the word holds the tile's own total
#define kPrefix 2u     // the word holds everything up to and including the tile
#define kEpochs ((1u << 30) - 1u)  // epoch 0 is "never written"

// Status words per lane and poll (1 .. 4). One lane alone (SG == 1) reads several per poll.
#ifndef LB_WINDOW
#if SG > 1
#define LB_WINDOW 1u
#else
#define LB_WINDOW 4u
#endif
#endif
#define WINDOW LB_WINDOW

typedef __global volatile ulong* Words;

// A value's bits.
#if T_BYTES == 8
#define kWords 2u  // the low half's word, then the high half's
#if defined(T_F64)
ulong bits_of(T v) { return as_ulong(v); }
T value_of(ulong b) { return as_double(b); }
#else
ulong bits_of(T v) { return (ulong)v; }
T value_of(ulong b) { return (T)b; }
#endif
#else
#define kWords 1u
#if defined(T_F32) || defined(ACC_F32)  // f16 / bf16 accumulate in float
uint bits_of(T v) { return as_uint(v); }
T value_of(uint b) { return as_float(b); }
#else
uint bits_of(T v) { return (uint)v; }
T value_of(uint b) { return (T)b; }
#endif
#endif

// A word: flag and epoch in the high half, 32 bits of the value in the low half.
ulong pack(uint epoch, uint flag, uint value_bits) {
  return ((ulong)((epoch << 2) | flag) << 32) | (ulong)value_bits;
}
// 0 when the word is of another epoch (not yet published in this pass), else its flag.
uint flag_of(ulong w, uint epoch) {
  const uint hi = (uint)(w >> 32);
  return (hi >> 2) == epoch ? (hi & 3u) : 0u;
}

ulong load_word(Words words, uint k) { return words[k]; }
void store_word(Words words, uint k, ulong w) { (void)atom_xchg(words + k, w); }

// --- sub-group votes over uint (SG lanes of a warp, SG <= 32), trivial for SG == 1 -----------
#if SG > 1
uint sg_or_u(uint x) {
  for (uint m = SG / 2u; m > 0u; m >>= 1) x |= shfl_xor_u32(x, m);
  return x;
}
uint sg_add_u(uint x) {
  for (uint m = SG / 2u; m > 0u; m >>= 1) x += shfl_xor_u32(x, m);
  return x;
}
uint sg_ballot(bool p) { return sg_or_u(p ? 1u << sg_lane() : 0u); }
uint sg_shuffle_u(uint x, uint lane) { return shfl_idx_u32(x, lane); }
#else
uint sg_add_u(uint x) { return x; }
uint sg_ballot(bool p) { return p ? 1u : 0u; }
uint sg_shuffle_u(uint x, uint lane) { return (void)lane, x; }
#endif
// The lowest set bit's index (b != 0); OpenCL C 1.2 has no ctz.
uint lowest_bit(uint b) { return 31u - clz(b & (0u - b)); }

// A tile's status as published in this epoch: its flag (0: not yet) and value.
typedef struct {
  uint flag;
  T value;
  ulong word;  // as read (4-byte accumulators): what the fallback's compare-and-swap expects
} Status;

Status load_status(Words words, uint tile, uint epoch) {
  Status s;
#if T_BYTES == 8
  const ulong lo = load_word(words, 2u * tile), hi = load_word(words, 2u * tile + 1u);
  // Halves of two publications (aggregate, then prefix) read as "not yet": poll again.
  s.flag = (uint)(lo >> 32) == (uint)(hi >> 32) ? flag_of(lo, epoch) : 0u;
  s.value = value_of((hi << 32) | (lo & 0xfffffffful));
  s.word = lo;
#else
  s.word = load_word(words, tile);
  s.flag = flag_of(s.word, epoch);
  s.value = value_of((uint)s.word);
#endif
  return s;
}

void publish(Words words, uint tile, uint epoch, uint flag, T v) {
#if T_BYTES == 8
  const ulong b = bits_of(v);
  store_word(words, 2u * tile, pack(epoch, flag, (uint)b));
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  store_word(words, 2u * tile + 1u, pack(epoch, flag, (uint)(b >> 32)));
#else
  store_word(words, tile, pack(epoch, flag, bits_of(v)));
#endif
  mem_fence(CLK_GLOBAL_MEM_FENCE);
}

// The fallback: the total of full tile j (a predecessor: never the last, partial tile), reduced
// by sub-group 0 from the input, in every lane.
T reduce_tile(__global const E* in, uint j) {
  __global const E* at = in + (IDX)j * TILE_ELEMENTS;
  T4 acc = (T4)(IDENTITY);
  for (uint v = sg_lane(); v < TILE_ELEMENTS / 4u; v += SG) acc = OP4(acc, LOAD4(at, v));
  return sg_reduce(OP(OP(acc.x, acc.y), OP(acc.z, acc.w)));
}

// Lane `lane`'s words of the window ending at tile `end`: tiles end - (lane * WINDOW + j),
// j < WINDOW, nearest first; before tile 0, the identity as a published prefix.
typedef struct {
  Status s[WINDOW];
  uint first_prefix;  // the lane's nearest published prefix (j), WINDOW: none
  uint missing;       // bit j: word j is unpublished and nearer than first_prefix
} Window;

void poll_window(Window* w, Words words, int end, uint epoch) {
  w->first_prefix = WINDOW;
  w->missing = 0u;
#pragma unroll
  for (uint j = 0u; j < WINDOW; ++j) {
    const int idx = end - (int)(sg_lane() * WINDOW + j);
    if (idx >= 0) {
      w->s[j] = load_status(words, (uint)idx, epoch);
    } else {
      w->s[j].flag = kPrefix;
      w->s[j].value = IDENTITY;
      w->s[j].word = 0ul;
    }
    if (w->first_prefix == WINDOW) {
      if (w->s[j].flag == kPrefix) w->first_prefix = j;
      else if (w->s[j].flag == 0u) w->missing |= 1u << j;
    }
  }
}

// The fallback over lanes 0..needed: sub-group 0 reduces every missing tile itself and offers
// its aggregate to the tile's word (4-byte accumulators; 8-byte: see the top). Returns how many.
uint reduce_missing(Window* w, Words words, __global const E* in, int end, uint needed,
                    uint epoch) {
  const uint lane = sg_lane();
  const uint lanes = sg_ballot(w->missing != 0u);
  for (uint l = 0u; l <= needed; ++l) {  // uniform
    if (((lanes >> l) & 1u) == 0u) continue;
    const uint bits = sg_shuffle_u(w->missing, l);
#pragma unroll
    for (uint j = 0u; j < WINDOW; ++j) {
      if ((bits & (1u << j)) == 0u) continue;
      const uint t = (uint)end - (l * WINDOW + j);
      const T total = reduce_tile(in, t);
      if (lane == l) {
#if T_BYTES == 4
        (void)atom_cmpxchg(words + t, w->s[j].word, pack(epoch, kAggregate, bits_of(total)));
#endif
        w->s[j].flag = kAggregate;
        w->s[j].value = total;
      }
    }
  }
  return sg_add_u(popcount(w->missing));
}

// Sub-group 0 of tile `tile` (> 0): the combination of every earlier tile, in every lane. The
// window slides back WINDOW x SG tiles at a time until it meets a published prefix. Every branch
// is sub-group-uniform (votes).
T look_back(Words words, __global const E* in, uint tile, uint epoch, uint limit,
            Words fallbacks) {
  const uint lane = sg_lane();
  T exclusive = IDENTITY;
  int end = (int)tile - 1;
  for (;;) {
    Window w;
    uint needed;  // the lane holding the nearest published prefix; lanes past it are not needed
    bool found;
    for (uint polls = 0u;; ++polls) {
      poll_window(&w, words, end, epoch);
      const uint with_prefix = sg_ballot(w.first_prefix < WINDOW);
      found = with_prefix != 0u;
      needed = found ? lowest_bit(with_prefix) : SG - 1u;
      if (lane > needed) w.missing = 0u;
      if (sg_ballot(w.missing != 0u) == 0u) break;
      if (polls >= limit) {  // stop waiting: reduce every missing tile here
        const uint fell_back = reduce_missing(&w, words, in, end, needed, epoch);
        if (lane == 0u) (void)atom_add(fallbacks, (ulong)fell_back);
        break;
      }
    }
    T v = IDENTITY;
#pragma unroll
    for (uint j = 0u; j < WINDOW; ++j)
      if (lane <= needed && j <= w.first_prefix) v = OP(v, w.s[j].value);
    const T window = sg_reduce(v);  // not inside OP, which evaluates its operands twice
    exclusive = OP(window, exclusive);
    if (found) return exclusive;
    end -= (int)(WINDOW * SG);
  }
}

XR_KERNEL {
  XR_UNUSED_ARGS;
  __local T slots[TILE_SLOTS];
  __local uint s_tile;
  __local uint s_epoch;
  __local T s_prefix;
  Words words = (Words)aux + aux_offset;  // 64-bit words
  if (get_local_id(0) == 0u) {
    const ulong ticket = atom_inc(words + param);
    s_tile = (uint)(ticket % (ulong)groups);
    s_epoch = (uint)((ticket / (ulong)groups) % (ulong)kEpochs) + 1u;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint tile = s_tile, epoch = s_epoch;
  const uint tiles = (uint)((n + TILE_ELEMENTS - 1u) / TILE_ELEMENTS);
  if (tile >= tiles) return;  // uniform: spare work-groups
  const IDX tile_base = (IDX)tile * TILE_ELEMENTS;  // may pass 2^32
  __global const E* in = src + in_offset;
  Tile t;
  tile_load(&t, in, tile_base, (IDX)n);
  tile_scan(&t, slots);
  if (sg_id() == 0u) {
    const bool leader = sg_lane() == 0u;
    T prefix = IDENTITY;
    if (tile == 0u || (flags & kNoWait) != 0u) {  // the experiment skips the look-back
      if (leader) publish(words, tile, epoch, kPrefix, t.aggregate);
    } else {
      if (leader) publish(words, tile, epoch, kAggregate, t.aggregate);
      prefix = look_back(words, in, tile, epoch, limit, words + param + 1u);
      if (leader) publish(words, tile, epoch, kPrefix, OP(prefix, t.aggregate));
    }
    if (leader) s_prefix = prefix;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  tile_store(&t, dst + out_offset, tile_base, (IDX)n, s_prefix, EXCLUSIVE_SCAN());
}
