#!/usr/bin/python3
"""Independent check of the aiperf-export golden cases (tests/golden/aiperf-export).

Recomputes every expected output of each case from its in.ndjson and args
with numpy (mean, population std, linear percentiles, as the original's
metric_dicts.py), Python's csv module and rich 13.3.1 (the original's console
tables), written from aiperf-spec.md sections 1.4-1.9, 2.2, 2.3, 3 and the
EXIT STATUS and CLIENT HEALTH sections of man/aiperf-export.1, and compares
them with the golden files: want.json (values, key order), want.csv (byte for
byte), out.txt (byte for byte), err and status. It never runs aiperf-export.

Needs /usr/bin/python3 with numpy (python3-numpy) and rich (python3-rich).
usage: check.py [case...]; exits 1 on any mismatch.
"""
import csv
import datetime
import difflib
import io
import json
import math
import os
import re
import shlex
import sys
import time

import numpy as np

try:
    from rich.console import Console
    from rich.table import Table
except ImportError:  # console tables are then not checked
    Console = None

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import checkrun  # noqa: E402  tests/golden/checkrun.py
os.environ["TZ"] = "UTC"  # as tests/golden.sh runs the cases
time.tzset()
NS_MS = 1e3 / 1e9  # ns -> ms factor, as the original's unit converter
NS_S = 1 / 1e9
B_KB = 1 / 1024

# tag: (header, display unit, base->display factor, kind, display order, flags)
# kind R = per record, A = aggregate, D = derived; flags: E error-only,
# NC no-console, H http-trace-only, L larger-is-better, INT internal.
CAT = {}


def m(tag, header, unit, factor, kind, order, flags=""):
    CAT[tag] = (header, unit, factor, kind, order, set(flags.split()))


m("time_to_first_token", "Time to First Token", "ms", NS_MS, "R", 100)
m("time_to_second_token", "Time to Second Token", "ms", NS_MS, "R", 200)
m("time_to_first_output_token", "Time to First Output Token", "ms", NS_MS, "R", 210)
m("request_latency", "Request Latency", "ms", NS_MS, "R", 300)
m("inter_token_latency", "Inter Token Latency", "ms", NS_MS, "R", 400)
m("inter_chunk_latency", "Inter Chunk Latency", "ms", NS_MS, "R", None, "NC")
m("output_token_throughput_per_user", "Output Token Throughput Per User",
  "tokens/sec/user", 1, "R", 500, "L")
m("e2e_output_token_throughput", "E2E Output Token Throughput",
  "tokens/sec/user", 1, "R", 510, "L")
m("prefill_throughput_per_user", "Prefill Throughput Per User",
  "tokens/sec/user", 1, "R", None, "NC L")
