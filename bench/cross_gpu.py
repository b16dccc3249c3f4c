#!/usr/bin/env python3
"""The README's conclusions, checked on two GPUs from their reports (bench/gpu-report run).

Reads each report directory's results.json (reduce), scan/results.json, dtypes/results-16.json,
dtypes/results-64.json and end-to-end/results.json, and prints one markdown section per
conclusion with a column per GPU: the look-back at the limit, Vulkan/CUDA per variant id, the BIT
against bcao, where the GPU overtakes the CPU, and the best of each API against the libraries.
Every number is computed here from the saved reports; nothing is measured.

    bench/cross_gpu.py docs/results/H200 docs/results/H100 > docs/results/cross-gpu-tables.md
"""
import json
import os
import sys

from plot import count_label  # the spelling xreduce uses for sizes: 1K, 16M

SIZES = [4**k for k in range(5, 15)]  # 1K .. 256M, the reports' sizes


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError:
        return None


class Report:
    """One GPU's reports, indexed by (backend, variant, primitive, dtype, n, mode)."""

    def __init__(self, root):
        self.root = root
        self.name = os.path.basename(os.path.normpath(root))
        self.docs = {}
        self.rows = {}
        for key, rel in [("reduce", "results.json"), ("scan", "scan/results.json"),
                         ("d16", "dtypes/results-16.json"), ("d64", "dtypes/results-64.json"),
                         ("e2e", "end-to-end/results.json")]:
            doc = load(os.path.join(root, rel))
            if doc is None:
                continue
            self.docs[key] = doc
            if key == "e2e":
                continue  # its rows include transfers: kept apart
            for r in doc["results"]:
                if r.get("status") == "ok" and r.get("ok", True):
                    k = (r["backend"], r["variant"], r["primitive"], r["dtype"], r["n"], r["mode"])
                    self.rows.setdefault(k, r["median_ms"])

    def ms(self, backend, variant, primitive, dtype, n, mode="cold"):
        return self.rows.get((backend, variant, primitive, dtype, n, mode))

    def copy_probe(self, backend):
        for d in self.docs["scan"]["devices"]:
            if d["backend"] == backend:
                return d.get("copy_peak_gbps")
        return None

    def commit(self):
        """The commit the scan report's provenance names (bench/gpu-report writes it)."""
        try:
            with open(os.path.join(self.root, "scan", "README.md"), encoding="utf-8") as f:
                for line in f:
                    if line.startswith("| commit |"):
                        return line.split("|")[2].strip()[:12]
        except OSError:
            pass
        return "unknown"

    def gpu_name(self):
        for d in self.docs["scan"]["devices"]:
            if d["backend"] == "cuda":
                return d["name"]
        return self.name

    def best(self, backend, primitive, dtype, n, mode, families=None):
        """The fastest variant of a backend (not lib/*) at one point: (ms, variant)."""
        found = [(ms, k[1]) for k, ms in self.rows.items()
                 if k[0] == backend and k[2] == primitive and k[3] == dtype and k[4] == n
                 and k[5] == mode and not k[1].startswith("lib/")
                 and (families is None or k[1].split("/")[0] in families)]
        return min(found) if found else (None, None)

    def best_library(self, primitive, dtype, n, mode):
        """The fastest of lib/cub and the peers (torch, cupy) at one point: (ms, name)."""
        found = [(ms, k[1]) for k, ms in self.rows.items()
                 if k[2] == primitive and k[3] == dtype and k[4] == n and k[5] == mode
                 and (k[1] == "lib/cub" or k[0] in ("torch", "cupy"))]
        return min(found) if found else (None, None)


