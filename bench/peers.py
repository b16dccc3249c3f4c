#!/usr/bin/env python3
"""Time what a user would pick instead of xreduce (torch.sum, cupy.sum, torch.cumsum, cupy.cumsum,
torch.sort, cupy.sort: keys ascending; torch.histc, torch.bincount, cupy.histogram, cupy.bincount)
the way xreduce times its CUDA variants; write the rows in xreduce's compare JSON schema for
`xreduce compare --merge FILE.json`.

    python3 bench/peers.py --out FILE.json [--sweep 1K:256M | --n 1K,1M] [--dtype i32,f32,u8]
        [--primitive reduce,scan,sort,histogram] [--bins 256] [--range 0:256]
        [--mode cold,batch] [--peers torch,cupy] [--max-time 1.0]
    python3 bench/peers.py --self-test        (the pure-Python parts; no GPU needed)

One CUDA stream; events on it time each sample behind nvbench's blocking kernel (Timer), so the
interval holds no host launch gap. cold: one call per sample, L2 flushed; batch: the same call back
to back, hot, about 1 ms per sample, per call. 5..100 samples after a warm-up, until MAD / median
< 1% or --max-time s. Seed 42: i32 in 0..255, f32 in [-1, 1); each result is checked once against
numpy. Needs numpy and torch and/or CuPy (without CuPy: no gate, CUDA graph replays).

histogram, as `xreduce run --primitive histogram`: --bins N even bins over --range LO:HI (default
256 over 0:256), a sample outside [LO, HI) counted nowhere; u8 samples uniform over the integers
LO..HI-1, f32 uniform over [LO, HI) (none equal to HI), seed 42; GB/s counts the samples read once.
Each peer's counts are checked bin for bin against numpy's: an integer sample's bin is
floor((s - LO) * bins / (HI - LO)), exact; f32 samples are counted by np.histogram. Peers:
torch.histc on f32 (float32 counts), cupy.histogram on u8 and f32, and, where each bin is one
value from 0 (LO 0, bins = HI), torch.bincount and cupy.bincount on u8. Rows say "counters":
"u32" (xreduce's) and the peer's own counts in "diagnostics". bincount waits on the host in each
call (it reads the samples' maximum first): it is timed without the gate or a graph, the interval
holding that wait, and its diagnostics say so. reduce, scan and sort take i32 and f32, histogram
u8 and f32: each primitive runs on the --dtype it takes.

Exit codes: 0 ok; 1 a row failed or could not be measured (its status says so); 2 usage error; 3
neither torch nor cupy (or no numpy) importable with a CUDA device. A call that raised (out of
memory, a gate time-out) gives an "unsupported" row, its reason the error: the report reader takes
no failed row without times. The report is written atomically.
"""
import argparse
import collections
import contextlib
import decimal
import json
import math
import os
import re
import shlex
import struct
import sys
import tempfile

from peer_timing import (GRAPH_TIMING, MAX_REPS, MIN_REPS, TARGET_SPREAD, Timer, batch_calls_for,
                         measure, stop_now, summarize)

PEERS, DTYPES = ("torch", "cupy"), ("i32", "f32", "u8")
PRIMITIVES, MODES = ("reduce", "scan", "sort", "histogram"), ("cold", "batch")
# The dtypes each primitive takes here: u8 is a histogram's samples only.
TAKES = {"reduce": ("i32", "f32"), "scan": ("i32", "f32"), "sort": ("i32", "f32"),
         "histogram": ("u8", "f32")}
SIZE_OF = {"i32": 4, "f32": 4, "u8": 1}
MAX_BINS = 1 << 24  # xreduce's kMaxHistogramBins
TIMINGS = ("device", "host", "end-to-end")  # a row's "timing", as the report reader takes it
SEED = 42
ROW_KEYS = ("backend variant primitive scan sort histogram op dtype n mode batch_calls status "
            "median_ms min_ms max_ms host_median_ms reps rel_spread gbps pct_peak step_speedup "
            "cumulative_speedup vs_cub ok timing result reference reason diagnostics").split()
Levels = collections.namedtuple("Levels", "bins lo hi")  # a histogram's: bins even bins, [lo, hi)
DEFAULT_LEVELS = Levels(256, 0.0, 256.0)
NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")  # a level, as --range takes it



class Usage(Exception):
    """A bad command line: one line on stderr, exit 2."""


# ---- pure Python: sizes, statistics, rows -------------------------------------------------------

def parse_count(text):
    """'1K' -> 1024; '256M', '1G', '1000' (xreduce's spelling: K, M, G are powers of 2)."""
    s = text.strip()
    shift = {"k": 10, "m": 20, "g": 30}.get(s[-1:].lower(), 0)
    digits = s[:-1] if shift else s
    if not digits.isdigit() or int(digits) == 0:
        raise Usage(f"invalid element count '{text}': expected a positive number such as 1000, "
                    "64K, 16M or 1G")
    return int(digits) << shift


def parse_sweep(text):
    """LO:HI -> LO, every power of 2 strictly between, HI (as xreduce's --sweep LO:HI)."""
    lo_text, colon, hi_text = text.partition(":")
    if not colon or ":" in hi_text:
        raise Usage(f"invalid sweep '{text}': expected LO:HI")
    lo, hi = parse_count(lo_text), parse_count(hi_text)
    if lo > hi:
        raise Usage(f"invalid sweep '{text}': LO ({lo}) is larger than HI ({hi})")
    out, p = [lo], 1 << lo.bit_length()  # the first power of 2 above LO
    while p < hi:
        out.append(p)
        p <<= 1
    return out + ([hi] if hi != lo else [])


def parse_choice(flag, text, allowed):
    """'a,b' -> ['a', 'b'], each one of `allowed`; 'all' means every one."""
    words = [w.strip() for w in text.split(",")]
    if words == ["all"]:
        return list(allowed)
    for w in words:
        if w not in allowed:
            raise Usage(f"{flag} '{w}': expected {', '.join(allowed[:-1])} or {allowed[-1]}")
    return list(dict.fromkeys(words))


def wrap_i32(v):
    """An integer modulo 2^32 as a signed 32-bit value (xreduce's i32 sums wrap)."""
    return (int(v) + 2**31) % 2**32 - 2**31


def normalize_uuid(uuid):
    """'GPU-8f1c...-...', dashed or plain hex, or 16 bytes -> 32 lowercase hex digits, or ''."""
    s = bytes(uuid).hex() if isinstance(uuid, (bytes, bytearray)) else str(uuid).strip().lower()
    s = (s[4:] if s.startswith("gpu-") else s).replace("-", "")
    return s if len(s) == 32 and all(c in "0123456789abcdef" for c in s) else ""


def version_text(v):
    return f"{v // 1000}.{v % 1000 // 10}"  # CUDA's 13000 -> "13.0"


def parse_bins(text):
    """'256' -> 256: a histogram's bins, a whole number from 1 to 2^24 (xreduce's --bins)."""
    s = text.strip()
    if not (s.isascii() and s.isdigit() and 1 <= int(s) <= MAX_BINS):
        raise Usage(f"--bins '{text}': expected a whole number from 1 to {MAX_BINS}")
    return int(s)


