// A sort call's first pass (shaders/sort_init.comp): zeroes its first pc.blocks words of scratch
// (the histograms, the launches' tile counters and onesweep's first status set).
SORT_KERNEL {
  SORT_OPERANDS();
  (void)mode;
  const uint stride = (uint)get_num_groups(0) * WG;
  for (uint i = (uint)get_global_id(0); i < pc.blocks; i += stride) words[i] = 0u;
}
