#!/usr/bin/python3
"""Independent numpy reference for lib/srvagg (server metrics, GPU telemetry).

usage: srvagg-ref.py STREAM.ndjson TEST-SRVAGG-BINARY

Recomputes every statistic of the recorded scrape stream (see
tests/data/srvagg/gen.py for its layout) the way aiperf's Python original
does -- server_metrics/_gauge_stats.py, _counter_stats.py,
_histogram_stats.py, _timeslice_boundaries.py, histogram_percentiles/,
units.py and gpu_telemetry/ as described in aiperf-spec.md 9.1 and 9.2 --
with numpy (mean, std, percentile, linspace, clip, searchsorted) and
Python's re, then runs `TEST-SRVAGG-BINARY --dump STREAM` and compares the
two: the same keys, strings equal, numbers within 1e-9 relative. It never
reads lib/srvagg. Exit status 0 when everything matches, 1 otherwise, with
each difference on stderr.
"""
import json
import math
import re
import subprocess
import sys

import numpy as np

NS = 1_000_000_000
PCTS = [1, 5, 10, 25, 50, 75, 90, 95, 99]
PNAMES = ["p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99"]
MAX_OBS = 100_000


def load(path):
    window, series = None, {}
    with open(path) as f:
        for line in f:
            rec = json.loads(line)
            if "window" in rec:
                window = rec["window"]
                continue
            key = (rec["type"], rec["series"])
            series.setdefault(key, {"help": rec.get("help", ""), "rows": []})
            series[key]["rows"].append(rec)
    return window, series


# ---------------------------------------------------------------- slices

def slice_bounds(start, end, slice_s):
    """(starts, ends, complete) as _timeslice_boundaries.py cuts the window."""
    size = int(slice_s * NS)
    starts = np.arange(start, end, size, dtype=np.int64)
    if not len(starts):
        return None
    full_ends = starts + size
    return starts, np.minimum(full_ends, end), full_ends <= end


def put_dist(out, key, x, with_sum=False):
    out[key + "/avg"] = float(np.mean(x))
    out[key + "/min"] = float(np.min(x))
    out[key + "/max"] = float(np.max(x))
    out[key + "/std"] = float(np.std(x, ddof=1)) if len(x) > 1 else 0.0
    if with_sum:
        out[key + "/sum"] = float(np.sum(x))
    for name, p in zip(PNAMES, np.percentile(x, PCTS)):
        out[key + "/" + name] = float(p)


# ---------------------------------------------------------------- gauges

def gauge(out, name, rows, w):
    ts = np.array([r["ts_ns"] for r in rows], dtype=np.int64)
    v = np.array([r["value"] for r in rows], dtype=np.float64)
    keep = (ts >= w["start_ns"]) & (ts <= w["end_ns"])
    t, x = ts[keep], v[keep]
    if not len(x):
        return
    key = "gauge/" + name
    put_dist(out, key, x)
    b = slice_bounds(w["start_ns"], w["end_ns"], w["slice_s"])
    if len(x) < 2 or b is None:
        return
    k = 0
    for i, (s, e, full) in enumerate(zip(*b)):
        last = i == len(b[0]) - 1
        sel = (t >= s) & ((t <= e) if last and e == t[-1] else (t < e))
        if not sel.any():
            continue
        sk = f"{key}/slice{k}"
        out[sk + "/start_ns"] = int(s)
        out[sk + "/end_ns"] = int(e)
        out[sk + "/avg"] = float(np.mean(x[sel]))
        out[sk + "/min"] = float(np.min(x[sel]))
        out[sk + "/max"] = float(np.max(x[sel]))
        out[sk + "/complete"] = 1.0 if full else 0.0
        k += 1


# ---------------------------------------------------------------- counters

