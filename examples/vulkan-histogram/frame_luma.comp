#version 450
// One frame, as a renderer's last pass leaves it, reduced to what its exposure control counts:
// pixel p = y * width + x takes a colour of moving gradients, scaled by a day brightness that
// rises and falls every 64 frames, plus a hash's noise of the pixel and the frame; its 8-bit
// luma (Rec. 709's weights in integers) is written, four pixels a 32-bit word, pixel p at byte p
// of the buffer. Every step is integer arithmetic, so the host repeats it bit for bit.
layout(local_size_x = 256) in;
layout(push_constant) uniform Frame {
  uint width;
  uint height;
  uint frame;
}
frame;
layout(set = 0, binding = 0) writeonly buffer Luma { uint words[]; };

// A 32-bit integer hash (lowbias32), the host's too.
uint hash(uint x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

uint luma(uint p) {
  const uint x = p % frame.width, y = p / frame.width;
  const uint gx = x * 256u / frame.width, gy = y * 256u / frame.height;  // 0 to 255
  const uint t = (frame.frame * 8u) % 512u;
  const uint day = t < 256u ? t : 511u - t;
  const uint noise = hash(p ^ (frame.frame * 0x9e3779b9u));
  const uint r = min(255u, (((gx + frame.frame * 3u) & 255u) * day >> 8) + (noise & 63u));
  const uint g = min(255u, (gy * (255u - day / 2u) >> 8) + ((noise >> 6) & 63u));
  const uint b = min(255u, ((gx ^ gy) * (255u - day) >> 8) + ((noise >> 12) & 63u));
  return (54u * r + 183u * g + 19u * b + 128u) >> 8;
}

void main() {
  const uint w = gl_GlobalInvocationID.x;
  const uint pixels = frame.width * frame.height;
  if (w >= (pixels + 3u) / 4u) return;
  // The last word's bytes past the frame are 0: the histogram counts `pixels` samples only.
  uint word = 0u;
  for (uint k = 0u; k < 4u; ++k)
    if (4u * w + k < pixels) word |= luma(4u * w + k) << (8u * k);
  words[w] = word;
}
