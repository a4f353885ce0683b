#!/usr/bin/python3
"""Independent check of the aiperf-trace golden cases (tests/golden/aiperf-trace).

analyze --json and synthesize cases are recomputed with tests/trace/ref.py,
the Python reference written from aiperf-spec.md section 7 (also used by
tests/cli/t0501-trace-reference.sh), and compared: the JSON report field by
field (ref.py's compare: std_dev and hit_rate_stats.mean may differ by 4
ulps, as aiperf-trace(1) documents), synthesized JSONL byte for byte.
Console reports are rendered from ref.py's numbers with rich 13.3.1 the way
the original's analyze-trace CLI builds its table (spec 7.1: header lines,
"Trace Statistics", width 120). convert cases (our own command, no original)
are recomputed from the aiperf-trace(1) convert section with Python's csv,
datetime and decimal modules. Malformed inputs are checked against the
documented exit status 1 and 'aiperf-trace: file:line: why', the line and
field found here. It never runs aiperf-trace.

usage: check.py [case...]; exits 1 on any mismatch.
"""
import argparse
import calendar
import contextlib
import csv
import datetime
import decimal
import difflib
import io
import json
import os
import re
import shlex
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import checkrun  # noqa: E402  tests/golden/checkrun.py
TOP = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(TOP, "tests", "trace"))
import ref  # noqa: E402  (tests/trace/ref.py)

try:
    from rich.console import Console
    from rich.table import Table
except ImportError:
    Console = None


def udiff(golden, reference):
    return "".join("    %s\n" % x for x in list(difflib.unified_diff(
        golden.split("\n"), reference.split("\n"), "golden", "reference",
        n=1, lineterm=""))[:30])


def options(words):
    o = {"cmd": words[0], "json": False, "block_size": 512, "speedup_ratio": 1.0,
         "prefix_len_multiplier": 1.0, "prefix_root_multiplier": 1,
         "prompt_len_multiplier": 1.0, "max_isl": None, "max_osl": None,
         "random_seed": 0, "group_sessions": False, "from": None, "rebase": True,
         "strict": False}
    names = {"--block-size": ("block_size", int), "--isl-block-size": ("block_size", int),
             "--speedup-ratio": ("speedup_ratio", float),
             "--synthesis-speedup-ratio": ("speedup_ratio", float),
             "--prefix-len-multiplier": ("prefix_len_multiplier", float),
             "--prefix-root-multiplier": ("prefix_root_multiplier", int),
             "--prompt-len-multiplier": ("prompt_len_multiplier", float),
             "--max-isl": ("max_isl", int), "--synthesis-max-isl": ("max_isl", int),
             "--max-osl": ("max_osl", int), "--synthesis-max-osl": ("max_osl", int),
             "--random-seed": ("random_seed", int), "--from": ("from", str)}
    it = iter(words[1:])
    for w in it:
        if w in names:
            k, f = names[w]
            o[k] = f(next(it))
        elif w == "--json":
            o["json"] = True
        elif w == "--no-rebase":
            o["rebase"] = False
        elif w == "--group-sessions":
            o["group_sessions"] = True
        elif w == "--strict":
            o["strict"] = True
        else:
            raise ValueError("checker does not know option %r" % w)
    return o


def first_bad_line(text):
    """(line, why) of the first malformed trace line, as aiperf-trace(1)
    describes them, or None."""
    for n, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            j = json.loads(line)
        except ValueError:
            return n, "invalid JSON"
        if not isinstance(j, dict):
            return n, "trace line: expected a JSON object"

        def isint(v):
            return isinstance(v, int) and not isinstance(v, bool) and -2**63 <= v < 2**64
        for k in ("input_length", "output_length"):
            if j.get(k) is not None and not isint(j[k]):
                return n, "%s: expected an integer" % k
        h = j.get("hash_ids")
        if h is not None and not (isinstance(h, list) and all(isint(x) for x in h)):
            return n, "hash_ids: expected a list of integers"
        t = j.get("timestamp")
        if t is not None and not (isinstance(t, (int, float)) and not isinstance(t, bool)):
            return n, "timestamp: expected a number"
    return None


