#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""aggregate-check.py AGG_DIR LEVEL RUN_DIR...: recomputes with numpy and
scipy.stats.t what aiperf-aggregate wrote in AGG_DIR from the successful
runs among RUN_DIR... (those with a profile_export_aiperf.json and no
non-zero exit_status), and checks every number (1e-9, relative where the
value is large), the key order of the JSON and the CSV's text. Prints what
differs; exits 1 if anything does."""
import csv
import io
import json
import math
import os
import sys

import numpy as np
from scipy import stats

STATS = ["avg", "min", "max", "sum", "p1", "p5", "p10", "p25", "p50", "p75",
         "p90", "p95", "p99", "std"]
FIELDS = ["mean", "std", "min", "max", "cv", "se", "ci_low", "ci_high",
          "t_critical", "unit"]
bad = []


def ok_run(d):
    st = os.path.join(d, "exit_status")
    if os.path.exists(st) and open(st).read().strip() not in ("0", "3"):
        return False
    try:
        doc = json.load(open(os.path.join(d, "profile_export_aiperf.json")))
    except (OSError, ValueError):
        return False
    return isinstance(doc, dict)


def close(a, b, scale=0.0):
    if a is None or b is None:
        return a is b
    return abs(a - b) <= 1e-9 * max(1.0, abs(b), scale)


def expected(runs, level):
    pairs, vals, units = [], {}, {}
    for d in runs:
        doc = json.load(open(os.path.join(d, "profile_export_aiperf.json")))
        for name, m in doc.items():
            if not isinstance(m, dict) or "unit" not in m:
                continue
            for s in STATS:
                v = m.get(s)
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    key = name + "_" + s
                    if key not in vals:
                        pairs.append(key)
                        vals[key] = []
                        units[key] = m["unit"]
                    vals[key].append(float(v))
    out = {}
    for key in pairs:
        v = np.array(vals[key])
        n = len(v)
        mean = float(np.mean(v))
        std = float(np.std(v, ddof=1)) if n > 1 else None
        t = float(stats.t.ppf(1 - (1 - level) / 2, n - 1)) if n > 1 else None
        se = std / math.sqrt(n) if std is not None else None
        cv = (std / mean if mean != 0 else None) if std is not None else None
        out[key] = {"mean": mean, "std": std, "min": float(v.min()),
                    "max": float(v.max()), "cv": cv, "se": se,
                    "ci_low": mean - t * se if t is not None else None,
                    "ci_high": mean + t * se if t is not None else None,
                    "t_critical": t, "unit": units[key]}
    return out


def check_json(agg, exp, level, labels, total):
    doc = json.load(open(os.path.join(agg, "profile_export_aiperf_aggregate.json")))
    if list(doc) != ["schema_version", "aiperf_version", "metadata", "metrics"]:
        bad.append("top-level keys: %s" % list(doc))
    md = doc["metadata"]
    if list(md) != ["aggregation_type", "num_profile_runs", "num_successful_runs",
                    "failed_runs", "confidence_level", "run_labels"]:
        bad.append("metadata keys: %s" % list(md))
    if (md["aggregation_type"], md["num_profile_runs"], md["num_successful_runs"],
            md["confidence_level"], md["run_labels"]) != \
            ("confidence", total, len(labels), level, labels):
        bad.append("metadata: %s" % md)
    if list(doc["metrics"]) != list(exp):
        bad.append("metric keys: %s != %s" % (list(doc["metrics"])[:5], list(exp)[:5]))
    for key, e in exp.items():
        got = doc["metrics"].get(key, {})
        if list(got) != FIELDS:
            bad.append("%s: fields %s" % (key, list(got)))
        # scipy's t.ppf (cephes stdtrit) is itself within about 1e-9 of
        # the true quantile (2e-11 off tan(pi (p - 1/2)) at one degree of
        # freedom, where GSL is exact): the bounds are compared relative
        # to their margin t * se, the one term that holds t
        margin = e["t_critical"] * e["se"] if e["se"] is not None else 0.0
        for f in FIELDS[:-1]:
            if not close(got.get(f), e[f], margin if f.startswith("ci_") else 0.0):
                bad.append("%s.%s: %r, expected %r" % (key, f, got.get(f), e[f]))
        if got.get("unit") != e["unit"]:
            bad.append("%s.unit: %r" % (key, got.get("unit")))
    return doc


def fmt(v, d):
    if v is None:
        return "nan"
    if v == math.inf:
        return "inf"
    return "%.*f" % (d, v)


def check_csv(agg, exp, level, labels, total):
    raw = open(os.path.join(agg, "profile_export_aiperf_aggregate.csv"), newline="").read()
    buf = io.StringIO(newline="")
    w = csv.writer(buf)
    w.writerow(["metric"] + FIELDS)
    for key, e in exp.items():
        cv = e["cv"] if e["cv"] is not None or e["std"] is None else math.inf
        w.writerow([key, fmt(e["mean"], 2), fmt(e["std"], 2), fmt(e["min"], 2),
                    fmt(e["max"], 2), fmt(cv, 4), fmt(e["se"], 4),
                    fmt(e["ci_low"], 2), fmt(e["ci_high"], 2),
                    fmt(e["t_critical"], 4), e["unit"]])
    w.writerow([])
    w.writerow(["Aggregation Type", "confidence"])
    w.writerow(["Total Runs", total])
    w.writerow(["Successful Runs", len(labels)])
    w.writerow(["Confidence Level", level])
    w.writerow(["Run Labels", labels])
    want = buf.getvalue()
    # %.2f of a value computed two ways may differ in a last digit when it
    # sits on a rounding edge: compare numbers as numbers, text elsewhere
    gl, wl = raw.split("\r\n"), want.split("\r\n")
    if len(gl) != len(wl):
        bad.append("csv: %d lines, expected %d" % (len(gl), len(wl)))
    for g, x in zip(gl, wl):
        if g == x:
            continue
        gf, xf = g.split(","), x.split(",")
        same = len(gf) == len(xf)
        for a, b in zip(gf, xf):
            try:
                same = same and abs(float(a) - float(b)) <= 0.0100001
            except ValueError:
                same = same and a == b
        if not same:
            bad.append("csv line %r, expected %r" % (g, x))


def main():
    agg, level, runs = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    good = [d for d in runs if ok_run(d)]
    labels = [os.path.basename(d.rstrip("/")) for d in good]
    exp = expected(good, level)
    if len(exp) < 10:
        bad.append("only %d pairs" % len(exp))
    check_json(agg, exp, level, labels, len(runs))
    check_csv(agg, exp, level, labels, len(runs))
    for b in bad[:20]:
        print(b)
    sys.exit(1 if bad else 0)


main()
