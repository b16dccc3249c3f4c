// Grid-stride loading (Harris #7): a fixed number of workgroups (pc.groups, 1-D dispatch) walks
// the whole input, two elements WG apart per invocation and iteration. The number of groups
// depends only on n and the device, so the order of operations - and the float result - is
// deterministic.
T grid_stride_fold(uint group, uint tid) {
  T acc = T(IDENTITY);
  const IDX stride = IDX(pc.groups) * (2 * WG);
  for (IDX i = IDX(group) * (2 * WG) + tid; i < PC_N; i += stride) {
    acc = OP(acc, src_at(pc.in_offset + i));
    if (i + WG < PC_N) acc = OP(acc, src_at(pc.in_offset + i + WG));
  }
  return acc;
}
