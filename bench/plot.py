#!/usr/bin/env python3
"""Draw bandwidth against n from an `xreduce compare --format json` report.

    python3 bench/plot.py REPORT.json OUT.svg|OUT.png|OUT.pdf

One panel per section (primitive, scan kind, op, dtype) and backend: GB/s of every measured
variant against n (log2 axis), with the backend's measured peak as a dashed line: its
streaming-read peak for reduce (GB/s = bytes read / time), its copy peak for scan (GB/s = bytes
read + written / time). `xreduce compare --plot FILE` runs this
script on its own report. Needs matplotlib (Debian: python3-matplotlib).

Exit codes: 0 drawn; 2 bad arguments or report; 3 matplotlib missing (xreduce then tries another
python3).
"""
import json
import sys


# Line style per variant family, so a legend of 20+ variants still reads by family.
FAMILY_STYLE = {"cpu": "-", "global": "-.", "smem": "-", "warp": ":", "subgroup": ":", "fast": "--",
                "lib": "--", "bit": "-.", "blelloch": "-"}


def count_label(n):
    """1024 -> 1K, 16777216 -> 16M: the spelling xreduce uses for sizes."""
    n = int(n)
    for suffix in ("", "K", "M", "G"):
        if n < 1024 or n % 1024:
            return f"{n}{suffix}"
        n //= 1024
    return f"{n}T"


def main(argv):
    if len(argv) != 3:
        print("usage: plot.py REPORT.json OUT.svg|OUT.png|OUT.pdf", file=sys.stderr)
        return 2
    try:
        import matplotlib

        matplotlib.use("Agg")  # no display needed
        import matplotlib.pyplot as plt
        from matplotlib.ticker import FuncFormatter, LogLocator
    except ImportError as e:
        print(f"matplotlib is not installed for {sys.executable}: {e}", file=sys.stderr)
        return 3

    try:
        with open(argv[1], encoding="utf-8") as f:
            report = json.load(f)
        results = report["results"]
        devices = {d["backend"]: d for d in report["devices"]}
    except (OSError, ValueError, KeyError) as e:
        print(f"cannot read the report {argv[1]}: {e}", file=sys.stderr)
        return 2

    rows = [r for r in results if r.get("status") != "unsupported" and r.get("gbps") is not None
            and r["n"] > 0]
    if not rows:
        print("the report has no measured result to plot", file=sys.stderr)
        return 2
    def section(r):  # reports before scan existed have neither field: they are reduce
        primitive = r.get("primitive", "reduce")
        return (primitive, r.get("scan") or "", r["op"], r["dtype"])

    sections = []
    for r in rows:  # report order: primitive, dtype, op as measured
        key = section(r)
        if key not in sections:
            sections.append(key)
    backends = [b for b in devices if any(r["backend"] == b for r in rows)]
    end_to_end = report.get("config", {}).get("include_transfer", False)

    ncols, nrows = len(backends), len(sections)
    fig, axes = plt.subplots(nrows, ncols, figsize=(7.5 * ncols, 4.6 * nrows), squeeze=False)
    cmap = plt.get_cmap("tab10")  # distinct hues within a family; the line style marks the family
    for i, key in enumerate(sections):
        primitive, kind, op, dtype = key
        scan = primitive == "scan"
        what = f"{kind} scan {op} {dtype}" if scan else f"{op} {dtype}"
        for j, backend in enumerate(backends):
            ax = axes[i][j]
            mine = [r for r in rows if r["backend"] == backend and section(r) == key]
            variants = []  # ladder order: the order xreduce measured them
            for r in mine:
                if r["variant"] not in variants:
                    variants.append(r["variant"])
            family_seen = {}
            for variant in variants:
                family = variant.split("/")[0]
                k = family_seen.get(family, 0)
                family_seen[family] = k + 1
                pts = sorted((r["n"], r["gbps"]) for r in mine if r["variant"] == variant)
                style = dict(marker="o", markersize=3, linewidth=1.4, color=cmap(k % 10),
                             linestyle=FAMILY_STYLE.get(family, "-"))
                if variant == "lib/cub":  # the vendor anchor stands out
                    style.update(color="black", linewidth=2.2, linestyle="--", marker="s")
                ax.plot([p[0] for p in pts], [p[1] for p in pts], label=variant, **style)
            device = devices[backend]
            peak = device.get("copy_peak_gbps") if scan else device.get(
                "read_peak_gbps", device.get("peak_gbps"))
            if peak and not end_to_end:
                ax.axhline(peak, color="black", linestyle="--", linewidth=1,
                           label=f"measured {'copy' if scan else 'read'} peak {peak:.0f} GB/s")
            ax.set_xscale("log", base=2)
            ax.xaxis.set_major_locator(LogLocator(base=2, numticks=12))
            ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: count_label(round(x))))
            ax.set_xlabel("n (elements)")
            if end_to_end:
                ax.set_ylabel("effective GB/s (upload + run + readback)")
            else:
                ax.set_ylabel("GB/s (bytes read + written / device time)" if scan
                              else "GB/s (bytes read / device time)")
            name = device.get("name", "")
            ax.set_title(f"{backend} · {what}\n{name}", fontsize="medium")
            ax.set_ylim(bottom=0)
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0),
                      borderaxespad=0, frameon=False)
    fig.suptitle("xreduce compare: bandwidth against n", fontsize="large")
    fig.tight_layout()
    try:
        fig.savefig(argv[2], bbox_inches="tight")
    except (OSError, ValueError) as e:
        print(f"cannot write {argv[2]}: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