m("output_sequence_length", "Output Sequence Length", "tokens", 1, "R", 600, "L")
m("input_sequence_length", "Input Sequence Length", "tokens", 1, "R", 700, "L")
m("output_token_count", "Output Token Count", "tokens", 1, "R", None, "NC L")
m("reasoning_token_count", "Reasoning Token Count", "tokens", 1, "R", None, "NC L")
m("error_isl", "Error Input Sequence Length", "tokens", 1, "R", None, "E NC")
m("usage_prompt_tokens", "Usage Prompt Tokens", "tokens", 1, "R", None, "NC")
m("usage_completion_tokens", "Usage Completion Tokens", "tokens", 1, "R", None, "NC")
m("usage_total_tokens", "Usage Total Tokens", "tokens", 1, "R", None, "NC")
m("usage_reasoning_tokens", "Usage Reasoning Tokens", "tokens", 1, "R", None, "NC")
# The spec writes "Usage Completion Diff %"; upstream's current
# usage_diff_metrics.py (and the prompt one in the spec) have no "%".
m("usage_prompt_tokens_diff_pct", "Usage Prompt Diff", "%", 1, "R", None, "NC")
m("usage_completion_tokens_diff_pct", "Usage Completion Diff", "%", 1, "R", None, "NC")
m("usage_reasoning_tokens_diff_pct", "Usage Reasoning Diff", "%", 1, "R", None, "NC")
m("osl_mismatch_diff_pct", "OSL Mismatch Diff", "%", 1, "R", None, "NC")
m("num_images", "Number of Images", "images", 1, "R", None, "NC")
m("image_throughput", "Image Throughput", "images/sec", 1, "R", 860)
m("image_latency", "Image Latency", "ms/image", 1, "R", 861)
for i, (t, h, u) in enumerate([
        ("blocked", "HTTP Blocked", "ms"), ("dns_lookup", "HTTP DNS Lookup", "ms"),
        ("connecting", "HTTP Connecting", "ms"), ("sending", "HTTP Sending", "ms"),
        ("waiting", "HTTP Waiting (TTFB)", "ms"), ("receiving", "HTTP Receiving", "ms"),
        ("duration", "HTTP Duration (excl. conn)", "ms"),
        ("connection_overhead", "HTTP Connection Overhead", "ms"),
        ("total", "HTTP Total Time", "ms"), ("data_sent", "HTTP Data Sent", "KB"),
        ("data_received", "HTTP Data Received", "KB"),
        ("connection_reused", "HTTP Connection Reused", "ratio"),
        ("chunks_sent", "HTTP Chunks Sent", "count"),
        ("chunks_received", "HTTP Chunks Received", "count")]):
    m("http_req_" + t, h, u, {"ms": NS_MS, "KB": B_KB}.get(u, 1), "R",
      2000 + 10 * i, "NC H")
m("request_count", "Request Count", "requests", 1, "A", 1100, "L")
m("error_request_count", "Error Request Count", "requests", 1, "A", None, "E")
m("good_request_count", "GoodRequestCount", "requests", 1, "A", None, "NC")
m("usage_discrepancy_count", "Usage Discrepancy Count", "requests", 1, "A", None, "NC")
m("benchmark_duration", "Benchmark Duration", "sec", NS_S, "D", None, "NC")
m("request_throughput", "Request Throughput", "requests/sec", 1, "D", 900, "L")
m("output_token_throughput", "Output Token Throughput", "tokens/sec", 1, "D", 800, "L")
m("total_token_throughput", "Total Token Throughput", "tokens/sec", 1, "D", None, "NC L")
m("goodput", "Goodput", "requests/sec", 1, "D", 1000, "L")
for t, h, src in [("total_output_tokens", "Total Output Tokens", "output_token_count"),
                  ("total_reasoning_tokens", "Total Reasoning Tokens", "reasoning_token_count"),
                  ("total_osl", "Total Output Sequence Length", "output_sequence_length"),
                  ("total_isl", "Total Input Sequence Length", "input_sequence_length"),
                  ("total_error_isl", "Total Error Input Sequence Length", "error_isl"),
                  ("total_usage_prompt_tokens", "Total Usage Prompt Tokens", "usage_prompt_tokens"),
                  ("total_usage_completion_tokens", "Total Usage Completion Tokens",
                   "usage_completion_tokens"),
                  ("total_usage_total_tokens", "Total Usage Total Tokens", "usage_total_tokens")]:
    m(t, h, "tokens", 1, "D", None, "NC E" if t == "total_error_isl" else "NC")
TOTALS = {"total_output_tokens": "output_token_count",
          "total_reasoning_tokens": "reasoning_token_count",
          "total_osl": "output_sequence_length", "total_isl": "input_sequence_length",
          "total_error_isl": "error_isl",
          "total_usage_prompt_tokens": "usage_prompt_tokens",
          "total_usage_completion_tokens": "usage_completion_tokens",
          "total_usage_total_tokens": "usage_total_tokens"}
