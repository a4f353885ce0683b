#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check aiperf-plot's data blocks against values computed here, with numpy,
from the artifact files themselves (t0850).

Usage: plot-check.py single RUNDIR PLOTDIR
       plot-check.py records RUNDIR PLOTDIR
       plot-check.py multi PLOTDIR RUNDIR...

"records": the plots made from RUNDIR/profile_export.jsonl alone, as
given to aiperf-plot on stdin, and the summary table computed from them.
"single" checks the timeslice, GPU and server plots where RUNDIR has the
files; server series without timeslices are checked as overall bars.

Each plot's data/NAME.dat must hold, block by block, the rows computed
here (numbers to 1e-9 relative, counts and labels exactly), and the set of
plots must be exactly the expected one. Prints one line per plot checked;
exits 1 on the first difference.
"""
import json
import math
import os
import re
import shlex
import sys

import numpy as np


def fail(msg):
    print("plot-check: " + msg)
    sys.exit(1)


def read_dat(plotdir, name):
    """The data blocks of NAME.dat: lists of rows of words."""
    text = open(os.path.join(plotdir, "data", name + ".dat")).read()
    blocks = []
    for chunk in text.split("\n\n\n"):
        rows = [shlex.split(line) for line in chunk.split("\n")
                if line.strip() and not line.startswith("#")]
        blocks.append(rows)
    if blocks and not blocks[-1]:
        blocks.pop()
    return blocks


def same(a, b):
    if isinstance(b, str):
        return a == b
    return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)


def check(plotdir, name, want):
    got = read_dat(plotdir, name)
    # blocks with no rows are written too: compare only as many as wanted
    if len(got) != len(want):
        fail("%s: %d blocks, want %d" % (name, len(got), len(want)))
    for b, (g, w) in enumerate(zip(got, want)):
        if len(g) != len(w):
            fail("%s block %d: %d rows, want %d" % (name, b, len(g), len(w)))
        for r, (gr, wr) in enumerate(zip(g, w)):
            if len(gr) != len(wr) or not all(same(x, y) for x, y in zip(gr, wr)):
                fail("%s block %d row %d: %s, want %s" % (name, b, r, gr, wr))
    print("ok %s: %d blocks, %d rows" % (name, len(want), sum(len(w) for w in want)))


def records(rundir):
    out = []
    for line in open(os.path.join(rundir, "profile_export.jsonl")):
        if not line.strip():
            continue
        rec = json.loads(line)
        if rec.get("error"):
            continue
        out.append(rec)
    return out


def value(rec, metric):
    m = rec["metrics"].get(metric)
    return None if m is None else m["value"]


def histogram(plotdir, name, values):
    counts, edges = np.histogram(np.array(values), bins=20)
    rows = [[(edges[i] + edges[i + 1]) / 2, int(counts[i]), edges[i], edges[i + 1]]
            for i in range(20)]
    check(plotdir, name, [rows])


def single(rundir, plotdir, only_records=False):
    recs = records(rundir)
    t0 = min(r["metadata"]["request_start_ns"] for r in recs)
    start = [(r["metadata"]["request_start_ns"] - t0) / 1e9 for r in recs]
    end = [(r["metadata"]["request_end_ns"] - t0) / 1e9 for r in recs]
    made = set()

    histogram(plotdir, "ttft_histogram", [value(r, "time_to_first_token") for r in recs])
    histogram(plotdir, "request_latency_histogram", [value(r, "request_latency") for r in recs])
    made |= {"ttft_histogram", "request_latency_histogram"}

    icl = [value(r, "inter_chunk_latency") or [] for r in recs]
    n = max(len(x) for x in icl)
    rows = []
    for i in range(n):
        at = np.array([x[i] for x in icl if len(x) > i])
        rows.append([i + 2, at.mean(), len(at)])
    check(plotdir, "itl_by_position", [rows])
    made.add("itl_by_position")

    # the original's percentile lines: by start time (stable), the p50, p95
    # and p99 of the last 10 request latencies (fewer at first), as pandas'
    # rolling(10, min_periods=1).quantile
    lat = sorted(((s, value(r, "request_latency")) for s, r in zip(start, recs)
                  if value(r, "request_latency") is not None), key=lambda x: x[0])
    roll = [[[lat[i][0], float(np.percentile([v for _, v in lat[max(0, i - 9):i + 1]], p))]
             for i in range(len(lat))] for p in (50, 95, 99)]
    check(plotdir, "latency_over_time", [
        [[s, value(r, "request_latency")] for s, r in zip(start, recs)],
        [[s, value(r, "time_to_first_token")] for s, r in zip(start, recs)],
    ] + roll)
    made.add("latency_over_time")

    # per request, against its start; the request's number in the file
    for name, metric in (("ttft_over_time", "time_to_first_token"),
                         ("itl_over_time", "inter_token_latency")):
        check(plotdir, name, [[[s, value(r, metric), i + 1]
                               for i, (s, r) in enumerate(zip(start, recs))
                               if value(r, metric) is not None]])
        made.add(name)

    # dispersed throughput: a request generates osl / (end - first token)
    # tokens/s from its first token (start + TTFT) to its end, nothing
    # before; at time 0 and at every first-token and end time, the sum of
    # the rates of the requests generating then (first <= t < end)
    gen = []
    for s, e, r in zip(start, end, recs):
        ttft = value(r, "time_to_first_token")
        osl = value(r, "output_sequence_length")
        if osl is None:
            osl = value(r, "output_token_count")
        if ttft is None or not osl or osl <= 0:
            continue
        first = s + ttft / 1000
        if e > first:
            gen.append((first, e, osl / (e - first)))
    times = sorted({0.0} | {g[0] for g in gen} | {g[1] for g in gen})
    disp = []
    for t in times:
        y = 0.0
        for a, b, c in gen:
            if a <= t < b:
                y += c
        disp.append([t, y])
    check(plotdir, "dispersed_throughput_over_time", [disp])
    made.add("dispersed_throughput_over_time")

    # the timeline: each request a segment at its number, TTFT then the rest
    pre, post = [], []
    for i, (s, e, r) in enumerate(zip(start, end, recs)):
        ttft = value(r, "time_to_first_token")
        first = s if ttft is None else s + ttft / 1000
        if ttft is not None:
            pre += [[s, i + 1], [first, i + 1]]
        post += [[first, i + 1], [e, i + 1]]
    check(plotdir, "ttft_timeline", [pre, post])
    made.add("ttft_timeline")

    span = max(end)
    nb, w = (20, span / 20) if span < 20 else (int(math.floor(span)) + 1, 1.0)
    k = np.clip(np.floor(np.array(end) / w).astype(int), 0, nb - 1)
    osl = np.array([value(r, "output_sequence_length") for r in recs], dtype=float)
    tok = np.bincount(k, weights=osl, minlength=nb)
    req = np.bincount(k, minlength=nb)
    check(plotdir, "throughput_over_time",
          [[[i * w, (i + 1) * w, tok[i] / w, req[i] / w] for i in range(nb)]])
    made.add("throughput_over_time")
    if only_records:
        return made

    tsfile = os.path.join(rundir, "profile_export_aiperf_timeslices.json")
    if os.path.exists(tsfile):
        ts = json.load(open(tsfile))
        dur = ts["input_config"]["output"]["slice_duration"]

        def slices(metric):
            return [[s["timeslice_index"] * dur, s[metric]["avg"]]
                    for s in ts["timeslices"] if metric in s]
        check(plotdir, "timeslices_latency", [slices("time_to_first_token"),
                                              slices("inter_token_latency"),
                                              slices("request_latency")])
        check(plotdir, "timeslices_throughput", [slices("output_token_throughput"),
                                                 slices("request_throughput")])
        made |= {"timeslices_latency", "timeslices_throughput"}

    gpus = {}
    for line in open(os.path.join(rundir, "gpu_telemetry_export.jsonl")):
        g = json.loads(line)
        gpus.setdefault("%s %s" % (g["dcgm_url"], g["gpu_index"]), []).append(g)
    for name, field in (("gpu_utilization", "gpu_utilization"), ("gpu_power", "gpu_power_usage"),
                        ("gpu_memory_used", "gpu_memory_used")):
        check(plotdir, name, [[[(s["timestamp_ns"] - t0) / 1e9, s["telemetry_data"][field]]
                               for s in samples if field in s["telemetry_data"]]
                              for samples in gpus.values()])
        made.add(name)
    check(plotdir, "gpu_utilization_and_throughput_over_time",
          [disp] + [[[(s["timestamp_ns"] - t0) / 1e9, s["telemetry_data"]["gpu_utilization"]]
                     for s in samples if "gpu_utilization" in s["telemetry_data"]]
                    for samples in gpus.values()])
    made.add("gpu_utilization_and_throughput_over_time")

    srv = json.load(open(os.path.join(rundir, "server_metrics_export.json")))["metrics"]
    for name, typ, field in (("server_counter_rates", "counter", "rate"),
                             ("server_gauges", "gauge", "avg")):
        blocks = []
        for m in srv.values():
            if m["type"] != typ:
                continue
            for s in m["series"]:
                if not s.get("timeslices") or len(blocks) == 12:
                    continue
                if typ == "counter" and not s["stats"]["total"] > 0:
                    continue
                blocks.append([[(sl["start_ns"] - t0) / 1e9, sl[field]]
                               for sl in s["timeslices"]])
        if blocks:
            check(plotdir, name, blocks)
            made.add(name)

    def title(name, s):
        labels = s.get("labels") or {}
        t = name + ("" if not labels else
                    " {" + ",".join("%s=%s" % kv for kv in labels.items()) + "}")
        return t.replace('"', "'")

    # without timeslices: one bar a series, over the whole run
    for name, typ in (("server_counter_overall", "counter"), ("server_gauge_overall", "gauge")):
        rows = []
        for mname, m in srv.items():
            if m["type"] != typ:
                continue
            for s in m["series"]:
                st = s["stats"]
                if s.get("timeslices") or len(rows) == 12:
                    continue
                if typ == "counter" and not st["total"] > 0:
                    continue
                if typ == "counter":
                    rows.append([len(rows), st["rate"], title(mname, s), st["total"]])
                else:
                    rows.append([len(rows), st["avg"], title(mname, s), st["min"], st["max"]])
        if rows:
            check(plotdir, name, [rows])
            made.add(name)

    # histograms: estimated percentiles; per-bucket counts from the cumulative
    # ones, a plot per metric
    pcts, bks = [], {}
    for mname, m in srv.items():
        if m["type"] != "histogram":
            continue
        for s in m["series"]:
            if not s["stats"]["count"] > 0 or len(pcts) == 12:
                continue
            pcts.append([[i, s["stats"][p + "_estimate"], p] for i, p in enumerate(
                ("p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99"))])
            le = list(s["buckets"].items())
            cum = np.array([c for _, c in le], dtype=float)
            per = np.diff(np.concatenate(([0.0], cum)))
            name = "server_histogram_buckets_" + re.sub(r"[^A-Za-z0-9_-]", "_", mname)
            bks.setdefault(name, []).append([[i, per[i], k] for i, (k, _) in enumerate(le)])
    if pcts:
        check(plotdir, "server_histogram_percentiles", pcts)
        made.add("server_histogram_percentiles")
    for name, blocks in bks.items():
        check(plotdir, name, blocks)
        made.add(name)
    return made


def summary_from_records(rundir, plotdir):
    """The report's table of a run read on stdin: numpy over the records."""
    recs = records(rundir)
    html = open(os.path.join(plotdir, "report.html")).read()
    n = 0
    for metric in ("time_to_first_token", "request_latency", "inter_token_latency",
                   "output_sequence_length"):
        v = np.array([value(r, metric) for r in recs if value(r, metric) is not None])
        want = [v.mean(), v.min(), v.max(), np.percentile(v, 50), np.percentile(v, 90),
                np.percentile(v, 99), v.std()]
        unit = recs[0]["metrics"][metric]["unit"]
        row = "<tr><td>%s</td><td>%s</td>%s</tr>" % (
            metric, unit, "".join("<td>%.2f</td>" % x for x in want))
        if row not in html:
            fail("report.html: no row %s" % row)
        n += 1
    print("ok summary from records: %d metrics" % n)


