# shellcheck shell=sh
# The preamble the bench scripts share; sourced with `. "$(dirname "$0")/lib.sh"`.
# Sets TOP (the checkout), puts $TOP/bin first on PATH and makes TMP; at exit
# every process handed to bench_reap is killed and TMP removed.
# bench_lateness RAW: "p99_us requests errors" of raw records (aiperf-send's
# or profile_export_raw.jsonl): schedule lateness is start_perf_ns -
# intended_perf_ns, its p99 the nearest rank (schedule.sh's).
# bench_mock [aiperf-mock options]: starts aiperf-mock on a free loopback
# port (its URL file $TMP/url, its stderr $TMP/mock.err), waits up to 5 s for
# its URL and sets MOCK (its pid) and URL (the first URL it printed).
TOP=$(cd "$(dirname "$0")/.." && pwd)
PATH="$TOP/bin:$PATH"
TMP=$(mktemp -d)
MOCK=
BENCH_PIDS=

bench_die() {
	echo "$(basename "$0"): $*" >&2
	exit 1
}

bench_reap() {
	BENCH_PIDS="$BENCH_PIDS $*"
}

# shellcheck disable=SC2317 # run by the trap
bench_exit() {
	for p in $BENCH_PIDS; do kill "$p" 2>/dev/null || :; done
	rm -rf "$TMP"
}
trap bench_exit EXIT

bench_mock() {
	aiperf-mock --port 0 "$@" >"$TMP/url" 2>"$TMP/mock.err" &
	MOCK=$!
	bench_reap "$MOCK"
	bench_i=0
	while [ ! -s "$TMP/url" ] && [ $bench_i -lt 100 ]; do
		sleep 0.05
		bench_i=$((bench_i + 1))
	done
	[ -s "$TMP/url" ] || bench_die "aiperf-mock did not start: $(cat "$TMP/mock.err")"
	# shellcheck disable=SC2034 # read by the script that sources this
	URL=$(head -1 "$TMP/url")
}

bench_lateness() {
	awk '{ match($0, /"start_perf_ns":[0-9]+/); s = substr($0, RSTART + 16, RLENGTH - 16) + 0
		match($0, /"intended_perf_ns":[0-9]+/); t = substr($0, RSTART + 19, RLENGTH - 19) + 0
		printf "%.0f\n", s - t }' "$1" | sort -n >"$TMP/late"
	bench_n=$(wc -l <"$TMP/late")
	[ "$bench_n" -gt 0 ] || bench_die "no records in $1"
	bench_err=$(grep -c '"error"' "$1" || true)
	awk -v n="$bench_n" -v err="$bench_err" '{ l[NR] = $1 }
		END { printf "%.1f %d %d\n", n ? l[int(0.99 * (n - 1)) + 1] / 1e3 : -1, n, err }' "$TMP/late"
}