def counter(out, name, rows, w):
    ts = np.array([r["ts_ns"] for r in rows], dtype=np.int64)
    v = np.array([r["value"] for r in rows], dtype=np.float64)
    inside = np.flatnonzero((ts >= w["start_ns"]) & (ts <= w["end_ns"]))
    if not len(inside):
        return
    before = np.flatnonzero(ts < w["start_ns"])
    ref = before[-1] if len(before) else inside[0]
    last = inside[-1]
    total = max(float(v[last]) - float(v[ref]), 0.0)
    dur = int(ts[last] - ts[ref])
    key = "counter/" + name
    out[key + "/total"] = total
    out[key + "/rate"] = total / (dur / NS) if dur > 0 else 0.0
    if not w.get("slice_s"):
        return
    idx = np.concatenate([before[-1:], inside])
    st, sv = ts[idx], v[idx]
    b = slice_bounds(w["start_ns"], w["end_ns"], w["slice_s"])
    if len(st) < 2 or b is None:
        return

    def value_at(t):
        """Value of the last sample at or before t (the first if none)."""
        i = np.flatnonzero(st <= t)
        return sv[i[-1]] if len(i) else sv[0]

    rates = []
    for i, (s, e, full) in enumerate(zip(*b)):
        d = np.maximum(value_at(e) - value_at(s), 0)
        secs = (e - s) / NS
        r = d / secs if secs > 0 else 0.0
        sk = f"{key}/slice{i}"
        out[sk + "/start_ns"] = int(s)
        out[sk + "/end_ns"] = int(e)
        out[sk + "/total"] = float(d)
        out[sk + "/rate"] = float(r)
        out[sk + "/complete"] = 1.0 if full else 0.0
        if full:
            rates.append(float(r))
    if rates:
        r = np.array(rates)
        out[key + "/rate_avg"] = float(np.mean(r))
        out[key + "/rate_min"] = float(np.min(r))
        out[key + "/rate_max"] = float(np.max(r))
        out[key + "/rate_std"] = float(np.std(r, ddof=1)) if len(r) > 1 else 0.0


# ---------------------------------------------------------------- histograms

def le_value(le):
    return math.inf if le == "+Inf" else float(le)


def learn(sums, counts, cum, start):
    """Per-bucket (count, weighted mean sum, [means]) from one-bucket intervals."""
    stats = {}
    if len(sums) <= start + 1:
        return stats
    dc = np.diff(counts[start:]).astype(np.int64)
    ds = np.diff(sums[start:])
    grow = np.maximum(np.diff(cum[start:], axis=0), 0)
    per = np.maximum(np.diff(grow, axis=1, prepend=0), 0)
    for i in range(len(dc)):
        if dc[i] <= 0:
            continue
        hot = np.flatnonzero(per[i] > 0)
        if len(hot) != 1:
            continue
        mean = ds[i] / dc[i]
        c, wsum, means = stats.get(hot[0], (0, 0.0, []))
        stats[hot[0]] = (c + int(dc[i]), wsum + mean * int(dc[i]), means + [mean])
    return stats


def learned_mean_var(stats, j):
    if j not in stats or stats[j][0] == 0:
        return None, None
    c, wsum, means = stats[j]
    var = float(np.var(means, ddof=1)) if len(means) >= 3 else None
    return wsum / c, var


def place_bucket(n, lo, hi, mean, var, center):
    """Observation positions for one finite bucket."""
    width, mid = hi - lo, (lo + hi) / 2
    f = (np.arange(n) + 0.5) / n
    if mean is not None and var is not None and var > 0:
        std = float(np.sqrt(var))
        to_lo = min((mean - lo) / std, 3.0)
        to_hi = min((hi - mean) / std, 3.0)
        shaped = np.clip(np.where(f < 0.5, mean - to_lo * std * (1 - 2 * f),
                                  mean + to_hi * std * (2 * f - 1)), lo, hi)
        if 4 * std / width < 0.01:
            a = float(np.clip(mean + var / (mean - lo) if mean > lo else hi, lo, hi))
            den = var + (mean - lo) ** 2
            px = float(np.clip(var / den if den > 0 else 0.5, 0.0, 1.0))
            o = np.full(n, a)
            o[:int(n * px)] = lo
            return o
        if 4 * std / width < 0.2 and abs(mean - mid) / width < 0.3:
            flat = np.clip(lo + width * f + (mean - mid), lo, hi)
            return np.clip(0.5 * flat + 0.5 * shaped, lo, hi)
        return shaped
    return np.clip(lo + width * f + (center - mid), lo, hi)


