// The arguments of every sort pass, once for C++, GLSL and OpenCL C: core's sort::Args
// (xreduce/sort_passes.hpp), the shaders' push constants (shaders/sort_common.glsl) and the
// OpenCL kernels' argument (opencl_backend/kernels/sort_common.cl), field for field: 32-bit
// words, in this order, no padding. The includer defines XR_SORT_ARG(name, initial) as its
// language declares a 32-bit field (C++ with the initial value; the kernels' fields take none).
// Offsets are in 32-bit words of the words operand.
//
// xreduce/kernel/ holds what the kernels of every API share; it lies in core's include tree, the
// one folder C++ already reaches and the shader and OpenCL builds add as one include directory.
XR_SORT_ARG(n, 0)            // keys of the sort (the wide form: the low 32 bits)
XR_SORT_ARG(shift, 0)        // the pass's digit: sort bits [shift, shift + width)
XR_SORT_ARG(width, 8)        // 1..8
XR_SORT_ARG(first_tile, 0)   // onesweep: the portion's first tile
XR_SORT_ARG(tiles, 0)        // onesweep: the portion's tiles; reduce-then-scan: tiles per block
XR_SORT_ARG(blocks, 0)       // rts: blocks (the table's row length); init: words to zero
XR_SORT_ARG(bins_in, 0)      // onesweep: each digit's first index for this portion; rts: the table
XR_SORT_ARG(bins_out, 0)     // onesweep: the same for the next portion
XR_SORT_ARG(status, 0)       // onesweep: the status set this launch uses
XR_SORT_ARG(next_status, 0)  // onesweep: the set it zeroes for the next launch
XR_SORT_ARG(zero_rows, 0)    // onesweep: rows of 256 words of next_status to zero
XR_SORT_ARG(counter, 0)      // onesweep: this launch's tile counter
XR_SORT_ARG(histograms, 0)   // histogram and bins passes: every pass's 256 counts
XR_SORT_ARG(begin, 0)        // histogram, bitonic: the sort's bit range, its first bit
XR_SORT_ARG(end, 0)          // its end
XR_SORT_ARG(limit, 0)        // onesweep: polls of an unpublished predecessor before the fallback
XR_SORT_ARG(fallbacks, 0)    // onesweep: the running count of fallbacks
XR_SORT_ARG(bins, 0)         // the bins pass: where pass 0's bins go (two sets of 256 a pass)
XR_SORT_ARG(stage, 0)        // bitonic: k, the length of the runs a step merges (up to 2^31)
XR_SORT_ARG(stride, 0)       // bitonic: j, a global step's compare distance
XR_SORT_ARG(padded, 0)       // bitonic: the items (n padded to a power of two, at least one tile)
XR_SORT_ARG(n_high, 0)       // n's bits from 32 (the wide form)
XR_SORT_ARG(counted, 0)      // 1: the keys are the count on the device, at most n (sort_n)
XR_SORT_ARG(grid, 0)         // grid: where it writes the digit passes' grid (x, y, z words)
