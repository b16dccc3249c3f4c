#!/bin/bash
# The kept build (v1 shader, 512 x 20 table): keys and pairs against CUB, then conformance.
cd "$(dirname "$0")/.."
tar xJf .gpucarry/v2.tar.xz -C .gpucarry
source bench/gpu/env.sh >/dev/null 2>&1
R=$OUT; X=.gpucarry/xr-v2
$X compare --backend cuda,vulkan --primitive sort --variant 'radix/*,lib/cub' --dtype u32 --values none,u32 --n 2^28 --dist full --format md --out $R/compare-v2.md > $R/compare-v2.log 2>&1
XR_VK_SORT_TILE=768x10 $X compare --backend cuda,vulkan --primitive sort --variant 'radix/*,lib/cub' --dtype u32 --values none,u32 --n 2^28 --dist full --format md --out $R/compare-v2-768x10.md > $R/compare-v2-768x10.log 2>&1
$X inspect --backend vulkan --primitive sort --variant 'radix/*' --dtype u32 --values none,u32 --n 2^28 > $R/inspect-v2.txt 2>&1
grep "^| radix\|^| lib" $R/compare-v2.md $R/compare-v2-768x10.md | head -40
timeout 200 .gpucarry/ct-v2 "conformance/vulkan/sort/*" > $R/conformance.txt 2>&1; echo "conf rc=$?"; tail -4 $R/conformance.txt
timeout 100 .gpucarry/ct-v2 "vulkan/sort/radix/onesweep/forced-fallback" > $R/forced.txt 2>&1; echo "forced rc=$?"; tail -4 $R/forced.txt
