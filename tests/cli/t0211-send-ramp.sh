#!/bin/sh
# aiperf-send: concurrency ramps, warmup concurrency and prefill concurrency.
# shellcheck disable=SC1091,SC2016
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/send-lib.sh"

start_mock --ttft-ms 40 --itl-ms 5

# peak.py FILE TARGET RAMP_S [PHASE] [prefill]: for every request start,
# the requests in flight then (until their first content chunk with
# "prefill") must be within the ramped limit. Times come from the records'
# own stamps, not from how long the run took: a request starts at its
# credit_issued_ns, the moment the scheduler let it go (later than the
# limit check it passed), made a CLOCK_MONOTONIC time like the other
# *_perf_ns by the constant offset between request_start_ns and
# start_perf_ns. The ramp runs from the phase start, which the records do
# not carry; the first credit comes a few microseconds after it unless the
# sender was preempted in between, so the limit is read half a ramp step
# late: slack for a loaded machine, and still 1 at the first start. Prints
# the peak.
cat >"$TMP/peak.py" <<'EOF'
import json, sys
f, target, ramp = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
phase = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] != "-" else None
prefill = len(sys.argv) > 5
spans = []
for l in open(f):
    r = json.loads(l)
    m = r["metadata"]
    if phase and m["benchmark_phase"] != phase:
        continue
    s = r["start_perf_ns"] - (m["request_start_ns"] - m["credit_issued_ns"])
    e = r["aiperf"]["end_perf_ns"]
    if prefill:
        for x in r["responses"]:
            v = x["packets"][0].get("value", "")
            if v.startswith("{") and json.loads(v)["choices"][0]["delta"].get("content"):
                e = x["perf_ns"]
                break
    spans.append((s, e))
t0 = min(s for s, _ in spans)
slack = ramp / (target - 1) / 2 if ramp and target > 1 else 0
peak = 0
for s, _ in spans:
    n = sum(1 for a, b in spans if a <= s < b)
    t = (s - t0) / 1e9 + slack
    lim = target if ramp == 0 or t >= ramp else 1 + int(t * (target - 1) / ramp)
    assert n <= lim, (n, lim, t)
    peak = max(peak, n)
print(peak)
EOF

test_expect_success 'concurrency ramp: in flight never above the ramped limit' '
	reqs 40 >in &&
	aiperf-send -u "$MOCK_URL" --concurrency 6 --concurrency-ramp-duration 1 <in >out &&
	test "$(count "\"status\":200" out)" -eq 40 &&
	peak=$(python3 peak.py out 6 1) &&
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
		--prefill-concurrency-ramp-duration 0.6 <in >out &&
	test "$(count "\"status\":200" out)" -eq 30 &&
	python3 peak.py out 4 0.6 - prefill >/dev/null
'
test_expect_success 'prefill concurrency above concurrency is a usage error' '
	test_expect_code 2 aiperf-send --concurrency 2 --prefill-concurrency 3 \
		</dev/null 2>err &&
	grep -q "prefill-concurrency" err
'
test_done