def console_report(r):
    """spec 7.1 console report; the table as the original's analyze CLI."""
    con = Console(file=io.StringIO(), width=120, color_system=None, highlight=False)
    con.print()
    con.print("[bold]Trace Analysis Report[/bold]")
    con.print("Total requests:   {:,}".format(r["total_requests"]))
    con.print("Unique prefixes:  {:,}".format(r["unique_prefixes"]))
    con.print("Prefix groups:    {:,}".format(r["num_prefix_groups"]))
    con.print()
    t = Table(title="Trace Statistics")
    cols = ["Mean", "Std Dev", "Min", "P25", "Median", "P75", "Max"]
    t.add_column("Metric", justify="right", style="cyan", no_wrap=True)
    for c in cols:
        t.add_column(c, justify="right", style="green", no_wrap=True)
    for name, k in (("Input Length", "isl_stats"), ("Context Length", "context_length_stats"),
                    ("Unique Prompt Length", "unique_prompt_length_stats"),
                    ("Output Length", "osl_stats"), ("Theoretical Hit Rates", "hit_rate_stats")):
        s = r[k]
        if s is None:
            t.add_row(name, *["[dim]N/A[/dim]"] * len(cols))
        else:
            t.add_row(name, *["{:,.2f}".format(s[f]) for f in (
                "mean", "std_dev", "min", "p25", "median", "p75", "max")])
    con.print(t)
    con.print()
    return con.file.getvalue()


def ms_text(d):
    """Milliseconds: an integer when whole, else the shortest float."""
    if d == d.to_integral_value():
        return str(int(d))
    return repr(float(d))


