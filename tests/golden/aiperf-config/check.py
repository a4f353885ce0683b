#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The aiperf-config golden cases checked against an independent reading
of the original's sweep expansion (its docs/tutorials/sweeps.md and
config/sweep/expand.py, restated here with PyYAML): grid and zip paths
alias-resolved and sorted, itertools.product or zip, labels
"path=str(value)" joined by ", ", dir names "leaf_str(value)" joined by
"__"; scenarios by name; sobol and latin_hypercube: the count, the labels
and every value in its dimension's range (their points are our own)."""
import itertools
import json
import os
import re
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ALIASES = {a: "phases.profiling." + a for a in (
    "concurrency", "prefill_concurrency", "rate", "requests", "duration", "sessions",
    "users", "smoothness", "grace_period", "concurrency_ramp", "prefill_ramp", "rate_ramp")}


def pystr(v):
    return str(v)


def sanitize(s, index):
    s = s.replace("..", "")
    s = re.sub(r'[/\\<>:"|?*]', "", s)
    return s if s.strip(".") else f"variation_{index}"


def expected(cfg):
    sw = cfg.get("sweep") or {}
    t = sw.get("type", "grid")
    if t in ("grid", "zip"):
        params = {ALIASES.get(k, k): v for k, v in sw["parameters"].items()}
        names = sorted(params)
        combos = itertools.product(*(params[n] for n in names)) if t == "grid" else \
            zip(*(params[n] for n in names))
        out = []
        for i, c in enumerate(combos):
            label = ", ".join(f"{n}={pystr(v)}" for n, v in zip(names, c))
            d = sanitize("__".join(f"{n.rsplit('.', 1)[-1]}_{pystr(v)}" for n, v in zip(names, c)), i)
            out.append((i, d, label, dict(zip(names, c))))
        return t, out
    if t == "scenarios":
        return t, [(i, sanitize(r.get("name", f"scenario_{i}"), i), r.get("name", f"scenario_{i}"), None)
                   for i, r in enumerate(sw["runs"])]
    return t, None


def ours(case, args):
    path = os.path.join(HERE, case, "out")
    text = open(path).read()
    if "--format json" in args:
        doc = json.loads(text)
        return [(v["index"], v["dir_name"], v["label"], v["values"]) for v in doc["variations"]]
    if "--format yaml" in args:
        doc = yaml.safe_load(text)
        return [(v["index"], v["dir_name"], v["label"], v["values"]) for v in doc["variations"]]
    rows = re.findall(r"^\[(\d+)\] dir=(\S+)  label=(.*)$", text, re.M)
    return [(int(i), d, l, None) for i, d, l in rows]


def main():
    bad = 0
    for case in sorted(os.listdir(HERE)):
        d = os.path.join(HERE, case)
        if not os.path.isdir(d) or case == "__pycache__":
            continue
        cfg = yaml.safe_load(open(os.path.join(d, "sweep.yaml")))
        args = open(os.path.join(d, "args")).read()
        t, want = expected(cfg)
        got = ours(case, args)
        m = re.search(r"--index (\d+)", args)
        if want is not None:
            if m:
                want = [w for w in want if w[0] == int(m.group(1))]
            ok = [(g[0], g[1], g[2]) for g in got] == [(w[0], w[1], w[2]) for w in want]
            if ok and got and got[0][3] is not None and want[0][3] is not None:
                ok = all(g[3] == w[3] for g, w in zip(got, want))
        else:
            sw = cfg["sweep"]
            ok = len(got) == sw["samples"] or bool(m)
            for i, dname, label, values in got:
                if sw.get("label_format", "index") == "index":
                    ok = ok and label == f"{t}_{i:04d}"
                for dim in sw["dimensions"]:
                    p = ALIASES.get(dim["path"], dim["path"])
                    if values is None:
                        continue
                    v = values[p]
                    if "choices" in dim:
                        ok = ok and v in dim["choices"]
                    else:
                        ok = ok and dim["lo"] <= v <= dim["hi"]
                        if dim.get("kind") == "int":
                            ok = ok and v == int(v)
        print(("ok   " if ok else "BAD  ") + case)
        bad += not ok
    sys.exit(1 if bad else 0)


main()
