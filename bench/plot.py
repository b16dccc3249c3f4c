#!/usr/bin/env python3
"""Draw median time against n from an `xreduce compare --format json` report, or the ladders of
one or more reports at one n.

    python3 bench/plot.py REPORT.json OUT.svg|OUT.png|OUT.pdf
    python3 bench/plot.py --ladders [--n N] [--dtype T] [--sort-dtype T] [--mode M] REPORT.json
        [REPORT.json...] OUT

One column of panels per section (primitive, scan kind, op, dtype, mode; reports without a mode
are "cold"), two sections across:

- time panel: median time (µs) of every measured variant against n, both axes log. Each variant
  id has one colour; its CUDA line is solid with circles, its Vulkan line dashed with squares,
  its OpenCL line dash-dotted with triangles, so the APIs' runs of one id overlay. The anchors are drawn thick and on top: lib/cub
  (black), torch.* (dark orange) and cupy.* (dark green). The CPU is one grey line, the fastest
  of its variants at each n. A dotted line is the time at cuda's measured peak (and at each other
  API's, where it differs from cuda's by more than 5%): bytes / GB/s, with the read peak and n x element size bytes
  for reduce, the copy peak and twice those bytes for scan; the bandwidth floor that the latency
  floor meets (left out of end-to-end, --include-transfer, reports). Failed results are red
  crosses off their line, never part of it, the first of each variant named. A legend right of
  each section lists the anchors, the CPU, the floor and the ids.
- ratio panel, under the time panel where the section has CUDA rows and another API's: that API's
  time / CUDA time of each id measured on both at an n, in the API's line style (log2 axis around
  1; below 1 the other API is faster; clipped to 1/8..8, a triangle marks a clipped point), plus
  the API's fastest variant over CUDA's fastest as a thick grey line.

A report with a "baseline" section (`xreduce compare --baseline`, `xreduce diff`) is drawn as the
comparison instead: one panel per section, the new/old time ratio of every matched row against n
(log2 axes around 1; above 1 slower), one line per variant id and backend (CUDA solid, Vulkan
dashed, one colour per id), filled markers where the verdict is faster or slower beyond noise,
hollow where it is the same, and the rule's noise floor shaded.

--ladders draws the ladders at one n as grouped horizontal bars in one compact figure: a panel per
primitive present, side by side in ladder order (reduce, scan, sort), top-aligned, one bar height in
every panel (a short ladder's panel is short), the same colour per API in every panel and one
legend under the title. A panel has one group per variant id measured on at least two GPU APIs, in
ladder order, its name above its CUDA, Vulkan and OpenCL bars in fixed slots (an API without the id
leaves its slot empty), then lib/cub as the anchor. A reduce or scan bar is the row's GB/s (bytes
the primitive must move over the median device time: read for reduce, read + written for scan),
its label the median time and, beside another API's, its time over CUDA's; the dotted line per API
is its measured peak (read for reduce, copy for scan). A sort bar is keys per second (G keys/s = n /
median time), its label the median time and its keys per second over lib/cub's where the report
has it ("0.56x CUB": the share of CUB's rate, above 1 faster); the dotted line per API is the radix
bound, its copy peak over the radix bytes model (36 B a u32 key). Failed rows are a red "failed" in
their slot, never a bar; throttled rows are hatched. The title states the GPU and n (each panel's
title its point: op, scan kind or sort form, dtype, mode, and n where the panels differ); a
footnote states per panel the report and its commit, the peaks, each API's reference SM clock and
the device UUID where the APIs share one (both once where every panel's are the same), the lowest
clock of any drawn sample, how many rows were throttled and the ids left out (measured on one
API). Defaults: n the largest measured on the most GPU APIs, mode cold (else the first), op sum,
scan kind inclusive, sort ascending keys only (no values) where present; dtype i32 for reduce and
scan (--dtype), u32 for sort (--sort-dtype), else the first. --n and --mode apply to every panel.
Reports may be gzipped (`.gz`); a primitive found in several reports is taken from the first that
has it. The figure is 9 inches (1350 px at 150 dpi) wide, as tall as its longest ladder needs
(under 1000 px for the three at 2^28).

`xreduce compare --plot FILE` and `xreduce diff --plot FILE` run this script on their own
report. Needs matplotlib (Debian: python3-matplotlib).

Exit codes: 0 drawn; 2 bad arguments, a report that cannot be read, no measured result (--ladders:
no GPU row at the point asked for, or no id measured on two GPU APIs), or an output that cannot be
written; 3 matplotlib missing (xreduce then tries another python3).
"""
import gzip
import json
import math
import sys
import textwrap
import types

GPUS = ("cuda", "vulkan", "opencl")
OTHER_APIS = GPUS[1:]  # each drawn against cuda in the ratio panel
PEERS = ("torch", "cupy")
GPU_STYLE = {"cuda": dict(linestyle="-", marker="o"), "vulkan": dict(linestyle="--", marker="s"),
             "opencl": dict(linestyle="-.", marker="^")}
GPU_KEY = {"cuda": "solid ●", "vulkan": "dashed ■", "opencl": "dash-dot ▲"}
# The anchors: (colour, marker, legend note). lib/cub by variant, the peers by backend.
ANCHORS = {"lib/cub": ("black", "o", "vendor anchor"), "torch": ("#d35400", "D", "peer"),
           "cupy": ("#1e7b34", "D", "peer")}
CPU_COLOUR = "0.55"
FAILED_COLOUR = "#e00000"
# tab20 without its greys (the CPU is grey): the dark shades first, then the light ones, so
# neighbours on a ladder get different hues. A second lap draws hollow markers.
PALETTE = [0, 2, 4, 6, 8, 10, 12, 16, 18, 1, 3, 5, 7, 9, 11, 13, 17, 19]
ELEMENT_BYTES = {"i8": 1, "u8": 1, "i16": 2, "u16": 2, "f16": 2, "bf16": 2, "i32": 4, "u32": 4,
                 "f32": 4, "i64": 8, "u64": 8, "f64": 8}
MODE_NOTE = {"cold": "cold: one call, L2 flushed", "batch": "batch: per call, back to back"}
MAX_OCTAVES = 3  # the ratio panel clips to 1/8..8

# Layout, inches.
PANEL_W, TIME_H, RATIO_H, INNER_GAP = 5.6, 3.3, 1.15, 0.08
LEFT, TITLE_H, BOTTOM_H, LEGEND_PAD, COLUMN_GAP, SUPTITLE_H = 1.0, 0.45, 0.7, 0.12, 0.25, 0.55
LEGEND_FONT_PT = 7.0  # points


def count_label(n):
    """1024 -> 1K, 16777216 -> 16M: the spelling xreduce uses for sizes."""
    n = int(n)
    for suffix in ("", "K", "M", "G"):
        if n < 1024 or n % 1024:
            return f"{n}{suffix}"
        n //= 1024
    return f"{n}T"


def plain_number(v):
    """Tick label for a time in µs: 2, 50, 1000, 0.5."""
    return f"{v:.0f}" if v >= 1 else f"{v:.3g}"


def ratio_label(v):
    if v < 1 and abs(1 / v - round(1 / v)) < 1e-6 and round(1 / v) in (2, 4, 8):
        return f"1/{round(1 / v)}"
    return f"{v:g}"


