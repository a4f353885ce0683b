#!/bin/sh
# Instructions aiperf-send executes per non-streaming request, for each HTTP
# engine, side by side in one run: callgrind counts (repeatable on a busy
# machine, unlike times) on N and 2N identical requests against aiperf-mock,
# the difference divided by N so that start-up cancels out.
# Usage: bench/send-instructions.sh [requests] [concurrency]   (needs valgrind)
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
N=${1:-2000}
C=${2:-16}
command -v valgrind >/dev/null || { echo "send-instructions: valgrind not found (apt-get install valgrind)" >&2; exit 1; }

bench_mock --ttft-ms 0 --itl-ms 0
REC='{"id":"r","path":"/v1/chat/completions","stream":false,"payload":{"model":"m","messages":[{"role":"user","content":"hi"}],"max_completion_tokens":1}}'

# count ENGINE REQUESTS: instructions of one aiperf-send run.
count() {
	yes "$REC" | head -n "$2" >"$TMP/in"
	valgrind --tool=callgrind --callgrind-out-file="$TMP/cg" \
		aiperf-send -u "$URL" --concurrency "$C" --http-engine "$1" \
		<"$TMP/in" >"$TMP/raw" 2>"$TMP/vg" || {
		tail -3 "$TMP/vg" >&2
		echo "send-instructions: valgrind failed (valgrind 3.19 cannot read clang's DWARF 5: build with gcc)" >&2
		exit 1
	}
	ok=$(grep -c '"status":200' "$TMP/raw" || true)
	[ "$ok" -eq "$2" ] || { echo "send-instructions: $1: $ok of $2 requests succeeded" >&2; exit 1; }
	callgrind_annotate "$TMP/cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
}

h1a=$(count h1 "$N")
h1b=$(count h1 $((2 * N)))
cua=$(count curl "$N")
cub=$(count curl $((2 * N)))
H1=$(((h1b - h1a) / N))
CU=$(((cub - cua) / N))
printf '%-5s %8d instructions per request (%d vs %d requests, concurrency %d)\n' \
	h1 "$H1" $((2 * N)) "$N" "$C" curl "$CU" $((2 * N)) "$N" "$C"
awk -v a="$H1" -v b="$CU" 'BEGIN { printf "ratio h1/curl: %.3f\n", a / b }'
