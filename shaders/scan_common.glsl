// Shared by the scan shaders, on top of common.glsl (type, operator, identity, WG, push
// constants). Each scan shader declares its own bindings, in one convention:
//   binding 0: the pass's source, elements from pc.in_offset (the input, or scratch)
//   binding 1: the pass's destination, elements from pc.out_offset (the output, or scratch)
//   binding 2: the pass's own scratch from pc.aux_offset (tile totals, the BIT, partials,
//              look-back status words)
// Workgroups: pc.groups carry data; the host may dispatch a 2-D grid of a few more (the 1-D
// limit is 65535 on many devices), which return at once. Indices are 32-bit: the host refuses
// n >= 2^31.
#define XR_CUSTOM_BINDINGS
#include "common.glsl"

const uint kExclusive = 1u;    // out[i] combines x[0..i-1] (identity at i = 0), else x[0..i]
const uint kWriteTotals = 2u;  // each tile writes its total at binding 2, pc.aux_offset + tile
const uint kHasPrefix = 4u;    // fast/reduce-then-scan: binding 2 holds each chunk's prefix
const uint kNoWait = 8u;       // fast/decoupled-lookback experiment: never look back

bool exclusive_scan() { return (pc.flags & kExclusive) != 0u; }
bool writes_totals() { return (pc.flags & kWriteTotals) != 0u; }

// The GPU Gems 3 39.2.3 padding for 32 banks: one empty slot after every 32, so power-of-two
// strides fall on different banks. Shared arrays indexed through it hold N + N / 32 slots.
uint conflict_free(uint index) { return index + (index >> 5); }
