#!/usr/bin/env bash
# Users' PTX through CUDA, OpenCL and Vulkan on the GPU machine: list, checks, bad PTX, validation,
# the compare of the same PTX through the three APIs, inspect.
set -u
# After bench/gpu-report build here and its pack carried there (README, "Running on the GPU machine").
source bench/gpu/env.sh >/dev/null
X=build-gpu/app/xreduce
P=tests/kernels/ptx
B=tests/kernels/bad
{
  nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv
  $X list 2>&1 | grep -E '^(cuda|vulkan|opencl) |device 0|uuid|UUID|PTX program|CUDA binaries|driver'
} > $OUT/list.txt 2>&1
{
  for k in block_reduce rts_hillis_steele; do
    echo "== check --kernel $P/$k.ptx (cuda)"; $X check --kernel $P/$k.ptx; echo "rc $?"
    for b in opencl vulkan; do
      echo "== check --backend $b --kernel $P/$k.ptx"; $X check --backend $b --kernel $P/$k.ptx; echo "rc $?"
    done
    echo "== XR_VK_VALIDATION=1 check --backend vulkan --kernel $P/$k.ptx --max-size 70001"
    XR_VK_VALIDATION=1 $X check --backend vulkan --kernel $P/$k.ptx --max-size 70001; echo "rc $?"
  done
  for b in opencl vulkan; do
    echo "== run --backend $b --kernel $B/params.ptx"; $X run --backend $b --kernel $B/params.ptx --n 1000; echo "rc $?"
  done
} > $OUT/check.txt 2>&1
$X inspect --kernel $P/block_reduce.ptx --kernel $P/rts_hillis_steele.ptx --backend cuda,opencl,vulkan --variant 'user/*' --n 2^28 --format md > $OUT/inspect.md 2>&1; echo "inspect rc $?" >> $OUT/check.txt
$X compare --kernel $P/block_reduce.ptx --kernel $P/rts_hillis_steele.ptx --backend cuda,opencl,vulkan \
  --variant 'user/*,lib/cub,smem/sequential,smem/hillis-steele' --n 2^20,2^24,2^28 --format md \
  --overheads --out $OUT/compare-ptx.md --save-json $OUT/compare-ptx.json > $OUT/compare.log 2>&1; echo "compare rc $?" >> $OUT/check.txt
# What the barrier on all commands costs: Vulkan's PTX launches ordered by compute barriers.
{
  for k in block_reduce rts_hillis_steele; do
    echo "== XR_VK_PTX_BARRIER=compute check --backend vulkan --kernel $P/$k.ptx"
    XR_VK_PTX_BARRIER=compute $X check --backend vulkan --kernel $P/$k.ptx; echo "rc $?"
  done
} >> $OUT/check.txt 2>&1
XR_VK_PTX_BARRIER=compute $X compare --kernel $P/block_reduce.ptx --kernel $P/rts_hillis_steele.ptx --backend vulkan \
  --variant 'user/*' --n 2^20,2^24,2^28 --format md --out $OUT/compare-ptx-compute-barrier.md \
  --save-json $OUT/compare-ptx-compute-barrier.json >> $OUT/compare.log 2>&1; echo "compare (compute barriers) rc $?" >> $OUT/check.txt
nvidia-smi --query-gpu=clocks.sm --format=csv >> $OUT/check.txt
