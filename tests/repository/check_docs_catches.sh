#!/bin/sh
# scripts/check-docs on a repository made here with one reference of each kind broken, and the
# same repository mended: the check must fail the first (naming each) and pass the second.
set -eu
check=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
git init -q .
mkdir -p docs core/include/xreduce app/report
touch core/include/xreduce/sort_desc.hpp app/report/saved.cpp
cat >README.md <<'DOC'
# Title
[design](docs/design.md#the-house) and [gone](docs/gone.md), `xreduce/sort_desc.hpp`,
`report/saved.cpp`, `app/report/missing.cpp`, `shaders/smem_<name>.comp`, `./a.npy`.
DOC
cat >docs/design.md <<'DOC'
## The house
[back](../README.md#title), [nowhere](#no-such-heading)
```
app/not/checked/in/a/block.cpp
```
DOC
git add -A
out=$("$check" "$dir" 2>&1) && { echo "check-docs passed a repository with broken references"; exit 1; }
for expected in "README.md:2: links to docs/gone.md" "README.md:3: names app/report/missing.cpp" \
  "docs/design.md:2: links to #no-such-heading"; do
  case $out in *"$expected"*) ;; *) echo "check-docs did not say: $expected"; echo "$out"; exit 1 ;; esac
done
[ "$(echo "$out" | grep -c ': links to\|: names')" -eq 3 ] || { echo "$out"; exit 1; }
sed -i 's/ and \[gone\](docs\/gone.md)//; s/ `app\/report\/missing.cpp`,//' README.md
sed -i 's/, \[nowhere\](#no-such-heading)//' docs/design.md
"$check" "$dir" || { echo "check-docs failed a mended repository"; exit 1; }
echo "check-docs: catches a broken link, a missing path and a missing heading; passes them mended"
