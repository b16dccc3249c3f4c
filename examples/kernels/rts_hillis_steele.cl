// A three-pass reduce-then-scan with a Hillis–Steele block scan, written from docs/kernels.md:
// the twin of rts_hillis_steele.cu and .comp, line for line, under the same id: reduce_tiles
// folds each tile to its total (the block scan's last element), scan_totals scans the tile totals
// in one work-group, scan_tiles scans each tile again from its prefix. Built-in versions:
// smem/hillis-steele (one tile per work-group) and fast/reduce-then-scan.
// xreduce: primitive=scan dtypes=i32,u32,f32,i64,u64,f64 ops=sum,min,max kinds=inclusive
// xreduce: block=256 items=8 scratch-per-tile=8
// xreduce: pass=reduce_tiles:tiles pass=scan_totals:one pass=scan_tiles:tiles

// Hillis–Steele's inclusive scan of one value per work-item across the work-group,
// double-buffered: log2 steps, each work-item adding the value d places before it. Every
// work-item calls it.
XR_ACC block_scan(XR_ACC x, __local XR_ACC (*buf)[XR_BLOCK]) {
  const uint t = get_local_id(0);
  uint out = 0;
  buf[out][t] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = 1; d < XR_BLOCK; d *= 2) {
    const uint in = out;
    out = 1 - out;
    XR_ACC v = buf[in][t];
    if (t >= d) v = XR_OP(buf[in][t - d], v);
    buf[out][t] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return buf[out][t];
}

__kernel void reduce_tiles(__global const XR_T* in, __global XR_T* out, __global uchar* scratch,
                           uint n) {
  __local XR_ACC buf[2][XR_BLOCK];
  const uint t = get_local_id(0), g = get_group_id(0);
  const uint base = g * XR_TILE + t;
  XR_ACC acc = XR_IDENTITY;
  for (uint k = 0; k < XR_ITEMS; ++k)  // coalesced; the padding makes whole tiles
    acc = XR_OP(acc, XR_TO_ACC(in[base + k * XR_BLOCK]));
  const XR_ACC all = block_scan(acc, buf);
  if (t == XR_BLOCK - 1) ((__global XR_ACC*)scratch)[g] = all;
}

// One work-group: the tile totals become their exclusive prefixes, XR_BLOCK at a time.
__kernel void scan_totals(__global const XR_T* in, __global XR_T* out, __global uchar* scratch,
                          uint n) {
  __local XR_ACC buf[2][XR_BLOCK];
  __local XR_ACC scanned[XR_BLOCK];
  __global XR_ACC* totals = (__global XR_ACC*)scratch;
  const uint t = get_local_id(0);
  const uint tiles = (n + XR_TILE - 1) / XR_TILE;
  XR_ACC carry = XR_IDENTITY;
  for (uint first = 0; first < tiles; first += XR_BLOCK) {
    const uint i = first + t;
    scanned[t] = block_scan(i < tiles ? totals[i] : XR_IDENTITY, buf);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < tiles) totals[i] = t == 0 ? carry : XR_OP(carry, scanned[t - 1]);
    carry = XR_OP(carry, scanned[XR_BLOCK - 1]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// Each work-item scans its XR_ITEMS consecutive elements, the work-group scans the work-items'
// totals, and every element is written with everything before it.
__kernel void scan_tiles(__global const XR_T* in, __global XR_T* out, __global uchar* scratch,
                         uint n) {
  __local XR_ACC buf[2][XR_BLOCK];
  __local XR_ACC scanned[XR_BLOCK];
  const uint t = get_local_id(0), g = get_group_id(0);
  const XR_ACC tile_prefix = ((__global const XR_ACC*)scratch)[g];
  const uint base = g * XR_TILE + t * XR_ITEMS;
  XR_ACC v[XR_ITEMS];
  XR_ACC run = XR_IDENTITY;
  for (uint k = 0; k < XR_ITEMS; ++k) {
    run = XR_OP(run, XR_TO_ACC(in[base + k]));
    v[k] = run;
  }
  scanned[t] = block_scan(run, buf);
  barrier(CLK_LOCAL_MEM_FENCE);
  const XR_ACC prefix = t == 0 ? tile_prefix : XR_OP(tile_prefix, scanned[t - 1]);
  for (uint k = 0; k < XR_ITEMS; ++k)
    if (base + k < n) out[base + k] = XR_FROM_ACC(XR_OP(prefix, v[k]));
}
