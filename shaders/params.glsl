// The push constants of every shader (the host's PushBlock in vulkan_backend/library/vk_pipelines.hpp,
// byte for byte): the device addresses of the pass's three operands (read by the XR_ADDRESS
// modules only, see common.glsl), then the pass's sizes.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(push_constant) uniform Params {
  uint64_t src;  // the pass's source buffer (binding 0)
  uint64_t dst;  // the pass's destination buffer (binding 1)
  uint64_t aux;  // the pass's own scratch (binding 2): ticket, tile totals, BIT, status words
  uint64_t n;    // elements this pass reads (probes: 16-byte vectors)
  uint in_offset;   // first element of src this pass uses
  uint out_offset;  // first element of dst this pass writes
  uint groups;      // workgroups that carry data (a 2-D dispatch may launch a few more)
  uint aux_offset;  // scan: first element of aux this pass uses
  uint flags;       // scan: kExclusive | kWriteTotals | kHasPrefix (scan_common.glsl)
  uint param;       // scan: the pass's own parameter (BIT level, chunk, counter index)
  uint limit;       // scan: the look-back's polls before it falls back
}
pc;

// Element indices (IDX) and this pass's n (PC_N): 64-bit in the modules by address; 32-bit in the
// modules by binding, where the host keeps n below 2^31 (on lavapipe 64-bit index arithmetic
// alone halves the speed of a grid-stride loop). See common.glsl.
#ifdef XR_ADDRESS
#define IDX uint64_t
#define PC_N pc.n
#else
#define IDX uint
#define PC_N uint(pc.n)
#endif
