// bitonic/smem (shaders/sort_bitonic_global.comp): one step of stage pc.stage at stride pc.stride
// (>= the tile) over the padded items, one pair a work-item.
SORT_KERNEL {
  SORT_OPERANDS();
  (void)mode;
  __global ITEM* items = ITEMS_OF(words);
  const uint q = (uint)get_global_id(0);
  if (q >= pc.padded / 2u) return;
  const uint i = pair_first(q, pc.stride);
  const ITEM a = items[i], b = items[i + pc.stride];
  if (item_less(b, a) == ascending_at(i, pc.stage)) {  // out of the run's order: swap
    items[i] = b;
    items[i + pc.stride] = a;
  }
}
