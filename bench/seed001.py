#!/usr/bin/env python3
"""Seed 001's table, re-measured: the BIT ladder, bcao and the CPU at the seed's sizes, with the
seed's RTX 3070 numbers beside this GPU's, and its two findings checked.

    python3 bench/seed001.py REPORT.json > seed001.md

REPORT.json: `xreduce compare --primitive scan --dtype i32 --n 100,1000,...,1000000000
--format json` over cpu, cuda, vulkan and opencl (bench/gpu-report runs it): each GPU variant gets
a row per backend that ran it. Prints markdown. Exit 2 on a bad report.
"""
import json
import sys

SIZES = [100, 1000, 10**4, 10**5, 10**6, 10**7, 10**8, 10**9]
SIZE_NAMES = ["100", "1000", "10^4", "10^5", "10^6", "10^7", "10^8", "10^9"]

# Seed 001's tables (ms; RTX 3070, Ryzen 7 5800X), by the xreduce variant that mirrors each row.
SEED = {
    "cpu": ("CPU", [0, 0, 0.01, 0.07, 0.58, 4.56, 40, 406]),
    "bit/one-layer": ("gen_bit_one_layer", [0.02, 0.02, 0.03, 0.05, 0.14, 1.16, 12.5, 128]),
    "bit/between-blocks": ("gen_bit_between_blocks",
                           [0.02, 0.02, 0.02, 0.03, 0.10, 0.80, 8.2, 79]),
    "bit/smem": ("共享内存 (shared memory)", [0.02, 0.02, 0.02, 0.03, 0.09, 0.67, 6.9, 66]),
    "bit/unrolled": ("循环展开 (unrolled)", [0.02, 0.02, 0.02, 0.03, 0.08, 0.64, 6.6, 64]),
    "blelloch/bcao": ("开源 bcao (open-source bcao)", [0.02, 0.02, 0.04, 0.05, 0.13, 0.68, 6.1, 54]),
}
ROWS = ["cpu/sequential", "cpu/parallel", "bit/one-layer", "bit/between-blocks", "bit/smem",
        "bit/unrolled", "bit/cooperative", "blelloch/bcao", "smem/hillis-steele",
        "warp/shuffle-up", "subgroup/shuffle-up", "subgroup/arithmetic", "fast/reduce-then-scan",
        "fast/decoupled-lookback", "lib/cub"]
GPU_BACKENDS = [("cuda", "CUDA"), ("vulkan", "Vulkan"), ("opencl", "OpenCL")]
# How each API timed its rows (the header names those present).
TIMERS = {"cuda": "CUDA (events)", "vulkan": "Vulkan (timestamps)",
          "opencl": "OpenCL (profiling events)"}
BIT = ["bit/one-layer", "bit/between-blocks", "bit/smem", "bit/unrolled"]


def fmt(ms):
    if ms is None:
        return "-"
    if ms >= 100:
        return f"{ms:.0f}"
    if ms >= 10:
        return f"{ms:.1f}"
    if ms >= 0.1:
        return f"{ms:.2f}"
    return f"{ms:.3f}"


def read_rows(path):
    """The report's inclusive i32 sums: (median ms by (backend, variant, n), failed-check lines,
    GPU name, CPU name). Raises OSError, ValueError or KeyError on a bad report."""
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    rows = [r for r in report["results"]
            if r["primitive"] == "scan" and r["op"] == "sum" and r["dtype"] == "i32"
            and r["scan"] == "inclusive"]
    ms = {}
    failed = []
    for r in rows:
        if r["status"] == "ok":
            ms[(r["backend"], r["variant"], r["n"])] = r["median_ms"]
        elif r["status"] == "failed":
            failed.append(f"{r['backend']} {r['variant']} n={r['n']}: {r['reason']}")
    gpu = next((d["name"] for d in report["devices"] if d["backend"] == "cuda"), "the GPU")
    cpu = next((d["name"] for d in report["devices"] if d["backend"] == "cpu"), "the host CPU")
    return ms, failed, gpu, cpu


def timers(ms):
    """'X, Y and Z': how the GPU APIs present in the rows timed them."""
    present = [TIMERS[b] for b, _ in GPU_BACKENDS if any(k[0] == b for k in ms)]
    if len(present) <= 1:
        return "".join(present) or "no GPU API"
    return ", ".join(present[:-1]) + " and " + present[-1]