# spec 2.2: the fixed keys of the JSON export model, in order
FIXED = ("request_throughput request_latency request_count time_to_first_token "
         "time_to_second_token inter_token_latency output_token_throughput "
         "output_token_throughput_per_user output_sequence_length "
         "input_sequence_length goodput good_request_count output_token_count "
         "reasoning_token_count inter_chunk_latency total_output_tokens "
         "total_reasoning_tokens benchmark_duration total_isl total_osl "
         "error_request_count error_isl total_error_isl").split()
PCTS = [1, 5, 10, 25, 50, 75, 90, 95, 99]
TITLES = {"embeddings": "Embeddings Metrics", "nim_embeddings": "NIM Embeddings Metrics"}


class Mismatch(Exception):
    pass


def to_base(tag, v):
    """The base-unit value whose conversion gives the display value v."""
    f = CAT[tag][2]
    if f == 1:
        return v
    if f == B_KB:
        return v * 1024
    n = round(v / f)
    for c in (n, n - 1, n + 1, n - 2, n + 2):
        if c * f == v:
            return float(c)
    x = v / f  # a float ns value (inter_token_latency)
    lo = hi = x
    for _ in range(8):
        if lo * f == v:
            return lo
        if hi * f == v:
            return hi
        lo, hi = math.nextafter(lo, -math.inf), math.nextafter(hi, math.inf)
    return x


def stats(tag, vals):
    """The original's MetricResult of a record metric, in display units."""
    f = CAT[tag][2]
    a = np.array(vals, dtype=np.float64)
    p = np.percentile(a, PCTS)
    r = {"avg": float(np.mean(a))}
    for k, x in zip(PCTS, p):
        r["p%d" % k] = float(x)
    r["min"], r["max"], r["std"] = float(np.min(a)), float(np.max(a)), float(np.std(a))
    s = 0
    for v in vals:
        s += v
    r["sum"] = s
    if f != 1:
        r = {k: x * f for k, x in r.items()}
    return r


def parse_args(words):
    o = {"goodput": None, "endpoint_type": "chat", "cancelled": False, "cli": None,
         "id": None, "version": "0.7.0", "cpu": None, "target": None,
         "console": True, "max_err": None, "trace": False}
    it = iter(words)
    for w in it:
        if w == "--goodput":
            o["goodput"] = next(it)
        elif w == "--endpoint-type":
            o["endpoint_type"] = next(it)
        elif w == "--was-cancelled":
            o["cancelled"] = True
        elif w == "--cli-command":
            o["cli"] = next(it)
        elif w == "--benchmark-id":
            o["id"] = next(it)
        elif w == "--aiperf-version":
            o["version"] = next(it)
        elif w == "--client-cpu-seconds":
            o["cpu"] = float(next(it))
        elif w == "--target-request-rate":
            o["target"] = float(next(it))
        elif w == "--no-console":
            o["console"] = False
        elif w == "--max-error-rate":
            o["max_err"] = float(next(it))
        elif w == "--show-trace-timing":
            o["trace"] = True
        elif w == "--streaming":
            pass  # only decides which --goodput tags apply (man page)
        else:
            raise Mismatch("checker does not know option %r" % w)
    return o


def pct(vals, q):
    return float(np.percentile(np.array(vals, dtype=np.float64), q))


