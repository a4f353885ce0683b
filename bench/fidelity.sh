#!/bin/bash
# Observation fidelity of aiperf-send: N concurrent streams against
# aiperf-mock, whose chunks carry their send time (aiperf_send_ns); the
# client observation delay (arrival stamp - the mock's send stamp, both
# CLOCK_MONOTONIC on this host) comes from the metric records' aiperf
# object. A 10-stream run is the reference, side by side in the same run.
# Starts are spread over one second so that token times do not line up.
# Target (issue 4): p99 < 100 us at 1,000 streams. Not a test: numbers only.
# Runs the big case twice: as the sender sleeps by default, and with
# --busy-poll (it spins on epoll instead: one core, no wake-up latency); exit 0
# when either meets the target.
# Usage: bench/fidelity.sh [streams] [itl-ms] [tokens]   (env SEND_OPTS: more options)
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
N=${1:-1000}
ITL=${2:-40}
TOK=${3:-50}
ulimit -n $((N + 1024)) 2>/dev/null || ulimit -n "$(ulimit -Hn)"

bench_mock --ttft-ms 100 --itl-ms "$ITL" --max-connections $((N * 2))

# mock_counter NAME: a counter from the mock's /metrics.
mock_counter() {
	curl -s "$URL/metrics" | awk -v k="$1" '$1 ~ k { v = $2 } END { print v + 0 }'
}

# run STREAMS [aiperf-send option]: prints "streams peak_overlap chunks
# p50_us p99_us max_us errors late_chunks"
run() {
	n=$1 opt=${2:-}
	late0=$(mock_counter late_chunks_total)
	awk -v n="$n" -v tok="$TOK" 'BEGIN { for (i = 0; i < n; i++)
		printf "{\"id\":\"r%d\",\"path\":\"/v1/chat/completions\",\"stream\":true,\"at_ns\":%.0f,\"payload\":{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stream\":true,\"max_completion_tokens\":%d}}\n", i, i * 1e9 / n, tok }' >"$TMP/in"
	# shellcheck disable=SC2086 # SEND_OPTS and opt are lists of options
	aiperf-send -u "$URL" --ui-type none ${SEND_OPTS:-} $opt <"$TMP/in" >"$TMP/raw"
	aiperf-metrics --use-server-token-count "$TMP/raw" >"$TMP/rec"
	err=$(grep -c '"error"' "$TMP/rec" || true)
	over=$(awk '{ match($0, /"start_perf_ns":[0-9]+/); print substr($0, RSTART + 16, RLENGTH - 16), 1
		match($0, /"end_perf_ns":[0-9]+/); print substr($0, RSTART + 14, RLENGTH - 14), -1 }' "$TMP/raw" |
		sort -n | awk '{ c += $2; if (c > m) m = c } END { print m }')
	late=$(( $(mock_counter late_chunks_total) - late0 ))
	grep -o '"observation_delay_ns":\[[-0-9,]*\]' "$TMP/rec" |
		sed 's/.*\[//; s/\]//' | tr ',' '\n' | sort -n >"$TMP/d"
	awk -v n="$n" -v over="$over" -v err="$err" -v late="$late" '
		{ d[NR] = $1 }
		END {
			c = NR; if (c == 0) { print n, over, 0, -1, -1, -1, err, late; exit }
			# numpy linear percentiles, as aiperf-export
			split("0.50 0.99", q, " ")
			for (k = 1; k <= 2; k++) {
				h = (c - 1) * q[k]; lo = int(h)
				p[k] = d[lo + 1] + (h - lo) * (d[lo + 2 > c ? c : lo + 2] - d[lo + 1])
			}
			printf "%d %d %d %.1f %.1f %.1f %d %d\n", n, over, c, p[1] / 1e3, p[2] / 1e3, d[c] / 1e3, err, late
		}' "$TMP/d"
}

ref=$(run 10)
big=$(run "$N")
busy=$(run "$N" --busy-poll)
echo "itl_ms=$ITL tokens=$TOK (starts spread over 1 s; delay = client arrival - mock send stamp)"
printf '%-12s %-8s %-9s %-8s %-9s %-9s %-9s %-7s %s\n' mode streams overlap chunks p50_us p99_us max_us errors mock_late_chunks
# shellcheck disable=SC2086 # the rows are split into their columns
{
	printf '%-12s %-8s %-9s %-8s %-9s %-9s %-9s %-7s %s\n' default $ref
	printf '%-12s %-8s %-9s %-8s %-9s %-9s %-9s %-7s %s\n' default $big
	printf '%-12s %-8s %-9s %-8s %-9s %-9s %-9s %-7s %s\n' --busy-poll $busy
}
# verdict MODE ROW: PASS or FAIL against the target, and the ratio to the reference.
verdict() {
	echo "$ref $2" | awk -v mode="$1" '{
		ratio = $5 > 0 ? $13 / $5 : 0
		ok = $13 >= 0 && $13 < 100 && $15 == 0 && $10 >= 0.9 * $9
		printf "%s (%s): observation delay p99 %.1f us at %d streams, %.2fx the %d-stream p99 (target < 100 us, %d errors, peak overlap %d)\n",
			ok ? "PASS" : "FAIL", mode, $13, $9, ratio, $1, $15, $10
		exit !ok }'
}
st=0
verdict default "$big" || st=1
verdict --busy-poll "$busy" && st=0
exit $st
