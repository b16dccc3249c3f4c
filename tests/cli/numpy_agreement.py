#!/usr/bin/env python3
"""`xreduce run` agrees with NumPy on files it never saw, in every dtype.

    numpy_agreement.py XREDUCE [--cases-per-dtype K] [BACKEND:SCAN_VARIANT:REDUCE_VARIANT ...]

NumPy writes .npy files of random shape, dtype (int32, uint32, float32, int64, uint64, float64,
float16) and content, and raw .bin files of bfloat16 (NumPy has none: the bits are made here,
rounded to nearest even); `xreduce run --primitive scan --output` scans them and `xreduce run`
reduces them. NumPy's cumsum (and minimum/maximum.accumulate), sum, min and max are the
reference: integers must match exactly (64-bit sums wrap modulo 2^64, as NumPy's do; 32-bit ones
modulo 2^32 once cast back), float sums within the documented bound of each prefix
(reference.hpp): (ceil(log2 n) + 2) * 2^-a * sum|x| with a = 23 (f32, and f16/bf16, which
accumulate in float) or 52 (f64), plus 2^-m * |prefix| + the smallest subnormal for the 16-bit
types (m = 10 for f16, 7 for bf16: rounding the float result to the 16-bit type).

K cases per dtype (default 2), each a 1-D or a 2-D array (read flattened) of a random size. The
GPU targets take one: the device sees the flattened array either way, and the reader that
flattens it is the host's, which the CPU targets check with twice the cases.

Default targets: cpu's two scans and its parallel reduce. A target BACKEND:SCAN:REDUCE runs those
variants instead; one whose backend is unavailable (exit 3) is reported and skipped, unless
XR_TEST_REQUIRE_BACKENDS (comma-separated) names it, which fails.
Exit 0 ok, 1 mismatch or a required backend unavailable, 77 NumPy missing or every target's
backend unavailable (ctest: skipped).
"""
import json
import math
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("skipped: NumPy is not installed for", sys.executable)
    sys.exit(77)

DTYPES = ["i32", "u32", "f32", "i64", "u64", "f64", "f16", "bf16"]
NUMPY = {"i32": np.int32, "u32": np.uint32, "f32": np.float32, "i64": np.int64,
         "u64": np.uint64, "f64": np.float64, "f16": np.float16}
ACC_BITS = {"f32": 23, "f16": 23, "bf16": 23, "f64": 52}
ROUND_BITS = {"f16": 10, "bf16": 7}
SUBNORMAL = {"f16": 2.0**-24, "bf16": 2.0**-133}
UNAVAILABLE = 3
# The runs are checked for their values, not their times: no sample is retaken for its clock
# (reading a device's reference clock spins it for hundreds of milliseconds: PeakRule).
UNTIMED = ["--throttle-threshold", "0"]


class Unavailable(Exception):
    pass