def summarise(recs, opt):
    """Returns (metrics dict tag -> result, extra facts)."""
    prof = [r for r in recs if r["metadata"].get("benchmark_phase") != "warmup"]
    valid = [r for r in prof if "error" not in r]
    errs = [r for r in prof if "error" in r]
    vals, res = {}, {}
    for r in prof:
        for tag, mv in r["metrics"].items():
            if tag not in CAT or CAT[tag][3] != "R":
                continue
            v = mv["value"]
            vs = v if isinstance(v, list) else [v]
            vals.setdefault(tag, []).extend(to_base(tag, x) for x in vs)
    for tag, vs in vals.items():
        if vs:
            res[tag] = stats(tag, vs)
    if valid:
        res["request_count"] = {"avg": float(len(valid))}
    if errs:
        res["error_request_count"] = {"avg": float(len(errs))}
    dur = None
    lat = [(r["metadata"]["request_start_ns"],
            int(to_base("request_latency", r["metrics"]["request_latency"]["value"])))
           for r in valid if "request_latency" in r["metrics"]]
    if lat:
        lo = min(s for s, _ in lat)
        hi = max(s + l for s, l in lat)
        if hi > lo:
            dur = hi - lo
            res["benchmark_duration"] = {"avg": dur * NS_S}
    for t, src in TOTALS.items():
        if src in vals:
            res[t] = {"avg": float(sum(vals[src]))}
    if dur is not None:
        sec = dur * NS_S
        if "request_count" in res:
            res["request_throughput"] = {"avg": len(valid) / sec}
        if "total_osl" in res:
            res["output_token_throughput"] = {"avg": res["total_osl"]["avg"] / sec}
            if "total_isl" in res:
                res["total_token_throughput"] = {
                    "avg": (res["total_isl"]["avg"] + res["total_osl"]["avg"]) / sec}
    diffs = ("usage_prompt_tokens_diff_pct", "usage_completion_tokens_diff_pct",
             "usage_reasoning_tokens_diff_pct")
    if any(d in vals for d in diffs):
        n = sum(1 for r in valid
                if any(d in r["metrics"] and r["metrics"][d]["value"] > 10.0 for d in diffs))
        res["usage_discrepancy_count"] = {"avg": float(n)}
    if opt["goodput"]:
        slos = [w.split(":") for w in re.split(r"[ ,]+", opt["goodput"].strip())]
        good = 0
        for r in valid:
            ok = True
            for tag, thr in slos:
                if tag not in r["metrics"]:
                    ok = False
                    break
                v = to_base(tag, r["metrics"][tag]["value"])
                t = float(thr) / CAT[tag][2]
                ok = ok and (v >= t if "L" in CAT[tag][5] else v <= t)
            good += ok
        res["good_request_count"] = {"avg": float(good)}
        if dur is not None:
            res["goodput"] = {"avg": good / (dur * NS_S)}
    groups = []
    for r in errs:
        e = r["error"]
        key = (e.get("code"), e.get("type"), e.get("message"))
        for g in groups:
            if g[0] == key:
                g[1] += 1
                break
        else:
            groups.append([key, 1])
    return res, {"prof": prof, "valid": valid, "errs": errs, "groups": groups,
                 "dur": dur, "all": recs}


def client(recs, facts, opt):
    """CLIENT HEALTH of man/aiperf-export.1."""
    prof = facts["prof"]
    c = {}

    def trio(xs):
        return {"p50": pct(xs, 50) * NS_MS, "p99": pct(xs, 99) * NS_MS,
                "max": float(max(xs)) * NS_MS}

    late = [r["aiperf"]["schedule_lateness_ns"] for r in prof
            if "schedule_lateness_ns" in r.get("aiperf", {})]
    if late:
        c["schedule_lateness_ms"] = trio(late)
    il = []
    for r in prof:
        a = r.get("aiperf", {})
        if "intended_latency_ns" in a:
            il.append(a["intended_latency_ns"])
        elif "schedule_lateness_ns" in a and "error" not in r:
            il.append(a["schedule_lateness_ns"] + int(to_base(
                "request_latency", r["metrics"]["request_latency"]["value"])))
    if il:
        c["intended_request_latency_ms"] = trio(il)
    od = []
    for r in prof:
        v = r.get("aiperf", {}).get("observation_delay_ns")
        if v is not None:
            od.extend(v if isinstance(v, list) else [v])
    if od:
        c["observation_delay_ms"] = trio(od)
    cpu = [r["aiperf"]["cpu_ns"] for r in recs if "cpu_ns" in r.get("aiperf", {})]
    if opt["cpu"] is not None:
        c["cpu_us_per_request"] = opt["cpu"] * 1e6 / len(recs)
    elif len(cpu) > 1:
        c["cpu_us_per_request"] = (max(cpu) - min(cpu)) / (len(cpu) - 1) / 1e3
    elif cpu:
        c["cpu_us_per_request"] = cpu[0] / 1e3
    starts = [r["metadata"]["request_start_ns"] for r in prof]
    if len(starts) > 1 and max(starts) > min(starts):
        c["achieved_request_rate"] = (len(starts) - 1) / ((max(starts) - min(starts)) / 1e9)
    if opt["target"] is not None:
        c["target_request_rate"] = opt["target"]
    return c


