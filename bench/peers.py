#!/usr/bin/env python3
"""Time what a user would pick instead of xreduce (torch.sum, cupy.sum, torch.cumsum, cupy.cumsum,
torch.sort, cupy.sort: keys ascending) the way xreduce times its CUDA variants; write the rows in xreduce's compare JSON schema for
`xreduce compare --merge FILE.json`.

    python3 bench/peers.py --out FILE.json [--sweep 1K:256M | --n 1K,1M] [--dtype i32,f32]
        [--primitive reduce,scan,sort] [--mode cold,batch] [--peers torch,cupy] [--max-time 1.0]
    python3 bench/peers.py --self-test        (the pure-Python parts; no GPU needed)

One CUDA stream; events on it time each sample behind nvbench's blocking kernel (Timer), so the
interval holds no host launch gap. cold: one call per sample, L2 flushed; batch: the same call back
to back, hot, about 1 ms per sample, per call. 5..100 samples after a warm-up, until MAD / median
< 1% or --max-time s. Seed 42: i32 in 0..255, f32 in [-1, 1); each result is checked once against
numpy. Needs numpy and torch and/or CuPy (without CuPy: no gate, CUDA graph replays).

Exit codes: 0 ok; 1 a row failed (its status says so); 2 usage error; 3 neither torch nor cupy (or
no numpy) importable with a CUDA device. The report is written atomically.
"""
import argparse
import contextlib
import json
import os
import shlex
import sys
import tempfile

from peer_timing import (GRAPH_TIMING, MAX_REPS, MIN_REPS, TARGET_SPREAD, Timer, batch_calls_for,
                         measure, stop_now, summarize)

PEERS, DTYPES = ("torch", "cupy"), ("i32", "f32")
PRIMITIVES, MODES = ("reduce", "scan", "sort"), ("cold", "batch")
SEED = 42
ROW_KEYS = ("backend variant primitive scan sort op dtype n mode batch_calls status median_ms min_ms "
            "max_ms host_median_ms reps rel_spread gbps pct_peak step_speedup cumulative_speedup "
            "vs_cub ok timing result reference reason diagnostics").split()



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


def make_row(peer, variant, primitive, dtype, n, mode, calls=None, dev=None, host=None,
             timing="device", check=None, reason=""):
    """A results row of xreduce's compare schema. dev, host: summarize() dicts, None when nothing
    was measured; check: (ok, result text, reference text, reason)."""
    m = dev is not None
    ok, result, reference, reason = check if m else (False, None, None, reason)
    # A scan reads and writes; a sort of 32-bit keys moves the radix bound's 9 x 4 bytes per key
    # (one read for the histograms, a read and a write per 8-bit digit), as xreduce counts.
    nbytes = n * 4 * {"reduce": 1, "scan": 2, "sort": 9}[primitive]
    sort = {"order": "asc", "values": "none", "bits": "all"} if primitive == "sort" else None
    values = [peer, variant, primitive, "inclusive" if primitive == "scan" else None, sort,
              None if primitive == "sort" else "sum",
              dtype, n, mode, calls if mode == "batch" else None, "ok" if ok else "failed"]
    values += [s[k] if m else None for s, k in ((dev, "median"), (dev, "min"), (dev, "max"),
                                                (host, "median"), (dev, "count"),
                                                (dev, "rel_spread"))]
    values += [nbytes / (dev["median"] * 1e6) if m and dev["median"] > 0 else None,
               None, None, None, None, ok if m else None, timing if m else None, result,
               reference, reason, ""]
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


def one_row(timer, ref, peer, variant, primitive, mode, call, max_time):
    """The warm-up call (checked), then the samples; an error makes a failed row."""
    try:
        first = call()  # untimed and ungated: a first use may compile or load modules
        timer.synchronize()
        check = ref.check(primitive, first.cpu().numpy() if peer == "torch" else first.get())
        del first
        dev, host, calls = measure(timer, timer.prepare(call), mode, max_time)
    except Exception as e:  # noqa: BLE001 (out of memory, a gate time-out: the row says so)
        with contextlib.suppress(Exception):
            timer.synchronize()
        reason = f"{type(e).__name__}: {(str(e).splitlines() or [''])[0]}"
        return make_row(peer, variant, primitive, ref.dtype, ref.n, mode, reason=reason)
    return make_row(peer, variant, primitive, ref.dtype, ref.n, mode, calls, dev, host,
                    timer.timing, check)


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
                ref = Reference(np, dtype, n, args.dist)
                inputs = {"cupy": cp.asarray(ref.x)} if cp is not None else {}
                if use_torch:  # the same device memory as CuPy's, where CuPy is there
                    inputs["torch"] = (torch.from_dlpack(inputs["cupy"]) if cp is not None
                                       else torch.from_numpy(ref.x).cuda())
                timer.synchronize()
                for primitive in args.primitive:
                    for peer in args.peers:
                        variant, fn = variant_of(peer, mods[peer], primitive, dtype)
                        for mode in args.mode:
                            row = one_row(timer, ref, peer, variant, primitive, mode,
                                          lambda fn=fn, x=inputs[peer]: fn(x), args.max_time)
                            rows.append(row)
                            if sys.stderr.isatty():
                                us = row["median_ms"] and f"{row['median_ms'] * 1e3:.2f} us" or "-"
                                print(f"peers: {variant} {dtype} n={n} {mode}: {us} "
                                      f"{row['status']} {row['reason']}", file=sys.stderr)
                inputs.clear()
                if cp is not None:
                    cp.get_default_memory_pool().free_all_blocks()
                if use_torch:
                    torch.cuda.empty_cache()
    return {"xreduce_version": "peers",
            "command": " ".join(["bench/peers.py"] + [shlex.quote(a) for a in args.argv]),
            "config": {"timing": "device", "cache": "cold",
                       "statistics": f"adaptive reps ({MIN_REPS}..{MAX_REPS}, until the median's "
                       f"spread < {TARGET_SPREAD * 100:g}% or {args.max_time:g} s per point)",
                       "include_transfer": False, "seed": SEED, "dist": args.dist},
            "devices": [describe(p, mods, args.device) for p in args.peers],
            "same_gpu": None,
            "skipped": [{"backend": p, "reason": why[p]} for p in PEERS if p in why],
            "results": rows}


