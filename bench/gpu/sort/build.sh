#!/usr/bin/env bash
# Builds ./sort_selftest (sort_selftest.cu beside this script) from the CUDA library's sort
# sources and the few core sources they need, with nvcc alone: no CMake build tree, so it runs on
# the GPU machine as it is. On that machine, from the repository root (nvcc on PATH):
#   bash bench/gpu/sort/build.sh && ./sort_selftest            every case, then 2^28 u32 timing
#   ./sort_selftest --quick                                     no 2^28 timing
#   ./sort_selftest --timing                                    the 2^28 timing alone
#   ./sort_selftest --huge                                      u32 pairs at 2^31 + 3 keys
#   ./sort_selftest --variant radix/onesweep                    one variant
# Here (no GPU) it is a compile check. ARCH (default 90) picks the architecture, OUT_BIN the
# binary (default ./sort_selftest), JOBS the parallel compiles (default: the CPU count).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
arch=${ARCH:-90}
bin=${OUT_BIN:-$PWD/sort_selftest}
parallel=${JOBS:-$(nproc)}
mkdir -p "$(dirname "$bin")"
objs=$(mktemp -d)
trap 'rm -rf "$objs"' EXIT

lib=cuda_backend/library
sources=(
  core/src/error.cpp core/src/types.cpp core/src/primitive.cpp core/src/sort_plan.cpp
  $lib/cuda_check.cpp $lib/device_limits.cpp $lib/current_device.cpp
  $lib/reduce_table.cpp $lib/scan_table.cpp $lib/sort_table.cpp $lib/library_policy.cpp
  $lib/sort_dispatch.cpp $lib/library_sort.cpp
  $lib/dispatch_sort_bitonic.cu $lib/dispatch_sort_radix.cu $lib/dispatch_sort_onesweep.cu
  $lib/dispatch_sort_cub.cu
  bench/gpu/sort/sort_selftest.cu
)
flags=(-std=c++20 -O3 -DNDEBUG --expt-relaxed-constexpr -lineinfo
       -gencode "arch=compute_$arch,code=[compute_$arch,sm_$arch]"
       -Werror all-warnings -Xcompiler=-Wall,-Wextra,-Werror
       -I"$root/core/include" -I"$root/$lib/include" -I"$root/$lib")

# One nvcc per source, `parallel` at a time; the first failure stops the build.
compile() {
  local src=$1 obj="$objs/$(echo "$1" | tr / _).o" lang=()
  [[ $src == *.cu ]] && lang=(-x cu)
  nvcc "${flags[@]}" "${lang[@]}" -c "$root/$src" -o "$obj"
}
pids=()
for src in "${sources[@]}"; do
  while (($(jobs -rp | wc -l) >= parallel)); do wait -n; done
  compile "$src" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
nvcc -gencode "arch=compute_$arch,code=[compute_$arch,sm_$arch]" "$objs"/*.o -o "$bin"
echo "built $bin"