def run(xreduce, *args):
    p = subprocess.run([xreduce, *args], capture_output=True, text=True)
    if p.returncode == UNAVAILABLE and "unavailable" in p.stderr:
        raise Unavailable(p.stderr.strip())
    if p.returncode != 0:
        raise AssertionError(f"xreduce {' '.join(args)} exited {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def to_bf16_bits(x32):
    """float32 -> bfloat16 bits, rounded to nearest even (finite inputs)."""
    u = x32.view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def from_bf16_bits(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def values(x, dtype):
    """The elements as NumPy sees them (bf16: widened to float32)."""
    return from_bf16_bits(x) if dtype == "bf16" else x


def bound(dtype, n, abs_prefix, magnitude):
    levels = math.ceil(math.log2(max(n, 2)))
    b = (levels + 2) * 2.0**-ACC_BITS[dtype] * abs_prefix
    if dtype in ROUND_BITS:
        b = b + 2.0**-ROUND_BITS[dtype] * magnitude + SUBNORMAL[dtype]
    return b


def expected_scan(v, dtype, op, kind):
    """Inclusive or exclusive scan of the values v; float sums in float64."""
    if op == "sum":
        if dtype in ACC_BITS:
            inc = np.cumsum(v.astype(np.float64))
        elif dtype in ("i64", "u64"):
            with np.errstate(over="ignore"):
                inc = np.cumsum(v)  # NumPy's 64-bit sums wrap modulo 2^64
        else:  # int64 sums cast back to 32 bits wrap modulo 2^32, as xreduce documents
            inc = np.cumsum(v.astype(np.int64)).astype(v.dtype)
        identity = 0
    else:
        fn = np.minimum if op == "min" else np.maximum
        inc = fn.accumulate(v)
        if dtype in ACC_BITS:
            identity = np.inf if op == "min" else -np.inf
        else:
            info = np.iinfo(v.dtype)
            identity = info.max if op == "min" else info.min
    if kind == "inclusive":
        return inc
    out = np.empty_like(inc)
    out[0:1] = identity
    out[1:] = inc[:-1]
    return out


def make_input(rng, dtype, shape):
    if dtype in ("f32", "f64"):
        return rng.uniform(-1000, 1000, size=shape).astype(NUMPY[dtype])
    if dtype == "f16":  # sums of |x| < 4 over 300000 elements stay below 65504 in expectation
        return rng.uniform(-4, 4, size=shape).astype(np.float16)
    if dtype == "bf16":
        return to_bf16_bits(rng.uniform(-1000, 1000, size=shape).astype(np.float32))
    info = np.iinfo(NUMPY[dtype])
    return rng.integers(info.min, info.max, size=shape, dtype=NUMPY[dtype], endpoint=True)


def save(path_base, x, dtype):
    if dtype == "bf16":
        path = path_base + ".bin"
        x.reshape(-1).tofile(path)
    else:
        path = path_base + ".npy"
        np.save(path, x)
    return path


def load_output(path, dtype):
    return np.fromfile(path, dtype=np.uint16) if dtype == "bf16" else np.load(path)


def check_scan(got, want, flat_values, dtype, op, kind):
    """None when `got` (as stored) matches; else a description of the first wrong element."""
    got_v = values(got, dtype)
    if dtype in ACC_BITS and op == "sum":
        absx = np.abs(flat_values.astype(np.float64))
        prefix = np.cumsum(absx) if kind == "inclusive" else np.cumsum(absx) - absx
        err = np.abs(got_v.astype(np.float64) - want)
        bad = np.nonzero(~(err <= bound(dtype, flat_values.size, prefix, np.abs(want))))[0]
    else:
        bad = np.nonzero(got_v != want.astype(got_v.dtype))[0]
    if bad.size:
        i = bad[0]
        return f"element {i} got {got_v[i]} want {want[i]}"
    return None


def check_reduce(result, flat_values, dtype, op):
    if op == "sum" and dtype in ACC_BITS:
        x64 = flat_values.astype(np.float64)
        want = float(np.sum(x64))
        ok = abs(result - want) <= bound(dtype, x64.size, float(np.sum(np.abs(x64))), abs(want))
    elif op == "sum":
        if dtype in ("i64", "u64"):
            with np.errstate(over="ignore"):
                want = int(np.sum(flat_values))
        else:
            want = int(np.sum(flat_values.astype(np.int64)).astype(flat_values.dtype))
        ok = result == want
    else:
        want = (np.min if op == "min" else np.max)(flat_values).item()
        ok = result == want
    return ok, want


def main():
    xreduce, args = sys.argv[1], sys.argv[2:]
    per_dtype = 2
    if args[:1] == ["--cases-per-dtype"]:
        per_dtype, args = int(args[1]), args[2:]
    targets = args or ["cpu:cpu/sequential:cpu/parallel", "cpu:cpu/parallel:cpu/parallel"]
    rng = np.random.default_rng(20241112)
    failures = 0
    cases = 0
    skipped = set()
    required = set(filter(None, os.environ.get("XR_TEST_REQUIRE_BACKENDS", "").split(",")))
    with tempfile.TemporaryDirectory() as tmp:
        for case in range(per_dtype * len(DTYPES)):
            dtype = DTYPES[case % len(DTYPES)]
            n = int(rng.integers(1, 300000))
            if case % 4 == 0:
                shape = (n,)
            else:  # C-order 2-D arrays are read flattened
                rows = int(rng.integers(1, 50))
                shape = (rows, max(1, n // rows))
            x = make_input(rng, dtype, shape)
            path = save(os.path.join(tmp, f"case{case}"), x, dtype)
            flat = x.reshape(-1)
            flat_values = values(flat, dtype)
            dtype_args = ["--dtype", dtype] if dtype == "bf16" else []
            for target in targets:
                backend, scan_variant, reduce_variant = target.split(":")
                if backend in skipped:
                    continue
                where = f"case {case} {dtype} {shape} {backend}"
                try:
                    for op in ("sum", "min", "max"):
                        for kind in ("inclusive", "exclusive"):
                            cases += 1
                            out = os.path.join(tmp, "out.bin" if dtype == "bf16" else "out.npy")
                            run(xreduce, "run", "--backend", backend, "--variant", scan_variant,
                                "--primitive", "scan", "--scan", kind, "--op", op, "--input",
                                path, *dtype_args, "--reps", "1", *UNTIMED, "--output", out)
                            got = load_output(out, dtype)
                            if got.dtype != flat.dtype or got.size != flat.size:
                                print(f"FAIL {where} {scan_variant} {kind} {op}: got "
                                      f"{got.dtype}{got.shape}")
                                failures += 1
                                continue
                            want = expected_scan(flat_values, dtype, op, kind)
                            wrong = check_scan(got, want, flat_values, dtype, op, kind)
                            if wrong:
                                print(f"FAIL {where} {scan_variant} {kind} {op}: {wrong}")
                                failures += 1
                        # Reduce through the same file: the value against NumPy's.
                        cases += 1
                        j = json.loads(run(xreduce, "run", "--backend", backend, "--variant",
                                           reduce_variant, "--op", op, "--input", path,
                                           *dtype_args, "--reps", "1", *UNTIMED,
                                           "--format", "json"))
                        ok, want = check_reduce(j["result"], flat_values, dtype, op)
                        if not ok:
                            print(f"FAIL {where} {reduce_variant} reduce {op}: got "
                                  f"{j['result']} want {want}")
                            failures += 1
                except Unavailable as e:
                    if backend in required:
                        print(f"FAIL {backend} is required but unavailable: {e}")
                        return 1
                    print(f"skipped {backend}: {e}")
                    skipped.add(backend)
                    cases -= 1  # the run that found it unavailable
    print(f"{cases - failures} of {cases} runs agree with NumPy {np.__version__}")
    if failures:
        return 1
    return 77 if cases == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
