#!/usr/bin/env python3
"""Score candidate noise rules for compare --baseline on runs where nothing changed.

    python3 bench/noise_calibration.py OLD.json NEW.json [OLD2.json NEW2.json ...]

Each pair is two compare reports of the same binary on the same GPU (bench/noise-calibration's
A and B). For every row correct in both, r = new/old median and s = the sum of the two rows'
rel_spread (MAD / median). A rule (scale, floor) calls a row changed when
|ln r| > ln(1 + max(floor, scale * s)); on such pairs every call is a false alarm. Prints, as
markdown, the false-alarm rate of each rule over every pair's rows, the quantiles of |r - 1|, and
the rows the chosen rule still flags.
"""
import json
import math
import sys

SCALES = (1, 2, 3, 4, 6)
FLOORS = (0.0, 0.005, 0.01, 0.02, 0.03, 0.05)
CHOSEN = (3, 0.02)  # kNoiseRule in app/report/baseline.hpp: the rows it still flags are listed


def rows_of(path):
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    out = {}
    for r in report["results"]:
        if r.get("status") != "ok" or not r.get("median_ms"):
            continue
        key = (r["backend"], r["variant"], r["primitive"], r.get("scan") or "", r["op"],
               r["dtype"], int(r["n"]), r.get("mode") or "cold")
        out.setdefault(key, (float(r["median_ms"]), float(r.get("rel_spread") or 0)))
    return out


def pairs(paths):
    points = []
    for old_path, new_path in zip(paths[::2], paths[1::2]):
        old, new = rows_of(old_path), rows_of(new_path)
        for key in old.keys() & new.keys():
            (a, sa), (b, sb) = old[key], new[key]
            points.append((key, b / a, sa + sb))
    return points


def flagged(points, scale, floor):
    return [p for p in points if abs(math.log(p[1])) > math.log1p(max(floor, scale * p[2]))]


def main(argv):
    if len(argv) < 3 or len(argv) % 2 == 0:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    points = pairs(argv[1:])
    print(f"{len(points)} rows, correct in both runs of each pair\n")
    print("| scale \\ floor | " + " | ".join(f"{f * 100:g}%" for f in FLOORS) + " |")
    print("|---|" + "---:|" * len(FLOORS))
    for scale in SCALES:
        cells = [f"{100 * len(flagged(points, scale, f)) / len(points):.1f}%" for f in FLOORS]
        print(f"| {scale} | " + " | ".join(cells) + " |")
    changes = sorted(abs(r - 1) for _, r, _ in points)
    spreads = sorted(s for _, _, s in points)
    q = lambda xs, p: xs[min(len(xs) - 1, int(p * len(xs)))]
    print("\n| quantile | \\|new/old - 1\\| | spread old + new |\n|---|---:|---:|")
    for p in (0.5, 0.9, 0.95, 0.99, 1.0):
        print(f"| {p:g} | {100 * q(changes, p):.2f}% | {100 * q(spreads, p):.2f}% |")
    scale, floor = CHOSEN
    rest = sorted(flagged(points, scale, floor), key=lambda p: -abs(math.log(p[1])))
    print(f"\nflagged by scale {scale:g}, floor {floor * 100:g}% ({len(rest)}):\n")
    for key, r, s in rest[:40]:
        backend, variant, primitive, kind, op, dtype, n, mode = key
        print(f"- {backend} {variant} {kind} {primitive} {dtype} n={n} {mode}: "
              f"{r:.3f} (spreads {100 * s:.2f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
