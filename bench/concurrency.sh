#!/bin/bash
# Concurrent streaming requests on loopback: N streams held open together
# against aiperf-mock by one `aiperf profile` run, its senders as many as
# the descriptor limit needs (--workers-max automatic: each sender holds
# one socket a stream and at most `ulimit -Hn` less 64); reports errors,
# the peak number of overlapping requests (from the merged raw records),
# the senders and their peak RSS together, per stream.
# MODE=send: one aiperf-send alone instead (no more streams than its
# descriptor limit allows).
# Usage: bench/concurrency.sh [streams] [seconds-per-stream]
# (default 10,000 streams, 4 s each; 44 s at 50,000)
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
N=${1:-10000}
# long enough for every stream to be connected before the first ends, on
# two shared cores: 4 s, and 1 s more per 1,000 streams past 10,000 (44 s
# at 50,000: at 20 s, a tenth of them connected after the first ended)
SECS=${2:-$((N > 10000 ? 4 + (N - 10000) / 1000 : 4))}
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

# senders_rss PID: "RSS N": the RSS (KiB) of every aiperf-send below PID
# summed, and their number.
senders_rss() {
	ps -e -o pid=,ppid=,rss=,comm= | awk -v top="$1" '
		{ pp[$1] = $2; rss[$1] = $3; comm[$1] = $4 }
		END {
			for (p in pp) {
				if (comm[p] != "aiperf-send")
					continue
				for (q = p; q in pp && q != top && q > 1; q = pp[q])
					;
				if (q == top) { r += rss[p]; n++ }
			}
			print r + 0, n + 0
		}'
}

if [[ ${MODE:-profile} == send ]]; then
	awk -v n="$N" 'BEGIN { for (i = 0; i < n; i++)
		printf "{\"id\":\"r%d\",\"path\":\"/v1/chat/completions\",\"stream\":true,\"payload\":{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stream\":true,\"max_completion_tokens\":5}}\n", i }' >"$TMP/in"
	aiperf-send "${URLS[@]}" --concurrency "$N" --ui-type none <"$TMP/in" >"$TMP/raw" 2>"$TMP/send.err" &
else
	# Past 20,000 streams the connections come through a ramp over half a
	# stream's time: all at once, they overflow the mock's accept queues
	# (somaxconn, 4096 here) and the dropped handshakes retry after 1, 3,
	# 7, 15, 31 s (seen: a third of the streams connected 36 s late).
	RAMP=()
	((N > 20000)) && RAMP=(--concurrency-ramp-duration $((SECS / 2)))
	aiperf profile -m m --tokenizer builtin "${URLS[@]}" --streaming --isl 4 --osl 5 \
		--concurrency "$N" --request-count "$N" "${RAMP[@]}" --export-level raw --ui-type none \
		--no-server-metrics --no-gpu-telemetry --artifact-dir "$TMP/art" \
		>"$TMP/profile.out" 2>"$TMP/send.err" &
fi
SEND=$!
peak=0 nsend=0
while kill -0 "$SEND" 2>/dev/null; do
	read -r r n < <(senders_rss "$SEND")
	((r > peak)) && peak=$r && nsend=$n
	sleep 0.5
done
wait "$SEND" || echo "the run failed (status $?)" >&2
[[ -f $TMP/art/profile_export_raw.jsonl ]] && mv "$TMP/art/profile_export_raw.jsonl" "$TMP/raw"
OK=$(grep -c '"status":200' "$TMP/raw" || true)
ERR=$(grep -c '"error"' "$TMP/raw" || true)
# Peak overlap: +1 at each start, -1 at each end, in time order.
OVER=$(awk '{ match($0, /"start_perf_ns":[0-9]+/); print substr($0, RSTART + 16, RLENGTH - 16), 1
	match($0, /"end_perf_ns":[0-9]+/); print substr($0, RSTART + 14, RLENGTH - 14), -1 }' "$TMP/raw" |
	sort -n | awk '{ c += $2; if (c > m) m = c } END { print m }')
cat "$TMP/send.err" >&2
grep -h "senders (--workers-max)" "$TMP/art/logs/aiperf.log" 2>/dev/null || :
echo "descriptor limit: soft $(ulimit -Sn), hard $(ulimit -Hn); mock ports=$PORTS workers=$WORKERS"
echo "streams=$N records=$(wc -l <"$TMP/raw") ok=$OK errors=$ERR peak_overlap=$OVER" \
	"senders=$nsend peak_rss_kib=$peak rss_per_stream_kib=$(awk -v r="$peak" -v n="$N" 'BEGIN { printf "%.2f", r / n }')"
grep -o '"error":{[^}]*}' "$TMP/raw" | sort | uniq -c | head -5
# KEEP=DIR: the raw records and the run's log kept there
if [[ -n ${KEEP:-} ]]; then
	mkdir -p "$KEEP"
	cp "$TMP/raw" "$KEEP/raw.jsonl"
	cp "$TMP/mock.err" "$TMP/art/logs/aiperf.log" "$KEEP/" 2>/dev/null || :
fi
[ "$OVER" -ge "$N" ] && [ "$ERR" -eq 0 ] && echo "PASS: $N streams at once, no errors" ||
	echo "FAIL: peak overlap $OVER of $N, $ERR errors"
