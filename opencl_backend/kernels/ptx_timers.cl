// NVIDIA's SM timers through inline PTX, for the clock probe (probe_clock.cl) and the blocking
// gate (probe_gate.cl); built only where XR_SG_PTX is set (NVIDIA's compiler takes inline PTX).
#ifdef XR_SG_PTX
ulong sm_cycles(void) {
  ulong c;
  __asm__ volatile("mov.u64 %0, %%clock64;" : "=l"(c));
  return c;
}
ulong global_ns(void) {
  ulong t;
  __asm__ volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
#endif