def kind_of(r):
    """A scan's kind; a sort's order, with its values, bit range and the count's place where they
    apply: every field of the sort, so two different sorts never share a section or a line."""
    if r.get("primitive") != "sort":
        return r.get("scan") or ""
    sort = r.get("sort") or {}
    kind = str(sort.get("order", "asc"))
    if sort.get("values") == "u64":
        kind += ", pairs, u64 values"
    elif sort.get("values") not in (None, "none"):
        kind += ", pairs"
    if sort.get("bits") not in (None, "all"):
        kind += f", bits {sort['bits']}"
    if sort.get("count") == "device":
        kind += ", count on the device"
    return kind


def sort_bytes_per_key(dtype, kind):
    """The radix sort's bytes model (docs/cli.md): the keys read once, then read and written per
    8-bit digit; u32 or u64 values read and written per digit."""
    key = ELEMENT_BYTES.get(dtype, 4)
    bits = 8 * key
    if ", bits " in kind:
        begin, end = kind.split(", bits ", 1)[1].split(",")[0].split(":")
        bits = int(end) - int(begin)
    passes = (bits + 7) // 8
    value = 8 if ", u64 values" in kind else 4 if ", pairs" in kind else 0
    return key + passes * 2 * key + passes * 2 * value


def measured_rows(results):
    """The rows with a time, normalised; raises KeyError/TypeError/ValueError on a bad row."""
    rows = []
    for r in results:
        if r.get("status") == "unsupported" or r.get("median_ms") is None:
            continue
        n, ms = int(r["n"]), float(r["median_ms"])
        if n <= 0 or not ms > 0:  # nothing to draw on log axes
            continue
        rows.append({
            "backend": str(r["backend"]), "variant": str(r["variant"]),
            # reports before scan existed have neither field: they are reduce
            "primitive": r.get("primitive") or "reduce", "kind": kind_of(r),
            "op": str(r["op"] or ""), "dtype": str(r["dtype"]),
            "mode": r.get("mode") or "cold",  # reports before --mode timed one cold call
            "n": n, "us": ms * 1e3,
            "failed": r.get("status", "ok") != "ok",  # anything not ok must not look like a result
        })
    return rows


def section_key(r):
    return (r["primitive"], r["kind"], r["op"], r["dtype"], r["mode"])


def section_title(key):
    primitive, kind, op, dtype, mode = key
    if primitive == "sort":
        return f"sort ({kind}) {dtype} · {mode}"
    what = f"{kind} scan" if primitive == "scan" and kind else primitive
    return f"{what} {op} {dtype} · {mode}"


def anchor_of(r):
    """The anchor style key of a row, or None for an ordinary variant."""
    if r["backend"] in PEERS:
        return r["backend"]
    if r["variant"] == "lib/cub" and r["backend"] == "cuda":
        return "lib/cub"
    return None


def peak_of(device, scan):
    if not device:
        return None
    if scan:
        peak = device.get("copy_peak_gbps")
    else:  # reports before the copy peak called the read peak peak_gbps
        peak = device.get("read_peak_gbps", device.get("peak_gbps"))
    return peak if isinstance(peak, (int, float)) and peak > 0 else None


