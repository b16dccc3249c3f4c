#!/bin/sh
# spv_to_inc.sh <module.spv> <module.inc>: the module's 32-bit words as a C initializer list
# ("0x07230203,..."), the same words glslc -mfmt=num prints, without compiling a second time.
# od prints words in the host's byte order, as glslc wrote them (little-endian hosts only: the
# first word must read 0x07230203, SPIR-V's magic number).
set -e
od -An -v -t x4 "$1" | sed -E 's/ *([0-9a-f]{8})/0x\1,/g' > "$2.tmp"
case "$(head -c 11 "$2.tmp")" in
  0x07230203,) mv "$2.tmp" "$2" ;;
  *) echo "spv_to_inc.sh: $1 is not SPIR-V in host byte order" >&2; rm -f "$2.tmp"; exit 1 ;;
esac