def convert(o, text):
    """aiperf-trace(1) convert; returns (lines, error)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    out = []
    if o["from"] in ("burstgpt", "azure"):
        rows = list(csv.reader(io.StringIO(text)))
        head, body = rows[0], rows[1:]
        first = None
        for n, row in enumerate(body, 2):
            rec = dict(zip(head, row))
            try:
                if o["from"] == "burstgpt":
                    sec = decimal.Decimal(rec["Timestamp"])
                    isl, osl = int(rec["Request tokens"]), int(rec["Response tokens"])
                else:
                    s = rec["TIMESTAMP"]
                    m = re.fullmatch(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(?:\.(\d{1,9}))?", s)
                    dt = datetime.datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S")
                    sec = decimal.Decimal(calendar.timegm(dt.timetuple())) + \
                        decimal.Decimal("0." + (m.group(2) or "0"))
                    isl, osl = int(rec["ContextTokens"]), int(rec["GeneratedTokens"])
            except (ValueError, KeyError, decimal.InvalidOperation, AttributeError):
                if o["from"] == "azure":
                    return out, (n, "bad TIMESTAMP '%s'" % rec.get("TIMESTAMP"))
                continue
            if first is None:
                first = sec
            ms = (sec - first) * 1000 if o["rebase"] else sec * 1000
            out.append('{"timestamp":%s,"input_length":%d,"output_length":%d}' % (
                ms_text(ms), isl, osl))
        return out, None
    # bailian
    recs = [json.loads(x) for x in text.split("\n") if x.strip()]
    by_id = {r["chat_id"]: r for r in recs}

    def root(r):
        seen = set()
        while r.get("parent_chat_id", -1) != -1 and r["parent_chat_id"] in by_id and \
                r["chat_id"] not in seen:
            seen.add(r["chat_id"])
            r = by_id[r["parent_chat_id"]]
        return r["chat_id"]
    sessions = {}
    for r in recs:
        sessions.setdefault(root(r), []).append(r)
    first = decimal.Decimal(repr(recs[0]["timestamp"])) if recs else 0
    for sid, rs in sessions.items():
        for r in sorted(rs, key=lambda x: x.get("turn", 1)):
            sec = decimal.Decimal(repr(r["timestamp"]))
            ms = (sec - first) * 1000 if o["rebase"] else sec * 1000
            line = '{"session_id":%s,"timestamp":%s,"input_length":%d,"output_length":%d' % (
                json.dumps(str(sid)), ms_text(ms), r["input_length"], r["output_length"])
            if r.get("hash_ids"):
                line += ',"hash_ids":%s' % json.dumps(r["hash_ids"], separators=(",", ":"))
            out.append(line + "}")
    return out, None


def check_case(name):
    d = os.path.join(HERE, name)
    words = shlex.split(open(os.path.join(d, "args")).read())
    o = options(words)
    src = os.path.join(d, "in.txt")
    text = open(src, encoding="utf-8").read()
    gold = open(os.path.join(d, "out.txt"), encoding="utf-8").read()
    err = open(os.path.join(d, "err"), encoding="utf-8").read()
    st = os.path.join(d, "status")
    status = int(open(st).read()) if os.path.exists(st) else 0
    bad = []

    def expect_error(n, why, how):
        pre = "aiperf-trace: <stdin>:%d: %s" % (n, why)
        if status != 1 or gold or not err.startswith(pre) or err.count("\n") != 1:
            bad.append("error: status %d, err %r, reference status 1, %r..." % (
                status, err, pre))
        return bad, how
    if o["cmd"] == "convert":
        lines, e = convert(o, text)
        if e:
            return expect_error(e[0], e[1], "row %d rejected, exit 1" % e[0])
        exp = "".join(x + "\n" for x in lines)
        if gold != exp or err or status:
            bad.append("convert output differs:\n" + udiff(gold, exp))
        return bad, "%d lines (man page convert rules)" % len(lines)
    b = first_bad_line(text)
    if b:
        return expect_error(b[0], b[1], "line %d: %s, exit 1" % b)
    traces = [json.loads(x) for x in text.split("\n") if x.strip()]
    if o["cmd"] == "analyze":
        r = ref.analyze(traces, o["block_size"])
        if o["json"]:
            try:
                g = json.loads(gold)
            except ValueError:
                g = None
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                differs = g is None or ref.compare(json.loads(ref.dump(r)), g)
            if differs or gold != gold.rstrip("\n") + "\n" or err or status:
                bad.append("JSON report differs from ref.py: %s" % buf.getvalue().strip())
            return bad, "JSON report = ref.py analyze (%s)" % (
                buf.getvalue().strip().replace("\n", "; ").lstrip("# ") or "bit-exact")
        if Console is None:
            return None, "no rich: console report not checked"
        exp = console_report(json.loads(ref.dump(r)))
        if gold != exp or err or status:
            bad.append("console report differs:\n" + udiff(gold, exp))
        return bad, "console report from ref.py numbers (rich 13.3.1)"
    a = argparse.Namespace(**o)
    traces = ref.load_filter(traces, a)
    if (o["speedup_ratio"], o["prefix_len_multiplier"], o["prefix_root_multiplier"],
            o["prompt_len_multiplier"]) == (1.0, 1.0, 1, 1.0):
        out = traces  # aiperf-trace(1): no synthesis, the filters only
        how = "pass-through with the max-isl/max-osl filters (man page)"
    else:
        try:
            out = ref.synthesize(traces, a)
        except SystemExit:
            m = re.match(r"aiperf-trace: <stdin>:(\d+): input_len \((\d+)\) < prefix_len "
                         r"\((\d+)\)", err)
            if status != 1 or gold or not m or int(m.group(2)) >= int(m.group(3)) or \
                    int(m.group(3)) % o["block_size"] or \
                    int(m.group(2)) != traces[int(m.group(1)) - 1].get("input_length"):
                bad.append("synthesis error: status %d, err %r (ref.py also refuses)" % (
                    status, err))
            return bad, "ref.py refuses too; exit 1, 'input_len (X) < prefix_len (Y)'"
        how = "ref.py synthesize, bytes"
    exp = "".join(json.dumps(t, separators=(",", ":")) + "\n" for t in out)
    n = getattr(a, "clamped", 0)
    want_err = "" if not n else (
        "aiperf-trace: %d line%s with shared prefix blocks longer than their input_length: "
        "prompt length taken as 0, the prefix as the whole input (--strict: an error, "
        "as in the original)\n" % (n, "" if n == 1 else "s"))
    if n:
        how += ", %d line(s) with the prefix as the whole input (man page)" % n
    if gold != exp and same_lines(gold, exp, text) and err == want_err and not status:
        how += " (equal values; number text kept as in the input)"
    elif gold != exp or err != want_err or status:
        bad.append("synthesized JSONL differs:\n" + udiff(gold, exp))
    return bad, "%s, %d lines" % (how, len(out))


NUM = re.compile(r'-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?')


def same_lines(gold, exp, src):
    """Equal JSON values line by line (ints and floats told apart), where
    the golden's number texts are ours or the input's (aiperf-trace(1):
    untouched values are written byte for byte as in the input)."""
    g, e = gold.split("\n"), exp.split("\n")
    if len(g) != len(e):
        return False

    def same(a, b):
        if isinstance(a, dict) and isinstance(b, dict):
            return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
        if isinstance(a, list) and isinstance(b, list):
            return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
        return type(a) is type(b) and a == b
    for x, y in zip(g, e):
        if x == y:
            continue
        if not same(json.loads(x), json.loads(y)):
            return False
        if not set(NUM.findall(x)) <= set(NUM.findall(y)) | set(NUM.findall(src)):
            return False
    return True


def main():
    return checkrun.run(HERE, check_case)


if __name__ == "__main__":
    sys.exit(main())
