#!/bin/bash
# Measures the base and v1 digit passes: inspect (registers/occupancy) and compare against CUB.
cd "$(dirname "$0")/.."
tar xJf .gpucarry/pair.tar.xz -C .gpucarry
source bench/gpu/env.sh >/dev/null 2>&1
R=$OUT
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/gpu.txt 2>&1
for V in base v1; do
  X=.gpucarry/xr-$V
  for T in default 512x20; do
    if [ $T = default ]; then unset XR_VK_SORT_TILE; else export XR_VK_SORT_TILE=$T; fi
    $X inspect --backend vulkan --primitive sort --variant radix/onesweep --dtype u32 --values none --n 2^28 > $R/inspect-$V-$T.txt 2>&1
    $X compare --backend cuda,vulkan --primitive sort --variant 'radix/onesweep,lib/cub' --dtype u32 --values none --n 2^28 --dist full --format md --out $R/compare-$V-$T.md > $R/compare-$V-$T.log 2>&1
    echo "== $V $T"; grep -i "onesweep\|cub\|clock" $R/compare-$V-$T.md | head -12; grep -i "regist\|occup\|digit" $R/inspect-$V-$T.txt | head -6
  done
done