def table(ms):
    """Markdown lines: a row per (variant, backend) measured, the seed's row beneath each variant
    it mirrors."""
    out = [f"| variant (seed 001 row) | backend | " + " | ".join(SIZE_NAMES) + " |",
           "|---|---|" + "---:|" * len(SIZES)]
    for v in ROWS:
        backends = [("cpu", "CPU")] if v.startswith("cpu/") else GPU_BACKENDS
        seed_key = "cpu" if v.startswith("cpu/") else v
        mirrored = seed_key in SEED and v != "cpu/parallel"
        label = v + (f" ({SEED[seed_key][0]})" if mirrored else "")
        shown = False
        for backend, name in backends:
            here = [ms.get((backend, v, n)) for n in SIZES]
            if all(x is None for x in here):
                continue
            out.append(f"| {'' if shown else label} | {name} | " +
                       " | ".join(fmt(x) for x in here) + " |")
            shown = True
        if shown and mirrored:
            out.append(f"| &nbsp;&nbsp;seed 001 | RTX 3070 | " +
                       " | ".join(fmt(x) for x in SEED[seed_key][1]) + " |")
    return out


def best_by_size(ms, backend):
    """{n: (ms, variant)} of the backend's fastest row at each size."""
    res = {}
    for n in SIZES:
        cands = [(ms[(backend, v, n)], v) for v in ROWS if (backend, v, n) in ms]
        if cands:
            res[n] = min(cands)
    return res


def crossover_finding(ms, backend, name):
    """Seed finding 1: the CPU is fastest below ~50K elements."""
    best_cpu, best_gpu = best_by_size(ms, "cpu"), best_by_size(ms, backend)
    if not best_gpu:
        return None
    faster = [(n, best_gpu[n][0] < best_cpu[n][0]) for n in SIZES if n in best_cpu and n in best_gpu]
    i = len(faster)
    while i > 0 and faster[i - 1][1]:
        i -= 1
    if i == len(faster):
        cross = "the CPU stays faster at every size measured"
    elif i == 0:
        cross = "the GPU is faster at every size measured, 100 elements included"
    else:
        cross = (f"the GPU's best is faster from n = {faster[i][0]:,} up (the CPU's best wins at "
                 f"{faster[i - 1][0]:,} and below)")
    return f"- **CPU/GPU crossover, {name}** (seed: the CPU fastest below ~50K): {cross}."


def bit_finding(ms, backend, name):
    """Seed finding 2: BIT ahead of bcao below ~3M (below ~10M after its shared-memory step);
    None when the report has no bcao row."""
    ahead = []
    for n in SIZES:
        bits = [ms[(backend, v, n)] for v in BIT if (backend, v, n) in ms]
        if bits and (backend, "blelloch/bcao", n) in ms:
            ahead.append((n, min(bits) < ms[(backend, "blelloch/bcao", n)]))
    if not ahead:
        return None
    wins = [n for n, a in ahead if a]
    if not wins:
        where = "bcao is faster than every BIT variant at every size measured"
    elif len(wins) == len(ahead):
        where = "the best BIT variant beats bcao at every size measured"
    else:
        where = ("the best BIT variant beats bcao at n = " + ", ".join(f"{n:,}" for n in wins)
                 + "; bcao wins at the others")
    return (f"- **BIT against bcao, {name}** (seed: BIT ahead below ~3M elements, below ~10M "
            f"after its shared-memory step): {where}.")


def main(argv):
    if len(argv) != 2:
        print("usage: seed001.py REPORT.json", file=sys.stderr)
        return 2
    try:
        ms, failed, gpu, cpu = read_rows(argv[1])
    except (OSError, ValueError, KeyError) as e:
        print(f"cannot read the report {argv[1]}: {e}", file=sys.stderr)
        return 2
    print(f"Inclusive sum of n i32, median ms, cold L2: {gpu} in {timers(ms)}, {cpu} for the "
          "CPU rows; beneath each mirrored variant the seed's RTX 3070 / Ryzen 7 5800X number.\n")
    print("\n".join(table(ms)))
    print()
    for backend, name in GPU_BACKENDS:
        for finding in (crossover_finding(ms, backend, name), bit_finding(ms, backend, name)):
            if finding:
                print(finding)
    if failed:
        print("\nFailed checks:\n")
        for f in failed:
            print(f"- {f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