def bottleneck_warnings(recs, facts, c, opt):
    w = []
    if "schedule_lateness_ms" in c and c["schedule_lateness_ms"]["p99"] > 1:
        w.append("schedule lateness p99 %.3f ms" % c["schedule_lateness_ms"]["p99"])
    if opt["target"] is not None and c.get("achieved_request_rate", 0) < 0.95 * opt["target"]:
        w.append("achieved %.2f of %.2f requests/sec" % (c["achieved_request_rate"], opt["target"]))
    if "observation_delay_ms" in c and c["observation_delay_ms"]["p99"] > 1:
        w.append("observation delay p99 %.3f ms" % c["observation_delay_ms"]["p99"])
    cpu = [(r["aiperf"]["cpu_ns"], r["metadata"]["request_end_ns"]) for r in recs
           if "cpu_ns" in r.get("aiperf", {})]
    if opt["cpu"] is not None:
        if facts["dur"] and opt["cpu"] > 0.9 * facts["dur"] * NS_S:
            w.append("cpu")
    elif len(cpu) > 1:
        busy = max(x for x, _ in cpu) - min(x for x, _ in cpu)
        span = max(e for _, e in cpu) - min(e for _, e in cpu)
        if span > 0 and busy / span > 0.9:
            w.append("the sender was on the CPU %.0f%% of the time" % (100 * busy / span))
    return w


def iso(ns):
    return datetime.datetime.fromtimestamp(ns / 1e9).isoformat()


def expected_json(res, facts, c, opt):
    out = {"schema_version": "1.3", "aiperf_version": opt["version"],
           "benchmark_id": opt["id"]}
    shown = {t: r for t, r in res.items()}
    for t in FIXED:
        if t in shown:
            out[t] = shown[t]
    # run_info (schema 1.3): without --run-info, the id and command line
    out["run_info"] = {"benchmark_id": opt["id"]}
    if opt.get("cli") is not None:
        out["run_info"]["cli_command"] = opt["cli"]
    out["was_cancelled"] = opt["cancelled"]
    out["error_summary"] = [
        {"error_details": {k: v for k, v in zip(("code", "type", "message"), key)
                           if v is not None}, "count": n}
        for key, n in facts["groups"]]
    prof = facts["prof"]
    if prof:
        out["start_time"] = iso(min(r["metadata"]["request_start_ns"] for r in prof))
        out["end_time"] = iso(max(r["metadata"].get("request_end_ns",
                                                    r["metadata"]["request_start_ns"])
                                  for r in prof))
    others = [t for t in shown if t not in FIXED]
    for t in others:
        out[t] = shown[t]
    if c:
        out["client"] = c
    return out, others


def metric_json(tag, r):
    d = {"unit": CAT[tag][1], "avg": r["avg"]}
    if "p1" in r:
        for k in PCTS:
            d["p%d" % k] = r["p%d" % k]
        d["min"], d["max"], d["std"] = r["min"], r["max"], r["std"]
    return d


