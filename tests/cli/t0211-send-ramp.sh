#!/bin/sh
# aiperf-send: concurrency ramps, warmup concurrency and prefill concurrency.
# shellcheck disable=SC1091,SC2016
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"

start_mock --ttft-ms 40 --itl-ms 5

# peak.py FILE TARGET RAMP_S [PHASE] [prefill]: for every request start,
# the requests in flight then (until their first content chunk with
# "prefill") must be within the ramped limit, measured from the first
# start with 20 ms of slack. Prints the peak.
cat >"$TMP/peak.py" <<'EOF'
import json, sys
f, target, ramp = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
phase = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] != "-" else None
prefill = len(sys.argv) > 5
spans = []
for l in open(f):
    r = json.loads(l)
    if phase and r["metadata"]["benchmark_phase"] != phase:
        continue
    s, e = r["start_perf_ns"], r["aiperf"]["end_perf_ns"]
    if prefill:
        for m in r["responses"]:
            v = m["packets"][0].get("value", "")
            if v.startswith("{") and json.loads(v)["choices"][0]["delta"].get("content"):
                e = m["perf_ns"]
                break
    spans.append((s, e))
t0 = min(s for s, _ in spans)
peak = 0
for s, _ in spans:
    n = sum(1 for a, b in spans if a <= s < b)
    t = (s - t0) / 1e9 + 0.02
    lim = target if ramp == 0 or t >= ramp else 1 + int(t * (target - 1) / ramp)
    assert n <= lim, (n, lim, t)
    peak = max(peak, n)
print(peak)
EOF

test_expect_success 'concurrency ramp: in flight never above the ramped limit' '
	reqs 40 >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 6 --concurrency-ramp-duration 0.5 <in >out &&
	test "$(count "\"status\":200" out)" -eq 40 &&
	peak=$(python3 peak.py out 6 0.5) &&
	test "$peak" -gt 1 && test "$peak" -le 6
'
test_expect_success 'warmup records keep to --warmup-concurrency' '
	reqs 12 true ",\"phase\":\"warmup\"" | sed "s/\"phase\":\"profiling\",//" >in &&
	reqs 12 >>in &&
	aiperf-send -u "$MOCK_URL" --concurrency 5 --warmup-concurrency 2 <in >out &&
	test "$(wc -l <out)" -eq 24 &&
	test "$(count "\"benchmark_phase\":\"warmup\"" out)" -eq 12 &&
	test "$(python3 peak.py out 2 0 warmup)" -le 2 &&
	test "$(python3 peak.py out 5 0 profiling)" -gt 2
'
test_expect_success 'warmup concurrency falls back to --concurrency' '
	aiperf-send -u "$MOCK_URL" --concurrency 4 <in >out &&
	test "$(python3 peak.py out 4 0 warmup)" -gt 2
'
test_expect_success 'prefill concurrency: at most P requests before first content' '
	reqs 30 >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 8 --prefill-concurrency 2 <in >out &&
	test "$(count "\"status\":200" out)" -eq 30 &&
	test "$(python3 peak.py out 2 0 - prefill)" -le 2
'
test_expect_success 'prefill ramp' '
	aiperf-send -u "$MOCK_URL" --concurrency 8 --prefill-concurrency 4 \
		--prefill-concurrency-ramp-duration 0.3 <in >out &&
	test "$(count "\"status\":200" out)" -eq 30 &&
	python3 peak.py out 4 0.3 - prefill >/dev/null
'
test_expect_success 'prefill concurrency above concurrency is a usage error' '
	st=0 &&
	aiperf-send --concurrency 2 --prefill-concurrency 3 </dev/null 2>err || st=$? &&
	test "$st" -eq 2 &&
	grep -q "prefill-concurrency" err
'
test_done
