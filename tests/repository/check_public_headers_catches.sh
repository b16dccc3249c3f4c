#!/bin/sh
# scripts/check-public-headers on a repository made here: a public header that includes a core
# header the list lacks, and a listed header nobody includes, must both be named; the list mended
# must pass.
set -eu
check=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/core/include/xreduce" "$dir/vulkan_backend/library/include/xreduce/vulkan"
for h in error types internal; do echo "#pragma once" >"$dir/core/include/xreduce/$h.hpp"; done
echo '#include "xreduce/types.hpp"' >"$dir/core/include/xreduce/error.hpp"
printf '#include "xreduce/error.hpp"\n' >"$dir/vulkan_backend/library/include/xreduce/vulkan/sort.hpp"
printf '# listed\nerror.hpp\ninternal.hpp\n' >"$dir/core/public_headers.txt"
out=$("$check" "$dir" 2>&1) && { echo "check-public-headers passed a wrong list"; exit 1; }
for expected in "lacks types.hpp" "lists internal.hpp"; do
  case $out in *"$expected"*) ;; *) echo "not said: $expected"; echo "$out"; exit 1 ;; esac
done
printf 'error.hpp\ntypes.hpp\n' >"$dir/core/public_headers.txt"
"$check" "$dir" || { echo "check-public-headers failed the mended list"; exit 1; }
echo "check-public-headers: names a missing and an extra header; passes the list mended"