def fmt(x, digits=3):
    return "" if x is None else f"{x:.{digits}f}"


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" if i == 0 else "---:"
                                                          for i in range(len(header))) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def look_back_section(reports):
    print("## The look-back at the limit\n")
    print("Inclusive sum, cold, median ms of `fast/decoupled-lookback` in each API; Vulkan/CUDA as "
          "a speed (CUDA time / Vulkan time: 1.00 is parity); CUDA against `lib/cub` the same way; "
          "% copy: bytes read + written against the API's own copy probe in the same run.\n")
    # The sizes the look-back's targets are stated at; the rows come from the scan and dtypes
    # reports alike.
    points = [("i32", 1 << 28), ("f32", 1 << 28), ("i64", 1 << 28), ("f64", 1 << 28),
              ("f16", 1 << 27), ("bf16", 1 << 27)]
    header = ["type, n"]
    for r in reports:
        header += [f"{r.name} CUDA", f"{r.name} Vulkan", f"{r.name} Vulkan/CUDA",
                   f"{r.name} CUDA/cub", f"{r.name} CUDA % copy"]
    rows = []
    for dtype, n in points:
        row = [f"{dtype}, 2^{n.bit_length() - 1}"]
        for r in reports:
            c = r.ms("cuda", "fast/decoupled-lookback", "scan", dtype, n)
            v = r.ms("vulkan", "fast/decoupled-lookback", "scan", dtype, n)
            cub = r.ms("cuda", "lib/cub", "scan", dtype, n)
            size = {"i32": 4, "f32": 4, "i64": 8, "f64": 8, "f16": 2, "bf16": 2}[dtype]
            copy = r.copy_probe("cuda")
            pct = None if c is None or not copy else 2 * n * size / (c * 1e-3) / 1e9 / copy
            row += [fmt(c), fmt(v), fmt(ratio(c, v), 2), fmt(ratio(cub, c), 2),
                    "" if pct is None else f"{100 * pct:.0f} %"]
        rows.append(row)
    print(table(header, rows))
    print()


def per_id_section(reports, primitive, dtype="i32", n=1 << 28):
    print(f"## Vulkan/CUDA per variant id: {primitive} {dtype}, 2^{n.bit_length() - 1}, cold\n")
    print("Vulkan time / CUDA time (above 1: Vulkan slower), the same algorithm under one id.\n")
    ids = []
    for r in reports:
        for k in r.rows:
            if k[2] == primitive and k[3] == dtype and k[4] == n and k[0] == "vulkan" \
                    and k[1] not in ids and r.ms("cuda", k[1], primitive, dtype, n) is not None:
                ids.append(k[1])
    header = ["variant"] + [f"{r.name} Vulkan/CUDA" for r in reports]
    rows = [[i] + [fmt(ratio(r.ms("vulkan", i, primitive, dtype, n),
                             r.ms("cuda", i, primitive, dtype, n)), 2) for r in reports]
            for i in ids]
    print(table(header, rows))
    print()


def bit_section(reports):
    print("## The BIT against bcao (seed 001's comparison), i32 inclusive sum, cold\n")
    print("The fastest `bit/*` variant's time / `blelloch/bcao`'s (below 1: the BIT wins).\n")
    header = ["n"] + [f"{r.name} {b}" for r in reports for b in ("CUDA", "Vulkan")]
    rows = []
    for n in SIZES:
        row = [count_label(n)]
        for r in reports:
            for b in ("cuda", "vulkan"):
                bit, _ = r.best(b, "scan", "i32", n, "cold", families={"bit"})
                row.append(fmt(ratio(bit, r.ms(b, "blelloch/bcao", "scan", "i32", n)), 2))
        rows.append(row)
    print(table(header, rows))
    print()


def crossover_section(reports):
    print("## Where the GPU overtakes the CPU\n")
    print("The smallest n from which the backend's best is faster than the CPU's best at every "
          "larger size (kernel time: the reduce and scan reports; end to end: upload + run + "
          "read back, the end-to-end report), i32 and f32 sum, cold.\n")
    header = ["primitive", "dtype", "timing", "backend"] + [r.name for r in reports]
    found = {}
    for ri, r in enumerate(reports):
        for key, timing in (("reduce", "kernel"), ("scan", "kernel"), ("e2e", "end to end")):
            doc = r.docs.get(key)
            if not doc:
                continue
            for c in doc.get("crossovers", []):
                if c.get("mode", "cold") != "cold" or c["versus"] != "cpu":
                    continue
                k = (c["primitive"], c["dtype"], timing, c["backend"])
                label = count_label(c["n"]) if c["n"] else "never"
                found.setdefault(k, [""] * len(reports))[ri] = label
    rows = [list(k) + v for k, v in sorted(found.items())]
    print(table(header, rows))
    print()