def multi(plotdir, rundirs):
    runs = []
    for d in rundirs:
        agg = json.load(open(os.path.join(d, "profile_export_aiperf.json")))
        c = agg["input_config"]["loadgen"].get("concurrency", -1)
        runs.append((c, d.rstrip("/"), agg))
    runs.sort(key=lambda r: (r[0], r[1]))
    names = [os.path.basename(d) for _, d, _ in runs]
    made = set()

    pts = sorted((a["output_token_throughput"]["avg"],
                  a["output_token_throughput_per_user"]["avg"], "c=%d" % c)
                 for c, _, a in runs)
    front = [p for p in pts if not any(q[0] >= p[0] and q[1] >= p[1] and
                                       (q[0] > p[0] or q[1] > p[1]) for q in pts)]
    check(plotdir, "pareto", [[list(p) for p in pts], [list(p) for p in front]])
    made.add("pareto")

    for metric in ("time_to_first_token", "inter_token_latency", "request_latency",
                   "output_token_throughput_per_user"):
        check(plotdir, "compare_" + metric,
              [[[i, a[metric][stat], names[i]] for i, (_, _, a) in enumerate(runs)]
               for stat in ("avg", "p50", "p90", "p99")])
        made.add("compare_" + metric)
    # TTFT avg against request throughput avg, one labelled point a run,
    # in run order (by concurrency)
    check(plotdir, "ttft_vs_throughput",
          [[[a["time_to_first_token"]["avg"], a["request_throughput"]["avg"], "c=%d" % c]
            for c, _, a in runs]])
    made.add("ttft_vs_throughput")

    # per GPU (the GPUs of telemetry_data), only when every run has some
    def ngpus(a):
        eps = (a.get("telemetry_data") or {}).get("endpoints") or {}
        return sum(len(e.get("gpus") or {}) for e in eps.values())
    if all(ngpus(a) for _, _, a in runs):
        tpg = [a["output_token_throughput"]["avg"] / ngpus(a) for _, _, a in runs]
        for name, xs, ys, xlow in (
                ("pareto_curve_throughput_per_gpu_vs_latency",
                 [a["request_latency"]["avg"] for _, _, a in runs], tpg, True),
                ("pareto_curve_throughput_per_gpu_vs_interactivity", tpg,
                 [a["output_token_throughput_per_user"]["avg"] for _, _, a in runs], False)):
            pts = sorted(zip(xs, ys, ["c=%d" % c for c, _, _ in runs]))
            sx = -1 if xlow else 1
            front = [p for p in pts if not any(
                sx * q[0] >= sx * p[0] and q[1] >= p[1] and (q[0] != p[0] or q[1] > p[1])
                for q in pts)]
            check(plotdir, name, [[list(p) for p in pts], [list(p) for p in front]])
            made.add(name)

    check(plotdir, "compare_throughput",
          [[[i, a[m]["avg"], names[i]] for i, (_, _, a) in enumerate(runs)]
           for m in ("output_token_throughput", "request_throughput")])
    made.add("compare_throughput")
    return made


def main():
    if sys.argv[1] in ("single", "records"):
        plotdir = sys.argv[3]
        made = single(sys.argv[2], plotdir, sys.argv[1] == "records")
        if sys.argv[1] == "records":
            summary_from_records(sys.argv[2], plotdir)
    else:
        plotdir = sys.argv[2]
        made = multi(plotdir, sys.argv[3:])
    have = {f[:-4] for f in os.listdir(os.path.join(plotdir, "data")) if f.endswith(".dat")}
    if have != made:
        fail("plots %s, want %s" % (sorted(have), sorted(made)))
    for name in made:
        for ext in ("png", "svg"):
            p = os.path.join(plotdir, name + "." + ext)
            if not os.path.isfile(p) or os.path.getsize(p) < 1000:
                fail("%s missing or nearly empty" % p)
        with open(os.path.join(plotdir, name + ".png"), "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n":
                fail("%s.png is not a PNG" % name)
    print("ok %d plots, each with a PNG and an SVG" % len(made))


main()
