#!/bin/bash
# Concurrent streaming requests on loopback: N streams held open together
# against aiperf-mock by one `aiperf profile` run, its senders as many as
# the descriptor limit needs (--workers-max automatic: each sender holds
# one socket a stream and at most `ulimit -Hn` less 64); reports errors,
# the peak number of overlapping requests (from the merged raw records),
# the senders and their peak RSS together, per stream, time to first
# token (the mock's is 0.5 s) and the kernel's listen-queue and handshake
# drop counters before and after.
# MODE=send: one aiperf-send alone instead (no more streams than its
# descriptor limit allows). PORTS=n: that many mock ports; RAMP_S=s: the
# connection ramp.
# Usage: bench/concurrency.sh [streams] [seconds-per-stream]
# (default 10,000 streams, 4 s each; 44 s at 50,000)
#
# Results (2 shared cores, load 3-4.5 from other work; 50,000 streams,
# 5 ports, 22 s ramp), 3 runs of 3: PASS, peak overlap 50,000, no
# errors, 3 senders, 424 MB RSS together (8.48-8.49 KiB a stream), time
# to first token p50 0.500 s, max 0.544-0.678 s; every drop counter 0.
# Without the ramp: PASS, TTFT 1-2 s (the connect storm's CPU). At 3
# ports (20,000 streams a port, before): 16,700 connections a port pass
# half the ephemeral range and the senders stall in connect() (perf:
# 78% of their time in __inet_check_established under
# __inet_hash_connect), TTFT max 11.1 s, observation delay p99 9 s; with
# more load that stall let streams end before the last connected (the
# earlier 33k-45k peaks). No run ever dropped a SYN or overflowed a
# listen queue (TcpExtListenOverflows 0).
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
N=${1:-10000}
# long enough for every stream to be connected before the first ends, on
# two shared cores: 4 s, and 1 s more per 1,000 streams past 10,000 (44 s
# at 50,000: at 20 s, a tenth of them connected after the first ended)
SECS=${2:-$((N > 10000 ? 4 + (N - 10000) / 1000 : 4))}
ulimit -n $((N + 1024)) 2>/dev/null || ulimit -n "$(ulimit -Hn)"

# A mock port per 10,000 streams: connect() picks a free local port by
# scanning the ephemeral range (32768-60999 here), even ports first; once
# a destination holds half the range (some 14,000 connections), each
# connect scans every even port (__inet_check_established) and the
# senders stall in the kernel (seen: 11 s at 3 ports for 50,000 streams,
# every sender's event loop stopped, first tokens read 11 s late). A mock
# worker per 15,000 streams (each its own descriptor limit).
PORTS=${PORTS:-$(((N + 9999) / 10000))}
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

# kernel_drops: the TCP counters of listen-queue and handshake drops
# (this network namespace, since boot), as "name value ..."
kernel_drops() {
	nstat -az 2>/dev/null | awk '$1 ~ /ListenOverflows|ListenDrops|ReqQFullDrop|SynRetrans/ { printf "%s %s ", $1, $2 }'
}
DROPS0=$(kernel_drops)

if [[ ${MODE:-profile} == send ]]; then
	awk -v n="$N" 'BEGIN { for (i = 0; i < n; i++)
		printf "{\"id\":\"r%d\",\"path\":\"/v1/chat/completions\",\"stream\":true,\"payload\":{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stream\":true,\"max_completion_tokens\":5}}\n", i }' >"$TMP/in"
	aiperf-send "${URLS[@]}" --concurrency "$N" --ui-type none <"$TMP/in" >"$TMP/raw" 2>"$TMP/send.err" &
else
	# Past 20,000 streams the connections come through a ramp over half a
	# stream's time (RAMP_S=seconds to change it, 0 for none): opened all
	# at once, 50,000 connects and requests take the two shared cores a
	# few seconds, which every first token then waits (seen without it:
	# time to first token 1-2 s, not 0.5 s). The kernel drops nothing
	# either way (TcpExtListenOverflows, ListenDrops, TCPReqQFullDrop,
	# TCPSynRetrans all 0, the mock's listen queues under 4096).
	RAMP=()
	RAMP_S=${RAMP_S:-$((N > 20000 ? SECS / 2 : 0))}
	((RAMP_S > 0)) && RAMP=(--concurrency-ramp-duration "$RAMP_S")
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
# time to first token (the first response's stamp less the start's),
# median and largest, in seconds
TTFT=$(awk '{ match($0, /"start_perf_ns":[0-9]+/); s = substr($0, RSTART + 16, RLENGTH - 16)
	if (match($0, /"responses":\[\{"perf_ns":[0-9]+/)) printf "%.3f\n", (substr($0, RSTART + 24, RLENGTH - 24) - s) / 1e9 }' "$TMP/raw" |
	sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "ttft_p50_s=%s ttft_max_s=%s", v[int((NR + 1) / 2)], v[NR] }')
cat "$TMP/send.err" >&2
echo "kernel before: $DROPS0"
echo "kernel after:  $(kernel_drops)"
grep -h "senders (--workers-max)" "$TMP/art/logs/aiperf.log" 2>/dev/null || :
echo "descriptor limit: soft $(ulimit -Sn), hard $(ulimit -Hn); mock ports=$PORTS workers=$WORKERS"
echo "streams=$N records=$(wc -l <"$TMP/raw") ok=$OK errors=$ERR peak_overlap=$OVER" \
	"$TTFT senders=$nsend peak_rss_kib=$peak rss_per_stream_kib=$(awk -v r="$peak" -v n="$N" 'BEGIN { printf "%.2f", r / n }')"
grep -o '"error":{[^}]*}' "$TMP/raw" | sort | uniq -c | head -5
# KEEP=DIR: the raw records and the run's log kept there
if [[ -n ${KEEP:-} ]]; then
	mkdir -p "$KEEP"
	cp "$TMP/raw" "$KEEP/raw.jsonl"
	cp "$TMP/mock.err" "$TMP/art/logs/aiperf.log" "$KEEP/" 2>/dev/null || :
fi
[ "$OVER" -ge "$N" ] && [ "$ERR" -eq 0 ] && echo "PASS: $N streams at once, no errors" ||
	echo "FAIL: peak overlap $OVER of $N, $ERR errors"