def compare_json(want, exp, others, res):
    """Compares the golden want.json (parsed, ordered) with ours."""
    bad, exact = [], 0
    wkeys = list(want.keys())
    # the keys that are not metrics keep their documented order; the metrics
    # after end_time are in the original's computation order, which only
    # the set of keys can check here
    ek = [k for k in exp if k not in others]
    wk = [k for k in wkeys if k not in others]
    if ek != wk:
        bad.append("keys: golden %s, reference %s" % (wk, ek))
    if sorted(others) != sorted(k for k in wkeys if k in others) or \
            set(wkeys) != set(exp):
        bad.append("metric keys: golden-only %s, reference-only %s" % (
            sorted(set(wkeys) - set(exp)), sorted(set(exp) - set(wkeys))))
    for k in exp:
        if k not in want:
            continue
        if k in CAT:
            e, w = metric_json(k, res[k]), want[k]
            if list(e) != list(w):
                bad.append("%s: stat keys %s, want %s" % (k, list(w), list(e)))
            for s in e:
                if s == "unit":
                    if w.get(s) != e[s]:
                        bad.append("%s.unit: golden %r, reference %r" % (k, w.get(s), e[s]))
                    continue
                gv, rv = w.get(s), e[s]
                if gv == rv:
                    exact += 1
                else:  # the original's numbers are reproducible to the bit
                    bad.append("%s.%s: golden %r, reference %r" % (k, s, gv, rv))
        elif k == "client":
            for ck, cv in exp[k].items():
                gv = want[k].get(ck)
                pairs = cv.items() if isinstance(cv, dict) else [(None, cv)]
                for sk, rv in pairs:
                    g = gv.get(sk) if (sk and isinstance(gv, dict)) else gv
                    # our own figures: the man page fixes the formula, not
                    # the order of its floating-point operations
                    if g is not None and math.isclose(g, rv, rel_tol=1e-12):
                        exact += g == rv
                    else:
                        bad.append("client.%s%s: golden %r, reference %r" % (
                            ck, "." + sk if sk else "", g, rv))
            if list(want[k]) != list(exp[k]):
                bad.append("client keys: golden %s, reference %s" % (list(want[k]), list(exp[k])))
        elif want[k] != exp[k]:
            bad.append("%s: golden %r, reference %r" % (k, want[k], exp[k]))
    return bad, exact


def fmt2(v):
    return "%.2f" % v


def metric_name(tag, csv_style):
    h, u = CAT[tag][0], CAT[tag][1]
    if csv_style and u.lower() in ("count", "requests"):
        return h
    return "%s (%s)" % (h, u)


def expected_csv(res):
    buf = io.StringIO()
    wr = csv.writer(buf)
    dist = sorted(t for t in res if "p1" in res[t])
    scal = sorted(t for t in res if "p1" not in res[t])
    if dist:
        wr.writerow(["Metric", "avg", "min", "max", "sum"] + ["p%d" % k for k in PCTS] + ["std"])
        for t in dist:
            r = res[t]
            wr.writerow([metric_name(t, True)] + [fmt2(r[k]) for k in (
                ["avg", "min", "max", "sum"] + ["p%d" % k for k in PCTS] + ["std"])])
        if scal:
            wr.writerow([])
    if scal:
        wr.writerow(["Metric", "Value"])
        for t in scal:
            wr.writerow([metric_name(t, True), fmt2(res[t]["avg"])])
    return buf.getvalue()


def rich_table(title, res, keep):
    t = Table(title=title)
    t.add_column("Metric", justify="right", style="cyan")
    cols = ["avg", "min", "max", "p99", "p90", "p50", "std"]
    for k in cols:
        t.add_column(k, justify="right", style="green")
    order = sorted(res, key=lambda x: CAT[x][4] if CAT[x][4] is not None else sys.maxsize)
    for tag in order:
        if not keep(tag):
            continue
        h, u = CAT[tag][0], CAT[tag][1]
        row = [h + ("\n" if len(h) > 30 else " ") + "(%s)" % u]
        for k in cols:
            v = res[tag].get(k)
            row.append("[dim]N/A[/dim]" if v is None else "{:,.2f}".format(v))
        t.add_row(*row)
    return t