def parse_range(text):
    """'0:256' -> (0.0, 256.0): two finite numbers LO < HI, split at the colon after the first
    character ('-4:4'), as xreduce's --range."""
    colon = text.find(":", 1)
    lo_text, hi_text = (text[:colon], text[colon + 1:]) if colon > 0 else ("", "")
    if NUMBER.fullmatch(lo_text) and NUMBER.fullmatch(hi_text):
        lo, hi = float(lo_text), float(hi_text)
        if math.isfinite(lo) and math.isfinite(hi) and lo < hi:
            return lo, hi
    raise Usage(f"--range '{text}': expected LO:HI, two finite numbers with LO < HI")


def number_text(v):
    """A level as xreduce writes it (std::to_chars: of the shortest digits that read back the
    same double, the fixed or the scientific spelling, whichever is shorter, fixed on a tie)."""
    d = decimal.Decimal(repr(float(v))).normalize()
    sign, digits, exp = d.as_tuple()
    e = exp + len(digits) - 1
    mantissa = str(digits[0]) + ("." + "".join(map(str, digits[1:])) if len(digits) > 1 else "")
    fixed = format(d, "f")
    scientific = f"{'-' if sign else ''}{mantissa}e{'-' if e < 0 else '+'}{abs(e):02d}"
    return fixed if len(fixed) <= len(scientific) else scientific


def range_text(levels):
    return f"{number_text(levels.lo)}:{number_text(levels.hi)}"  # "0:256", as the rows say it


