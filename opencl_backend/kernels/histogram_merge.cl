// fast/replicated past the local memory: counts[b] = (accumulate ? counts[b] : 0) + the sum of bin
// b over the `copies` copies of the bins in scratch (`adds`), for every bin b: one work-item a
// bin, no atomics (a bin has one writer), each sum modulo the counter's width.
HIST_KERNEL {
  HIST_UNUSED_ARGS;
  __global const uint* copies = adds_base + adds_at;
  const size_t copy_words = (size_t)a.bins * (a.wide != 0u ? 2u : 1u);
  for (IDX b = item_index(); b < a.bins; b += item_count()) {
    ulong sum = a.accumulate != 0u ? load_counter(counts, b, a.wide) : 0ul;
    for (uint c = 0; c < a.copies; ++c) sum += load_counter(copies + c * copy_words, b, a.wide);
    store_counter(counts, b, sum, a.wide);
  }
}