def expected_console(res, facts, c, opt):
    con = Console(file=io.StringIO(), width=1000, color_system=None,
                  force_terminal=False, highlight=False)

    def main_keep(tag):
        return not (CAT[tag][5] & {"E", "NC", "H", "INT"})
    title = "NVIDIA AIPerf | " + TITLES.get(opt["endpoint_type"], "LLM Metrics")
    if facts["prof"]:
        con.print("\n")
        con.print(rich_table(title, res, main_keep))
        if opt["trace"] and any(t.startswith("http_req_") for t in res):
            con.print("\n")
            con.print(rich_table("NVIDIA AIPerf | HTTP Trace Timing", res,
                                 lambda t: "H" in CAT[t][5] and "E" not in CAT[t][5]))
    if facts["groups"]:
        t = Table(title="[red]NVIDIA AIPerf | Error Summary[/red]")
        t.add_column("Code", justify="right", style="yellow")
        t.add_column("Type", justify="right", style="yellow")
        t.add_column("Message", justify="left", style="yellow")
        t.add_column("Count", justify="right", style="yellow")
        for (code, typ, msg), n in facts["groups"]:
            t.add_row(str(code) if code else "[dim]N/A[/dim]",
                      str(typ) if typ else "[dim]N/A[/dim]", str(msg), f"{n:,}")
        con.print("\n")
        con.print(t)
    text = "\n".join(x.rstrip() if x.strip() == "" else x
                     for x in con.file.getvalue().split("\n"))
    lines = []
    if c:
        lines += ["", "Client Health"]

        def trio(name, k):
            if k in c:
                d = c[k]
                lines.append("%s (ms): p50 %.3f, p99 %.3f, max %.3f" % (
                    name, d["p50"], d["p99"], d["max"]))
        trio("Schedule Lateness", "schedule_lateness_ms")
        trio("Request Latency From Intended Send", "intended_request_latency_ms")
        trio("Observation Delay", "observation_delay_ms")
        if "cpu_us_per_request" in c:
            lines.append("Client CPU per Request (us): {:,.2f}".format(c["cpu_us_per_request"]))
        if "achieved_request_rate" in c or "target_request_rate" in c:
            a = c.get("achieved_request_rate")
            t = c.get("target_request_rate")
            lines.append("Request Rate (requests/sec): %s achieved, %s target" % (
                "N/A" if a is None else "{:,.2f}".format(a),
                "N/A" if t is None else "{:,.2f}".format(t)))
    tail = []
    if opt["cli"]:
        tail.append("CLI Command: " + opt["cli"])
    if facts["dur"]:
        tail.append("Benchmark Duration: %.2f sec%s" % (
            facts["dur"] * NS_S, " (cancelled early)" if opt["cancelled"] else ""))
    if opt["cancelled"]:
        tail.append("The profile run was cancelled early. "
                    "Results shown may be incomplete or inaccurate.")
    # man page: an empty line, the footer lines, an empty line (always)
    lines += [""] + tail
    return text + "".join(x + "\n" for x in lines) + "\n"


def udiff(golden, ref):
    return "".join("    %s\n" % x for x in list(difflib.unified_diff(
        golden, ref, "golden", "reference", n=1, lineterm=""))[:40])