def libraries_section(reports):
    print("## Each API's best against the libraries\n")
    print("At each power of 4 from 1K to 256M: the backend's fastest variant against the fastest "
          "of `lib/cub`, `torch` and `cupy` (speed ratio; at least 1.00 means as fast or faster). "
          "min .. max over the sizes, and the sizes below 1.00.\n")
    header = ["primitive", "dtype", "mode", "backend"] + [r.name for r in reports]
    rows = []
    for primitive in ("reduce", "scan"):
        for dtype in ("i32", "f32"):
            for mode in ("cold", "batch"):
                for backend in ("cuda", "vulkan"):
                    row = [primitive, dtype, mode, backend]
                    for r in reports:
                        ratios = []
                        for n in SIZES:
                            mine, _ = r.best(backend, primitive, dtype, n, mode)
                            lib, _ = r.best_library(primitive, dtype, n, mode)
                            if mine is not None and lib is not None:
                                ratios.append((lib / mine, n))
                        if not ratios:
                            row.append("")
                            continue
                        lo, hi = min(x for x, _ in ratios), max(x for x, _ in ratios)
                        below = [f"{count_label(n)} {x:.2f}" for x, n in ratios if round(x, 2) < 1.0]
                        row.append(f"{lo:.2f} .. {hi:.2f}" +
                                   (f"; below: {', '.join(below)}" if below else ""))
                    rows.append(row)
    print(table(header, rows))
    print()


def small_scan_section(reports):
    print("## Small scans: Vulkan's best against CUDA's, cold and batch (i32 inclusive sum)\n")
    print("Vulkan time / CUDA time of each API's fastest scan (the target: at most 1.2 cold "
          "from 1K to 1M).\n")
    header = ["n"] + [f"{r.name} {m}" for r in reports for m in ("cold", "batch")]
    rows = []
    for n in SIZES[:6]:
        row = [count_label(n)]
        for r in reports:
            for mode in ("cold", "batch"):
                c, _ = r.best("cuda", "scan", "i32", n, mode)
                v, _ = r.best("vulkan", "scan", "i32", n, mode)
                row.append(fmt(ratio(v, c), 2))
        rows.append(row)
    print(table(header, rows))
    print()


def main():
    if len(sys.argv) < 3:
        print("usage: bench/cross_gpu.py REPORT_DIR REPORT_DIR...", file=sys.stderr)
        return 2
    reports = [Report(d) for d in sys.argv[1:]]
    for r in reports:
        if "scan" not in r.docs or "reduce" not in r.docs:
            print(f"cross_gpu: {r.root} lacks results.json or scan/results.json", file=sys.stderr)
            return 2
    print("# The same findings on two GPUs\n")
    print("Generated by `bench/cross_gpu.py " + " ".join(sys.argv[1:]) +
          "` from the reports beside it; nothing here was measured by the script.\n")
    print(table(["", *[r.name for r in reports]],
                [["GPU", *[r.gpu_name() for r in reports]],
                 ["copy probe CUDA / Vulkan, GB/s",
                  *[f"{r.copy_probe('cuda'):.0f} / {r.copy_probe('vulkan'):.0f}" for r in reports]],
                 ["commit (scan report)", *[r.commit() for r in reports]]]))
    print()
    look_back_section(reports)
    small_scan_section(reports)
    per_id_section(reports, "scan")
    per_id_section(reports, "reduce")
    bit_section(reports)
    crossover_section(reports)
    libraries_section(reports)
    return 0


if __name__ == "__main__":
    sys.exit(main())
