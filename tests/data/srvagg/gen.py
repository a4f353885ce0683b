#!/usr/bin/python3
"""Writes stream.ndjson: a recorded-style scrape stream for the srvagg check.

Thirty-two scrapes 0.333 s apart of a vLLM-like /metrics (gauges, counters
with a reset, three histograms, one with observations past its last finite
bucket, one whose
learned spreads are tiny and narrow) plus two DCGM GPUs, the first six scrapes being warmup. Run it once;
the output is committed (tests/unit/srvagg-ref.py reads it).
"""
import json
import random

rng = random.Random(20)
T0 = 1_700_000_000_000_000_000
STEP = 333_000_000
N = 32
lines = []
start = T0 + 5 * STEP + 100_000_000   # scrape 6 is moved onto it
end = T0 + (N - 2) * STEP             # scrape 30 is moved onto it; 31 is after
lines.append({"window": {"start_ns": start, "end_ns": end, "slice_s": 2.0}})

HIST = {
    "vllm:time_to_first_token_seconds": (
        [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75,
         1.0, 2.5, 5.0, 7.5, 10.0], lambda: rng.lognormvariate(-2.3, 0.6),
        "Histogram of time to first token in seconds."),
    "vllm:e2e_request_latency_seconds": (
        [0.3, 0.5, 0.8, 1.0, 1.5, 2.0], lambda: rng.lognormvariate(0.2, 0.5),
        "Histogram of e2e request latency in seconds."),
    "vllm:request_prompt_tokens": (
        [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000],
        lambda: float(rng.randint(30, 180)),
        "Number of prefill tokens processed."),
    "vllm:time_per_output_token_seconds": (
        [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75],
        lambda: (0.0301 + rng.random() * 0.00005 if rng.random() < 0.7
                 else 0.0875 + (rng.random() - 0.5) * 0.004),
        "Histogram of time per output token in seconds."),
}
state = {k: ([0] * (len(v[0]) + 1), 0.0, 0) for k, v in HIST.items()}
ctr = {"vllm:prompt_tokens_total": 1000.0, "vllm:generation_tokens_total": 500.0,
       "vllm:request_success_total": 10.0}
energy = [1.5e9, 2.25e9]

for i in range(N):
    ts = T0 + i * STEP + rng.randint(-2_000_000, 2_000_000)
    if i == N - 2:
        ts = end                    # a sample on the window's end
    if i == 6:
        ts = start                  # and one on its start
    running = rng.randint(0, 8)
    lines.append({"series": "vllm:num_requests_running", "type": "gauge",
                  "help": "Number of requests in model execution batches.",
                  "ts_ns": ts, "value": float(running)})
    lines.append({"series": "vllm:kv_cache_usage_perc", "type": "gauge",
                  "help": "KV-cache usage. 1 means 100 percent usage.",
                  "ts_ns": ts, "value": round(rng.random() * 0.6, 6)})
    for k in ctr:
        ctr[k] += rng.randint(0, 400) if "tokens" in k else rng.randint(0, 4)
    if i == 20:
        ctr["vllm:generation_tokens_total"] = 37.0     # server restart
    if i == 25:
        ctr["vllm:request_success_total"] = 1.0        # ends below its reference
    for k, v in ctr.items():
        lines.append({"series": k, "type": "counter", "help": "", "ts_ns": ts,
                      "value": v})
    for k, (les, draw, helptext) in HIST.items():
        cum, s, c = state[k]
        nobs = rng.choice([0, 1, 1, 2, 3, 5]) if i else 4
        for _ in range(nobs):
            x = draw()
            s += x
            c += 1
            for j, b in enumerate(les + [float("inf")]):
                if x <= b:
                    cum[j] += 1
        state[k] = (cum, s, c)
        lines.append({"series": k, "type": "histogram", "help": helptext,
                      "ts_ns": ts, "le": les + ["+Inf"], "cum": list(cum),
                      "sum": s, "count": c})
    for g in (0, 1):
        lines.append({"series": f"gpu{g}/DCGM_FI_DEV_POWER_USAGE", "type": "dcgm",
                      "ts_ns": ts, "value": round(120 + rng.random() * 250, 3)})
        lines.append({"series": f"gpu{g}/DCGM_FI_DEV_FB_USED", "type": "dcgm",
                      "ts_ns": ts, "value": float(40000 + rng.randint(0, 999))})
        lines.append({"series": f"gpu{g}/DCGM_FI_PROF_SM_ACTIVE", "type": "dcgm",
                      "ts_ns": ts, "value": round(rng.random(), 4)})
        energy[g] += rng.randint(100000, 900000)
        lines.append({"series": f"gpu{g}/DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION_total",
                      "type": "dcgm", "ts_ns": ts, "value": energy[g]})
        lines.append({"series": f"gpu{g}/DCGM_FI_DEV_XID_ERRORS", "type": "dcgm",
                      "ts_ns": ts, "value": 0.0 if i < 25 else 43.0})

with open("stream.ndjson", "w") as f:
    for line in lines:
        f.write(json.dumps(line, separators=(",", ":")) + "\n")