def poly_estimate(les, deltas, stats, total_sum, total_count):
    """p1..p99 by the polynomial-histogram method, or None."""
    if total_count <= 0 or not deltas:
        return None
    if not math.isfinite(total_sum) or total_sum < 0:
        return None
    if total_sum == 0:
        return [0.0] * 9
    fin = [j for j, le in enumerate(les) if le != math.inf]
    if not fin:
        return None
    counts = [deltas[j] - (deltas[j - 1] if j else 0) for j in range(len(les))]
    if sum(counts) > MAX_OBS:
        ratio = MAX_OBS / sum(counts)
        counts = [c * ratio for c in counts]
        total_sum *= ratio
    top = les[fin[-1]]
    bounds = {j: (les[j - 1] if j else 0.0, les[j]) for j in fin}

    def mean_of(j):
        m, _ = learned_mean_var(stats, j)
        lo, hi = bounds[j]
        return m if m is not None and lo < m < hi else None

    # +Inf observations around the back-computed average
    inf_obs = np.array([])
    inf_raw = counts[-1] if les[-1] == math.inf else 0
    n_inf = int(np.ceil(inf_raw)) if inf_raw > 0 else 0
    if n_inf > 0:
        est = sum(counts[j] * (mean_of(j) if mean_of(j) is not None
                               else sum(bounds[j]) / 2)
                  for j in fin if counts[j] > 0)
        rest = total_sum - est
        avg = rest / n_inf if rest > 0 else top * 1.5
        if avg <= top:
            avg = top * 1.5
        upper = 2 * avg - top
        if upper <= top:
            upper = top * 2
        inf_obs = np.array([avg]) if n_inf == 1 else np.linspace(top, upper, n_inf)
    target = total_sum - (float(inf_obs.sum()) if len(inf_obs) else 0.0)

    # finite observations, then shifted to meet the target sum
    fc = [counts[j] for j in fin]
    tot = sum(fc)
    if tot > MAX_OBS:
        ratio = MAX_OBS / tot
        fc = [c * ratio for c in fc]
        target *= ratio
        tot = sum(fc)
    avg = target / tot if tot > 0 else 0.0
    dominant = None
    if tot > 0 and max(fc) / tot >= 0.95:
        dominant = fc.index(max(fc))
    ints = [int(c) for c in fc]
    room = sum(ints)
    parts, spans = [], []
    for k, j in enumerate(fin):
        if ints[k] <= 0 or room <= 0:
            continue
        n = min(ints[k], room)
        lo, hi = bounds[j]
        m = mean_of(j)
        _, var = learned_mean_var(stats, j)
        if k == dominant and lo < avg < hi:
            center = avg
        else:
            center = m if m is not None else (lo + hi) / 2
        parts.append(place_bucket(n, lo, hi, m, var, center))
        spans.append((lo, hi))
        room -= n
    obs_f = np.concatenate(parts) if parts else np.array([])
    gen = obs_f.sum()
    if len(obs_f) and gen > 0 and target > 0 and \
            abs(target - gen) / target >= 0.001:
        miss, at = target - gen, 0
        for part, (lo, hi) in zip(parts, spans):
            n = len(part)
            shift = np.clip(miss * (part.sum() / gen) / n, -(hi - lo) * 0.4,
                            (hi - lo) * 0.4)
            obs_f[at:at + n] = np.clip(part + shift, lo, hi)
            at += n
    obs = np.concatenate([obs_f, inf_obs])
    if not len(obs):
        return None
    return [float(p) for p in np.percentile(obs, PCTS)]


def prom_estimate(les, deltas, total):
    """Prometheus histogram_quantile interpolation as the original writes it."""
    out = []
    for q in (0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99):
        rank, lo, below, val = q * total, 0.0, 0.0, None
        for le, c in zip(les, deltas):
            if le == math.inf:
                val = lo
                break
            if c >= rank:
                val = lo if c - below == 0 else \
                    lo + (le - lo) * ((rank - below) / (c - below))
                break
            lo, below = le, c
        out.append(lo if val is None else val)
    return out