def colour_table(rows, cmap):
    """Per primitive, one colour (and marker fill) per ordinary GPU variant id: the ids measured on
    several APIs first (they overlay and have a ratio: they get the strong shades), then
    the rest, each in report order."""
    table = {}
    for primitive in dict.fromkeys(r["primitive"] for r in rows):
        on = {}
        for r in rows:
            if r["primitive"] == primitive and r["backend"] in GPUS and anchor_of(r) is None:
                on.setdefault(r["variant"], set()).add(r["backend"])
        ids = [v for v in on if len(on[v]) > 1] + [v for v in on if len(on[v]) == 1]
        table[primitive] = {v: (cmap(PALETTE[k % len(PALETTE)]),
                                "white" if (k // len(PALETTE)) % 2 else None)
                            for k, v in enumerate(ids)}
    return table


class Section:
    """The rows of one section and what its panels need."""

    def __init__(self, key, rows, devices, colours, end_to_end):
        self.key, self.rows = key, rows
        self.scan = key[0] == "scan"
        self.sort = key[0] == "sort"
        self.backends = {r["backend"] for r in rows}
        self.others = [b for b in OTHER_APIS if b in self.backends] if "cuda" in self.backends \
            else []
        self.ratio = bool(self.others)
        self.devices, self.end_to_end = devices, end_to_end
        self.colours = colours.get(key[0], {})
        self.ids = []  # ordinary GPU variant ids, report (ladder) order
        for r in rows:
            if r["backend"] in GPUS and anchor_of(r) is None and r["variant"] not in self.ids:
                self.ids.append(r["variant"])
        self.on = {v: [b for b in GPUS if any(r["backend"] == b and r["variant"] == v
                                              for r in rows)] for v in self.ids}
        self.anchors = []
        for r in rows:
            a = anchor_of(r)
            if a and (a, r["variant"]) not in self.anchors:
                self.anchors.append((a, r["variant"]))
        self.cpu_variants = sorted({r["variant"] for r in rows if r["backend"] == "cpu"})
        self.peaks = self._peaks()
        self.failed = any(r["failed"] for r in rows)

    def _peaks(self):
        """[(backend, GB/s)] of the dotted bandwidth floor: the first API's, and each other's that
        differs from it by more than 5 %."""
        if self.end_to_end:
            return []
        copy = self.scan or self.sort
        peaks = [(b, peak_of(self.devices.get(b), copy)) for b in GPUS if b in self.backends]
        peaks = [(b, p) for b, p in peaks if p]
        return peaks[:1] + [(b, p) for b, p in peaks[1:] if abs(p / peaks[0][1] - 1) > 0.05]

    def device_line(self):
        names = {b: self.devices[b].get("name", "") for b in GPUS
                 if b in self.backends and b in self.devices}
        if len(set(names.values())) > 1:
            return " · ".join(f"{b}: {name}" for b, name in names.items())
        if names:
            return next(iter(names.values()))
        for b in [r["backend"] for r in self.rows]:
            if b in self.devices:
                return self.devices[b].get("name", "")
        return ""

    def cpu_label(self):
        if len(self.cpu_variants) == 1:
            return self.cpu_variants[0]
        return f"cpu best of {len(self.cpu_variants)} variants"

    @staticmethod
    def anchor_label(a, variant):
        return f"{variant} ({ANCHORS[a][2]})"

    def peak_label(self, backend, peak):
        which = "copy" if self.scan or self.sort else "read"
        return f"at {backend}'s measured {which} peak ({peak:.0f} GB/s)"


def import_matplotlib():
    """matplotlib's pieces the plot draws with, in one namespace; None when it is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # no display needed
        import matplotlib.pyplot as plt
        from matplotlib.legend_handler import HandlerTuple
        from matplotlib.lines import Line2D
        from matplotlib.ticker import (FixedLocator, FuncFormatter, LogLocator, NullFormatter,
                                       NullLocator)
    except ImportError as e:
        print(f"matplotlib is not installed for {sys.executable}: {e}", file=sys.stderr)
        return None
    return types.SimpleNamespace(plt=plt, HandlerTuple=HandlerTuple, Line2D=Line2D,
                                 FixedLocator=FixedLocator, FuncFormatter=FuncFormatter,
                                 LogLocator=LogLocator, NullFormatter=NullFormatter,
                                 NullLocator=NullLocator)


def read_sections(path, mpl):
    """The report's sections in report order (primitive, dtype, op, mode as measured), or an
    error line."""
    try:
        report = read_report(path)
        devices = {}
        for d in report["devices"]:
            devices.setdefault(d["backend"], d)  # the first device of each backend
        rows = measured_rows(report["results"])
        end_to_end = bool((report.get("config") or {}).get("include_transfer", False))
    except (OSError, ValueError, KeyError, TypeError, AttributeError, EOFError) as e:
        detail = f"no field {e}" if isinstance(e, KeyError) else str(e).replace("\n", " ")
        return None, f"cannot read the report {path}: {detail}"
    if not rows:
        return None, "the report has no measured result to plot"
    keys = []
    for r in rows:
        if section_key(r) not in keys:
            keys.append(section_key(r))
    colours = colour_table(rows, mpl.plt.get_cmap("tab20"))
    return [Section(k, [r for r in rows if section_key(r) == k], devices, colours, end_to_end)
            for k in keys], None


def n_axis(ax, mpl):
    """The x axis of every panel: n on a log2 scale, labelled as xreduce spells sizes."""
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(mpl.LogLocator(base=2, numticks=12))
    ax.xaxis.set_major_formatter(
        mpl.FuncFormatter(lambda x, _: count_label(round(x)) if x >= 1 else ""))
    ax.xaxis.set_minor_locator(mpl.NullLocator())


def style_time_axis(ax, s, mpl):
    """Log-log axes over what is drawn (the cpu's best, not all its variants), titles, grid."""
    n_axis(ax, mpl)
    ax.set_yscale("log", base=10)
    ys = [y for line in ax.get_lines() if line.get_linestyle() != ":" for y in line.get_ydata()]
    lo, hi = min(ys) / 1.5, max(ys) * 1.5
    if hi < 10 * lo:  # at least a decade, so that the 1-2-5 ticks land inside
        widen = math.sqrt(10 * lo / hi)
        lo, hi = lo / widen, hi * widen
    ax.set_ylim(lo, hi)  # the measured times, not the bandwidth floor's far end
    subs = (1.0, 2.0, 5.0) if math.log10(hi / lo) <= 2.5 else (1.0,)
    ax.yaxis.set_major_locator(mpl.LogLocator(base=10, subs=subs))
    ax.yaxis.set_major_formatter(mpl.FuncFormatter(lambda v, _: plain_number(v)))
    ax.yaxis.set_minor_formatter(mpl.NullFormatter())
    what = "upload + run + readback,\n" if s.end_to_end else "\n"
    ax.set_ylabel(f"median time (µs), {what}{MODE_NOTE.get(s.key[4], s.key[4])}",
                  fontsize="small")
    ax.grid(True, which="major", alpha=0.35)
    ax.grid(True, which="minor", axis="y", alpha=0.12)
    ax.set_title(section_title(s.key), loc="left", fontsize="medium", fontweight="bold")
    ax.set_title(s.device_line(), loc="right", fontsize="x-small", color="0.3")
    ax.tick_params(labelsize="small")


def draw_panel(fig, s, mpl):
    """One section's time panel and, with a ratio, the Vulkan/CUDA panel under it; placed later."""
    ax = fig.add_axes([0, 0, 1, 1])
    rax = fig.add_axes([0, 0, 1, 1], sharex=ax) if s.ratio else None
    legend_args = draw_time(ax, s, mpl.Line2D, mpl.HandlerTuple)
    style_time_axis(ax, s, mpl)
    bottom = ax
    if rax is not None:
        draw_ratio(rax, s, mpl.FixedLocator, mpl.FuncFormatter, mpl.NullLocator)
        ax.tick_params(labelbottom=False)
        bottom = rax
    bottom.set_xlabel("n (elements)", fontsize="small")
    bottom.tick_params(axis="x", labelsize="small")
    return ax, rax, legend_args


def lay_out(fig, sections, panels, ncols, fig_h):
    """A legend column right of each panel column, as wide as the widest legend (measured once
    drawn), then the panels placed in inches from the top-left corner."""
    renderer = fig.canvas.get_renderer()
    legend_room = TIME_H + INNER_GAP + RATIO_H + BOTTOM_H * 0.6
    legend_w = 0.0
    for ax, _, legend_args in panels:
        legend = make_legend(ax, legend_args, 1)
        if legend.get_window_extent(renderer).height / fig.dpi > legend_room:
            legend = make_legend(ax, legend_args, 2)  # too long for one column
        legend_w = max(legend_w, legend.get_window_extent(renderer).width / fig.dpi)
    cell_w = LEFT + PANEL_W + LEGEND_PAD + legend_w + COLUMN_GAP
    cell_h = TITLE_H + TIME_H + INNER_GAP + RATIO_H + BOTTOM_H
    fig_w = ncols * cell_w
    fig.set_size_inches(fig_w, fig_h)

    def rect(x, y_top, w, h):  # inches from the top-left corner -> figure fraction
        return [x / fig_w, 1 - (y_top + h) / fig_h, w / fig_w, h / fig_h]

    for i, (s, (ax, rax, _)) in enumerate(zip(sections, panels)):
        x0 = (i % ncols) * cell_w + LEFT
        y0 = SUPTITLE_H + (i // ncols) * cell_h + TITLE_H
        ax.set_position(rect(x0, y0, PANEL_W, TIME_H if s.ratio else TIME_H + INNER_GAP + RATIO_H))
        if rax is not None:
            rax.set_position(rect(x0, y0 + TIME_H + INNER_GAP, PANEL_W, RATIO_H))
    fig.suptitle("xreduce compare: time against n (log-log)", fontsize="x-large",
                 y=1 - 0.18 / fig_h, va="top")


def main(argv):
    if len(argv) > 1 and argv[1] == "--ladders":
        return ladders_main(argv[2:])
    if len(argv) != 3:
        print("usage: plot.py REPORT.json OUT.svg|OUT.png|OUT.pdf", file=sys.stderr)
        return 2
    mpl = import_matplotlib()
    if mpl is None:
        return 3
    try:
        baseline = read_report(argv[1]).get("baseline")
    except (OSError, ValueError, AttributeError, EOFError):
        baseline = None  # read_sections says what is wrong with the file
    if baseline:
        return draw_baseline(baseline, argv[2], mpl)
    sections, error = read_sections(argv[1], mpl)
    if error:
        print(error, file=sys.stderr)
        return 2
    ncols = 1 if len(sections) == 1 else 2
    nrows = math.ceil(len(sections) / ncols)
    fig_h = SUPTITLE_H + nrows * (TITLE_H + TIME_H + INNER_GAP + RATIO_H + BOTTOM_H)
    fig = mpl.plt.figure(figsize=(ncols * (LEFT + PANEL_W + 3.0), fig_h))
    panels = [draw_panel(fig, s, mpl) for s in sections]
    lay_out(fig, sections, panels, ncols, fig_h)
    try:
        fig.savefig(argv[2], bbox_inches="tight", dpi=110)
    except (OSError, ValueError) as e:
        print(f"cannot write {argv[2]}: {e}", file=sys.stderr)
        return 2
    return 0


def points(rows, ok=True):
    return sorted((r["n"], r["us"]) for r in rows if r["failed"] != ok)


def draw_time(ax, s, Line2D, HandlerTuple):
    handles, labels, handler_map = [], [], {}
    # Anchors: thick, on top.
    for a, variant in s.anchors:
        colour, marker, _ = ANCHORS[a]
        mine = [r for r in s.rows if r["variant"] == variant and anchor_of(r) == a]
        pts = points(mine)
        h, = ax.plot([p[0] for p in pts], [p[1] for p in pts], color=colour, linewidth=2.8,
                     marker=marker, markersize=3.5, zorder=6, solid_capstyle="round")
        handles.append(h)
        labels.append(s.anchor_label(a, variant))
    # The CPU: the fastest of its variants at each n.
    if s.cpu_variants:
        best = {}
        for r in s.rows:
            if r["backend"] == "cpu" and not r["failed"]:
                best[r["n"]] = min(best.get(r["n"], math.inf), r["us"])
        pts = sorted(best.items())
        if pts:  # (a cpu whose every row failed has only its red crosses)
            h, = ax.plot([p[0] for p in pts], [p[1] for p in pts], color=CPU_COLOUR,
                         linewidth=2.0, marker=".", markersize=4, zorder=2)
            handles.append(h)
            labels.append(s.cpu_label())
    # The bandwidth floor.
    ns = [r["n"] for r in s.rows]
    span = [min(ns) / 1.2, max(ns) * 1.2]
    for j, (backend, peak) in enumerate(s.peaks):
        per_element = sort_bytes_per_key(s.key[3], s.key[1]) if s.sort else \
            ELEMENT_BYTES.get(s.key[3], 4) * (2 if s.scan else 1)
        us = [n * per_element / (peak * 1e3) for n in span]  # bytes / (GB/s) -> µs
        h, = ax.plot(span, us, color="black" if j == 0 else "0.45", linestyle=":", linewidth=1.1,
                     zorder=1)
        handles.append(h)
        labels.append(s.peak_label(backend, peak))
    # The variants: one colour per id, each API in its own line style (GPU_STYLE).
    for variant in s.ids:
        colour, face = s.colours[variant]
        parts = []
        for backend in s.on[variant]:
            pts = points([r for r in s.rows if r["backend"] == backend and r["variant"] == variant])
            style = dict(GPU_STYLE[backend], color=colour, linewidth=1.2, markersize=3, zorder=3)
            if face:
                style.update(markerfacecolor=face, markersize=3.5)
            h, = ax.plot([p[0] for p in pts], [p[1] for p in pts], **style)
            parts.append(h)
        handle = tuple(parts) if len(parts) > 1 else parts[0]
        if len(parts) > 1:
            handler_map[handle] = HandlerTuple(ndivide=None, pad=0.3)
        handles.append(handle)
        labels.append(variant)
    # Failed results: a red cross, off the line, named once per variant and backend.
    named = set()
    for r in sorted((r for r in s.rows if r["failed"]), key=lambda r: r["n"]):
        ax.plot([r["n"]], [r["us"]], linestyle="none", marker="x", color=FAILED_COLOUR,
                markersize=7, markeredgewidth=2, zorder=8)
        if (r["backend"], r["variant"]) not in named:
            named.add((r["backend"], r["variant"]))
            right = math.log(r["n"] / span[0]) > 0.6 * math.log(span[1] / span[0])
            ax.annotate(f"{r['variant']} ({r['backend']})", (r["n"], r["us"]),
                        xytext=(-5 if right else 5, 3), textcoords="offset points", fontsize=6,
                        color=FAILED_COLOUR, ha="right" if right else "left", va="bottom",
                        zorder=8)
    if s.failed:
        handles.append(Line2D([], [], linestyle="none", marker="x", color=FAILED_COLOUR,
                              markersize=6, markeredgewidth=2))
        labels.append("failed: not a valid time")
    present = [b for b in GPUS if any(b in s.on[v] for v in s.ids)]
    header = "   ".join(f"{GPU_KEY[b]}: {b}" for b in present) if s.ids else None
    return handles, labels, handler_map, header


def make_legend(ax, legend_args, ncol):
    """The section's legend, right of its time panel (and beside its ratio panel)."""
    handles, labels, handler_map, header = legend_args
    style = dict(handler_map=handler_map, loc="upper left",
                 bbox_to_anchor=(1.0 + LEGEND_PAD / PANEL_W, 1.0), borderaxespad=0, frameon=False,
                 fontsize=LEGEND_FONT_PT, title=header, title_fontsize=LEGEND_FONT_PT + 0.5,
                 labelspacing=0.38, handlelength=3.2, handletextpad=0.6, ncol=ncol,
                 columnspacing=1.0)
    try:  # the header flush with the entries (matplotlib >= 3.6)
        return ax.legend(handles, labels, alignment="left", **style)
    except TypeError:
        return ax.legend(handles, labels, **style)


def draw_ratio(ax, s, FixedLocator, FuncFormatter, NullLocator):
    lo_clip, hi_clip = 2.0 ** -MAX_OCTAVES, 2.0 ** MAX_OCTAVES
    times = {}  # (backend, variant, n) -> µs of the ok rows
    for r in s.rows:
        if r["backend"] in GPUS and not r["failed"]:
            times[(r["backend"], r["variant"], r["n"])] = r["us"]
    best = {}
    for (b, _, n), us in times.items():
        best.setdefault(n, {})
        best[n][b] = min(best[n].get(b, math.inf), us)
    series = []  # (colour, api, points), the thick grey best-over-best last per API
    for api in s.others:
        for variant in s.ids:
            pts = sorted((n, times[(api, variant, n)] / us) for (b, v, n), us in times.items()
                         if b == "cuda" and v == variant and (api, variant, n) in times)
            if pts:
                series.append((s.colours[variant][0], api, pts))
    for api in s.others:
        pts = sorted((n, t[api] / t["cuda"]) for n, t in best.items() if api in t and "cuda" in t)
        if pts:
            series.append(("0.3", api, pts))
    worst = max((abs(math.log2(r)) for _, _, pts in series for _, r in pts), default=0.0)
    octaves = min(MAX_OCTAVES, max(1, math.ceil(worst - 0.02)))
    for colour, api, pts in series:
        xs = [p[0] for p in pts]
        ys = [min(hi_clip, max(lo_clip, p[1])) for p in pts]
        grey = colour == "0.3"
        ax.plot(xs, ys, color=colour, linewidth=2.6 if grey else 1.0,
                linestyle=GPU_STYLE[api]["linestyle"], marker=GPU_STYLE[api]["marker"],
                markersize=3.5 if grey else 2.2, zorder=4 if grey else 3)
        for (n, r), y in zip(pts, ys):
            if r != y:  # clipped
                ax.plot([n], [y], linestyle="none", marker="^" if r > y else "v", color=colour,
                        markersize=6, markeredgecolor="black", markeredgewidth=0.5, zorder=5,
                        clip_on=False)
    ax.axhline(1.0, color="black", linewidth=0.9, zorder=2)
    ax.set_yscale("log", base=2)
    pad = 2.0 ** 0.15
    ax.set_ylim(2.0 ** -octaves / pad, 2.0 ** octaves * pad)
    ticks = [0.5, 0.75, 1, 1.5, 2] if octaves == 1 else [2.0 ** k for k in range(-octaves,
                                                                                  octaves + 1)]
    ax.yaxis.set_major_locator(FixedLocator(ticks))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: ratio_label(v)))
    ax.yaxis.set_minor_locator(NullLocator())
    ax.set_ylabel(", ".join(s.others) + " / cuda\ntime", fontsize="small")
    ax.tick_params(labelsize="small")
    ax.grid(True, which="major", alpha=0.35)
    note = dict(transform=ax.transAxes, fontsize="x-small", zorder=7,
                bbox=dict(boxstyle="round,pad=0.2", facecolor="white", edgecolor="none",
                          alpha=0.85))
    ax.text(0.01, 0.05, "below 1: faster than cuda", ha="left", va="bottom", **note)
    ax.text(0.99, 0.95, "thick grey: the API's fastest / cuda's fastest", ha="right", va="top",
            color="0.25", **note)


# ---- a report against its baseline ------------------------------------------------------------

def baseline_sections(baseline):
    """The matched rows by section, in first-seen order: {key: [(backend, variant, n, ratio,
    verdict)]}; raises KeyError/TypeError/ValueError on a bad row."""
    sections = {}
    for r in baseline["rows"]:
        key = (r["primitive"], kind_of(r), str(r["op"] or ""), r["dtype"], r["mode"])
        sections.setdefault(key, []).append(
            (str(r["backend"]), str(r["variant"]), int(r["n"]), float(r["ratio"]),
             str(r["verdict"])))
    return sections


def draw_baseline_panel(ax, key, rows, floor, cmap, mpl):
    ids = []
    for _, variant, _, _, _ in rows:
        if variant not in ids:
            ids.append(variant)
    colour = {v: cmap(PALETTE[i % len(PALETTE)]) for i, v in enumerate(ids)}
    lines = {}
    for backend, variant, n, ratio, verdict in rows:
        lines.setdefault((backend, variant), []).append((n, ratio, verdict))
    worst = max(abs(math.log2(r)) for _, _, _, r, _ in rows)
    octaves = min(MAX_OCTAVES, max(0.5, math.ceil(worst * 2 + 0.02) / 2))
    lo_clip, hi_clip = 2.0 ** -octaves, 2.0 ** octaves
    ax.axhspan(1 / (1 + floor), 1 + floor, color="0.88", zorder=1)
    ax.axhline(1.0, color="black", linewidth=0.9, zorder=2)
    for (backend, variant), pts in sorted(lines.items()):
        pts.sort()
        style = GPU_STYLE.get(backend, dict(linestyle=":", marker="D"))
        xs = [p[0] for p in pts]
        ys = [min(hi_clip, max(lo_clip, p[1])) for p in pts]
        ax.plot(xs, ys, color=colour[variant], linewidth=1.0, linestyle=style["linestyle"],
                zorder=3, label=f"{backend} {variant}")
        for (n, _, verdict), y in zip(pts, ys):
            ax.plot([n], [y], linestyle="none", marker=style["marker"], markersize=4,
                    color=colour[variant], zorder=4, clip_on=False,
                    markerfacecolor=colour[variant] if verdict != "same" else "white")
    n_axis(ax, mpl)
    ax.set_yscale("log", base=2)
    ax.set_ylim(lo_clip / 2.0 ** 0.1, hi_clip * 2.0 ** 0.1)
    ticks = sorted({2.0 ** (k / 2) for k in range(-int(octaves * 2), int(octaves * 2) + 1)})
    ax.yaxis.set_major_locator(mpl.FixedLocator(ticks))
    ax.yaxis.set_major_formatter(mpl.FuncFormatter(lambda v, _: f"{v:.3g}"))
    ax.yaxis.set_minor_locator(mpl.NullLocator())
    ax.set_ylabel("new / old time\n(above 1: slower)", fontsize="small")
    ax.set_xlabel("n (elements)", fontsize="small")
    ax.grid(True, which="major", alpha=0.35)
    ax.tick_params(labelsize="small")
    ax.set_title(section_title(key), loc="left", fontsize="medium", fontweight="bold")
    ax.legend(fontsize=LEGEND_FONT_PT, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              frameon=False, ncol=1 if len(lines) <= 16 else 2)


def draw_baseline(baseline, out, mpl):
    """The new/old ratio figure of a report with a "baseline" section."""
    try:
        sections = baseline_sections(baseline)
        floor = float((baseline.get("rule") or {}).get("floor", 0))
        old = (baseline.get("old") or {}).get("path") or "the baseline"
        new = (baseline.get("new") or {}).get("path") or "this run"
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        print(f"cannot read the baseline section: {e}", file=sys.stderr)
        return 2
    if not sections:
        print("the baseline section has no matched row to plot", file=sys.stderr)
        return 2
    ncols = 1 if len(sections) == 1 else 2
    nrows = math.ceil(len(sections) / ncols)
    fig, axes = mpl.plt.subplots(nrows, ncols, squeeze=False,
                                 figsize=(ncols * (PANEL_W + 4.2), nrows * (TIME_H + 0.9) + 0.6))
    cmap = mpl.plt.get_cmap("tab20")
    for ax, (key, rows) in zip(axes.flat, sections.items()):
        draw_baseline_panel(ax, key, rows, floor, cmap, mpl)
    for ax in list(axes.flat)[len(sections):]:
        ax.set_visible(False)
    fig.suptitle(f"xreduce: {new} against the baseline {old}, new/old median time "
                 f"(filled: beyond noise; grey: the {floor * 100:g}% floor)", fontsize="large")
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    try:
        fig.savefig(out, bbox_inches="tight", dpi=110)
    except (OSError, ValueError) as e:
        print(f"cannot write {out}: {e}", file=sys.stderr)
        return 2
    return 0


# ---- the ladders at one n (--ladders) ---------------------------------------------------------

LADDERS_USAGE = ("usage: plot.py --ladders [--n N] [--dtype T] [--sort-dtype T] [--mode M] "
                 "REPORT.json [REPORT.json...] OUT.svg|OUT.png|OUT.pdf")
# One colour per API, the same in every panel (Okabe-Ito: apart for colour-blind readers too).
API_COLOUR = {"cuda": "#009E73", "vulkan": "#D55E00", "opencl": "#0072B2"}
API_NAME = {"cuda": "CUDA", "vulkan": "Vulkan", "opencl": "OpenCL"}
LADDER_ANCHOR = "lib/cub"
LADDER_ORDER = ("reduce", "scan", "sort")  # the panels, left to right
# Layout, inches. One scale for every panel (a bar is SLOT_H tall in each), so a short ladder's
# panel is short, top-aligned with the others; the width is fixed, the panels share it.
SLOT_H, NAME_H, GROUP_GAP = 0.08, 0.115, 0.035  # a bar; the id's name above its bars; the gap
LADDER_W, PANEL_GAP, SIDE = 9.0, 0.32, 0.1  # the figure; between panels; left and right
# The rows above the bars (title, legend, panel title) and below (x axis, a footnote line).
L_SUPTITLE_H, L_LEGEND_H, L_TITLE_H, L_AXIS_H, L_NOTE_H = 0.3, 0.24, 0.2, 0.46, 0.108
LADDER_DPI = 150
# Points: the figure is read at about 900 px wide, 0.65 of its width at LADDER_DPI.
NAME_PT, BAR_PT, AXIS_PT, TITLE_PT, NOTE_PT = 7.3, 6.3, 6.8, 8.8, 6.3
INSIDE_FROM = 0.4  # a bar longer than this share of the axis carries its label inside


def parse_count(text):
    """A size as xreduce spells it: 268435456, 256M, 2^28 (K/M/G are powers of 1024)."""
    t = text.strip()
    if "^" in t:
        base, exponent = t.split("^", 1)
        return int(base) ** int(exponent)
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if t[-1:].upper() in scale:
        return int(t[:-1]) * scale[t[-1].upper()]
    return int(t)


def parse_ladder_args(args):
    """(options, report paths, output), or an error line."""
    options = {"n": None, "dtype": None, "sort_dtype": None, "mode": None}
    paths = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--n", "--dtype", "--sort-dtype", "--mode"):
            if i + 1 >= len(args):
                return None, None, None, f"{a} needs a value"
            options[a[2:].replace("-", "_")] = args[i + 1]
            i += 2
        elif a.startswith("--"):
            return None, None, None, f"unknown option {a}"
        else:
            paths.append(a)
            i += 1
    if len(paths) < 2:
        return None, None, None, "--ladders needs at least one report and the output"
    if options["n"] is not None:
        try:
            options["n"] = parse_count(options["n"])
        except ValueError:
            return None, None, None, f"--n {options['n']}: not a size (268435456, 256M, 2^28)"
        if options["n"] <= 0:
            return None, None, None, "--n must be positive"
    return options, paths[:-1], paths[-1], None


def read_report(path):
    """A compare JSON report, gzipped where its name ends in .gz."""
    if path.endswith(".gz"):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            return json.load(f)
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def ladder_rows(report, path):
    """The rows of one report, normalised for the ladders; raises KeyError/TypeError/ValueError."""
    devices = {}
    for d in report["devices"]:
        devices.setdefault(str(d["backend"]), d)  # the first device of each backend
    rows = []
    for r in report["results"]:
        status = str(r.get("status", "ok"))
        ms = r.get("median_ms")
        if status != "unsupported" and (ms is None or not float(ms) > 0):
            continue
        primitive = r.get("primitive") or "reduce"
        row = {"backend": str(r["backend"]), "variant": str(r["variant"]),
               "primitive": primitive, "kind": kind_of(r), "op": str(r["op"] or ""),
               "dtype": str(r["dtype"]), "mode": r.get("mode") or "cold", "n": int(r["n"]),
               "status": status, "ms": float(ms) if ms is not None else None,
               "throttled": bool(r.get("throttled")), "path": path,
               "commit": str(report.get("commit") or "")[:7], "devices": devices}
        clock = r.get("clock_mhz")
        row["clock_min"] = float(clock["min"]) if isinstance(clock, dict) and \
            isinstance(clock.get("min"), (int, float)) else None
        if row["ms"] is not None:
            if primitive == "sort":  # keys a second, 10^9: the sort's own measure
                row["value"] = row["n"] / (row["ms"] * 1e6)
            else:
                gbps = r.get("gbps")
                if not isinstance(gbps, (int, float)) or not gbps > 0:  # bytes moved / time
                    gbps = row["n"] * ELEMENT_BYTES.get(row["dtype"], 4) * \
                        (2 if primitive == "scan" else 1) / (row["ms"] * 1e6)
                row["value"] = float(gbps)
        rows.append(row)
    return rows


def pick(values, wanted, preferred):
    """`wanted` when given (None when absent), else `preferred` when present, else the first."""
    values = list(dict.fromkeys(values))
    if wanted is not None:
        return wanted if wanted in values else None
    return preferred if preferred in values else (values[0] if values else None)


def merge_orders(ladders):
    """One order of the ids of several ladders: the first ladder's, each other id inserted after
    its predecessor in its own ladder (subgroup/* after smem/multi-element, as each API lists)."""
    out = []
    for ladder in ladders:
        previous = None
        for v in ladder:
            if v not in out:
                out.insert(out.index(previous) + 1 if previous is not None else 0, v)
            previous = v
    return out


def compact_ids(ids):
    """["global/a", "global/b", "warp/x"] -> "global/* (2), warp/x"."""
    families = {}
    for v in ids:
        families.setdefault(v.split("/", 1)[0], []).append(v)
    return ", ".join(f"{f}/* ({len(vs)})" if len(vs) > 1 else vs[0] for f, vs in families.items())


def ladder_panel(rows, primitive, options):
    """One primitive's point (op, kind, dtype, mode, n) and what its panel draws, or an error."""
    sort = primitive == "sort"
    mine = [r for r in rows if r["primitive"] == primitive]
    op = pick((r["op"] for r in mine), None, "sum")
    kind = pick((r["kind"] for r in mine), None, "asc" if sort else "inclusive")
    mine = [r for r in mine if r["op"] == op and r["kind"] == kind]
    wanted = options["sort_dtype"] if sort else options["dtype"]
    dtype = pick((r["dtype"] for r in mine), wanted, "u32" if sort else "i32")
    mode = pick((r["mode"] for r in mine), options["mode"], "cold")
    if dtype is None or mode is None:
        return None, f"no {primitive} row of dtype {wanted or dtype} and mode " \
                     f"{options['mode'] or mode} in {mine[0]['path'] if mine else 'the reports'}"
    mine = [r for r in mine if r["dtype"] == dtype and r["mode"] == mode and r["backend"] in GPUS]
    apis_at = {}
    for r in mine:
        apis_at.setdefault(r["n"], set()).add(r["backend"])
    if not apis_at and options["n"] is None:
        return None, None  # no GPU row of this primitive: nothing to draw
    if options["n"] is not None:
        n = options["n"] if options["n"] in apis_at else None
    else:  # the largest n measured on the most GPU APIs
        n = max(apis_at, key=lambda m: (len(apis_at[m]), m), default=None)
    if n is None:
        return None, f"no GPU {primitive} row at n = {options['n']} ({dtype}, {mode})"
    point = [r for r in mine if r["n"] == n]
    apis = [b for b in GPUS if b in apis_at[n]]
    ladders = {b: [r["variant"] for r in point
                   if r["backend"] == b and r["variant"] != LADDER_ANCHOR] for b in apis}
    on = {}
    for b in apis:
        for v in ladders[b]:
            on.setdefault(v, []).append(b)
    shared = [v for v in on if len(on[v]) > 1]
    if not shared and len(apis) == 1:  # a ladder one API alone runs so far: its own ids
        shared = list(on)
    ids = merge_orders([[v for v in ladders[b] if v in shared] for b in apis])
    alone = {b: [v for v in ladders[b] if v not in shared] for b in apis}
    row_of = {(r["backend"], r["variant"]): r for r in reversed(point)}  # the first row wins
    anchor = row_of.get(("cuda", LADDER_ANCHOR))
    return {"primitive": primitive, "op": op, "kind": kind, "dtype": dtype, "mode": mode, "n": n,
            "apis": apis, "ids": ids, "alone": {b: v for b, v in alone.items() if v},
            "row": row_of, "anchor": anchor, "rows": point}, None


def panel_peaks(panel):
    """{api: the dotted line's value}: the read peak (reduce) or copy peak (scan) in GB/s; for a
    sort the radix bound, the copy peak over the radix bytes model, in G keys/s."""
    devices = panel["rows"][0]["devices"]
    sort = panel["primitive"] == "sort"
    peaks = {}
    for b in panel["apis"]:
        peak = peak_of(devices.get(b), panel["primitive"] != "reduce")
        if peak:
            peaks[b] = peak / sort_bytes_per_key(panel["dtype"], panel["kind"]) if sort else peak
    return peaks


def panel_height(panel):
    """The bars' height in inches: a name and a slot per API for each id, then the anchor's."""
    groups = len(panel["ids"]) * (NAME_H + len(panel["apis"]) * SLOT_H + GROUP_GAP)
    return groups + (NAME_H + SLOT_H + GROUP_GAP if panel["anchor"] is not None else 0)


def panel_point(panel, with_n):
    """The panel's title: reduce · sum i32 · cold, sort · u32 keys asc · cold."""
    if panel["primitive"] == "sort":
        order, *rest = panel["kind"].split(", ")
        form = "pairs" if "pairs" in rest else "keys"
        what = f"sort · {panel['dtype']} {form} {order}" + \
            "".join(f", {x}" for x in rest if x != "pairs")
    else:
        kind = f"{panel['kind']} scan" if panel["primitive"] == "scan" and panel["kind"] else \
            panel["primitive"]
        what = f"{kind} · " + " ".join(x for x in (panel["op"], panel["dtype"]) if x)
    n = f" · n = {n_label(panel['n'])}" if with_n else ""
    return f"{what} · {panel['mode']}{n}"


def n_label(n):
    return f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else count_label(n)


def ms_label(ms):
    return f"{ms:.3g}" if ms < 100 else f"{ms:.0f}"


def bar_label(ax, width, y, text, xmax):
    """A bar's label: inside its end in white where the bar is long (the peak lines run there),
    else right of it."""
    if width > INSIDE_FROM * xmax:
        ax.text(width, y, text + " ", va="center", ha="right", fontsize=BAR_PT, color="white",
                fontweight="bold", zorder=4)
    else:
        ax.text(width, y, " " + text, va="center", ha="left", fontsize=BAR_PT, zorder=4)


def draw_bar(ax, r, y, colour, text, xmax):
    """One row in its slot: a bar (hatched when throttled), or a word where it has no time."""
    if r["status"] != "ok":
        failed = r["status"] == "failed"
        ax.text(0, y, " failed: not a valid time" if failed else " unsupported", va="center",
                ha="left", fontsize=BAR_PT, color=FAILED_COLOUR if failed else "0.4")
        return
    ax.barh(y, r["value"], height=SLOT_H * 0.9, color=colour, zorder=3,
            hatch="////" if r["throttled"] else None, edgecolor="white", linewidth=0.3)
    bar_label(ax, r["value"], y, text, xmax)


def draw_ladder_panel(ax, panel, with_n, mpl):
    """The bars top-down in inches (the axes are placed panel_height tall), ids' names above."""
    apis, ids = panel["apis"], panel["ids"]
    sort = panel["primitive"] == "sort"
    peaks = panel_peaks(panel)
    anchor = panel["anchor"]
    cub_ms = anchor["ms"] if anchor is not None and anchor["status"] == "ok" else None
    drawn = [r for r in panel["rows"] if r["status"] == "ok" and
             (r["variant"] in ids or r is anchor)]
    xmax = max([r["value"] for r in drawn] + list(peaks.values())) * 1.06
    pitch = NAME_H + len(apis) * SLOT_H + GROUP_GAP
    name_style = dict(va="bottom", ha="left", fontsize=NAME_PT, color="0.1", zorder=5)
    for gi, v in enumerate(ids):
        top = gi * pitch
        ax.text(0, top + NAME_H - 0.012, " " + v, **name_style)
        cuda = panel["row"].get(("cuda", v))
        base = cuda["ms"] if cuda and cuda["status"] == "ok" else None
        for j, b in enumerate(apis):
            r = panel["row"].get((b, v))
            if r is None:  # an API without the id leaves its slot empty
                continue
            text = f"{ms_label(r['ms'])} ms" if r["ms"] is not None else ""
            if sort and cub_ms and r["status"] == "ok":  # keys a second over CUB's
                text += f" · {cub_ms / r['ms']:.2f}x CUB"
            elif not sort and b != "cuda" and base and r["status"] == "ok":
                text += f" · {r['ms'] / base:.2f}x"
            draw_bar(ax, r, top + NAME_H + (j + 0.5) * SLOT_H, API_COLOUR[b], text, xmax)
    if anchor is not None:
        top = len(ids) * pitch
        ax.text(0, top + NAME_H - 0.012, f" {LADDER_ANCHOR} (CUDA)", **name_style)
        text = f"{ms_label(anchor['ms'])} ms" if anchor["ms"] is not None else ""
        draw_bar(ax, anchor, top + NAME_H + 0.5 * SLOT_H, "black", text, xmax)
    for b, peak in peaks.items():
        ax.axvline(peak, color=API_COLOUR[b], linestyle=":", linewidth=1.1, zorder=2)
    ax.set_ylim(panel_height(panel), 0)
    ax.set_xlim(0, xmax)
    ax.set_yticks([])
    ax.xaxis.set_major_locator(mpl.MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
    ax.tick_params(axis="x", labelsize=AXIS_PT, length=2.5, pad=1.5)
    ax.grid(True, axis="x", alpha=0.3, zorder=0)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if sort:
        xlabel = "G keys/s = n / median time\nlabels: median · keys/s over CUB's"
    else:
        moved = "read + written" if panel["primitive"] == "scan" else "read"
        xlabel = f"GB/s = bytes {moved} / median time\nlabels: median · time over CUDA's"
    ax.set_xlabel(xlabel, fontsize=AXIS_PT, labelpad=2, linespacing=1.25)
    ax.set_title(panel_point(panel, with_n), loc="left", fontsize=TITLE_PT, fontweight="bold",
                 pad=3)


def panel_facts(panel):
    """What the footnote says of one panel, by key: the report, the dotted lines, the clock, the
    throttled rows, the device and the ids left out."""
    rows = [r for r in panel["rows"] if r["variant"] in panel["ids"] or r is panel["anchor"]]
    devices = panel["rows"][0]["devices"]
    first = panel["rows"][0]
    facts = {"data": first["path"] + (f" ({first['commit']})" if first["commit"] else "")}
    peaks = panel_peaks(panel)
    if peaks:
        values = ", ".join(f"{API_NAME[b]} {p:.3g}" if panel["primitive"] == "sort" else
                           f"{API_NAME[b]} {p:.0f}" for b, p in peaks.items())
        if panel["primitive"] == "sort":
            per_key = sort_bytes_per_key(panel["dtype"], panel["kind"])
            facts["peaks"] = f"radix bound (copy peak / {per_key} B a key) {values} G keys/s"
        else:
            which = "copy" if panel["primitive"] == "scan" else "read"
            facts["peaks"] = f"{which} peak {values} GB/s"
    by_ref = {}
    for b in panel["apis"]:
        ref = devices.get(b, {}).get("reference_clock_mhz")
        if isinstance(ref, (int, float)):
            by_ref.setdefault(round(ref), []).append(API_NAME[b])
    if by_ref:
        facts["clock"] = "SM clock ref. " + ", ".join(
            f"{mhz} MHz ({', '.join(names)})" for mhz, names in by_ref.items())
    lows = [r["clock_min"] for r in rows if r["clock_min"] is not None]
    if lows:
        facts["low"] = f"lowest {min(lows):.0f} MHz"
    throttled = sum(r["throttled"] for r in rows)
    facts["throttled"] = "none throttled" if not throttled else \
        f"{throttled} row{'s' if throttled > 1 else ''} THROTTLED (hatched)"
    uuids = {devices.get(b, {}).get("uuid") for b in panel["apis"]}
    if len(uuids) == 1 and next(iter(uuids)):
        apis = len(panel["apis"])
        facts["uuid"] = f"UUID {next(iter(uuids))}" + (f" for all {apis} APIs" if apis > 1 else "")
    if panel["alone"]:
        facts["alone"] = "not drawn (one API only): " + "; ".join(
            f"{API_NAME[b]} {compact_ids(v)}" for b, v in panel["alone"].items())
    return facts


def footnote(panels, width_chars):
    """The footnote's lines: what every panel shares once, then one paragraph per panel."""
    facts = [panel_facts(p) for p in panels]
    shared = [k for k in ("clock", "uuid") if len(panels) > 1 and k in facts[0] and
              all(f.get(k) == facts[0][k] for f in facts)]
    modes = list(dict.fromkeys(p["mode"] for p in panels))
    head = "Median device time, each API's own timer; " + \
        "; ".join(MODE_NOTE.get(m, m) for m in modes) + "".join(
            f"; {facts[0][k]}" for k in shared) + "."
    lines = textwrap.wrap(head, width_chars)
    for p, f in zip(panels, facts):
        text = f"{p['primitive'].capitalize()}: " + "; ".join(
            v for k, v in f.items() if k not in shared) + "."
        lines += textwrap.wrap(text, width_chars, subsequent_indent="   ")
    return lines


def ladders_main(args):
    options, paths, out, error = parse_ladder_args(args)
    if error:
        print(f"{error}\n{LADDERS_USAGE}", file=sys.stderr)
        return 2
    mpl = import_matplotlib()
    if mpl is None:
        return 3
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator
    mpl.Patch, mpl.MaxNLocator = Patch, MaxNLocator
    mpl.plt.rcParams["svg.hashsalt"] = "xreduce --ladders"
    mpl.plt.rcParams["hatch.linewidth"] = 0.6
    panels = []
    for path in paths:
        try:
            rows = ladder_rows(read_report(path), path)
        except (OSError, EOFError, ValueError, KeyError, TypeError, AttributeError) as e:
            detail = f"no field {e}" if isinstance(e, KeyError) else str(e).replace("\n", " ")
            print(f"cannot read the report {path}: {detail}", file=sys.stderr)
            return 2
        for primitive in dict.fromkeys(r["primitive"] for r in rows):
            if any(p["primitive"] == primitive for p in panels):
                continue  # the first report that has it
            panel, error = ladder_panel(rows, primitive, options)
            if error:
                print(error, file=sys.stderr)
                return 2
            if panel and (panel["ids"] or panel["anchor"]):
                panels.append(panel)
    if not panels:
        print("nothing to draw: no variant id measured on two GPU APIs, nor lib/cub",
              file=sys.stderr)
        return 2
    order = {p: i for i, p in enumerate(LADDER_ORDER)}
    panels.sort(key=lambda p: order.get(p["primitive"], len(order)))
    k = len(panels)
    panel_w = (LADDER_W - 2 * SIDE - (k - 1) * PANEL_GAP) / k
    # DejaVu Sans averages about half an em a character in this text.
    notes = footnote(panels, int((LADDER_W - 2 * SIDE) * 72 / (NOTE_PT * 0.55)))
    bars_h = max(panel_height(p) for p in panels)
    top = L_SUPTITLE_H + L_LEGEND_H + L_TITLE_H
    fig_h = top + bars_h + L_AXIS_H + len(notes) * L_NOTE_H + 0.05
    fig = mpl.plt.figure(figsize=(LADDER_W, fig_h))
    ns = {p["n"] for p in panels}
    for i, panel in enumerate(panels):
        h = panel_height(panel)
        x = SIDE + i * (panel_w + PANEL_GAP)
        ax = fig.add_axes([x / LADDER_W, 1 - (top + h) / fig_h, panel_w / LADDER_W, h / fig_h])
        draw_ladder_panel(ax, panel, len(ns) > 1, mpl)
    names = {p["rows"][0]["devices"].get(b, {}).get("name", "") for p in panels for b in p["apis"]}
    gpu = " / ".join(sorted(n for n in names if n)) or "the GPU"
    apis = [b for b in GPUS if any(b in p["apis"] for p in panels)]
    what = [p["primitive"] for p in panels]
    what = ", ".join(what[:-1]) + " and " + what[-1] if len(what) > 1 else what[0]
    at = f" at n = {n_label(next(iter(ns)))}" if len(ns) == 1 else ""
    cub = " beside CUB" if any(p["anchor"] is not None for p in panels) else ""
    fig.text(0.5, 1 - 0.06 / fig_h, f"{what.capitalize()}{at} on {gpu}: "
             f"{', '.join(API_NAME[b] for b in apis)}{cub}", ha="center", va="top",
             fontsize=10.5, fontweight="bold")
    handles = [Patch(color=API_COLOUR[b], label=API_NAME[b]) for b in apis]
    if any(p["anchor"] is not None for p in panels):
        handles.append(Patch(color="black", label=f"{LADDER_ANCHOR}, the vendor anchor"))
    if any(panel_peaks(p) for p in panels):
        sort = any(p["primitive"] == "sort" for p in panels)
        handles.append(mpl.Line2D([], [], color="0.35", linestyle=":", linewidth=1.3,
                                  label="each API's peak" + (" (sort: radix bound)" if sort else
                                                             ", in its colour")))
    if any(r["throttled"] for p in panels for r in p["rows"]):
        handles.append(Patch(facecolor="0.55", hatch="////", edgecolor="white",
                             label="throttled"))
    fig.legend(handles=handles, loc="upper center", ncol=len(handles), frameon=False,
               bbox_to_anchor=(0.5, 1 - (L_SUPTITLE_H + 0.01) / fig_h), fontsize=7.6,
               handlelength=1.5, handletextpad=0.5, columnspacing=1.6, borderaxespad=0)
    fig.text(SIDE / LADDER_W, (len(notes) * L_NOTE_H + 0.04) / fig_h, "\n".join(notes),
             ha="left", va="top", fontsize=NOTE_PT, color="0.3", linespacing=1.3)
    # The same reports give the same bytes: no date, fixed SVG ids (the figure is committed).
    metadata = {"Date": None} if out.lower().endswith(".svg") else None
    try:
        fig.savefig(out, bbox_inches="tight", pad_inches=0.06, dpi=LADDER_DPI, metadata=metadata)
    except (OSError, ValueError) as e:
        print(f"cannot write {out}: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
