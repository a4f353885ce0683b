#!/bin/sh
# Schedule adherence of aiperf-send: requests with intended send times (at_ns)
# at a constant rate against aiperf-mock; prints the lateness distribution
# (actual - intended send time) and the achieved rate against the target.
# Usage: bench/schedule.sh [rate-per-second] [seconds]
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
PATH="$TOP/bin:$PATH"
RATE=${1:-1000}
SECS=${2:-5}
TMP=$(mktemp -d)
MOCK=
trap '[ -n "$MOCK" ] && kill "$MOCK" 2>/dev/null; rm -rf "$TMP"' EXIT

aiperf-mock --port 0 --ttft-ms 0 --itl-ms 0 >"$TMP/url" 2>"$TMP/mock.err" &
MOCK=$!
i=0
while [ ! -s "$TMP/url" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
URL=$(head -1 "$TMP/url")

# Constant rate: the first request waits one interval (spec 5.2).
awk -v r="$RATE" -v s="$SECS" 'BEGIN { n = r * s; for (i = 1; i <= n; i++)
	printf "{\"id\":\"r%d\",\"path\":\"/v1/chat/completions\",\"at_ns\":%.0f,\"payload\":{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_completion_tokens\":1}}\n", i, i * 1e9 / r }' >"$TMP/in"
aiperf-send -u "$URL" --ui-type none <"$TMP/in" >"$TMP/raw"
awk '{ match($0, /"start_perf_ns":[0-9]+/); s = substr($0, RSTART + 16, RLENGTH - 16) + 0
	match($0, /"intended_perf_ns":[0-9]+/); t = substr($0, RSTART + 19, RLENGTH - 19) + 0
	print s - t, s }' "$TMP/raw" >"$TMP/late"
N=$(wc -l <"$TMP/late")
ERR=$(grep -c '"error"' "$TMP/raw" || true)
sort -n "$TMP/late" | awk -v n="$N" -v r="$RATE" -v err="$ERR" '
	{ l[NR] = $1; if (NR == 1 || $2 < lo) lo = $2; if ($2 > hi) hi = $2 }
	END {
		p50 = l[int(0.50 * (n - 1)) + 1]; p99 = l[int(0.99 * (n - 1)) + 1]
		printf "requests=%d errors=%d target_rate=%d/s achieved_rate=%.1f/s\n", n, err, r, (n - 1) / ((hi - lo) / 1e9)
		printf "lateness_us p50=%.1f p99=%.1f max=%.1f min=%.1f\n", p50 / 1e3, p99 / 1e3, l[n] / 1e3, l[1] / 1e3
	}'
