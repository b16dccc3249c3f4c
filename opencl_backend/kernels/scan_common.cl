// Shared by the scan kernels, after common.cl and group.cl (the OpenCL counterpart of
// shaders/scan_common.glsl). Each pass reaches three buffers:
//   src: the pass's source, elements from in_offset (the input, or scratch)
//   dst: the pass's destination, elements from out_offset (the output, or scratch)
//   aux: the pass's own scratch from aux_offset (tile totals, the BIT, partials, look-back
//        status words), accumulators
// The destination holds the scan's output (elements: the host builds with -DXR_DST_ELEMENTS)
// except in the "wide" first level of a 16-bit tiled scan (-DXR_WIDE_DST: accumulators in
// scratch, so each output is rounded once, after its tile prefix is added by scan_uniform_add
// with kFromWide). Element indices are IDX wherever they can pass 2^32; work-group, tile and
// partial counts stay 32-bit.
#define kExclusive 1u    // out[i] combines x[0..i-1] (identity at i = 0), else x[0..i]
#define kWriteTotals 2u  // each tile writes its total at aux[aux_offset + tile]
#define kHasPrefix 4u    // fast/reduce-then-scan: aux holds each chunk's prefix
#define kNoWait 8u       // fast/decoupled-lookback experiment: never look back
#define kFromWide 16u    // scan_uniform_add: the elements are accumulators in aux

#define EXCLUSIVE_SCAN() ((flags & kExclusive) != 0u)
#define WRITES_TOTALS() ((flags & kWriteTotals) != 0u)

// The GPU Gems 3 39.2.3 padding for 32 banks: one empty slot after every 32, so power-of-two
// strides fall on different banks. Local arrays indexed through it hold N + N / 32 slots.
uint conflict_free(uint index) { return index + (index >> 5); }