def to_f32(v):
    """v rounded to the nearest float32 (infinite past its range), without numpy."""
    try:
        return struct.unpack("f", struct.pack("f", v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


def levels_error(dtype, levels):
    """What is wrong with `levels` for `dtype` samples, one line as xreduce says it, or None: u8
    takes integer levels within 0:256; f32 levels the type holds, distinct and with a finite
    width in it."""
    bins, lo, hi = levels
    where = f"the range {range_text(levels)}"
    if not 1 <= bins <= MAX_BINS:
        return f"bins {bins} is not within 1 to {MAX_BINS}"
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        return f"{where} is not a range LO:HI with LO < HI"
    if dtype == "u8":
        if lo != math.floor(lo) or hi != math.floor(hi):
            why = f"{where} has a level that is not an integer, for integer samples"
        elif lo < 0 or hi > 256:
            why = f"{where} is not within the samples' values 0:256"
        else:
            return None
    else:
        f_lo, f_hi = to_f32(lo), to_f32(hi)
        if not (math.isfinite(f_lo) and math.isfinite(f_hi)):
            why = f"{where} has a level the samples' type does not hold"
        elif not f_lo < f_hi:
            why = f"{where} is empty in the samples' type (its levels round to one value)"
        elif not math.isfinite(to_f32(f_hi - f_lo)):
            why = f"{where} is wider than the samples' type holds (upper - lower overflows)"
        else:
            return None
    return f"{why} for {dtype} samples (--bins, --range)"


def integer_bin(s, levels):
    """xreduce's bin of an integer sample s: floor((s - lo) * bins / (hi - lo)), exact; -1 where
    s is outside [lo, hi) and counted nowhere."""
    bins, lo, hi = levels.bins, int(levels.lo), int(levels.hi)
    return (s - lo) * bins // (hi - lo) if lo <= s < hi else -1


def bincount_fits(levels):
    """Whether bincount's bins are these levels' bins: bincount counts each value v in bin v, so
    only where the bins start at 0 and each is one value wide (lo == 0, bins == hi - lo)."""
    return levels.lo == 0 and levels.bins == levels.hi - levels.lo


def histogram_json(levels):
    """A histogram row's "histogram" object: the peers' counts are compared with xreduce's u32
    counters, and n is given on the host."""
    return {"bins": levels.bins, "range": range_text(levels), "counters": "u32", "count": "host"}


def count_text(v):
    """A count, or a sum of counts, as text: an integer, or a float's repr where one is not."""
    f = float(v)
    return str(int(f)) if f.is_integer() else repr(f)


def make_row(peer, variant, primitive, dtype, n, mode, calls=None, dev=None, host=None,
             timing="device", check=None, reason="", levels=None, diagnostics=""):
    """A results row of xreduce's compare schema. dev, host: summarize() dicts, None when nothing
    was measured (the row is then "unsupported", with `reason`: the report reader takes no failed
    row without times); check: (ok, result text, reference text, reason); levels: a histogram's
    Levels; diagnostics: what the row's call is, in words."""
    m = dev is not None
    ok, result, reference, reason = check if m else (False, None, None, reason)
    # The reader takes a timing of device, host or end-to-end: a detail in parentheses (the graph
    # replays without CuPy) goes to the diagnostics.
    timing, _, detail = timing.partition(" (")
    assert timing in TIMINGS, timing
    notes = "; ".join(t for t in (detail.rstrip(")") if m else "", diagnostics) if t)
    # A scan reads and writes; a sort of 32-bit keys moves the radix bound's 9 x 4 bytes per key
    # (one read for the histograms, a read and a write per 8-bit digit), as xreduce counts; a
    # histogram reads its samples once.
    nbytes = n * SIZE_OF[dtype] * {"reduce": 1, "scan": 2, "sort": 9, "histogram": 1}[primitive]
    sort = {"order": "asc", "values": "none", "bits": "all"} if primitive == "sort" else None
    histogram = histogram_json(levels) if primitive == "histogram" else None
    values = [peer, variant, primitive, "inclusive" if primitive == "scan" else None, sort,
              histogram, "sum" if primitive in ("reduce", "scan") else None,
              dtype, n, mode, calls if mode == "batch" else None,
              "ok" if ok else "failed" if m else "unsupported"]
    values += [s[k] if m else None for s, k in ((dev, "median"), (dev, "min"), (dev, "max"),
                                                (host, "median"), (dev, "count"),
                                                (dev, "rel_spread"))]
    values += [nbytes / (dev["median"] * 1e6) if m and dev["median"] > 0 else None,
               None, None, None, None, ok if m else None, timing if m else None, result,
               reference, reason, notes]
    return dict(zip(ROW_KEYS, values))


def write_atomically(path, document):
    """A temp file beside `path`, then os.replace: never half a report."""
    fd, tmp = tempfile.mkstemp(prefix=".peers-", suffix=".tmp",
                               dir=os.path.dirname(os.path.abspath(path)))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(document, f, indent=2)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# ---- data and checks ----------------------------------------------------------------------------

class Reference:
    """One (dtype, n) input on the host and numpy's answers for it, each computed once."""

    def __init__(self, np, dtype, n, dist="small"):
        self.np, self.dtype, self.n, self.scan, self.sorted = np, dtype, n, None, None
        rng = np.random.default_rng(SEED)
        # xreduce's distributions (docs/cli.md, --dist): "small" integers in [0, 255] and floats
        # in [-1, 1); "full" every 32-bit integer pattern and floats in [-2^20, 2^20).
        if dtype == "i32":
            lo, hi = (0, 256) if dist == "small" else (-2**31, 2**31)
            self.x = rng.integers(lo, hi, size=n, dtype=np.int32)
        else:
            scale = np.float32(1 if dist == "small" else 2**20)
            self.x = (rng.random(n, dtype=np.float32) * np.float32(2) - np.float32(1)) * scale

    def check(self, primitive, got):
        """(ok, result text, reference text, reason) of a result on the host."""
        np, x, got = self.np, self.x, got.reshape(-1)
        if primitive == "reduce":
            if self.dtype == "i32":
                want = wrap_i32(x.sum(dtype=np.int64))
                return self.verdict(int(got[0]) == want, got[0], want)
            want = float(x.sum(dtype=np.float64))
            bound = 1e-5 * float(np.abs(x).sum(dtype=np.float64)) + 1e-6
            return self.verdict(abs(float(got[0]) - want) <= bound, got[0], want)  # NaN fails
        if got.shape[0] != self.n:
            return False, None, None, f"got {got.shape[0]} elements, expected {self.n}"
        if primitive == "sort":  # every key, bitwise, against numpy's (equal keys: equal bits)
            if self.sorted is None:  # once per input, as the scan's reference
                self.sorted = np.sort(x, kind="stable")
            want = self.sorted
            bad = np.flatnonzero(got.view(np.uint32) != want.view(np.uint32))
            at = int(bad[0]) if bad.size else 0
            return self.verdict(not bad.size, got[at], want[at], at)
        if self.dtype == "i32":
            if self.scan is None:
                self.scan = np.cumsum(x, dtype=np.int64).astype(np.int32)  # wraps like xreduce
            bad = np.flatnonzero(got != self.scan)
            at = int(bad[0]) if bad.size else self.n - 1
            return self.verdict(not bad.size, got[at], self.scan[at], at)
        if self.scan is None:  # ~1000 evenly spread elements, the last among them
            idx = np.unique(np.linspace(0, self.n - 1, min(self.n, 1000)).astype(np.int64))
            self.scan = (idx, np.cumsum(x, dtype=np.float64)[idx],
                         1e-5 * np.cumsum(np.abs(x), dtype=np.float64)[idx] + 1e-6)
        idx, want, bound = self.scan
        bad = np.flatnonzero(~(np.abs(got[idx].astype(np.float64) - want) <= bound))
        k = int(bad[0]) if bad.size else len(idx) - 1
        return self.verdict(not bad.size, got[idx[k]], want[k], int(idx[k]))

    def verdict(self, ok, got, want, at=None):
        g, w = (str(int(v)) if self.dtype == "i32" else repr(float(v)) for v in (got, want))
        where = f" at element {at}" if at is not None and at != self.n - 1 else ""
        return ok, g, w, "" if ok else f"got {g}, expected {w}{where}"


def integer_counts(np, x, levels):
    """The exact counts of integer samples x (u8) under `levels`: each value's count
    (np.bincount, in slices: no n-long int64 copy), summed into its bin by integer_bin."""
    per_value = np.zeros(256, dtype=np.int64)
    for i in range(0, x.shape[0], 1 << 24):
        per_value += np.bincount(x[i:i + (1 << 24)], minlength=256)
    counts = np.zeros(levels.bins, dtype=np.int64)
    for v in range(256):
        b = integer_bin(v, levels)
        if b >= 0:
            counts[b] += per_value[v]
    return counts


class HistogramReference:
    """One (dtype, n) histogram input on the host, drawn over the levels' range, and numpy's
    counts of it: every bin exact (f32: np.histogram, whose bins equal the rule's for xreduce's
    default levels; a sample on a bin's edge may fall elsewhere under another rule, and the row
    then fails, saying where)."""

    def __init__(self, np, dtype, n, levels):
        self.np, self.dtype, self.n, self.levels = np, dtype, n, levels
        rng = np.random.default_rng(SEED)
        if dtype == "u8":  # the integers lo..hi-1 uniformly: 0..255 with the default levels
            self.x = rng.integers(int(levels.lo), int(levels.hi), size=n, dtype=np.uint8)
            self.counts = integer_counts(np, self.x, levels)
        else:  # [lo, hi) in float32: u * (hi - lo) + lo, a sum rounded up to hi taken below it
            lo, hi = np.float32(levels.lo), np.float32(levels.hi)
            x = rng.random(n, dtype=np.float32)
            x *= hi - lo
            x += lo
            np.minimum(x, np.nextafter(hi, np.float32(-np.inf)), out=x)
            self.x = x
            self.counts = np.histogram(x, bins=levels.bins, range=(levels.lo, levels.hi))[0]
            self.counts = self.counts.astype(np.int64)

    def check(self, primitive, got):
        """(ok, counted, reference's counted, reason) of a peer's counts on the host, bin for
        bin; integer or float counts (torch.histc's), a float count compared as it is."""
        np, want, got = self.np, self.counts, got.reshape(-1)
        bins = want.shape[0]
        if got.shape[0] != bins:
            return False, None, None, f"got {got.shape[0]} counts, expected one a bin ({bins})"
        got = got.astype(np.float64 if got.dtype.kind == "f" else np.int64)
        bad = np.flatnonzero(got != want)  # a NaN count differs too
        result, reference = count_text(got.sum()), count_text(want.sum())
        if not bad.size:
            return True, result, reference, ""
        b = int(bad[0])
        return False, result, reference, (f"{bad.size} of {bins} bins wrong; bin {b}: got "
                                          f"{count_text(got[b])}, expected {int(want[b])}")


# ---- the run ------------------------------------------------------------------------------------

def import_peers():
    """({name: module} of the usable peers, {name: why not} of the others, numpy or None)."""
    import importlib
    mods, why, np = {}, {}, None
    for name in ("numpy",) + PEERS:
        try:
            m = importlib.import_module(name)
            if name == "numpy":
                np = m
            elif m.cuda.is_available() if name == "torch" else m.cuda.runtime.getDeviceCount():
                mods[name] = m
            else:
                why[name] = f"{name}: no CUDA device"
        except Exception as e:  # noqa: BLE001 (whatever a broken install raises)
            why[name] = f"{name}: {(str(e).splitlines() or [type(e).__name__])[0]}"
    return mods, why, np


def describe(peer, mods, device):
    """The devices entry of one peer."""
    torch, cp = mods.get("torch"), mods.get("cupy")
    d = {"backend": peer, "index": device, "name": "", "uuid": "", "api_version": "",
         "driver_version": "", "memory_bytes": 0, "read_peak_gbps": None, "copy_peak_gbps": None,
         "properties": {}}
    if peer == "torch":
        p = torch.cuda.get_device_properties(device)
        d.update(name=p.name, uuid=normalize_uuid(getattr(p, "uuid", "")),
                 memory_bytes=int(p.total_memory),
                 api_version=f"PyTorch {torch.__version__} (CUDA {torch.version.cuda})")
    if cp is not None:
        rt = cp.cuda.runtime
        p = rt.getDeviceProperties(device)
        name = p["name"].decode() if isinstance(p["name"], bytes) else str(p["name"])
        d.update(name=d["name"] or name, uuid=d["uuid"] or normalize_uuid(p.get("uuid", "")),
                 memory_bytes=d["memory_bytes"] or int(p["totalGlobalMem"]),
                 driver_version="supports CUDA " + version_text(rt.driverGetVersion()))
        if peer == "cupy":
            d["api_version"] = (f"CuPy {cp.__version__} (CUDA runtime "
                                f"{version_text(rt.runtimeGetVersion())})")
    return d


def cupy_counting(cp, cub, otherwise):
    """How CuPy counts here: with CUB where CUPY_ACCELERATORS names cub, else its own kernel."""
    try:
        acc = cp._core._accelerator
        on = acc.ACCELERATOR_CUB in acc.get_routine_accelerators()
    except Exception:  # noqa: BLE001 (a CuPy without these internals: not said)
        return ""
    return f"; {cub}" if on else f"; {otherwise} (CUPY_ACCELERATORS has no cub)"


def histogram_variants(peer, mod, dtype, levels):
    """[(variant, function of the device samples returning the counts, diagnostics, whether it
    waits on the host in each call)] of one peer for dtype samples under `levels`."""
    bins, lo, hi = levels
    waits = ("waits on the host in each call ({}): timed without the gate or a graph, the "
             "interval holding that wait")
    if peer == "torch":
        if dtype == "f32":  # counts in the input's dtype; a sample equal to max: the last bin
            return [("torch.histc", lambda x: mod.histc(x.float(), bins, min=lo, max=hi),
                     "float32 counts", False)]
        # bincount counts each value v in bin v: the levels' bins only where lo == 0 and
        # bins == hi - lo (bincount_fits); the u8 samples, drawn below hi, make no bin past them.
        if bincount_fits(levels):
            return [("torch.bincount", lambda x: mod.bincount(x, minlength=bins),
                     "int64 counts; " + waits.format("x.max().item()"), True)]
        return []
    out = [("cupy.histogram", lambda x: mod.histogram(x, bins, range=(lo, hi))[0],
            "int64 counts" + cupy_counting(mod, "CUB HistogramRange", "a binary search"), False)]
    if dtype == "u8" and bincount_fits(levels):  # as torch.bincount: one value a bin, from 0
        out.append(("cupy.bincount", lambda x: mod.bincount(x, minlength=bins),
                    "int64 counts" + cupy_counting(mod, "CUB HistogramEven", "atomicAdd") + "; "
                    + waits.format("(x < 0).any() and int(x.max())"), True))
    return out


def variants_of(peer, mod, primitive, dtype, levels):
    """[(variant, function, diagnostics, waits on the host)] of one peer, primitive and dtype."""
    if primitive == "histogram":
        return histogram_variants(peer, mod, dtype, levels)
    return [variant_of(peer, mod, primitive, dtype) + ("", False)]


def variant_of(peer, mod, primitive, dtype):
    """(variant name, function of the device input); output dtype = input dtype: same bytes."""
    t = mod.int32 if dtype == "i32" else mod.float32
    if primitive == "reduce":
        return f"{peer}.sum", lambda x: mod.sum(x, dtype=t)
    if primitive == "sort":  # keys ascending; torch.sort returns (values, indices)
        if peer == "torch":
            return "torch.sort", lambda x: mod.sort(x)[0]
        return "cupy.sort", mod.sort
    if peer == "torch":
        return "torch.cumsum", lambda x: mod.cumsum(x, 0, dtype=t)
    return "cupy.cumsum", lambda x: mod.cumsum(x, dtype=t)


def one_row(timer, ref, peer, variant, primitive, mode, call, max_time, levels=None,
            diagnostics="", waits=False):
    """The warm-up call (checked), then the samples; an error makes an unmeasured row. A call
    that waits on the host (waits) is timed ungated and uncaptured: behind the gate it would wait
    out the gate's time-out, and a graph cannot hold it."""
    try:
        first = call()  # untimed and ungated: a first use may compile or load modules
        timer.synchronize()
        check = ref.check(primitive, first.cpu().numpy() if peer == "torch" else first.get())
        del first
        dev, host, calls = measure(timer, timer.prepare(call, capture=not waits), mode, max_time,
                                   gated=not waits)
    except Exception as e:  # noqa: BLE001 (out of memory, a gate time-out: the row says so)
        with contextlib.suppress(Exception):
            timer.synchronize()
        reason = f"{type(e).__name__}: {(str(e).splitlines() or [''])[0]}"
        return make_row(peer, variant, primitive, ref.dtype, ref.n, mode, reason=reason,
                        levels=levels, diagnostics=diagnostics)
    return make_row(peer, variant, primitive, ref.dtype, ref.n, mode, calls, dev, host,
                    "device" if waits else timer.timing, check, levels=levels,
                    diagnostics=diagnostics)


def point_rows(timer, ref, primitives, args, mods):
    """The rows of one input on the device: each primitive, peer, variant and mode."""
    torch, cp = mods.get("torch"), mods.get("cupy")
    use_torch = "torch" in args.peers
    inputs = {"cupy": cp.asarray(ref.x)} if cp is not None else {}
    if use_torch:  # the same device memory as CuPy's, where CuPy is there
        inputs["torch"] = (torch.from_dlpack(inputs["cupy"]) if cp is not None
                           else torch.from_numpy(ref.x).cuda())
    timer.synchronize()
    levels = args.levels if primitives == ["histogram"] else None
    rows = []
    for primitive in primitives:
        for peer in args.peers:
            for variant, fn, notes, waits in variants_of(peer, mods[peer], primitive, ref.dtype,
                                                         args.levels):
                for mode in args.mode:
                    row = one_row(timer, ref, peer, variant, primitive, mode,
                                  lambda fn=fn, x=inputs[peer]: fn(x), args.max_time, levels,
                                  notes, waits)
                    rows.append(row)
                    if sys.stderr.isatty():
                        us = row["median_ms"] and f"{row['median_ms'] * 1e3:.2f} us" or "-"
                        print(f"peers: {variant} {ref.dtype} n={ref.n} {mode}: {us} "
                              f"{row['status']} {row['reason']}", file=sys.stderr)
    inputs.clear()
    if cp is not None:
        cp.get_default_memory_pool().free_all_blocks()
    if use_torch:
        torch.cuda.empty_cache()
    return rows


def run(args, mods, why, np):
    """Every row, and the report around them."""
    torch, cp = mods.get("torch"), mods.get("cupy")
    count = cp.cuda.runtime.getDeviceCount() if cp else torch.cuda.device_count()
    if args.device >= count:
        raise Usage(f"--device {args.device}: there are {count} CUDA device(s)")
    use_torch = "torch" in args.peers
    timer = Timer(cp, torch if use_torch else None, args.device)
    rows = []
    with timer.context():
        for dtype in args.dtype:
            for n in args.sizes:
                # Each primitive on the dtypes it takes; a histogram's samples are its own input.
                others = [p for p in args.primitive if p != "histogram" and dtype in TAKES[p]]
                if others:
                    rows += point_rows(timer, Reference(np, dtype, n, args.dist), others, args,
                                       mods)
                if "histogram" in args.primitive and dtype in TAKES["histogram"]:
                    rows += point_rows(timer, HistogramReference(np, dtype, n, args.levels),
                                       ["histogram"], args, mods)
    dist = ("uniform" if args.primitive == ["histogram"] else f"{args.dist}; histogram: uniform"
            if "histogram" in args.primitive else args.dist)
    return {"xreduce_version": "peers",
            "command": " ".join(["bench/peers.py"] + [shlex.quote(a) for a in args.argv]),
            "config": {"timing": "device", "cache": "cold",
                       "statistics": f"adaptive reps ({MIN_REPS}..{MAX_REPS}, until the median's "
                       f"spread < {TARGET_SPREAD * 100:g}% or {args.max_time:g} s per point)",
                       "include_transfer": False, "seed": SEED, "dist": dist},
            "devices": [describe(p, mods, args.device) for p in args.peers],
            "same_gpu": None,
            "skipped": [{"backend": p, "reason": why[p]} for p in PEERS if p in why],
            "results": rows}


# ---- command line -------------------------------------------------------------------------------

class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, not argparse's usage block
        raise Usage(message)


def default_dtypes(primitives):
    """Every dtype one of the primitives takes (TAKES), in DTYPES' order: --dtype's default and
    its 'all'."""
    return [d for d in DTYPES if any(d in TAKES[p] for p in primitives)]


def check_pairs(primitives, dtypes):
    """Each primitive runs on the dtypes it takes: a primitive that takes none of them, or a
    dtype that none of them takes (a reduce, scan or sort of u8), is a usage error."""
    for p in primitives:
        if not any(d in TAKES[p] for d in dtypes):
            raise Usage(f"--primitive {p} takes --dtype {' or '.join(TAKES[p])}, not "
                        f"{','.join(dtypes)}")
    for d in dtypes:
        if not any(d in TAKES[p] for p in primitives):
            takers = [p for p in PRIMITIVES if d in TAKES[p]]
            raise Usage(f"--dtype {d} is for --primitive {' or '.join(takers)}, not "
                        f"{','.join(primitives)}")


def joined_range(argv):
    """argv with "--range" joined to its value ("--range=-4:4"): argparse takes a word starting
    with '-' for a flag, and "-4:4" does."""
    out, i = [], 0
    while i < len(argv):
        joins = argv[i] == "--range" and i + 1 < len(argv)
        out.append(f"--range={argv[i + 1]}" if joins else argv[i])
        i += 2 if joins else 1
    return out


def parse_args(argv):
    p = Parser(prog="bench/peers.py", description="Time torch.sum, cupy.sum, torch.cumsum, "
               "cupy.cumsum, torch.sort, cupy.sort, torch.histc, torch.bincount, cupy.histogram "
               "and cupy.bincount on the GPU as xreduce times its variants; write xreduce "
               "compare JSON rows for `xreduce compare --merge`. Exit: 0 ok, 1 a row failed or "
               "was not measured, 2 usage, 3 neither torch nor cupy importable.")
    p.add_argument("--out", metavar="FILE.json", help="the report to write (required)")
    p.add_argument("--sweep", metavar="LO:HI", help="LO, every power of 2 between, HI "
                   "(default 1K:256M); K, M, G = 2^10, 2^20, 2^30")
    p.add_argument("--n", metavar="N,N,...", help="sizes, instead of --sweep")
    p.add_argument("--dtype", help="i32, f32, u8 (a histogram's samples only) or all; each "
                   "primitive runs on those it takes (default and all: every one they take: "
                   "i32,f32 for reduce, scan and sort, u8,f32 for a histogram)")
    p.add_argument("--primitive", default="reduce,scan",
                   help="reduce, scan, sort, histogram or all (default reduce,scan)")
    p.add_argument("--bins", metavar="N", help="a histogram's even bins, 1 to 2^24 (default 256)")
    p.add_argument("--range", metavar="LO:HI", help="a histogram's range [LO, HI): a sample "
                   "outside it is counted nowhere (default 0:256; u8: integers within 0:256)")
    p.add_argument("--mode", default="cold,batch", help="cold (one call, L2 flushed), batch "
                   "(back to back, per call) or all (default cold,batch)")
    p.add_argument("--peers", help="torch, cupy or all (default: every importable one)")
    p.add_argument("--dist", help="small (integers in [0, 255], floats in [-1, 1)) or full "
                   "(every i32 pattern, floats in [-2^20, 2^20)), as xreduce's --dist, for "
                   "reduce, scan and sort (default small); a histogram's samples are uniform "
                   "over --range")
    p.add_argument("--max-time", type=float, default=1.0, metavar="S",
                   help="wall seconds of samples per point, at most (default 1.0)")
    p.add_argument("--device", type=int, default=0, help="CUDA device index (default 0)")
    p.add_argument("--self-test", action="store_true",
                   help="test the pure-Python parts (no GPU) and exit")
    a = p.parse_args(joined_range(argv))
    a.argv = argv
    if a.self_test:
        return a
    if not a.out:
        raise Usage("--out FILE.json is required")
    if not os.path.isdir(os.path.dirname(os.path.abspath(a.out))):
        raise Usage(f"--out '{a.out}': its folder does not exist")
    if a.sweep and a.n:
        raise Usage("--sweep and --n exclude each other")
    a.sizes = sorted(set([parse_count(w) for w in a.n.split(",")] if a.n
                         else parse_sweep(a.sweep or "1K:256M")))
    a.primitive = parse_choice("--primitive", a.primitive, PRIMITIVES)
    histogram = "histogram" in a.primitive
    if (a.bins is not None or a.range is not None) and not histogram:
        raise Usage("--bins and --range apply to --primitive histogram")
    a.levels = Levels(parse_bins(a.bins) if a.bins is not None else DEFAULT_LEVELS.bins,
                      *(parse_range(a.range) if a.range is not None else DEFAULT_LEVELS[1:]))
    a.dtype = (default_dtypes(a.primitive) if a.dtype in (None, "all")
               else parse_choice("--dtype", a.dtype, DTYPES))
    check_pairs(a.primitive, a.dtype)
    for d in a.dtype:
        wrong = histogram and d in TAKES["histogram"] and levels_error(d, a.levels)
        if wrong:
            raise Usage(wrong)
    a.mode = parse_choice("--mode", a.mode, MODES)
    if a.dist is not None and a.primitive == ["histogram"]:
        raise Usage("--dist applies to reduce, scan and sort: a histogram's samples here are "
                    "uniform over --range")
    a.dist = a.dist or "small"
    if a.dist not in ("small", "full"):
        raise Usage(f"--dist {a.dist}: expected small or full")
    a.peers = parse_choice("--peers", a.peers, PEERS) if a.peers else None
    if not a.max_time > 0:
        raise Usage(f"--max-time {a.max_time}: expected seconds > 0")
    if a.device < 0:
        raise Usage(f"--device {a.device}: expected an index >= 0")
    return a


def expect_usage(fn, *args):
    try:
        fn(*args)
    except Usage as e:
        return str(e)
    raise AssertionError(f"{fn.__name__}{args} did not fail")


def reader_refuses(row):
    """Why `xreduce compare --merge` would refuse the row (app/report/saved.cpp's parse_row: its
    operation's fields, status and times), or None; the self-test puts every row it makes here."""
    p = row["primitive"]
    unused = {"sort": ("op", "scan", "histogram"),
              "histogram": ("op", "scan", "sort")}.get(p, ("sort", "histogram"))
    for key in unused:
        if row.get(key) is not None:
            return f"a {p} row's \"{key}\" is {row[key]!r}, not null"
    if p == "histogram":
        h = row.get("histogram")
        if not isinstance(h, dict) or set(h) != {"bins", "range", "counters", "count"}:
            return f"\"histogram\" is {h!r}"
        if not (isinstance(h["bins"], int) and 1 <= h["bins"] <= MAX_BINS
                and h["counters"] in ("u32", "u64") and h["count"] in ("host", "device")):
            return f"\"histogram\" is {h!r}"
        try:
            parse_range(h["range"])
        except Usage:
            return f"\"histogram\" range {h['range']!r}"
    elif p != "sort" and row.get("op") != "sum":
        return f"a {p} row's \"op\" is {row.get('op')!r}"
    if p == "scan" and row.get("scan") != "inclusive":
        return f"a scan row's \"scan\" is {row.get('scan')!r}"
    if row["status"] not in ("ok", "failed", "unsupported"):
        return f"status {row['status']!r}"
    if row.get("ok") is not None and row["ok"] != (row["status"] == "ok"):
        return f"\"ok\" {row['ok']} with status {row['status']}"
    if row["status"] == "unsupported":
        return None
    times = [row.get(k) for k in ("min_ms", "median_ms", "max_ms")]
    if not all(isinstance(t, (int, float)) and t >= 0 for t in times) or times != sorted(times):
        return f"a measured row's times are {times}"
    if row["status"] == "ok" and not (times[1] > 0 and row.get("reps")):
        return "an ok row without a positive median and reps"
    if row.get("timing") not in (None,) + TIMINGS:
        return f"\"timing\" is {row['timing']!r}, not device, host or end-to-end"
    return None


def self_test_histogram(dev, made):
    """The histogram's pure-Python parts: --bins, --range, the levels, the integer rule, the
    row; `made` gets the rows."""
    assert parse_bins("256") == 256 and parse_bins("1") == 1 and parse_bins(" 64 ") == 64
    assert parse_bins(str(MAX_BINS)) == MAX_BINS
    for bad in ("0", str(MAX_BINS + 1), "-1", "1.5", "", "x", "2^8", "\u00b2", "1e3"):
        assert expect_usage(parse_bins, bad) == \
            f"--bins '{bad}': expected a whole number from 1 to 16777216", bad
    assert parse_range("0:256") == (0.0, 256.0) and parse_range("-4:4") == (-4.0, 4.0)
    assert parse_range("-4:-1.5") == (-4.0, -1.5) and parse_range("+1:2e3") == (1.0, 2000.0)
    assert parse_range(".5:1.") == (0.5, 1.0)
    assert joined_range(["--range", "-4:4", "--n", "1K", "--range"]) == \
        ["--range=-4:4", "--n", "1K", "--range"]
    for bad in ("4:4", "5:1", "0", "", ":1", "0:", "a:b", "0:inf", "nan:1", "0:1:2",
                "-1e999:0", "0x1:2", " 0:1", "0:1,2"):
        assert expect_usage(parse_range, bad) == \
            f"--range '{bad}': expected LO:HI, two finite numbers with LO < HI", bad
    texts = {0.0: "0", 256.0: "256", -4.0: "-4", 0.5: "0.5", -1.5: "-1.5", 1e4: "10000",
             1e5: "1e+05", 123456.0: "123456", 1e30: "1e+30", 1e-3: "0.001", 1e-4: "1e-04",
             1.5e-7: "1.5e-07", 65536.0: "65536"}  # std::to_chars' spellings
    assert all(number_text(v) == t for v, t in texts.items()), \
        {v: number_text(v) for v in texts}
    assert range_text(DEFAULT_LEVELS) == "0:256" and range_text(Levels(8, -0.5, 1e5)) == \
        "-0.5:1e+05"
    # The levels each sample type takes, in xreduce's words.
    assert levels_error("u8", DEFAULT_LEVELS) is None and levels_error("f32", DEFAULT_LEVELS) is None
    assert levels_error("u8", Levels(10, 0.5, 256.0)) == "the range 0.5:256 has a level that is " \
        "not an integer, for integer samples for u8 samples (--bins, --range)"
    assert levels_error("u8", Levels(10, 0.0, 257.0)) == "the range 0:257 is not within the " \
        "samples' values 0:256 for u8 samples (--bins, --range)"
    assert levels_error("u8", Levels(10, -1.0, 8.0)).startswith("the range -1:8 is not within")
    assert levels_error("f32", Levels(10, 0.5, 257.25)) is None
    assert "does not hold" in levels_error("f32", Levels(10, 0.0, 1e39))
    assert "is empty in the samples' type" in levels_error("f32", Levels(10, 1.0, 1.0 + 1e-12))
    assert "(upper - lower overflows)" in levels_error("f32", Levels(10, -3e38, 3e38))
    assert levels_error("f32", Levels(0, 0.0, 1.0)) == "bins 0 is not within 1 to 16777216"
    # The integer rule: floor((s - lo) * bins / (hi - lo)), exact; outside [lo, hi): nowhere.
    assert [integer_bin(s, Levels(10, 0.0, 256.0)) for s in (0, 25, 26, 255, 256)] == \
        [0, 0, 1, 9, -1]
    assert [integer_bin(s, Levels(3, 10.0, 20.0)) for s in (9, 10, 13, 14, 19, 20)] == \
        [-1, 0, 0, 1, 2, -1]
    assert all(integer_bin(s, DEFAULT_LEVELS) == s for s in range(256))
    assert bincount_fits(DEFAULT_LEVELS) and bincount_fits(Levels(128, 0.0, 128.0))
    assert not bincount_fits(Levels(128, 0.0, 256.0)) and not bincount_fits(Levels(16, 16.0, 32.0))
    assert (count_text(5), count_text(5.0), count_text(2.5), count_text(float("nan"))) == \
        ("5", "5", "2.5", "nan")
    # A histogram row: "histogram" its levels, op, scan and sort null; GB/s = n * sample bytes / ms.
    r = make_row("cupy", "cupy.histogram", "histogram", "u8", 1 << 20, "cold", 1, dev, dev,
                 "device", (True, "1048576", "1048576", ""), levels=DEFAULT_LEVELS,
                 diagnostics="int64 counts; CUB HistogramRange")
    assert list(r) == ROW_KEYS and (r["primitive"], r["op"], r["scan"], r["sort"]) == \
        ("histogram", None, None, None)
    assert r["histogram"] == {"bins": 256, "range": "0:256", "counters": "u32", "count": "host"}
    assert (r["status"], r["ok"], r["dtype"], r["result"], r["timing"]) == \
        ("ok", True, "u8", "1048576", "device")
    assert r["diagnostics"] == "int64 counts; CUB HistogramRange"
    assert abs(r["gbps"] - (1 << 20) * 1 / (0.004 * 1e6)) < 1e-9  # 1-byte samples, read once
    made.append(r)
    r = make_row("torch", "torch.histc", "histogram", "f32", 1000, "batch", 250, dev, dev,
                 GRAPH_TIMING, (False, "999", "1000", "1 of 64 bins wrong; bin 3: got 15, "
                                "expected 16"), levels=Levels(64, -1.0, 1.0),
                 diagnostics="float32 counts")
    assert (r["status"], r["ok"], r["batch_calls"], r["histogram"]["range"]) == \
        ("failed", False, 250, "-1:1")
    assert abs(r["gbps"] - 1000 * 4 / (0.004 * 1e6)) < 1e-9 and r["timing"] == "device"
    assert r["diagnostics"] == "graph replay, no gate: cupy missing; float32 counts"
    made.append(r)
    r = make_row("torch", "torch.bincount", "histogram", "u8", 64, "cold", levels=DEFAULT_LEVELS,
                 reason="RuntimeError: boom", diagnostics="int64 counts")
    assert (r["status"], r["gbps"], r["median_ms"], r["histogram"]["bins"]) == \
        ("unsupported", None, None, 256)
    made.append(r)
    json.dumps(made)  # plain JSON
    # The flags: each primitive on the dtypes it takes; the levels checked for each sample type.
    a = parse_args(["--out", "x.json", "--primitive", "histogram"])
    assert (a.dtype, a.levels, a.dist) == (["f32", "u8"], DEFAULT_LEVELS, "small")
    a = parse_args(["--out", "x.json", "--primitive", "histogram", "--dtype", "f32", "--bins",
                    "64", "--range", "-1:1"])
    assert (a.dtype, a.levels) == (["f32"], Levels(64, -1.0, 1.0))
    assert parse_args(["--out", "x.json", "--primitive", "all"]).dtype == ["i32", "f32", "u8"]
    assert parse_args(["--out", "x.json", "--dtype", "all"]).dtype == ["i32", "f32"]
    assert parse_args(["--out", "x.json"]).dtype == ["i32", "f32"]
    a = parse_args(["--out", "x.json", "--primitive", "reduce,histogram", "--dtype", "u8,f32",
                    "--dist", "full"])
    assert (a.primitive, a.dtype, a.dist) == (["reduce", "histogram"], ["u8", "f32"], "full")
    either = "--bins and --range apply to --primitive histogram"
    errors = {
        ("--primitive", "reduce", "--dtype", "u8"):
            "--primitive reduce takes --dtype i32 or f32, not u8",
        ("--dtype", "i32,u8"): "--dtype u8 is for --primitive histogram, not reduce,scan",
        ("--primitive", "sort", "--dtype", "f32,u8"):
            "--dtype u8 is for --primitive histogram, not sort",
        ("--primitive", "histogram", "--dtype", "i32"):
            "--primitive histogram takes --dtype u8 or f32, not i32",
        ("--primitive", "reduce,histogram", "--dtype", "u8"):
            "--primitive reduce takes --dtype i32 or f32, not u8",
        ("--bins", "64"): either,
        ("--primitive", "scan", "--range", "0:1"): either,
        ("--primitive", "histogram", "--bins", "0"):
            "--bins '0': expected a whole number from 1 to 16777216",
        ("--primitive", "histogram", "--range", "1:1"):
            "--range '1:1': expected LO:HI, two finite numbers with LO < HI",
        ("--primitive", "histogram", "--range", "0:300"): "the range 0:300 is not within the "
            "samples' values 0:256 for u8 samples (--bins, --range)",
        ("--primitive", "histogram", "--dtype", "f32", "--range", "0:1e39"): "the range "
            "0:1e+39 has a level the samples' type does not hold for f32 samples (--bins, --range)",
        ("--primitive", "histogram", "--dist", "full"): "--dist applies to reduce, scan and "
            "sort: a histogram's samples here are uniform over --range",
        ("--primitive", "histogram", "--dtype", "u16"): "--dtype 'u16': expected i32, f32 or u8",
    }
    for argv, message in errors.items():
        got = expect_usage(parse_args, ["--out", "x.json", *argv])
        assert got == message, (argv, got)


def self_test_histogram_numpy(np):
    """The histogram's references: the exact integer counts, the drawn samples, the check."""
    x = np.array([0, 1, 2, 3, 4, 5, 6, 7, 7, 255], dtype=np.uint8)
    assert integer_counts(np, x, Levels(4, 0.0, 8.0)).tolist() == [2, 2, 2, 3]  # 255: nowhere
    assert integer_counts(np, x, Levels(3, 0.0, 8.0)).tolist() == [3, 3, 3]  # floor(s * 3 / 8)
    every = np.arange(256).astype(np.uint8)
    for levels in (Levels(4, 0.0, 8.0), Levels(3, 0.0, 8.0), DEFAULT_LEVELS, Levels(7, 3.0, 250.0),
                   Levels(100, 0.0, 256.0)):  # np.histogram agrees, but for a sample equal to hi
        for samples in (x, every[every != levels.hi]):  # (its last bin is closed)
            want = np.histogram(samples, bins=levels.bins, range=(levels.lo, levels.hi))[0]
            assert integer_counts(np, samples, levels).tolist() == want.tolist(), levels
    ref = HistogramReference(np, "u8", 5000, DEFAULT_LEVELS)
    assert ref.x.dtype == np.uint8 and (ref.x.min(), ref.x.max()) == (0, 255)
    counts = np.bincount(ref.x, minlength=256)
    assert ref.counts.tolist() == counts.tolist()
    assert ref.check("histogram", counts) == (True, "5000", "5000", "")
    assert ref.check("histogram", counts.astype(np.float32))[0]  # torch.histc's float counts
    wrong = counts.copy()
    wrong[7] += 1
    wrong[200] += 2
    assert ref.check("histogram", wrong) == (False, "5003", "5000", f"2 of 256 bins wrong; bin 7: "
                                             f"got {counts[7] + 1}, expected {counts[7]}")
    wrong = counts.astype(np.float32)
    wrong[3] = np.nan
    assert ref.check("histogram", wrong)[3] == f"1 of 256 bins wrong; bin 3: got nan, expected " \
        f"{counts[3]}"
    assert ref.check("histogram", counts[:255]) == (False, None, None, "got 255 counts, expected "
                                                    "one a bin (256)")
    ref = HistogramReference(np, "u8", 3000, Levels(16, 32.0, 64.0))  # two values a bin
    per_value = np.bincount(ref.x, minlength=256)
    assert (ref.x.min(), ref.x.max()) == (32, 63) and ref.counts.sum() == 3000
    assert ref.counts.tolist() == [int(per_value[32 + 2 * b] + per_value[33 + 2 * b])
                                   for b in range(16)]
    ref = HistogramReference(np, "f32", 5000, DEFAULT_LEVELS)
    assert ref.x.dtype == np.float32 and ref.x.min() >= 0 and ref.x.max() < 256
    assert ref.counts.tolist() == np.bincount(np.floor(ref.x).astype(np.int64),
                                              minlength=256).tolist()  # the rule: floor(s)
    ref = HistogramReference(np, "f32", 5000, Levels(10, -1.0, 1.0))
    assert ref.x.min() >= -1 and ref.x.max() < 1 and ref.counts.sum() == 5000
    # A width of one float32 step: u * width + lo rounds up to hi half the time; taken below it.
    ref = HistogramReference(np, "f32", 1000, Levels(2, 1.0, 1.0000001))
    assert ref.x.max() < np.float32(1.0000001) and ref.counts.sum() == 1000


def self_test():
    counts = {"1K": 1024, "256M": 256 << 20, "1g": 1 << 30, "1000": 1000, " 64k ": 1 << 16}
    assert all(parse_count(k) == v for k, v in counts.items())
    for bad in ("", "0", "-1", "1.5K", "K", "3^4", "1T", "2^20"):
        expect_usage(parse_count, bad)
    assert parse_sweep("1K:8K") == [1024, 2048, 4096, 8192] and parse_sweep("4K:4K") == [4096]
    assert parse_sweep("1000:5000") == [1000, 1024, 2048, 4096, 5000]
    assert len(parse_sweep("1K:256M")) == 19
    for bad in ("8K:1K", "1K", "1K:2K:3K"):
        expect_usage(parse_sweep, bad)
    assert parse_choice("--mode", "all", MODES) == ["cold", "batch"]
    assert parse_choice("--dtype", "f32,i32,f32", DTYPES) == ["f32", "i32"]
    assert expect_usage(parse_choice, "--dtype", "x", DTYPES) == \
        "--dtype 'x': expected i32, f32 or u8"
    assert expect_usage(parse_args, ["--out", "x.json", "--mode", "hot"]).startswith("--mode 'hot'")
    assert expect_usage(parse_args, ["--out", "x.json", "--n", "1K", "--sweep", "1K:2K"])
    assert parse_args(["--out", "x.json", "--n", "4K,1K,4K"]).sizes == [1024, 4096]
    assert parse_args(["--out", "x.json", "--dist", "full"]).dist == "full"
    assert expect_usage(parse_args, ["--out", "x.json", "--dist", "wide"]).startswith("--dist wide")
    s = summarize([3.0, 1.0, 2.0, 10.0])  # median 2.5; deviations 0.5 0.5 1.5 7.5 -> MAD 1.0
    assert (s["median"], s["min"], s["max"], s["mean"], s["count"]) == (2.5, 1.0, 10.0, 4.0, 4)
    assert s["rel_spread"] == 1.0 / 2.5 and summarize([5.0])["rel_spread"] == 0
    noisy = [1.0, 2.0, 3.0, 4.0, 5.0]  # MAD / median = 1/3
    assert not stop_now([1.0] * 4, 99.0, 1.0)  # never under MIN_REPS, even out of time
    assert stop_now([1.0] * 5, 0.0, 1.0) and stop_now([1.0] * 4 + [1.009], 0.0, 1.0)  # MAD < 1%
    assert not stop_now(noisy, 0.99, 1.0) and stop_now(noisy, 1.0, 1.0)  # the time limit
    assert not stop_now(noisy * 19 + [1.0] * 4, 0.0, 1.0) and stop_now(noisy * 20, 0.0, 1.0)
    assert (batch_calls_for(0.004), batch_calls_for(0.3), batch_calls_for(5.0)) == (250, 4, 1)
    assert batch_calls_for(1e-9) == 1000
    assert wrap_i32(2**31) == -2**31 and wrap_i32(-1) == -1 and wrap_i32(2**32 + 7) == 7
    assert wrap_i32(255 * 2**28) == -2**28  # 2^28 elements of 255: xreduce's wrapped sum
    assert normalize_uuid("GPU-8F1C0D2E-1111-2222-3333-444455556666") == "8f1c0d2e1111" + "2" * 4 \
        + "3" * 4 + "444455556666"
    assert normalize_uuid(bytes(range(16))) == "000102030405060708090a0b0c0d0e0f"
    assert normalize_uuid("nope") == "" and version_text(12040) == "12.4"
    dev = {"median": 0.004, "min": 0.004, "max": 0.005, "mean": 0.0042, "rel_spread": 0.003,
           "count": 12}
    r = make_row("torch", "torch.cumsum", "scan", "f32", 1024, "cold", 1, dev,
                 dict(dev, median=0.02), "device", (True, "1.5", "1.5", ""))
    want = {"scan": "inclusive", "batch_calls": None, "status": "ok", "ok": True, "op": "sum",
            "median_ms": 0.004, "min_ms": 0.004, "max_ms": 0.005, "host_median_ms": 0.02,
            "reps": 12, "rel_spread": 0.003, "timing": "device", "result": "1.5", "reason": "",
            "pct_peak": None, "vs_cub": None, "diagnostics": "", "mode": "cold", "sort": None,
            "histogram": None}
    assert list(r) == ROW_KEYS and len(r) == 29 and all(r[k] == v for k, v in want.items()), r
    made = [r]  # every row made here: each must be one the report reader takes
    sorted_row = make_row("cupy", "cupy.sort", "sort", "i32", 1000, "cold", 1, dev, dev,
                          "device", (True, "0", "0", ""))
    assert sorted_row["sort"] == {"order": "asc", "values": "none", "bits": "all"}
    assert sorted_row["op"] is None and sorted_row["histogram"] is None
    made.append(sorted_row)
    assert abs(sorted_row["gbps"] - 1000 * 36 / (0.004 * 1e6)) < 1e-9  # the radix bound's bytes
    assert abs(r["gbps"] - 2 * 1024 * 4 / 4000.0) < 1e-12  # a scan reads and writes
    r = make_row("cupy", "cupy.sum", "reduce", "i32", 1 << 20, "batch", 250, dev, dev,
                 GRAPH_TIMING, (False, "1", "2", "got 1, expected 2"))
    assert (r["scan"], r["batch_calls"], r["status"], r["ok"]) == (None, 250, "failed", False)
    # The reader takes device, host or end-to-end: the graph replays are said in the diagnostics.
    assert r["reason"] == "got 1, expected 2" and r["timing"] == "device"
    assert r["diagnostics"] == "graph replay, no gate: cupy missing"
    assert abs(r["gbps"] - (1 << 20) * 4 / 4000.0) < 1e-9
    made.append(r)
    r = make_row("cupy", "cupy.sum", "reduce", "i32", 8, "cold", reason="RuntimeError: boom")
    assert (r["median_ms"], r["gbps"], r["ok"], r["timing"], r["result"]) == (None,) * 5
    # Not measured: "unsupported", the one status the reader takes without times.
    assert r["status"] == "unsupported" and r["reason"] == "RuntimeError: boom"
    made.append(r)
    self_test_histogram(dev, made)
    for row in made:
        assert reader_refuses(row) is None, (reader_refuses(row), row)
    bad = dict(made[0], timing=GRAPH_TIMING)  # what the rows said before: refused
    assert reader_refuses(bad).startswith('"timing" is')
    assert reader_refuses(dict(made[0], status="failed", median_ms=None, min_ms=None, max_ms=None))
    assert reader_refuses(dict(made[0], histogram=histogram_json(DEFAULT_LEVELS))).startswith(
        'a scan row\'s "histogram"')
    with tempfile.TemporaryDirectory() as d:
        write_atomically(os.path.join(d, "x.json"), {"results": [r]})
        with open(os.path.join(d, "x.json"), encoding="utf-8") as f:
            assert json.load(f) == {"results": [r]}
        assert os.listdir(d) == ["x.json"]  # no temp file left behind
    try:
        import numpy as np
    except ImportError:
        np = None  # the checks need numpy: tested where it is
    if np is not None:
        ref = Reference(np, "i32", 3000)
        assert ref.x.min() >= 0 and ref.x.max() == 255
        ref.x[:] = 2**30  # the sum wraps
        assert ref.check("reduce", np.array(wrap_i32(3000 * 2**30), np.int32))[0]
        got = np.cumsum(ref.x, dtype=np.int32)  # wraps too
        assert ref.check("scan", got)[:2] == (True, str(wrap_i32(3000 * 2**30)))
        got[7] += 1
        assert ref.check("scan", got)[3] == f"got {got[7]}, expected {got[7] - 1} at element 7"
        ref = Reference(np, "f32", 5000)
        assert ref.x.min() >= -1 and ref.x.max() < 1
        got = np.cumsum(ref.x, dtype=np.float64).astype(np.float32)
        assert ref.check("scan", got)[0] and ref.check("reduce", got[-1:])[0]
        got[-1] += 1
        assert not ref.check("scan", got)[0] and not ref.check("reduce", got[-1:])[0]
        self_test_histogram_numpy(np)
    print(f"peers: self-test passed{'' if np is not None else ' (no numpy: checks untested)'}",
          file=sys.stderr)


def main(argv):
    try:
        args = parse_args(argv)
        if args.self_test:
            self_test()
            return 0
        mods, why, np = import_peers()
        if not mods or np is None:
            what = "numpy is" if mods else "neither torch nor cupy is"
            print(f"peers: {what} importable ({'; '.join(why.values())})", file=sys.stderr)
            return 3
        args.peers = args.peers or [p for p in PEERS if p in mods]
        for p in args.peers:
            if p not in mods:
                raise Usage(f"--peers {p}: not usable here ({why[p]})")
        report = run(args, mods, why, np)
    except Usage as e:
        print(f"peers: {e}", file=sys.stderr)
        return 2
    write_atomically(args.out, report)
    failed = sum(r["status"] != "ok" for r in report["results"])
    print(f"peers: {len(report['results'])} rows, {failed} failed, written to {args.out}",
          file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
