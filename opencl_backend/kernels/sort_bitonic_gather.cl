// bitonic/smem's last pass (shaders/sort_bitonic_gather.comp): output i takes the key (and the
// value) at the input position of the i-th sorted item.
SORT_KERNEL {
  SORT_OPERANDS();
  (void)mode;
  __global const ITEM* items = ITEMS_OF(words);
  const uint i = (uint)get_global_id(0);
  if (i >= pc.n) return;
  const uint from = position_of(items[i]);
  keys_out[i] = keys_in[from];
#ifdef PAIRS
  for (uint w = 0; w < VALUE_WORDS; ++w)
    *value_word_out(values_out, i, w) = *value_word_in(values_in, from, w);
#endif
}
