# shellcheck shell=sh
# The preamble the bench scripts share; sourced with `. "$(dirname "$0")/lib.sh"`.
# Sets TOP (the checkout), puts $TOP/bin first on PATH and makes TMP; at exit
# every process handed to bench_reap is killed and TMP removed.
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