def histogram(out, name, rows, w):
    les = [le_value(x) for x in rows[0]["le"]]
    ts = np.array([r["ts_ns"] for r in rows], dtype=np.int64)
    sums = np.array([r["sum"] for r in rows], dtype=np.float64)
    counts = np.array([r["count"] for r in rows], dtype=np.float64)
    cum = np.array([r["cum"] for r in rows], dtype=np.float64)
    before = np.flatnonzero(ts < w["start_ns"])
    upto = np.flatnonzero(ts <= w["end_ns"])
    ref = int(before[-1]) if len(before) else 0
    fin = int(upto[-1]) if len(upto) else len(ts) - 1
    key = "histogram/" + name
    count = int(counts[fin] - counts[ref])
    total = float(sums[fin] - sums[ref])
    d = cum[fin] - cum[ref]
    deltas = None if (d < 0).any() else [int(x) for x in d]
    out[key + "/count"] = float(count)
    if deltas is not None:
        for j, x in enumerate(deltas):
            out[f"{key}/bucket{j}"] = float(x)
    if count == 0:
        return
    out[key + "/sum"] = total
    out[key + "/avg"] = total / count
    dur = int(ts[fin] - ts[ref])
    if dur > 0:
        out[key + "/count_rate"] = count / (dur / NS)
        out[key + "/sum_rate"] = total / (dur / NS)
    if deltas:
        est = poly_estimate(les, deltas, learn(sums, counts, cum, ref), total, count)
        if est is not None:
            for n, p in zip(PNAMES, est):
                out[f"{key}/{n}_estimate"] = p
        for n, p in zip(PNAMES, prom_estimate(les, deltas, count)):
            out[f"{key}/prom_{n}"] = p
    b = slice_bounds(w["start_ns"], w["end_ns"], w["slice_s"])
    if not w.get("slice_s") or fin <= ref or b is None:
        return
    k = 0
    for s, e, full in zip(*b):
        i0 = max(np.searchsorted(ts, s, side="right") - 1, 0)
        i1 = max(np.searchsorted(ts, e, side="right") - 1, 0)
        sd, cd = sums[i1] - sums[i0], counts[i1] - counts[i0]
        if sd < 0 or cd < 0:
            continue
        sk = f"{key}/slice{k}"
        out[sk + "/start_ns"] = int(s)
        out[sk + "/end_ns"] = int(e)
        out[sk + "/count"] = float(int(cd))
        out[sk + "/sum"] = float(sd)
        out[sk + "/avg"] = float(sd / cd) if cd > 0 else 0.0
        out[sk + "/complete"] = 1.0 if full else 0.0
        bd = cum[i1] - cum[i0]
        if not (bd < 0).any():
            for j, x in enumerate(bd):
                out[f"{sk}/bucket{j}"] = float(int(x))
        k += 1


# ---------------------------------------------------------------- units

SUFFIX_UNITS = {
    "_seconds": "seconds", "_seconds_total": "seconds",
    "_milliseconds": "milliseconds", "_ms": "milliseconds",
    "_ms_total": "milliseconds", "_nanoseconds": "nanoseconds",
    "_ns": "nanoseconds", "_ns_total": "nanoseconds", "_bytes": "bytes",
    "_kilobytes": "kilobytes", "_megabytes": "megabytes",
    "_gigabytes": "gigabytes", "_bytes_total": "bytes", "_total": "count",
    "_count": "count", "_tokens": "tokens", "_tokens_total": "tokens",
    "_requests": "requests", "_requests_total": "requests",
    "request_success": "requests", "_errors": "errors",
    "_errors_total": "errors", "_error_count": "errors",
    "_error_count_total": "errors", "_reqs": "requests", "_blocks": "blocks",
    "_blocks_total": "blocks", "_block_count": "blocks", "_gb_s": "gb/s",
    "_ratio": "ratio", "_percent": "percent", "_perc": "percent",
    "_celsius": "celsius", "_joules": "joule", "_watts": "watt",
}
DASH = "(?:[-\u2013\u2014]+|to)"
RATIO = re.compile(
    rf"\(0(?:\.0)?\s*{DASH}\s*1(?:\.0)?\)|\b0(?:\.0)?\s*{DASH}\s*1(?:\.0)?\b"
    rf"|\brange\s+0(?:\.0)?\s*{DASH}\s*1(?:\.0)?\b"
    r"|(?:\b|\()1(?:\.0)?\s*(?:means|is|equals?|==?)\s*100\s*(?:%|percent)",
    re.IGNORECASE)
PERCENT = re.compile(
    rf"\(0(?:\.0)?\s*{DASH}\s*100(?:\.0)?\)|\brange\s+0\s*{DASH}\s*100\b"
    rf"|\b0\s*{DASH}\s*100\s*%", re.IGNORECASE)
TAGS = {"MiB": "megabytes", "GiB": "gigabytes", "KiB": "kilobytes",
        "B": "bytes", "MB": "megabytes", "GB": "gigabytes",
        "KB": "kilobytes", "TB": "terabytes", "C": "celsius",
        "\u00b0C": "celsius", "F": "fahrenheit", "\u00b0F": "fahrenheit",
        "K": "kelvin", "Hz": "hertz", "MHz": "megahertz", "GHz": "gigahertz",
        "W": "watt", "mW": "milliwatt", "J": "joule", "mJ": "millijoule",
        "MJ": "megajoule", "s": "seconds", "sec": "seconds",
        "ms": "milliseconds", "ns": "nanoseconds", "us": "microseconds",
        "\u00b5s": "microseconds", "GB/s": "gb/s", "MB/s": "mb/s",
        "%": "percent", "percent": "percent"}
