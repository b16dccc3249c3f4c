#!/usr/bin/env bash
# The user PTX path on the GPU machine: list, check through CUDA and OpenCL, bad PTX, the compare
# of the same PTX through both APIs, inspect.
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
    echo "== check --backend opencl --kernel $P/$k.ptx"; $X check --backend opencl --kernel $P/$k.ptx; echo "rc $?"
  done
  for b in params params_kind; do
    echo "== run --backend opencl --kernel $B/$b.ptx"; $X run --backend opencl --kernel $B/$b.ptx --n 1000; echo "rc $?"
  done
} > $OUT/check.txt 2>&1
$X inspect --kernel $P/block_reduce.ptx --kernel $P/rts_hillis_steele.ptx --backend cuda,opencl --variant 'user/*' --n 2^28 --format md > $OUT/inspect.md 2>&1; echo "inspect rc $?" >> $OUT/check.txt
$X compare --kernel $P/block_reduce.ptx --kernel $P/rts_hillis_steele.ptx --backend cuda,opencl \
  --variant 'user/*,lib/cub,smem/sequential,smem/hillis-steele' --n 2^24,2^28 --format md \
  --out $OUT/compare-ptx.md --save-json $OUT/compare-ptx.json > $OUT/compare.log 2>&1; echo "compare rc $?" >> $OUT/check.txt
nvidia-smi --query-gpu=clocks.sm --format=csv >> $OUT/check.txt
