#!/bin/sh
# aiperf-send --raw-file against standard output, side by side in one run
# (issue #12): aiperf-send alone against aiperf-mock.
#   throughput  non-streaming closed loop (CONNS connections, SECS seconds):
#               stdout to /dev/null, stdout to a file, --raw-file, and each
#               output read by a slow consumer (sleep SLOW; cat);
#   lateness    constant RATE req/s with intended send times (SECS seconds):
#               stdout to a file, --raw-file, and stdout piped into the slow
#               consumer against --raw-file with the same slow follower
#               reading its (empty) stdout.
# req/s is successful requests / (last end - first start) from the records;
# lateness is start_perf_ns - intended_perf_ns (bench/schedule.sh).
# Usage: bench/send-rawfile.sh [rate [seconds [slow-seconds [connections]]]]
#        (default 10000 req/s, 3 s, 5 s, 64)
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
RATE=${1:-10000}
SECS=${2:-3}
SLOW=${3:-5}
CONNS=${4:-64}

bench_mock --ttft-ms 0 --itl-ms 0 --max-connections 100000
REC='{"id":"r","path":"/v1/chat/completions","stream":false,"payload":{"model":"m","messages":[{"role":"user","content":"hi"}],"max_completion_tokens":1}}'
awk -v r="$RATE" -v s="$SECS" 'BEGIN { n = r * s
	for (i = 1; i <= n; i++)
		printf "{\"id\":\"r%d\",\"path\":\"/v1/chat/completions\",\"stream\":false,\"at_ns\":%.0f,\"payload\":{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_completion_tokens\":1}}\n", i, i * 1e9 / r
}' >"$TMP/timed"

slow() {
	sleep "$SLOW"
	cat
}

# rate RAW: successful requests per second.
rate() {
	awk '/"status":200/ { ok++
		match($0, /"request_start_ns":[0-9]+/); s = substr($0, RSTART + 19, RLENGTH - 19) + 0
		match($0, /"request_end_ns":[0-9]+/); e = substr($0, RSTART + 17, RLENGTH - 17) + 0
		if (min == 0 || s < min) min = s
		if (e > max) max = e }
	END { if (max > min) printf "%.0f", ok / ((max - min) / 1e9); else print 0 }' "$1"
}

# late RAW: "p50 p99 max" lateness in us.
late() {
	awk '{ match($0, /"start_perf_ns":[0-9]+/); s = substr($0, RSTART + 16, RLENGTH - 16) + 0
		match($0, /"intended_perf_ns":[0-9]+/); t = substr($0, RSTART + 19, RLENGTH - 19) + 0
		if (t) printf "%.0f\n", s - t }' "$1" | sort -n | awk '{ l[NR] = $1 }
		END { printf "%.1f %.1f %.1f", l[int(0.50 * (NR - 1)) + 1] / 1e3,
			l[int(0.99 * (NR - 1)) + 1] / 1e3, l[NR] / 1e3 }'
}

# closed NAME MODE: a throughput case; MODE null, file, raw, slow-stdout,
# slow-raw. Its rate is requests answered / SECS, the counts from the run
# log (stdout to /dev/null leaves no records to count).
closed() {
	name=$1 mode=$2
	rm -f "$TMP/raw" "$TMP/log"
	set -- -u "$URL" --concurrency "$CONNS" --benchmark-duration "$SECS" \
		--benchmark-grace-period 1 --ui-type none
	export AIPERF_LOG_FILE="$TMP/log" AIPERF_LOG_LEVEL=INFO
	case $mode in
	null) yes "$REC" | aiperf-send "$@" >/dev/null ;;
	file) yes "$REC" | aiperf-send "$@" >"$TMP/raw" ;;
	raw) yes "$REC" | aiperf-send "$@" --raw-file "$TMP/raw" >/dev/null ;;
	slow-stdout) yes "$REC" | aiperf-send "$@" | slow >"$TMP/raw" ;;
	slow-raw) yes "$REC" | aiperf-send "$@" --raw-file "$TMP/raw" | slow >/dev/null ;;
	esac
	unset AIPERF_LOG_FILE AIPERF_LOG_LEVEL
	R=$(sed -n 's/.* \([0-9]*\) records written, \([0-9]*\) of them never sent.*/\1 \2/p' "$TMP/log" |
		awk -v s="$SECS" '{ printf "%.0f", ($1 - $2) / s }')
	printf '  %-34s %8s req/s\n' "$name" "$R"
}

# timed NAME MODE: a lateness case (file, raw, slow-stdout, slow-raw).
timed() {
	rm -f "$TMP/raw"
	set -- "$1" "$2" -u "$URL" --ui-type none
	name=$1 mode=$2
	shift 2
	case $mode in
	file) aiperf-send "$@" <"$TMP/timed" >"$TMP/raw" ;;
	raw) aiperf-send "$@" --raw-file "$TMP/raw" <"$TMP/timed" >/dev/null ;;
	slow-stdout) aiperf-send "$@" <"$TMP/timed" | slow >"$TMP/raw" ;;
	slow-raw) aiperf-send "$@" --raw-file "$TMP/raw" <"$TMP/timed" | slow >/dev/null ;;
	esac
	# shellcheck disable=SC2046 # three numbers
	set -- $(late "$TMP/raw")
	P99=$2
	printf '  %-34s %8s req/s  lateness_us p50=%-9s p99=%-10s max=%s\n' \
		"$name" "$(rate "$TMP/raw")" "$1" "$2" "$3"
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'
}

echo "rate=$RATE/s seconds=$SECS slow_consumer=sleep ${SLOW}s connections=$CONNS cores=$(nproc)"
echo "throughput (closed loop, non-streaming):"
closed "stdout >/dev/null" null
NULL=$R
closed "stdout >file" file
FILE=$R
closed "--raw-file file" raw
RAW=$R
closed "stdout | slow consumer" slow-stdout
SSTD=$R
closed "--raw-file file | slow follower" slow-raw
SRAW=$R
echo "lateness (constant $RATE req/s):"
# The /dev/null case records nothing to measure: --raw-file to /dev/null
# would be the writer thread's cost alone; stdout >file is the baseline.
timed "stdout >file" file
LFILE=$P99
timed "--raw-file file" raw
LRAW=$P99
timed "stdout | slow consumer" slow-stdout
LSSTD=$P99
timed "--raw-file file | slow follower" slow-raw
LSRAW=$P99
echo "ratios:"
echo "  req/s --raw-file / stdout >/dev/null:          $(ratio "$RAW" "$NULL")"
echo "  req/s --raw-file / stdout >file:               $(ratio "$RAW" "$FILE")"
echo "  req/s with a slow reader, --raw-file / stdout: $(ratio "$SRAW" "$SSTD")"
echo "  p99 lateness --raw-file / stdout >file:        $(ratio "$LRAW" "$LFILE")"
echo "  p99 lateness with a slow reader, stdout / --raw-file: $(ratio "$LSSTD" "$LSRAW")"