IN = r"(?:\bin\s+|\()"
PHRASES = [(re.compile(p, re.IGNORECASE), u) for p, u in [
    (IN + r"seconds?(?:\b|\))", "seconds"),
    (IN + r"(?:milliseconds?|ms)(?:\b|\))", "milliseconds"),
    (IN + r"(?:nanoseconds?|ns)(?:\b|\))", "nanoseconds"),
    (IN + r"bytes?(?:\b|\))", "bytes"),
    (IN + r"GB/s(?:\b|\))", "gb/s"),
    (IN + r"MB/s(?:\b|\))", "mb/s"),
    (IN + r"tokens?/s(?:ec(?:ond)?)?(?:\b|\))", "tokens/s"),
    (IN + r"requests?/s(?:ec(?:ond)?)?(?:\b|\))", "requests/s"),
    (r"\bin\s+tokens?\b", "tokens"),
]]


def unit_of(name, help_text):
    if help_text:
        if RATIO.search(help_text):
            return "ratio"
        if PERCENT.search(help_text):
            return "percent"
        m = re.search(r"\(in\s+([^\s)]+)\)", help_text)
        if m and m.group(1).strip() in TAGS:
            return TAGS[m.group(1).strip()]
        for pat, u in PHRASES:
            if pat.search(help_text):
                return u
    low = name.lower()
    for suf in sorted(SUFFIX_UNITS, key=len, reverse=True):
        if low.endswith(suf):
            return SUFFIX_UNITS[suf]
    return "requests" if "num_requests_" in low else ""


# ---------------------------------------------------------------- GPUs

DCGM = {  # field: (key, scale, cumulative)
    "DCGM_FI_DEV_POWER_USAGE": ("gpu_power_usage", 1, False),
    "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": ("energy_consumption", 1e-9, True),
    "DCGM_FI_DEV_GPU_UTIL": ("gpu_utilization", 1, False),
    "DCGM_FI_DEV_MEM_COPY_UTIL": ("mem_utilization", 1, False),
    "DCGM_FI_DEV_FB_USED": ("gpu_memory_used", 1.048576e-3, False),
    "DCGM_FI_DEV_GPU_TEMP": ("gpu_temperature", 1, False),
    "DCGM_FI_DEV_ENC_UTIL": ("encoder_utilization", 1, False),
    "DCGM_FI_DEV_DEC_UTIL": ("decoder_utilization", 1, False),
    "DCGM_FI_PROF_SM_ACTIVE": ("sm_utilization", 100, False),
    "DCGM_FI_DEV_XID_ERRORS": ("xid_errors", 1, True),
    "DCGM_FI_DEV_POWER_VIOLATION": ("power_violation", 1e-3, True),
}


def gpu(out, name, rows, w):
    gpu_id, field = name.split("/", 1)
    field = field[:-len("_total")] if field.endswith("_total") else field
    if field not in DCGM:
        return
    mkey, scale, cumulative = DCGM[field]
    ts = np.array([r["ts_ns"] for r in rows], dtype=np.int64)
    v = np.array([r["value"] * scale for r in rows], dtype=np.float64)
    inside = ts >= w["start_ns"]          # the GPU export has no end bound
    if not inside.any():
        return
    key = f"gpu/{gpu_id}/{mkey}"
    x = v[inside]
    if cumulative:
        earlier = v[~inside]
        base = earlier[-1] if len(earlier) else x[0]
        out[key + "/avg"] = max(float(x[-1] - base), 0.0)
        return
    put_dist(out, key, x, with_sum=True)
    out[key + "/count"] = float(len(x))


# ---------------------------------------------------------------- compare

def reference(path):
    w, series = load(path)
    out = {}
    kinds = {"gauge": gauge, "counter": counter, "histogram": histogram,
             "dcgm": gpu}
    for (kind, name), s in series.items():
        kinds[kind](out, name, s["rows"], w)
        if kind != "dcgm":
            out["unit/" + name] = unit_of(name, s["help"])
    return out


def same(a, b):
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=0.0)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    path, binary = sys.argv[1], sys.argv[2]
    want = reference(path)
    got = json.loads(subprocess.run([binary, "--dump", path], check=True,
                                    capture_output=True, text=True).stdout)
    bad = 0
    for k in sorted(set(want) | set(got)):
        if k not in got or k not in want:
            print(f"srvagg-ref: {k}: only in {'reference' if k in want else 'C'}",
                  file=sys.stderr)
            bad += 1
        elif not same(want[k], got[k]):
            print(f"srvagg-ref: {k}: reference {want[k]!r}, C {got[k]!r}",
                  file=sys.stderr)
            bad += 1
    print(f"# srvagg-ref: {len(want)} values compared, {bad} differ")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
