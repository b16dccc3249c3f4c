#!/usr/bin/env python3
"""Score candidate noise rules for compare --baseline on runs where nothing changed.

    python3 bench/noise_calibration.py DIR [DIR ...]

Each DIR holds what bench/noise-calibration wrote on one GPU: run<i>.json, runs of one binary one
after the other, and knob.json, a run with the one-workgroup scan path off (XR_SCAN_ONE_GROUP_MAX
=0). Every pair of plain runs, and the knob run against each plain run on reduce rows (which the
knob does not touch), is a comparison where nothing changed: for every row correct in both,
r = new/old median, s = the sum of the rows' rel_spread (MAD / median), t = the smaller median.
A rule (scale, floor, floor_us) calls a row changed when |ln r| > ln(1 + band) with
band = max(floor, floor_us / t, scale * s); on these pairs every call is a false alarm. The knob's
effect on the look-back scan at 1K and 4K (the last plain run against the knob run) is the change
a rule should find. Prints markdown: the false-alarm rate of each rule per GPU, the run-to-run
change by time range, and, for the chosen rule, what it finds and the rows it still flags.
"""
import glob
import itertools
import json
import math
import os
import sys

CHOSEN = (3, 0.02, 1.25)  # kNoiseRule in app/report/baseline.hpp: scale, floor, floor_us
FLOORS = (0.01, 0.02, 0.03)
FLOORS_US = (0, 0.5, 1.0, 1.25, 1.5, 2.0)
TIME_RANGES_MS = ((0, 0.01), (0.01, 0.03), (0.03, 0.1), (0.1, 1), (1, 1e9))


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


def point(key, old, new):
    (a, sa), (b, sb) = old[key], new[key]
    return key, b / a, sa + sb, min(a, b)


def unchanged_pairs(runs, knob):
    points = []
    for old, new in itertools.combinations(runs, 2):
        points += [point(k, old, new) for k in old.keys() & new.keys()]
    for old in runs if knob else []:
        points += [point(k, old, knob) for k in old.keys() & knob.keys() if k[2] == "reduce"]
    return points


def band(rule, spread, t_ms):
    scale, floor, floor_us = rule
    return max(floor, floor_us / (t_ms * 1e3), scale * spread)


def changed(rule, p):
    _, r, s, t = p
    return abs(math.log(r)) > math.log1p(band(rule, s, t))


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def report_gpu(name, runs, knob):
    points = unchanged_pairs(runs, knob)
    print(f"## {name}\n\n{len(runs)} runs and the knob run: {len(points)} comparisons where "
          "nothing changed (rows correct in both).\n")
    print("False alarms, scale 3 (rows with a verdict other than same):\n")
    print("| floor \\ floor_us | " + " | ".join(f"{u:g} µs" for u in FLOORS_US) + " |")
    print("|---|" + "---:|" * len(FLOORS_US))
    for floor in FLOORS:
        cells = [f"{100 * sum(changed((3, floor, u), p) for p in points) / len(points):.1f}%"
                 for u in FLOORS_US]
        print(f"| {floor * 100:g}% | " + " | ".join(cells) + " |")
    print("\nRun-to-run change by the row's time:\n")
    print("| median time | rows | \\|r - 1\\| median | 99th pct | 99th pct in µs |")
    print("|---|---:|---:|---:|---:|")
    for lo, hi in TIME_RANGES_MS:
        sel = [p for p in points if lo <= p[3] < hi]
        if sel:
            rel = [abs(p[1] - 1) for p in sel]
            us = [abs(p[1] - 1) * p[3] * 1e3 for p in sel]
            span = f"{lo * 1e3:g}–{hi * 1e3:g} µs" if hi < 1e9 else f"≥ {lo * 1e3:g} µs"
            print(f"| {span} | {len(sel)} | {100 * quantile(rel, 0.5):.2f}% | "
                  f"{100 * quantile(rel, 0.99):.2f}% | {quantile(us, 0.99):.2f} |")
    flagged = sorted((p for p in points if changed(CHOSEN, p)), key=lambda p: -abs(p[1] - 1))
    print(f"\nThe chosen rule {CHOSEN}: {len(flagged)} false alarms "
          f"({100 * len(flagged) / len(points):.1f}%):\n")
    for key, r, s, t in flagged:
        print(f"- {key[0]} {key[1]} {key[2]} n={key[6]} {key[7]}: {r:.3f} at {t * 1e3:.1f} µs "
              f"(spreads {100 * s:.2f}%)")
    if knob:
        last = runs[-1]
        truth = sorted(k for k in knob if k[1] == "fast/decoupled-lookback" and k[2] == "scan"
                       and k[6] <= 4096 and k in last)
        print("\nThe knob's change (look-back scan at 1K and 4K, one-group path off):\n")
        print("| backend | n | mode | with / without the path | µs with | found |")
        print("|---|---:|---|---:|---:|---|")
        for k in truth:
            p = point(k, knob, last)
            print(f"| {k[0]} | {k[6]} | {k[7]} | {p[1]:.3f} | {last[k][0] * 1e3:.1f} | "
                  f"{'yes' if changed(CHOSEN, p) else 'no'} |")
    print()


def main(argv):
    if len(argv) < 2:
        print("usage: noise_calibration.py DIR [DIR ...]", file=sys.stderr)
        return 2
    for d in argv[1:]:
        runs = [rows_of(p) for p in sorted(glob.glob(os.path.join(d, "run*.json")))]
        knob_path = os.path.join(d, "knob.json")
        knob = rows_of(knob_path) if os.path.exists(knob_path) else None
        if len(runs) < 2:
            print(f"{d}: needs two run*.json at least", file=sys.stderr)
            return 2
        report_gpu(os.path.basename(os.path.normpath(d)), runs, knob)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
