// radix/onesweep's digit pass (the port of shaders/sort_onesweep.comp): Adinets & Merrill's
// Onesweep (2022) with the decoupled fallback of Smith, Levien & Owens (SPAA 2025). A work-group
// draws its tile from the launch's counter, counts its digits and publishes them at once, ranks
// and stages its keys (sort_tile.cl), then finds where each digit of its tile goes with a
// look-back over the tiles before it, one work-item per digit, and writes the tile out.
//
// Status: one 32-bit word per (tile, digit), the flag in the top two bits and the count below,
// written by atomic exchange and read by volatile loads (single-copy atomic), so flag and count
// travel together and nothing else crosses work-groups. A tile publishes its count (kAggregate),
// then the count of itself and every tile before it (kPrefix); zero is "not yet". Two status
// sets alternate between launches: a launch zeroes the set the next one uses.
//
// Forward progress: OpenCL promises none between work-groups, so no wait is unbounded. A
// work-item whose predecessor stays unpublished for pc.limit polls stops; once every digit's
// walk has ended or stopped, the work-group counts the digits of the nearest stopped predecessor
// itself from the pass's input (read-only for the launch), the walks at that tile take its count
// and go on, and the fallbacks are counted at pc.fallbacks. Each round ends one stop, so the pass
// finishes whatever the scheduler does. pc.limit = 0 forces the fallback at every predecessor
// that has not published its prefix.
#ifndef WINDOW
#define WINDOW 8u  // predecessors one poll reads per digit, as independent loads
#endif

#define kAggregate (1u << 30)
#define kPrefix (2u << 30)
#define kFlags (3u << 30)
#define kCount (~kFlags)

uint observe(__global uint* words, uint at) { return *(volatile __global uint*)(words + at); }
void publish(__global uint* words, const SortArgs* pc, uint tile, uint digit, uint word) {
  (void)atomic_xchg(&words[pc->status + tile * kRadix + digit], word);
}

// Work-item d's walk from `next` down, adding counts, until a prefix (done) or pc.limit polls
// without progress (the stop is posted to `stalled`).
TILE_FN
void walk(__global uint* words, const SortArgs* pc, int* next, uint* before, bool* done,
          volatile __local int* stalled) {
  const uint d = (uint)get_local_id(0);
  uint polls = 0;
  const uint wanted = pc->limit == 0u ? kPrefix : kFlags;  // 0: prefixes only (forced fallback)
  while (!*done) {
    uint seen[WINDOW];
#pragma unroll
    for (uint w = 0; w < WINDOW; ++w)
      seen[w] = *next - (int)w >= 0 ? observe(words, pc->status + (uint)(*next - (int)w) * kRadix + d)
                                    : kPrefix;  // before tile 0: a prefix of nothing
    bool waiting = false, progress = false;
#pragma unroll
    for (uint w = 0; w < WINDOW; ++w) {
      if (*done || waiting) continue;
      waiting = (seen[w] & wanted) == 0u;
      if (waiting) continue;
      *before += seen[w] & kCount;
      *done = (seen[w] & kPrefix) != 0u;
      progress = true;
      --*next;
    }
    if (*done) return;
    polls = progress ? 0u : polls + 1u;
    if (polls > pc->limit) {
      atomic_max(stalled, *next);
      return;
    }
  }
}

// The fallback: the work-group counts the digits of full tile `t` of the portion into `counts`.
TILE_FN
void count_predecessor(__global const KEY* keys_in, const SortArgs* pc, uint mode, uint t,
                       __local uint* counts) {
  const uint tid = (uint)get_local_id(0);
  for (uint k = tid; k < kRadix; k += WG) counts[k] = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  const IDX base = (IDX)(pc->first_tile + t) * TILE;
#pragma unroll
  for (uint j = 0; j < ITEMS; ++j)
    atomic_inc(&counts[key_digit((BITS)keys_in[base + j * WG + tid], pc, mode)]);
  barrier(CLK_LOCAL_MEM_FENCE);
}

// Work-item d < 256: the count of digit d in every tile of the portion before `tile`. Every
// work-item calls (the fallback is the work-group's).
TILE_FN
uint look_back(__global const KEY* keys_in, __global uint* words, const SortArgs* pc, uint mode,
               uint tile, __local uint* counts, volatile __local int* stalled) {
  const uint d = (uint)get_local_id(0);
  uint before = 0;
  int next = (int)tile - 1;
  bool done = d >= kRadix || tile == 0u;
#ifdef XR_SORT_NO_LOOKBACK
  // The experiment (XR_CL_BUILD_OPTIONS=-DXR_SORT_NO_LOOKBACK): the pass without its look-back,
  // wrong results the check refuses, the look-back's cost by difference.
  done = true;
#endif
  for (;;) {
    if (d == 0u) *stalled = -1;
    barrier(CLK_LOCAL_MEM_FENCE);
    walk(words, pc, &next, &before, &done, stalled);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int stop = *stalled;
    if (stop < 0) return before;  // every walk ended at a prefix
    count_predecessor(keys_in, pc, mode, (uint)stop, counts);
    if (!done && next == stop) {
      before += counts[d];
      --next;
      done = next < 0;
    }
    if (d == 0u) atomic_inc(&words[pc->fallbacks]);
    barrier(CLK_LOCAL_MEM_FENCE);  // the counts read before they are zeroed again
  }
}

// Zeroes the next launch's status rows that this tile stands for.
void zero_next_status(__global uint* words, const SortArgs* pc, uint tile) {
  for (uint r = tile; r < pc->zero_rows; r += pc->tiles)
    for (uint d = (uint)get_local_id(0); d < kRadix; d += WG)
      words[pc->next_status + r * kRadix + d] = 0u;
}

SORT_KERNEL {
  SORT_OPERANDS();
  TILE_LOCALS(l);
  __local uint drawn;
  volatile __local int stalled;
  const uint d = (uint)get_local_id(0);
  if (d == 0u) drawn = atomic_inc(&words[pc.counter]);
  if (pc.counted != 0u) {  // one portion: the count's tiles, each zeroing its own row
    pc.tiles = (uint)((PC_N + TILE - 1u) / TILE);
    pc.zero_rows = pc.tiles;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint tile = drawn;
  if (tile >= pc.tiles) return;  // a counted call's work-groups past its tiles
  zero_next_status(words, &pc, tile);
  const IDX base = (IDX)(pc.first_tile + tile) * TILE;
  const uint valid = (uint)min((IDX)TILE, PC_N - base);
  TileItems t;
  load_tile(&t, keys_in, base, valid, &pc, mode);

  uint total;
  const uint count = count_tile(&l, &t, valid, &total);
  if (d < kRadix) publish(words, &pc, tile, d, (tile == 0u ? kPrefix : kAggregate) | count);
  const uint start = place_tile(&l, &t, total, &pc, mode);
  barrier(CLK_LOCAL_MEM_FENCE);  // ranked: the counters are free for the fallback
  // Last, so that the tiles before have had the ranking's time to publish their prefixes.
  const uint before = look_back(keys_in, words, &pc, mode, tile, l.counters, &stalled);
  if (d < kRadix) {
    if (tile > 0u) publish(words, &pc, tile, d, kPrefix | (before + count));
    const IDX first = load_count(words, pc.bins_in + d * kCountWords) + before;
    if (tile + 1u == pc.tiles) store_count(words, pc.bins_out + d * kCountWords, first + count);
    l.digit_first[d] = first - start;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  write_tile(&l, &t, keys_out, values_in, values_out, base, valid, &pc, mode);
}
