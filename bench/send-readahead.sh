#!/bin/sh
# Schedule lateness of aiperf-send fed by a slow producer, with the default
# read-ahead (256 records), a large --read-ahead and --read-all, side by side
# in one run (issue #12). Requests have intended send times (constant rate)
# against aiperf-mock; lateness = start_perf_ns - intended_perf_ns.
# Producers:
#   burst  a feeder that writes CHUNK records at once, then pauses PAUSE
#          seconds (on average faster than the rate, but it stalls longer
#          than 256 records last), as a generator at idle priority that
#          the CPU is taken from for a while;
#   idle   aiperf-gen under chrt -i 0 (SCHED_IDLE) with HOGS busy loops
#          at normal priority (default 1; the sender keeps a core).
# Usage: bench/send-readahead.sh [rate [seconds]]   (default 10000 req/s, 3 s)
# Env: CHUNK (2000), PAUSE (0.15), AHEAD (65536), HOGS (1), CASES ("burst idle").
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
RATE=${1:-10000}
SECS=${2:-3}
CHUNK=${CHUNK:-2000}
PAUSE=${PAUSE:-0.15}
AHEAD=${AHEAD:-65536}
HOGS=${HOGS:-1}
CASES=${CASES:-burst idle}
N=$((RATE * SECS))
HOGPIDS=

bench_mock --ttft-ms 0 --itl-ms 0
GEN="-m m --request-count $N --request-rate $RATE --isl 100 --osl 1 --tokenizer builtin --random-seed 1"
# shellcheck disable=SC2086 # GEN is a list of options
aiperf-gen $GEN >"$TMP/in"

# burst: the records, CHUNK at a time, PAUSE seconds between chunks.
burst() {
	python3 -c '
import sys, time
chunk, pause = int(sys.argv[1]), float(sys.argv[2])
out = sys.stdout.buffer
lines = open(sys.argv[3], "rb").readlines()
for i in range(0, len(lines), chunk):
    out.write(b"".join(lines[i:i + chunk]))
    out.flush()
    time.sleep(pause)
' "$CHUNK" "$PAUSE" "$TMP/in"
}

# idle: the generator at idle priority.
idle() {
	# shellcheck disable=SC2086 # GEN is a list of options
	chrt -i 0 aiperf-gen $GEN
}

# stats RAW: "p50 p99 max late_ms" of lateness in us, and requests over 1 ms late.
stats() {
	awk '{ match($0, /"start_perf_ns":[0-9]+/); s = substr($0, RSTART + 16, RLENGTH - 16) + 0
		match($0, /"intended_perf_ns":[0-9]+/); t = substr($0, RSTART + 19, RLENGTH - 19) + 0
		if (t) printf "%.0f\n", s - t }' "$1" | sort -n | awk '{ l[NR] = $1; if ($1 > 1e6) late++ }
		END { printf "%.1f %.1f %.1f %d %d\n", l[int(0.50 * (NR - 1)) + 1] / 1e3,
			l[int(0.99 * (NR - 1)) + 1] / 1e3, l[NR] / 1e3, late, NR }'
}

# run PRODUCER NAME [aiperf-send options]: one case; sets P99 to its p99.
run() {
	prod=$1 name=$2
	shift 2
	"$prod" | aiperf-send -u "$URL" --ui-type none "$@" >"$TMP/raw" 2>"$TMP/err" || true
	# shellcheck disable=SC2046 # five numbers
	set -- $(stats "$TMP/raw")
	printf '%-6s %-22s requests=%-6s lateness_us p50=%-9s p99=%-10s max=%-10s over_1ms=%s\n' \
		"$prod" "$name" "$5" "$1" "$2" "$3" "$4"
	P99=$2
}

echo "rate=$RATE/s seconds=$SECS requests=$N chunk=$CHUNK pause=${PAUSE}s read_ahead=$AHEAD hogs=$HOGS cores=$(nproc)"
for prod in $CASES; do
	if [ "$prod" = idle ]; then
		j=0
		while [ "$j" -lt "$HOGS" ]; do
			sh -c 'while :; do :; done' &
			HOGPIDS="$HOGPIDS $!"
			bench_reap $!
			j=$((j + 1))
		done
	fi
	run "$prod" "default (256)"
	base=$P99
	run "$prod" "--read-ahead $AHEAD" --read-ahead "$AHEAD"
	ahead=$P99
	run "$prod" "--read-all" --read-all
	all=$P99
	for p in $HOGPIDS; do kill "$p" 2>/dev/null; done
	HOGPIDS=
	awk -v b="$base" -v a="$ahead" -v l="$all" -v p="$prod" 'BEGIN {
		printf "%-6s p99 lateness, default / --read-ahead: %.1fx   default / --read-all: %.1fx\n",
			p, b / (a > 0 ? a : 1e-3), b / (l > 0 ? l : 1e-3) }'
done
