// Grid-stride loading (Harris #7): a fixed number of workgroups (pc.groups, 1-D dispatch) walks
// the whole input, two elements WG apart per invocation and iteration. The number of groups
// depends only on n and the device, so the order of operations - and the float result - is
// deterministic. Indices stay below 2^32: the host refuses n >= 2^31.
T grid_stride_fold(uint group, uint tid) {
  T acc = T(IDENTITY);
  const uint stride = pc.groups * (2 * WG);
  for (uint i = group * (2 * WG) + tid; i < pc.n; i += stride) {
    acc = OP(acc, in_data[pc.in_offset + i]);
    if (i + WG < pc.n) acc = OP(acc, in_data[pc.in_offset + i + WG]);
  }
  return acc;
}
