#!/usr/bin/env python3
"""Whether a PTX file is the PTX a CUDA object was built from: ptxas compiles it for the
object's architecture, and each kernel's SASS (the cubin's .text.<kernel>) must equal, byte for
byte, the SASS of the object's fatbin (its uncompressed sm_XX cubins, in section .nv_fatbin).

    same_sass.py PTXAS ARCH OBJECT PTX OUT

Writes one line to OUT saying what was compared; exits 1 when a kernel differs or is missing.
"""
import struct
import subprocess
import sys
import tempfile

EM_CUDA = 190


def elf_sections(blob):
    """{name: bytes} of a 64-bit little-endian ELF image starting at blob[0]."""
    shoff = struct.unpack_from("<Q", blob, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", blob, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", blob, shoff + i * shentsize) for i in range(shnum)]
    names = headers[shstrndx][4]
    out = {}
    for h in headers:
        end = blob.index(b"\0", names + h[0])
        out[blob[names + h[0]:end].decode()] = blob[h[4]:h[4] + h[5]] if h[1] != 8 else b""
    return out


def cuda_cubins(fatbin):
    """The device ELF images inside a fatbin: every ELF header whose machine is EM_CUDA."""
    at = fatbin.find(b"\x7fELF")
    while at >= 0:
        if fatbin[at + 4] == 2 and struct.unpack_from("<H", fatbin, at + 18)[0] == EM_CUDA:
            yield elf_sections(fatbin[at:])
        at = fatbin.find(b"\x7fELF", at + 4)


def kernels(sections):
    return {n[len(".text."):]: s for n, s in sections.items() if n.startswith(".text.")}


def main(ptxas, arch, obj, ptx, out):
    with open(obj, "rb") as f:
        fatbin = elf_sections(f.read()).get(".nv_fatbin", b"")
    theirs = {}
    for cubin in cuda_cubins(fatbin):
        theirs.update(kernels(cubin))
    if not theirs:
        line = "not compared: the object's fatbin holds no uncompressed cubin"
        status = 0
    else:
        with tempfile.NamedTemporaryFile(suffix=".cubin") as cubin:
            subprocess.run([ptxas, f"-arch=sm_{arch}", "-lineinfo", ptx, "-o", cubin.name],
                           check=True)
            ours = kernels(elf_sections(open(cubin.name, "rb").read()))
        differ = sorted(k for k in theirs if ours.get(k) != theirs[k])
        version = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout
        release = version.strip().splitlines()[-1] if version.strip() else "ptxas"
        if differ or len(ours) != len(theirs):
            line = (f"DIFFERS: ptxas sm_{arch} of the PTX and the object's SASS differ in "
                    f"{len(differ)} of {len(theirs)} kernels, first {differ[:1]}")
            status = 1
        else:
            line = (f"ptxas sm_{arch} ({release}) of this PTX gives the object's own SASS, byte "
                    f"for byte, for all {len(theirs)} kernels")
            status = 0
    with open(out, "w") as f:
        f.write(line + "\n")
    print(line)
    return status


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
