// bitonic/smem's items as both kernel languages build and compare them, GLSL
// (shaders/sort_bitonic.glsl) and OpenCL C (opencl_backend/kernels/sort_bitonic.cl): an item is
// (the key's rank, its input position), compared lexicographically, ITEM as the includer defines
// it. The includer also defines what the languages spell differently: XR_UINT(x), x's low 32
// bits, and XR_UINT2, XR_UINT4, the vectors' constructors.

ITEM make_item(BITS rank, uint position) {
#if KEY_BITS == 64
  return XR_UINT4(XR_UINT(rank), XR_UINT(rank >> 32), position, 0u);
#else
  return XR_UINT2(rank, position);
#endif
}

uint position_of(ITEM item) {
#if KEY_BITS == 64
  return item.z;
#else
  return item.y;
#endif
}

bool item_less(ITEM a, ITEM b) {
#if KEY_BITS == 64
  if (a.y != b.y) return a.y < b.y;
  if (a.x != b.x) return a.x < b.x;
  return a.z < b.z;
#else
  if (a.x != b.x) return a.x < b.x;
  return a.y < b.y;
#endif
}

// The first item of pair q of a step at stride j (a power of two).
uint pair_first(uint q, uint j) {
  return 2u * q - (q & (j - 1u));
}

// Whether the run of stage k holding item i (of the whole sequence) sorts ascending.
bool ascending_at(uint i, uint k) {
  return (i & k) == 0u;
}
