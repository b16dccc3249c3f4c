// A three-pass reduce-then-scan with a Hillis–Steele block scan, written from docs/kernels.md:
// reduce_tiles folds each tile to its total (the block scan's last element), scan_totals scans
// the tile totals in one block, scan_tiles scans each tile again from its prefix. The twin of
// rts_hillis_steele.comp, line for line. Built-in versions: smem/hillis-steele (one tile per
// block) and fast/reduce-then-scan.
// xreduce: primitive=scan dtypes=i32,u32,f32,i64,u64,f64 ops=sum,min,max kinds=inclusive
// xreduce: block=256 items=8 scratch-per-tile=8
// xreduce: pass=reduce_tiles:tiles pass=scan_totals:one pass=scan_tiles:tiles

// Hillis–Steele's inclusive scan of one value per thread across the block, double-buffered: log2
// steps, each thread adding the value d places before it. Every thread calls it.
__device__ XR_ACC block_scan(XR_ACC x, XR_ACC (*buf)[XR_BLOCK]) {
  unsigned out = 0;
  buf[out][threadIdx.x] = x;
  __syncthreads();
  for (unsigned d = 1; d < XR_BLOCK; d *= 2) {
    const unsigned in = out;
    out = 1 - out;
    XR_ACC v = buf[in][threadIdx.x];
    if (threadIdx.x >= d) v = XR_OP(buf[in][threadIdx.x - d], v);
    buf[out][threadIdx.x] = v;
    __syncthreads();
  }
  return buf[out][threadIdx.x];
}

extern "C" __global__ void reduce_tiles(const XR_T* in, XR_T*, unsigned char* scratch,
                                        unsigned int n) {
  __shared__ XR_ACC buf[2][XR_BLOCK];
  const unsigned base = blockIdx.x * XR_TILE + threadIdx.x;
  XR_ACC acc = XR_IDENTITY;
  for (unsigned k = 0; k < XR_ITEMS; ++k)  // coalesced; the padding makes whole tiles
    acc = XR_OP(acc, XR_TO_ACC(in[base + k * XR_BLOCK]));
  const XR_ACC all = block_scan(acc, buf);
  if (threadIdx.x == XR_BLOCK - 1) reinterpret_cast<XR_ACC*>(scratch)[blockIdx.x] = all;
}

// One block: the tile totals become their exclusive prefixes, XR_BLOCK at a time.
extern "C" __global__ void scan_totals(const XR_T*, XR_T*, unsigned char* scratch, unsigned int n) {
  __shared__ XR_ACC buf[2][XR_BLOCK];
  __shared__ XR_ACC scanned[XR_BLOCK];
  XR_ACC* totals = reinterpret_cast<XR_ACC*>(scratch);
  const unsigned tiles = (n + XR_TILE - 1) / XR_TILE;
  XR_ACC carry = XR_IDENTITY;
  for (unsigned first = 0; first < tiles; first += XR_BLOCK) {
    const unsigned i = first + threadIdx.x;
    scanned[threadIdx.x] = block_scan(i < tiles ? totals[i] : XR_IDENTITY, buf);
    __syncthreads();
    if (i < tiles) totals[i] = threadIdx.x == 0 ? carry : XR_OP(carry, scanned[threadIdx.x - 1]);
    carry = XR_OP(carry, scanned[XR_BLOCK - 1]);
    __syncthreads();
  }
}

// Each thread scans its XR_ITEMS consecutive elements, the block scans the threads' totals, and
// every element is written with everything before it.
extern "C" __global__ void scan_tiles(const XR_T* in, XR_T* out, unsigned char* scratch,
                                      unsigned int n) {
  __shared__ XR_ACC buf[2][XR_BLOCK];
  __shared__ XR_ACC scanned[XR_BLOCK];
  const XR_ACC tile_prefix = reinterpret_cast<const XR_ACC*>(scratch)[blockIdx.x];
  const unsigned base = blockIdx.x * XR_TILE + threadIdx.x * XR_ITEMS;
  XR_ACC v[XR_ITEMS];
  XR_ACC run = XR_IDENTITY;
  for (unsigned k = 0; k < XR_ITEMS; ++k) {
    run = XR_OP(run, XR_TO_ACC(in[base + k]));
    v[k] = run;
  }
  scanned[threadIdx.x] = block_scan(run, buf);
  __syncthreads();
  const XR_ACC prefix =
      threadIdx.x == 0 ? tile_prefix : XR_OP(tile_prefix, scanned[threadIdx.x - 1]);
  for (unsigned k = 0; k < XR_ITEMS; ++k)
    if (base + k < n) out[base + k] = XR_FROM_ACC(XR_OP(prefix, v[k]));
}
