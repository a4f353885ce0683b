#!/usr/bin/env python3
"""A raw record (aiperf-records(5)) around one response body, for the parser tests.

usage: endpoint-record.py ENDPOINT_TYPE stream|body FILE
A stream file is SSE: each "data:" line becomes one response of one data
packet, 1 us apart; a body file is one response's text. FILE '-' reads stdin.
"""
import json
import sys


def main():
    et, mode, path = sys.argv[1:4]
    text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    rec = {"metadata": {"benchmark_phase": "profiling"}, "start_perf_ns": 1000,
           "aiperf": {"endpoint_type": et, "stream": mode == "stream"},
           "payload": {"model": "m", "input": "one two three"}}
    if mode == "stream":
        t = 1000
        resps = []
        for line in text.splitlines():
            if line.startswith("data:"):
                t += 1000
                resps.append({"perf_ns": t, "packets": [
                    {"name": "data", "value": line[5:].lstrip(" ")}]})
        rec["responses"] = resps
    else:
        rec["responses"] = [{"perf_ns": 9000, "text": text}]
    print(json.dumps(rec, separators=(",", ":")))


main()
