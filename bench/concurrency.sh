#!/bin/bash
# Concurrent streaming requests from one aiperf-send on loopback: N streams
# held open together against aiperf-mock; reports errors, the peak number of
# overlapping requests (from the records) and the sender's peak RSS.
# Usage: bench/concurrency.sh [streams] [seconds-per-stream]
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
N=${1:-10000}
SECS=${2:-4}
ulimit -n $((N + 1024)) 2>/dev/null || ulimit -n "$(ulimit -Hn)"

# One loopback address pair has some 28,000 ephemeral ports: a mock port per
# 20,000 streams; a mock worker per 15,000 (each its own descriptor limit).
PORTS=$(((N + 19999) / 20000))
WORKERS=$(((N + 14999) / 15000))
bench_mock --ports "$PORTS" --workers "$WORKERS" --ttft-ms 500 \
	--itl-ms $((SECS * 1000 / 4)) --max-connections $((N * 2))
i=0
while [ "$(wc -l <"$TMP/url")" -lt "$PORTS" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
URLS=()
while read -r u; do URLS+=(-u "$u"); done <"$TMP/url"

awk -v n="$N" 'BEGIN { for (i = 0; i < n; i++)
	printf "{\"id\":\"r%d\",\"path\":\"/v1/chat/completions\",\"stream\":true,\"payload\":{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stream\":true,\"max_completion_tokens\":5}}\n", i }' >"$TMP/in"
aiperf-send "${URLS[@]}" --concurrency "$N" --ui-type none <"$TMP/in" >"$TMP/raw" 2>"$TMP/send.err" &
SEND=$!
peak=0
while kill -0 "$SEND" 2>/dev/null; do
	r=$(awk '/^VmRSS/ { print $2 }' "/proc/$SEND/status" 2>/dev/null || echo 0)
	[ "${r:-0}" -gt "$peak" ] && peak=$r
	sleep 0.2
done
wait "$SEND"
OK=$(grep -c '"status":200' "$TMP/raw" || true)
ERR=$(grep -c '"error"' "$TMP/raw" || true)
# Peak overlap: +1 at each start, -1 at each end, in time order.
OVER=$(awk '{ match($0, /"start_perf_ns":[0-9]+/); print substr($0, RSTART + 16, RLENGTH - 16), 1
	match($0, /"end_perf_ns":[0-9]+/); print substr($0, RSTART + 14, RLENGTH - 14), -1 }' "$TMP/raw" |
	sort -n | awk '{ c += $2; if (c > m) m = c } END { print m }')
cat "$TMP/send.err" >&2
echo "descriptor limit: soft $(ulimit -Sn), hard $(ulimit -Hn); mock ports=$PORTS workers=$WORKERS"
echo "streams=$N records=$(wc -l <"$TMP/raw") ok=$OK errors=$ERR peak_overlap=$OVER peak_rss_kib=$peak"
grep -o '"error":{[^}]*}' "$TMP/raw" | sort | uniq -c | head -5
[ "$OVER" -ge "$N" ] && [ "$ERR" -eq 0 ] && echo "PASS: $N streams at once, no errors" ||
	echo "FAIL: peak overlap $OVER of $N, $ERR errors"
