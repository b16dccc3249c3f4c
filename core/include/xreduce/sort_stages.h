// The sort's stages, a row each in sort::Stage's order (xreduce/sort_passes.hpp), with the forms
// each stage's kernel is built in: shaders/CMakeLists.txt reads the rows for the Vulkan modules;
// C++ includes them for sort::Stage and sort_stage_forms, from which the module names
// (vk_sort_plan.cpp), the OpenCL builds (cl_sort_plan.cpp) and their preludes (cl_sources.cpp)
// follow. A stage's kernel is sort_<stage> (shaders/sort_<stage>.comp,
// opencl_backend/kernels/sort_<stage>.cl). The forms:
//   keys     one build per key width, of its keys or items (".k16", ".k32", ".k64"; -DK16 ...);
//            without, one build (-DK32)
//   pairs    also ones moving a value with each key: u32 (".pairs"; -DPAIRS) and u64 (".pairs64";
//            -DPAIRS -DVALUE64)
//   ranks    ranks a tile's digits (sort_tile), also by counting (".count")
//   address  also in core's wide form, by device address in Vulkan (".addr"; -DWIDE)
//   items    works on bitonic/smem's items (sort_bitonic)
//   tile     sorts tiles of items in shared memory (sort_bitonic_tile)
//   ordered  reads keys by their order (sort_bits): in OpenCL one build per key kind and order
//            (-DSORT_MODE), as Vulkan's specialization constant fixes them in every module
// A row a line, XR_SORT_STAGE(stage[, form]...), as CMake reads them.

// Zero the histograms, counters and the first status set: the same words in either form, so one
// build for both.
XR_SORT_STAGE(init)
// onesweep with the count on the device: the digit passes' grid from it (Vulkan's indirect
// dispatch).
XR_SORT_STAGE(grid)
// onesweep: every pass's digit counts in one read.
XR_SORT_STAGE(histogram, keys, address, ordered)
// onesweep: each pass's counts scanned.
XR_SORT_STAGE(bins, address)
// onesweep: one portion of one digit pass.
XR_SORT_STAGE(onesweep, keys, pairs, ranks, address, ordered)
// reduce-then-scan: each block's digit counts.
XR_SORT_STAGE(rts_count, keys, address, ordered)
// reduce-then-scan: the table scanned.
XR_SORT_STAGE(rts_scan, address)
// reduce-then-scan: each block's keys ranked and written.
XR_SORT_STAGE(rts_scatter, keys, pairs, ranks, address, ordered)
// bitonic: the keys into items, padded, each tile sorted in shared memory.
XR_SORT_STAGE(bitonic_tiles, keys, items, tile, ordered)
// bitonic: one compare-exchange step at stride j >= tile of stage k.
XR_SORT_STAGE(bitonic_global, keys, items)
// bitonic: stage k's strides below the tile, each tile in shared memory.
XR_SORT_STAGE(bitonic_merge, keys, items, tile)
// bitonic: the keys (and values) out in the sorted items' order.
XR_SORT_STAGE(bitonic_gather, keys, pairs, items)
