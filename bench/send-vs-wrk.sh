#!/bin/sh
# Non-streaming requests/s of aiperf-send against wrk on the same aiperf-mock,
# with the same connection count and duration, side by side in one run.
# Usage: bench/send-vs-wrk.sh [connections] [seconds]   (env WRK_THREADS, default 1)
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
PATH="$TOP/bin:$PATH"
CONNS=${1:-64}
DUR=${2:-5}
THREADS=${WRK_THREADS:-1}
command -v wrk >/dev/null || { echo "send-vs-wrk: wrk not found (apt-get install wrk)" >&2; exit 1; }
TMP=$(mktemp -d)
MOCK=
trap '[ -n "$MOCK" ] && kill "$MOCK" 2>/dev/null; rm -rf "$TMP"' EXIT

aiperf-mock --port 0 --ttft-ms 0 --itl-ms 0 --max-connections 100000 >"$TMP/url" 2>"$TMP/mock.err" &
MOCK=$!
i=0
while [ ! -s "$TMP/url" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
URL=$(head -1 "$TMP/url")
BODY='{"model":"m","messages":[{"role":"user","content":"hi"}],"max_completion_tokens":1}'

cat >"$TMP/post.lua" <<LUA
wrk.method = "POST"
wrk.body = '$BODY'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json"
LUA
wrk -t"$THREADS" -c"$CONNS" -d"${DUR}s" -s "$TMP/post.lua" "$URL/v1/chat/completions" >"$TMP/wrk.out"
WRK=$(awk '/^Requests\/sec:/ { print $2 }' "$TMP/wrk.out")
WRKERR=$(awk '/Non-2xx|Socket errors/ { print }' "$TMP/wrk.out")

REC="{\"id\":\"r\",\"path\":\"/v1/chat/completions\",\"stream\":false,\"payload\":$BODY}"
yes "$REC" | aiperf-send -u "$URL" --concurrency "$CONNS" --benchmark-duration "$DUR" \
	--benchmark-grace-period 1 --ui-type none >"$TMP/raw" || true
# Rate = successful requests / (last end - first start), from the records themselves.
SEND=$(awk '
	/"status":200/ {
		ok++
		match($0, /"request_start_ns":[0-9]+/); s = substr($0, RSTART + 19, RLENGTH - 19) + 0
		match($0, /"request_end_ns":[0-9]+/); e = substr($0, RSTART + 17, RLENGTH - 17) + 0
		if (min == 0 || s < min) min = s
		if (e > max) max = e
	}
	END { if (max > min) printf "%.2f", ok / ((max - min) / 1e9); else print 0 }' "$TMP/raw")
ERRS=$(grep -c '"error"' "$TMP/raw" || true)

echo "connections=$CONNS duration=${DUR}s wrk_threads=$THREADS"
echo "wrk:         $WRK req/s ${WRKERR:+($WRKERR)}"
echo "aiperf-send: $SEND req/s ($ERRS error records, cancelled at the end included)"
awk -v a="$SEND" -v b="$WRK" 'BEGIN { printf "ratio aiperf-send/wrk: %.3f (target >= 0.8)\n", a / b }'