# ---- command line -------------------------------------------------------------------------------

class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, not argparse's usage block
        raise Usage(message)


def parse_args(argv):
    p = Parser(prog="bench/peers.py", description="Time torch.sum, cupy.sum, torch.cumsum and "
               "cupy.cumsum on the GPU as xreduce times its variants; write xreduce compare "
               "JSON rows for `xreduce compare --merge`. Exit: 0 ok, 1 a row failed, 2 usage, "
               "3 neither torch nor cupy importable.")
    p.add_argument("--out", metavar="FILE.json", help="the report to write (required)")
    p.add_argument("--sweep", metavar="LO:HI", help="LO, every power of 2 between, HI "
                   "(default 1K:256M); K, M, G = 2^10, 2^20, 2^30")
    p.add_argument("--n", metavar="N,N,...", help="sizes, instead of --sweep")
    p.add_argument("--dtype", default="i32,f32", help="i32, f32 or all (default i32,f32)")
    p.add_argument("--primitive", default="reduce,scan",
                   help="reduce, scan or all (default reduce,scan)")
    p.add_argument("--mode", default="cold,batch", help="cold (one call, L2 flushed), batch "
                   "(back to back, per call) or all (default cold,batch)")
    p.add_argument("--peers", help="torch, cupy or all (default: every importable one)")
    p.add_argument("--dist", default="small", help="small (integers in [0, 255], floats in "
                   "[-1, 1)) or full (every i32 pattern, floats in [-2^20, 2^20)), as xreduce's "
                   "--dist (default small)")
    p.add_argument("--max-time", type=float, default=1.0, metavar="S",
                   help="wall seconds of samples per point, at most (default 1.0)")
    p.add_argument("--device", type=int, default=0, help="CUDA device index (default 0)")
    p.add_argument("--self-test", action="store_true",
                   help="test the pure-Python parts (no GPU) and exit")
    a = p.parse_args(argv)
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
    a.dtype = parse_choice("--dtype", a.dtype, DTYPES)
    a.primitive = parse_choice("--primitive", a.primitive, PRIMITIVES)
    a.mode = parse_choice("--mode", a.mode, MODES)
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
    assert expect_usage(parse_choice, "--dtype", "x", DTYPES) == "--dtype 'x': expected i32 or f32"
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
            "pct_peak": None, "vs_cub": None, "diagnostics": "", "mode": "cold"}
    assert list(r) == ROW_KEYS and len(r) == 28 and all(r[k] == v for k, v in want.items()), r
    sorted_row = make_row("cupy", "cupy.sort", "sort", "i32", 1000, "cold", 1, dev, dev,
                          "device", (True, "0", "0", ""))
    assert sorted_row["sort"] == {"order": "asc", "values": "none", "bits": "all"}
    assert sorted_row["op"] is None
    assert abs(sorted_row["gbps"] - 1000 * 36 / (0.004 * 1e6)) < 1e-9  # the radix bound's bytes
    assert abs(r["gbps"] - 2 * 1024 * 4 / 4000.0) < 1e-12  # a scan reads and writes
    r = make_row("cupy", "cupy.sum", "reduce", "i32", 1 << 20, "batch", 250, dev, dev,
                 GRAPH_TIMING, (False, "1", "2", "got 1, expected 2"))
    assert (r["scan"], r["batch_calls"], r["status"], r["ok"]) == (None, 250, "failed", False)
    assert r["reason"] == "got 1, expected 2" and r["timing"] == GRAPH_TIMING
    assert abs(r["gbps"] - (1 << 20) * 4 / 4000.0) < 1e-9
    r = make_row("cupy", "cupy.sum", "reduce", "i32", 8, "cold", reason="RuntimeError: boom")
    assert (r["median_ms"], r["gbps"], r["ok"], r["timing"], r["result"]) == (None,) * 5
    assert r["status"] == "failed" and r["reason"] == "RuntimeError: boom"
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