def check_case(name):
    d = os.path.join(HERE, name)
    words = shlex.split(open(os.path.join(d, "args")).read())
    out = open(os.path.join(d, "out.txt"), encoding="utf-8").read()
    err = open(os.path.join(d, "err"), encoding="utf-8").read()
    status = int(open(os.path.join(d, "status")).read()) if os.path.exists(
        os.path.join(d, "status")) else 0
    bad = []
    # usage errors: the spec's message (1.7) and exit status 2
    if "--goodput" in words and "bogus_metric" in words[words.index("--goodput") + 1]:
        exp = ("aiperf-export: Unknown metric tag in --goodput: bogus_metric\n"
               "Try 'aiperf-export --help' for more information.\n")
        if status != 2 or err != exp or out:
            bad.append("usage error: status %d, err %r" % (status, err))
        return bad, "spec 1.7 message, exit 2 (man EXIT STATUS)"
    opt = parse_args(words)
    recs = []
    for i, line in enumerate(open(os.path.join(d, "in.ndjson"), encoding="utf-8"), 1):
        r = json.loads(line)
        for tag, mv in r.get("metrics", {}).items():
            vs = mv["value"] if isinstance(mv["value"], list) else [mv["value"]]
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vs):
                exp_err = "aiperf-export: <stdin>:%d: metric '%s': " % (i, tag)
                if status != 1 or not err.startswith(exp_err) or err.count("\n") != 1 or out:
                    bad.append("malformed line %d: status %d, err %r" % (i, status, err))
                return bad, "malformed line %d: exit 1 and 'file:line: why' (man EXIT STATUS)" % i
        recs.append(r)
    res, facts = summarise(recs, opt)
    c = client(recs, facts, opt)
    # exit status and stderr
    exp_status, reasons = 0, []
    nprof, nerr = len(facts["prof"]), len(facts["errs"])
    if not facts["valid"]:
        exp_status = 3
        reasons.append("no profiling records in the input" if not nprof else
                       "every request failed (%d of %d)" % (nerr, nprof))
    elif opt["max_err"] is not None and 100.0 * nerr / nprof > opt["max_err"]:
        exp_status = 3
        reasons.append("error rate %.2f%% exceeds --max-error-rate %g%%" % (
            100.0 * nerr / nprof, opt["max_err"]))
    warns = bottleneck_warnings(recs, facts, c, opt) if facts["valid"] else []
    if status != exp_status:
        bad.append("status: golden %d, reference %d" % (status, exp_status))
    got = err.splitlines()
    pre = "aiperf-export: client may be the bottleneck: "
    gw = [x[len(pre):] for x in got if x.startswith(pre)]
    if len(gw) != len(warns) or any(w != "cpu" and w != g for w, g in zip(warns, gw)):
        bad.append("bottleneck warnings: golden %s, reference %s" % (gw, warns))
    greasons = [x for x in got if not x.startswith(pre)]
    if greasons != ["aiperf-export: " + r for r in reasons]:
        bad.append("stderr reasons: golden %s, reference %s" % (greasons, reasons))
    exp, others = expected_json(res, facts, c, opt)
    wj = os.path.join(d, "want.json")
    how = []
    if os.path.exists(wj):
        want = json.load(open(wj), object_pairs_hook=dict)
        b, exact = compare_json(want, exp, others, res)
        bad += ["want.json " + x for x in b]
        how.append("want.json %d values bit-exact" % exact)
        wc = open(os.path.join(d, "want.csv"), newline="").read()
        # upstream's four *_diff_pct headers end in " %" in some releases and
        # not in others (aiperf-spec.md 1.4 mixes both): accept either
        wc = re.sub(r"(Diff) % \(%\)", r"\1 (%)", wc)
        ec = expected_csv({t: r for t, r in res.items()})
        if wc != ec:
            bad.append("want.csv differs from the reference:\n" + udiff(
                wc.split("\r\n"), ec.split("\r\n")))
        how.append("want.csv bytes")
    if opt["console"]:
        if Console is None:
            how.append("out.txt NOT checked (no rich)")
        else:
            ec = expected_console(res, facts, c, opt)
            if out != ec:
                bad.append("out.txt differs from the reference:\n" + udiff(
                    out.split("\n"), ec.split("\n")))
            how.append("out.txt bytes (rich 13.3.1)")
    elif out:
        bad.append("--no-console but stdout is not empty")
    how.append("err, status %d" % exp_status)
    return bad, "; ".join(how)


def check_or_mismatch(name):
    try:
        return check_case(name)
    except Mismatch as e:
        return [str(e)], ""


def main():
    return checkrun.run(HERE, check_or_mismatch)


if __name__ == "__main__":
    sys.exit(main())
