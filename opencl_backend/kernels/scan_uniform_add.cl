// The tiled scans' down-sweep between levels (shaders/scan_uniform_add.comp, CUDA's
// uniform_add): tile t of the destination (dst) gets prefix[t] (aux from aux_offset), the
// exclusive scan of the tile totals, combined in front of each element. The tile is `param`
// elements, covered by WG work-items in strides.
//  - In place (scratch levels, and outputs of 32- and 64-bit types): tile 0's prefix is the
//    identity, so work-group g handles tile g + 1 (the host launches tiles - 1).
//  - kFromWide (f16/bf16 outputs): the tile pass left its float results in aux from
//    in_offset; every tile, tile 0 too, is combined there and rounded once into the output.
//    Adding the prefix to an output already rounded would round twice, at the tile-local
//    magnitude.
XR_KERNEL {
  XR_UNUSED_ARGS;
  const uint group = (uint)get_group_id(0);
  if (group >= groups) return;
  const bool from_wide = (flags & kFromWide) != 0u;
  const uint t = from_wide ? group : group + 1u;
  const IDX base = (IDX)t * param;  // element indices may pass 2^32
  const T p = aux[aux_offset + t];
  for (uint e = (uint)get_local_id(0); e < param; e += WG) {
    const IDX i = base + e;
    if (i < (IDX)n) {
      const T x = from_wide ? aux[in_offset + i] : DST_LOAD(dst, out_offset + i);
      DST_STORE(dst, out_offset + i, OP(p, x));
    }
  }
}
