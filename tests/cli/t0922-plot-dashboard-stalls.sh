#!/bin/sh
# run.sh: long
# aiperf-plot --dashboard serves many connections at once, each bounded:
# with 40 connections stalled in their request heads a normal request is
# answered at once (within 5 s, where a server taking one connection at a
# time, 2 s each, needs 80); the stalled ones are closed after the head
# timeout (10 s; waited for 100 s at most); past the limit of 64
# connections (100 stalled) a new one still gets its answer; a client
# that asks for a large file and reads nothing is cut off after the idle
# timeout (10 s; waited for 100 s at most), and with 70 of them (all 64
# places taken by answers) a new request is still answered.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
STALL=$TOP/tests/cli/plot-stall.py
DATA=$TOP/tests/data/plot
command -v gnuplot >/dev/null || test_skip_all "no gnuplot (gnuplot-nox)"
command -v curl >/dev/null || test_skip_all "no curl"

# port: the dashboard's port, from URL.
port() {
	_p=${URL##*:}
	echo "${_p%/}"
}

test_expect_success 'with 40 stalled heads, a request is answered at once' '
	start_plot_dashboard --paths "$DATA/single" --output out &&
	{ "$PY" "$STALL" heads "$(port)" 40 100 >heads.out & } &&
	wait_line heads.out "held 40" &&
	curl -sf --max-time 5 -o page "$URL" &&
	grep -q "<h1>AIPerf report</h1>" page
'

test_expect_success 'the stalled connections are closed after the head timeout' '
	plot_dashboard_url &&
	wait_line heads.out closed 110 &&
	test "$(cat heads.out)" = "held 40
closed 40 of 40"
'

test_expect_success 'past 64 connections, the oldest stalled one makes room' '
	plot_dashboard_url &&
	{ "$PY" "$STALL" heads "$(port)" 100 30 >many.out & } &&
	wait_line many.out "held 100" &&
	curl -sf --max-time 5 -o page "$URL" &&
	grep -q "<h1>AIPerf report</h1>" page &&
	curl -sf --max-time 5 -o /dev/null "${URL}ttft_histogram.png"
'

test_expect_success 'a client that reads nothing of a large file is cut off' '
	plot_dashboard_url &&
	head -c 33554432 /dev/zero >out/data/big.dat &&
	"$PY" "$STALL" noread "$(port)" data/big.dat 100 1 >noread.out &&
	test "$(cat noread.out)" = "asked 1
ended 1 of 1" &&
	curl -sf --max-time 5 -o page "$URL"
'

test_expect_success '70 clients reading nothing: a new one is answered, the oldest reset' '
	plot_dashboard_url &&
	{ "$PY" "$STALL" noread "$(port)" data/big.dat 100 70 >many-noread.out & } &&
	wait_line many-noread.out "asked 70" &&
	curl -sf --max-time 5 -o page "$URL" &&
	grep -q "<h1>AIPerf report</h1>" page &&
	wait_line many-noread.out ended 110 &&
	test "$(cat many-noread.out)" = "asked 70
ended 70 of 70"
'

test_expect_success 'SIGTERM stops it cleanly' '
	stop_plot_dashboard TERM
'

# Under a descriptor limit below its 64 places (ulimit -n 40) a waiting
# connection it cannot accept makes it reset one of its own, as the 65th
# would: a normal request is still answered (with the connection left in
# the listen queue, the loop woke at once forever, and the request
# waited for the stalled heads' timeout).
test_expect_success 'out of descriptors: stalled heads make room, a request is answered' '
	(ulimit -n 40 && start_plot_dashboard --paths "$DATA/single" --output lim) &&
	plot_dashboard_url &&
	{ "$PY" "$STALL" heads "$(port)" 60 30 >lim.out & } &&
	wait_line lim.out "held 60" &&
	curl -sf --max-time 5 -o page "$URL" &&
	grep -q "<h1>AIPerf report</h1>" page &&
	grep -q "a descriptor limit of 40 (ulimit -n): 8 connections at once, not 64" dash.err &&
	wait_line lim.out closed 110 &&
	stop_plot_dashboard TERM
'
test_done
