#!/usr/bin/env python3
"""`xreduce run` agrees with NumPy on files it never saw (issue 8's bar for the CPU scan).

    numpy_agreement.py XREDUCE

NumPy writes .npy files of random shape, dtype and content; `xreduce run --primitive scan
--backend cpu --output` scans them; NumPy's cumsum (and minimum/maximum.accumulate) is the
reference: integers must match exactly (NumPy wraps int32 the same way once cast back), float
sums within the documented bound (ceil(log2 n) + 2) * 2^-23 * sum|x| of each prefix. Also checks
`run` (reduce) against np.sum/min/max. Exit 0 ok, 1 mismatch, 77 NumPy missing (ctest: skipped).
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


def run(xreduce, *args):
    p = subprocess.run([xreduce, *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise AssertionError(f"xreduce {' '.join(args)} exited {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def expected_scan(x, op, kind):
    if op == "sum":
        if x.dtype.kind == "f":
            inc = np.cumsum(x.astype(np.float64))
        else:  # int64 sums cast back to 32 bits wrap modulo 2^32, as xreduce documents
            inc = np.cumsum(x.astype(np.int64)).astype(x.dtype)
        identity = 0
    else:
        fn = np.minimum if op == "min" else np.maximum
        inc = fn.accumulate(x)
        info = np.finfo(x.dtype) if x.dtype.kind == "f" else np.iinfo(x.dtype)
        identity = (np.inf if op == "min" else -np.inf) if x.dtype.kind == "f" else (
            info.max if op == "min" else info.min)
    if kind == "inclusive":
        return inc
    out = np.empty_like(inc)
    out[0:1] = identity
    out[1:] = inc[:-1]
    return out


def main():
    xreduce = sys.argv[1]
    rng = np.random.default_rng(20241112)
    failures = 0
    cases = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case in range(12):
            dtype = [np.int32, np.uint32, np.float32][case % 3]
            n = int(rng.integers(1, 300000))
            if case % 4 == 0:
                shape = (n,)
            else:  # C-order 2-D arrays are read flattened
                rows = int(rng.integers(1, 50))
                shape = (rows, max(1, n // rows))
            if dtype == np.float32:
                x = rng.uniform(-1000, 1000, size=shape).astype(np.float32)
            else:
                info = np.iinfo(dtype)
                x = rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
            path = os.path.join(tmp, f"case{case}.npy")
            np.save(path, x)
            flat = x.reshape(-1)
            for variant in ("cpu/sequential", "cpu/parallel"):
                for op in ("sum", "min", "max"):
                    for kind in ("inclusive", "exclusive"):
                        cases += 1
                        out = os.path.join(tmp, "out.npy")
                        run(xreduce, "run", "--backend", "cpu", "--variant", variant,
                            "--primitive", "scan", "--scan", kind, "--op", op, "--input", path,
                            "--reps", "1", "--output", out)
                        got = np.load(out)
                        want = expected_scan(flat, op, kind)
                        where = f"case {case} {dtype.__name__} {shape} {variant} {kind} {op}"
                        if got.dtype != flat.dtype or got.shape != flat.shape:
                            print(f"FAIL {where}: got {got.dtype}{got.shape}")
                            failures += 1
                        elif dtype == np.float32 and op == "sum":
                            absx = np.abs(flat.astype(np.float64))
                            prefix = np.cumsum(absx) if kind == "inclusive" else np.cumsum(absx) - absx
                            bound = (math.ceil(math.log2(max(flat.size, 2))) + 2) * 2.0**-23 * prefix
                            bad = np.nonzero(np.abs(got.astype(np.float64) - want) > bound)[0]
                            if bad.size:
                                i = bad[0]
                                print(f"FAIL {where}: element {i} got {got[i]} want {want[i]}")
                                failures += 1
                        elif not np.array_equal(got, want.astype(flat.dtype)):
                            i = np.nonzero(got != want.astype(flat.dtype))[0][0]
                            print(f"FAIL {where}: element {i} got {got[i]} want {want[i]}")
                            failures += 1
            # Reduce through the same files: the value against NumPy's.
            for op, fn in (("sum", np.sum), ("min", np.min), ("max", np.max)):
                cases += 1
                j = json.loads(run(xreduce, "run", "--backend", "cpu", "--variant", "cpu/parallel",
                                   "--op", op, "--input", path, "--reps", "1", "--format", "json"))
                if dtype == np.float32 and op == "sum":
                    want = float(np.sum(flat.astype(np.float64)))
                    ok = abs(j["result"] - want) <= (math.ceil(math.log2(max(flat.size, 2))) + 2) \
                        * 2.0**-23 * float(np.sum(np.abs(flat.astype(np.float64))))
                elif op == "sum":
                    want = int(np.sum(flat.astype(np.int64)).astype(dtype))
                    ok = j["result"] == want
                else:
                    want = fn(flat).item()
                    ok = j["result"] == want
                if not ok:
                    print(f"FAIL case {case} reduce {op}: got {j['result']} want {want}")
                    failures += 1
    print(f"{cases - failures} of {cases} runs agree with NumPy {np.__version__}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
