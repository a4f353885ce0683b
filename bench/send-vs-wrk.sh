#!/bin/sh
# Non-streaming requests/s of aiperf-send against wrk on the same aiperf-mock,
# with the same connection count and duration, side by side in one run.
# Each round runs wrk, aiperf-send (its default engine: native HTTP/1.1 for
# http://) and aiperf-send --http-engine curl back to back and prints both
# ratios; with ROUNDS > 1 the median ratios follow (a shared machine is noisy).
# Usage: bench/send-vs-wrk.sh [connections] [seconds]
#        (env WRK_THREADS, default 1; ROUNDS, default 1)
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
CONNS=${1:-64}
DUR=${2:-5}
THREADS=${WRK_THREADS:-1}
ROUNDS=${ROUNDS:-1}
command -v wrk >/dev/null || { echo "send-vs-wrk: wrk not found (apt-get install wrk)" >&2; exit 1; }

bench_mock --ttft-ms 0 --itl-ms 0 --max-connections 100000
BODY='{"model":"m","messages":[{"role":"user","content":"hi"}],"max_completion_tokens":1}'
REC="{\"id\":\"r\",\"path\":\"/v1/chat/completions\",\"stream\":false,\"payload\":$BODY}"

cat >"$TMP/post.lua" <<LUA
wrk.method = "POST"
wrk.body = '$BODY'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json"
LUA

run_wrk() {
	wrk -t"$THREADS" -c"$CONNS" -d"${DUR}s" -s "$TMP/post.lua" "$URL/v1/chat/completions" >"$TMP/wrk.out"
	WRK=$(awk '/^Requests\/sec:/ { print $2 }' "$TMP/wrk.out")
	WRKERR=$(awk '/Non-2xx|Socket errors/ { print }' "$TMP/wrk.out")
}

# run_send NAME [aiperf-send options]: its rate, from the records themselves:
# successful requests / (last end - first start).
run_send() {
	name=$1
	shift
	yes "$REC" | aiperf-send -u "$URL" --concurrency "$CONNS" --benchmark-duration "$DUR" \
		--benchmark-grace-period 1 --ui-type none "$@" >"$TMP/raw.$name" || true
	awk '
	/"status":200/ {
		ok++
		match($0, /"request_start_ns":[0-9]+/); s = substr($0, RSTART + 19, RLENGTH - 19) + 0
		match($0, /"request_end_ns":[0-9]+/); e = substr($0, RSTART + 17, RLENGTH - 17) + 0
		if (min == 0 || s < min) min = s
		if (e > max) max = e
	}
	END { if (max > min) printf "%.2f", ok / ((max - min) / 1e9); else print 0 }' "$TMP/raw.$name"
}

echo "connections=$CONNS duration=${DUR}s wrk_threads=$THREADS rounds=$ROUNDS"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	run_wrk
	H1=$(run_send h1 --http-engine auto)
	H1ERR=$(grep -c '"error"' "$TMP/raw.h1" || true)
	CURL=$(run_send curl --http-engine curl)
	CURLERR=$(grep -c '"error"' "$TMP/raw.curl" || true)
	[ "$ROUNDS" -gt 1 ] && echo "round $r:"
	echo "wrk:                       $WRK req/s ${WRKERR:+($WRKERR)}"
	echo "aiperf-send (native h1):   $H1 req/s ($H1ERR error records: not sent or cancelled at the end)"
	echo "aiperf-send (libcurl):     $CURL req/s ($CURLERR error records: not sent or cancelled at the end)"
	awk -v a="$H1" -v b="$WRK" 'BEGIN { printf "%.3f\n", a / b }' >>"$TMP/ratio.h1"
	awk -v a="$CURL" -v b="$WRK" 'BEGIN { printf "%.3f\n", a / b }' >>"$TMP/ratio.curl"
	echo "ratio aiperf-send/wrk: $(tail -1 "$TMP/ratio.h1") (target >= 0.8)"
	echo "ratio aiperf-send --http-engine curl/wrk: $(tail -1 "$TMP/ratio.curl")"
	r=$((r + 1))
done
if [ "$ROUNDS" -gt 1 ]; then
	median() {
		sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
	}
	echo "median ratio aiperf-send/wrk: $(median "$TMP/ratio.h1") (target >= 0.8)"
	echo "median ratio aiperf-send --http-engine curl/wrk: $(median "$TMP/ratio.curl")"
fi
