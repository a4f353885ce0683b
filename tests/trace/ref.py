#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Independent reference for aiperf-trace (Python 3 stdlib only).

Written from the behaviour described in aiperf-spec.md section 7 (the
original's prefix_analyzer.py and synthesizer.py), with lists in memory as
the original keeps them, numpy's pairwise summation, population std, linear
percentiles and np.median done by hand. Used by tests/cli/t05*-trace-*.sh.

  ref.py analyze [--block-size N] FILE      -> the JSON report
  ref.py synthesize [options] FILE          -> mooncake JSONL (compact)
  ref.py compare A.json B.json              -> exit 1 on a difference
"""
import argparse
import hashlib
import json
import math
import random
import statistics
import sys
from collections import Counter


def pairwise(a, lo, n):
    if n < 8:
        s = 0.0
        for i in range(n):
            s += a[lo + i]
        return s
    if n <= 128:
        r = [a[lo + j] for j in range(8)]
        i = 8
        while i < n - (n % 8):
            for j in range(8):
                r[j] += a[lo + i + j]
            i += 8
        s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        while i < n:
            s += a[lo + i]
            i += 1
        return s
    n2 = n // 2
    n2 -= n2 % 8
    return pairwise(a, lo, n2) + pairwise(a, lo + n2, n - n2)


def np_mean(v):
    return pairwise([float(x) for x in v], 0, len(v)) / len(v)


def np_std(v):
    m = np_mean(v)
    d = [(float(x) - m) * (float(x) - m) for x in v]
    return math.sqrt(pairwise(d, 0, len(d)) / len(d))


def lerp(a, b, t):
    diff = b - a
    return b - diff * (1 - t) if t >= 0.5 else a + diff * t


def np_percentile(v, p):
    s = sorted(float(x) for x in v)
    idx = (len(s) - 1) * (p / 100)
    lo = math.floor(idx)
    hi = min(lo + 1, len(s) - 1)
    return lerp(s[lo], s[hi], idx - lo)


def np_median(v):
    s = sorted(float(x) for x in v)
    n = len(s)
    if n % 2:
        return s[n // 2]
    return (s[n // 2 - 1] + s[n // 2]) / 2


def metric(v):
    if not v:
        return None
    return {"mean": np_mean(v), "std_dev": np_std(v), "min": float(min(v)),
            "p25": np_percentile(v, 25), "median": np_median(v),
            "p75": np_percentile(v, 75), "max": float(max(v))}


def read_traces(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                out.append(json.loads(line))
    return out


def analyze(traces, block):
    isls, osls, per = [], [], []
    prefixes, positions = Counter(), Counter()
    for t in traces:
        isl, osl, h = t.get("input_length", 0), t.get("output_length", 0), t.get("hash_ids", [])
        isls.append(isl)
        osls.append(osl)
        per.append(h or [])
        for i in range(1, len(h or []) + 1):
            prefixes[tuple(h[:i])] += 1
        for pos, x in enumerate(h or []):
            positions[(pos, x)] += 1
    repeated = {k for k, c in positions.items() if c > 1}
    ctx, uniq = [], []
    for isl, h in zip(isls, per):
        if not h:
            ctx.append(0)
            uniq.append(isl)
            continue
        rep = [(p, x) in repeated for p, x in enumerate(h)]
        c = isl if all(rep) else sum(rep) * block
        ctx.append(c)
        uniq.append(isl - c)
    seen, hits = set(), []
    for h in per:
        if not h:
            continue
        first = len(h)
        for i, x in enumerate(h):
            if x not in seen:
                first = i
                break
        hits.append(first / len(h))
        seen.update(h)
    firsts = Counter(h[0] for h in per if h)
    total = sum(prefixes.values())
    reused = sum(c for c in prefixes.values() if c > 1)
    return {
        "total_requests": len(isls),
        "unique_prefixes": len(prefixes),
        "num_prefix_groups": sum(1 for c in firsts.values() if c > 1),
        "cache_hit_rate": statistics.mean(hits) if hits else 0.0,
        "min_isl": min(isls) if isls else 0,
        "max_isl": max(isls) if isls else 0,
        "avg_isl": sum(isls) / len(isls) if isls else 0.0,
        "min_osl": min(osls) if osls else 0,
        "max_osl": max(osls) if osls else 0,
        "avg_osl": sum(osls) / len(osls) if osls else 0.0,
        "prefix_reuse_ratio": reused / total if total else 0.0,
        "isl_stats": metric(isls),
        "osl_stats": metric(osls),
        "context_length_stats": metric(ctx),
        "unique_prompt_length_stats": metric(uniq),
        "hit_rate_stats": metric(hits),
    }


def pyfloat(x):
    """pydantic's float text: repr with exponents as 1e-7 / 1e+16."""
    r = repr(float(x))
    if "e" in r:
        m, e = r.split("e")
        sign = e[0]
        r = m + "e" + sign + e[1:].lstrip("0")
    return r


def dump(v, ind=0):
    sp = "  " * (ind + 1)
    if isinstance(v, dict):
        items = [f'{sp}{json.dumps(k)}: {dump(x, ind + 1)}' for k, x in v.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * ind + "}"
    if v is None:
        return "null"
    if isinstance(v, float):
        return pyfloat(v)
    return json.dumps(v)


def load_filter(traces, a):
    """aiperf profile's trace loader: drop lines over max_isl, cap output_length."""
    out = []
    for t in traces:
        if a.max_isl is not None and t.get("input_length") is not None and t["input_length"] > a.max_isl:
            continue
        if a.max_osl is not None and t.get("output_length") is not None and t["output_length"] > a.max_osl:
            t["output_length"] = a.max_osl
        out.append(t)
    return out


def synthesize(traces, a):
    B = a.block_size
    counts = Counter(h for t in traces for h in (t.get("hash_ids") or []))
    shared = {h for h, c in counts.items() if c > 1}
    m = int(a.prefix_len_multiplier) if a.prefix_len_multiplier > 1.0 else 1
    max_id = [((max(shared) if shared else 0) + 1) * m]

    def fresh(ids, n):
        if n > 0:
            ids.extend(range(max_id[0] + 1, max_id[0] + 1 + n))
            max_id[0] += n

    results, lens = [], []
    for t in traces:
        ids, isl = t.get("hash_ids") or [], t.get("input_length", 0)
        if not ids:
            results.append([])
            lens.append(isl)
            continue
        prefix = []
        for h in ids:
            if h not in shared:
                break
            prefix.append(h)
        plen = len(prefix) * B
        prompt = isl - plen
        if prompt < 0 and getattr(a, "strict", True):
            raise SystemExit("prompt_len < 0")
        if prompt < 0:  # aiperf-trace(1): the prefix is the whole input
            plen, prompt = isl, 0
            a.clamped = getattr(a, "clamped", 0) + 1
        pm = a.prefix_len_multiplier
        if pm > 1.0:
            st = [h * m + j for h in prefix for j in range(m)]
            fresh(st, math.ceil(len(prefix) * pm) - len(st))
            npl = len(st) * B
        elif pm < 1.0:
            k = max(1, int(len(prefix) * pm))
            st = prefix[:k]
            npl = k * B
        else:
            st = prefix[:]
            npl = plen
        nprompt = int(prompt * a.prompt_len_multiplier)
        fresh(st, (nprompt + B - 1) // B)
        results.append(st)
        lens.append(npl + nprompt)
    if a.prefix_root_multiplier > 1:
        seed = int.from_bytes(hashlib.sha256(
            f"{a.random_seed}:dataset.synthesis.synthesizer".encode()).digest()[:8], "big")
        rng = random.Random(seed)
        base = max_id[0] + 1
        for i, ids in enumerate(results):
            if ids:
                k = rng.randint(0, a.prefix_root_multiplier - 1)
                if k > 0:
                    results[i] = [h + k * base for h in ids]
    out = []
    for t, ids, isl in zip(traces, results, lens):
        s = dict(t)
        if not ids:
            isl = t.get("input_length", B)
            s.pop("hash_ids", None)
        else:
            s["hash_ids"] = ids
        if a.max_isl and isl > a.max_isl:
            isl = a.max_isl
        if t.get("text_input") is None and t.get("messages") is None:
            s["input_length"] = isl
        ts = t.get("timestamp")
        if ts is not None and a.speedup_ratio > 0:
            s["timestamp"] = int(ts / a.speedup_ratio)
        out.append(s)
    return out


def ulps(a, b):
    return abs(a - b) / math.ulp(max(abs(a), abs(b)) or 1.0)


def compare(x, y):
    bad = 0
    for k in x:
        if isinstance(x[k], dict) and isinstance(y.get(k), dict):
            for f in x[k]:
                p, q = x[k][f], y[k][f]
                lax = f == "std_dev" or (k == "hit_rate_stats" and f == "mean")
                if p != q and not (lax and ulps(p, q) <= 4):
                    print(f"{k}.{f}: {p!r} != {q!r}")
                    bad = 1
                elif p != q:
                    print(f"# {k}.{f}: {p!r} vs {q!r} ({ulps(p, q):.0f} ulp)")
        elif x[k] != y.get(k) or type(x[k]) is not type(y.get(k)):
            print(f"{k}: {x[k]!r} != {y.get(k)!r}")
            bad = 1
    if list(x) != list(y):
        print("key order differs")
        bad = 1
    return bad


def main():
    p = argparse.ArgumentParser()
    p.add_argument("cmd")
    p.add_argument("files", nargs="*")
    p.add_argument("--block-size", type=int, default=512)
    p.add_argument("--speedup-ratio", type=float, default=1.0)
    p.add_argument("--prefix-len-multiplier", type=float, default=1.0)
    p.add_argument("--prefix-root-multiplier", type=int, default=1)
    p.add_argument("--prompt-len-multiplier", type=float, default=1.0)
    p.add_argument("--max-isl", type=int, default=None)
    p.add_argument("--max-osl", type=int, default=None)
    p.add_argument("--random-seed", type=int, default=0)
    p.add_argument("--group-sessions", action="store_true")
    p.add_argument("--strict", action="store_true")
    a = p.parse_intermixed_args()
    if a.cmd == "analyze":
        print(dump(analyze(read_traces(a.files[0]), a.block_size)))
    elif a.cmd == "synthesize":
        traces = load_filter(read_traces(a.files[0]), a)
        if a.group_sessions:
            groups = {}
            for i, t in enumerate(traces):
                groups.setdefault(t.get("session_id") or f"\0{i}", []).append(t)
            traces = [t for g in groups.values() for t in g]
        for t in synthesize(traces, a):
            print(json.dumps(t, separators=(",", ":")))
    elif a.cmd == "compare":
        x = json.load(open(a.files[0]))
        y = json.load(open(a.files[1]))
        sys.exit(compare(x, y))


if __name__ == "__main__":
    main()
