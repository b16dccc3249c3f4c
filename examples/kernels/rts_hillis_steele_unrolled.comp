#version 450
// rts_hillis_steele.comp with its loops unrolled ([[unroll]], GL_EXT_control_flow_attributes),
// as nvcc unrolls the .cu's constant-trip loops by itself, which brings it level with the .cu
// (docs/results/H200/compiled).
// xreduce: primitive=scan dtypes=i32,u32,f32,i64,u64,f64 ops=sum,min,max kinds=inclusive
// xreduce: block=256 items=8 scratch-per-tile=8 pass=main:tiles pass=main:one pass=main:tiles
// xreduce: id=rts_hillis_steele_unrolled
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Input { XR_T xs[]; };
layout(std430, binding = 1) writeonly buffer Output { XR_T ys[]; };
layout(std430, binding = 2) buffer Scratch { XR_ACC totals[]; };
layout(push_constant) uniform Sizes { uint n; uint tiles; } p;

shared XR_ACC buf[2][XR_BLOCK];
shared XR_ACC scanned[XR_BLOCK];

// Hillis–Steele's inclusive scan of one value per invocation across the workgroup,
// double-buffered. Every invocation calls it.
XR_ACC block_scan(XR_ACC x) {
  const uint t = gl_LocalInvocationID.x;
  uint o = 0;
  buf[o][t] = x;
  barrier();
  [[unroll]] for (uint d = 1; d < XR_BLOCK; d *= 2) {
    const uint i = o;
    o = 1 - o;
    XR_ACC v = buf[i][t];
    if (t >= d) v = XR_OP(buf[i][t - d], v);
    buf[o][t] = v;
    barrier();
  }
  return buf[o][t];
}

void main() {
  const uint t = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;
#if XR_PASS == 0  // reduce_tiles
  const uint base = g * XR_TILE + t;
  XR_ACC acc = XR_IDENTITY;
  [[unroll]] for (uint k = 0; k < XR_ITEMS; ++k)
    acc = XR_OP(acc, XR_TO_ACC(xs[base + k * XR_BLOCK]));
  const XR_ACC all = block_scan(acc);
  if (t == XR_BLOCK - 1) totals[g] = all;
#elif XR_PASS == 1  // scan_totals: one workgroup
  const uint tiles = (p.n + XR_TILE - 1) / XR_TILE;
  XR_ACC carry = XR_IDENTITY;
  for (uint first = 0; first < tiles; first += XR_BLOCK) {
    const uint i = first + t;
    scanned[t] = block_scan(i < tiles ? totals[i] : XR_IDENTITY);
    barrier();
    if (i < tiles) totals[i] = t == 0 ? carry : XR_OP(carry, scanned[t - 1]);
    carry = XR_OP(carry, scanned[XR_BLOCK - 1]);
    barrier();
  }
#else  // scan_tiles
  const XR_ACC tile_prefix = totals[g];
  const uint base = g * XR_TILE + t * XR_ITEMS;
  XR_ACC v[XR_ITEMS];
  XR_ACC run = XR_IDENTITY;
  [[unroll]] for (uint k = 0; k < XR_ITEMS; ++k) {
    run = XR_OP(run, XR_TO_ACC(xs[base + k]));
    v[k] = run;
  }
  scanned[t] = block_scan(run);
  barrier();
  const XR_ACC prefix = t == 0 ? tile_prefix : XR_OP(tile_prefix, scanned[t - 1]);
  [[unroll]] for (uint k = 0; k < XR_ITEMS; ++k)
    if (base + k < p.n) ys[base + k] = XR_FROM_ACC(XR_OP(prefix, v[k]));
#endif
}
