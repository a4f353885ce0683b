#!/bin/sh
# Shared setup for tests/cli/tNNNN-*.sh (git t/test-lib.sh): sourced, not run.
# Gives a scratch directory $TMP, test_expect_success, test_cmp, and a
# start_mock helper that runs aiperf-mock on a free loopback port.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=$(cd "$TOP/../shared" 2>/dev/null && pwd || echo "$TOP/../shared")
export SHARED
export LC_ALL=C TZ=UTC PATH="$TOP/bin:$PATH"
TMP=$(mktemp -d)
MOCK_PID=
HTTP_PID=
cleanup() {
	[ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null
	[ -n "$HTTP_PID" ] && kill "$HTTP_PID" 2>/dev/null
	[ -n "${LOG_PID:-}" ] && kill "$LOG_PID" 2>/dev/null
	# a plot dashboard a test left running (start_plot_dashboard)
	[ -s "$TMP/dash.pid" ] && kill "$(cat "$TMP/dash.pid")" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
test_count=0
test_failed=0

# test_expect_success 'description' 'shell code': the code runs in a
# subshell under set -e, so a command that fails anywhere in it fails the
# test (not only the last one). Call skip_because 'reason' in the code to
# report the test as skipped.
test_expect_success() {
	test_count=$((test_count + 1))
	rm -f "$TMP/.skip"
	(set -e; cd "$TMP"; eval "$2") >"$TMP/.out" 2>&1 9>&2
	rc=$?
	if [ "$rc" -eq 0 ]; then
		echo "ok $test_count - $1"
	elif [ "$rc" -eq 77 ] && [ -f "$TMP/.skip" ]; then
		echo "ok $test_count - $1 # SKIP $(cat "$TMP/.skip")"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$TMP/.out" | tail -20
	fi
}

# skip_because 'reason': inside a test's code, ends it as skipped.
skip_because() {
	printf '%s\n' "$*" >"$TMP/.skip"
	exit 77
}

# test_skip 'description' 'reason': a test that cannot run here.
test_skip() {
	test_count=$((test_count + 1))
	echo "ok $test_count - $1 # SKIP $2"
}

# test_skip_all 'reason': the whole script cannot run here; exits.
test_skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

# test_expect_code N command [args...]: succeeds only if the command exits N
# (its variables are prefixed _tec_: callers' names are not touched).
test_expect_code() {
	_tec_want=$1
	shift
	_tec_got=0
	"$@" || _tec_got=$?
	[ "$_tec_got" -eq "$_tec_want" ] && return 0
	# fd 9 is the test's log, whatever the command's stderr went to
	set -- "test_expect_code: '$*' exited $_tec_got, want $_tec_want"
	{ echo "$1" >&9; } 2>/dev/null || echo "$1" >&2
	return 1
}

# a_corpus: $TMP/a.txt, a corpus of "a" words only, so that every prompt
# aiperf-gen --corpus draws from it is a run of them (payload_t writes T).
a_corpus() {
	awk 'BEGIN { for (i = 0; i < 200; i++) print "a a a a a a a a a a a a a a a a a a a a" }' \
		>"$TMP/a.txt"
}

# payload_t: the payload of the request record on stdin, every string of
# "a" words (a prompt from a_corpus) and the empty string written "T".
payload_t() {
	sed -e 's/.*"payload"://' -e 's/}$//' -e 's/"[a ]*"/"T"/g'
}

test_cmp() {
	diff -u "$1" "$2"
}

# start_mock [aiperf-mock options]: sets MOCK_URL and MOCK_PID.
start_mock() {
	rm -f "$TMP/.mock.url"
	aiperf-mock --port 0 "$@" >"$TMP/.mock.url" 2>"$TMP/.mock.err" &
	MOCK_PID=$!
	i=0
	while [ ! -s "$TMP/.mock.url" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	MOCK_URL=$(head -1 "$TMP/.mock.url")
	[ -n "$MOCK_URL" ]
}

# start_body_log: tests/cli/body-log.py, the chat server that appends each
# request body to $BODY_LOG ($TMP/wire); sets URL (exported) and LOG_PID.
start_body_log() {
	BODY_LOG=$TMP/wire
	export BODY_LOG
	python3 "$TOP/tests/cli/body-log.py" >"$TMP/.url" 2>"$TMP/.log.err" &
	LOG_PID=$!
	i=0
	while [ ! -s "$TMP/.url" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	URL=$(head -1 "$TMP/.url")
	export URL
	[ -n "$URL" ]
}

# start_staller SECONDS: a TCP server on 127.0.0.1 that accepts every
# connection and never answers, for SECONDS; sets STALL_PORT, STALL_PID.
start_staller() {
	rm -f "$TMP/.stall.port"
	python3 -c '
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
print(s.getsockname()[1], flush=True)
held = []
end = time.time() + float(sys.argv[1])
s.settimeout(0.2)
while time.time() < end:
    try:
        held.append(s.accept()[0])
    except OSError:
        pass
' "$1" >"$TMP/.stall.port" &
	# shellcheck disable=SC2034 # the caller kills it
	STALL_PID=$!
	i=0
	while [ ! -s "$TMP/.stall.port" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	STALL_PORT=$(head -1 "$TMP/.stall.port")
	[ -n "$STALL_PORT" ]
}

# The plot dashboard fixture (aiperf-plot --dashboard): tests run in
# subshells, so its pid is in $TMP/dash.pid (cleanup kills it), its
# messages in dash.err and its exit status, once it ends, in dash.rc, all
# in the test's directory.

# grp CMD...: runs CMD as the leader of a new session (so a group signal
# reaches it and what it started), with INT and TERM at their defaults
# (sh starts background jobs with SIGINT ignored).
grp() {
	python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
signal.signal(signal.SIGTERM, signal.SIG_DFL)
os.setsid()
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}

# session PIDFILE CMD...: CMD in a session of its own (grp), its pid in
# SPID (the session's id), the background job that waits for it in BG
# shellcheck disable=SC2016,SC2034 # $$ and $0 are the inner sh's; BG, SPID the caller's
session() {
	_f=$1
	shift
	rm -f "$_f"
	grp sh -c 'echo $$ >"$0.tmp" && mv "$0.tmp" "$0" && exec "$@"' "$_f" "$@" &
	BG=$!
	_i=0
	while [ ! -s "$_f" ] && [ $_i -lt 100 ]; do sleep 0.05; _i=$((_i + 1)); done
	SPID=$(cat "$_f")
}

# left SID: our processes still in session SID (none of them a zombie)
# shellcheck disable=SC2009 # a session's processes with their state: ps
left() {
	ps -o stat=,args= -s "$1" 2>/dev/null | grep -v "^Z" |
		grep "aiperf-\(gen\|send\|metrics\|export\|scrape\|supervise\|plan\|ui\)\|aiperf-profile\|cat$" || :
}

# wait_file FILE: until FILE is not empty (30 s at most, a bounded loop).
wait_file() {
	_i=0
	while [ ! -s "$1" ] && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	test -s "$1"
}

# both_ways NAME command...: runs the command (stdin from $TMP/NAME.in when
# it exists) with and without the fast paths (AIPERF_NO_FASTPATH=1): the
# same exit status, stdout ($TMP/NAME.fast, .slow) and stderr (.fast.err,
# .slow.err).
both_ways() {
	bw_name=$1
	shift
	bw_in=/dev/null
	[ -f "$TMP/$bw_name.in" ] && bw_in=$TMP/$bw_name.in
	rc1=0 rc2=0
	"$@" <"$bw_in" >"$TMP/$bw_name.fast" 2>"$TMP/$bw_name.fast.err" || rc1=$?
	AIPERF_NO_FASTPATH=1 "$@" <"$bw_in" >"$TMP/$bw_name.slow" 2>"$TMP/$bw_name.slow.err" || rc2=$?
	[ "$rc1" -eq "$rc2" ] || { echo "$bw_name: status $rc1 with, $rc2 without the fast paths"; return 1; }
	cmp "$TMP/$bw_name.slow" "$TMP/$bw_name.fast" &&
	cmp "$TMP/$bw_name.slow.err" "$TMP/$bw_name.fast.err"
}

# wait_raw DIR: until the run in DIR has written its first raw record.
wait_raw() {
	wait_file "$1/profile_export_raw.jsonl"
}

# The loss report of aiperf profile --from-records (t0820, t0823, t0824):
# shard_line K DIR: worker_K's line of DIR/logs/shards.txt, as "ended lost
# never".
shard_line() {
	sed -n "s/^worker_$1: \([0-9]*\) requests ended, \([0-9]*\) lost in flight (due before its last record ended), \([0-9]*\) never sent\$/\1 \2 \3/p" "$2/logs/shards.txt"
}

# cut_records DIR REC...: cut.jsonl, the raw records in DIR of the requests
# numbered REC in the file ids (their ids in input order).
cut_records() {
	_cr_src=$1
	shift
	: >cut.jsonl &&
	for i in "$@"; do
		r=$(sed -n "${i}p" ids) && test -n "$r" &&
		grep "\"x_request_id\":\"$r\"" "$_cr_src/profile_export_raw.jsonl" >>cut.jsonl || return 1
	done
	test "$(wc -l <cut.jsonl)" = $#
}

# merge_cut DIR OPTION...: aiperf profile OPTION... --from-records cut.jsonl
# into DIR (afresh), which must exit 3 (requests without a record); worker_0's
# shard_line.
merge_cut() {
	_mc_dir=$1 _mc_st=0
	shift
	rm -rf "$_mc_dir" &&
	aiperf profile "$@" --url "$MOCK_URL" --artifact-dir "$_mc_dir" \
		--from-records cut.jsonl >out 2>err || _mc_st=$?
	test "$_mc_st" = 3 || return 1
	shard_line 0 "$_mc_dir"
}

# wait_line FILE PATTERN [SECONDS]: until FILE has a line matching PATTERN
# (SECONDS at most, 10 by default: a bounded loop).
wait_line() {
	_i=0
	while ! grep -q "$2" "$1" 2>/dev/null && [ $_i -lt $((${3:-10} * 10)) ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	grep -q "$2" "$1"
}

# start_http_dir DIR: Python's http.server serving DIR's files on a free
# loopback port, until the test ends; sets URL (http://127.0.0.1:PORT).
start_http_dir() {
	python3 -u -m http.server --bind 127.0.0.1 --directory "$1" 0 \
		>"$TMP/http.log" 2>&1 &
	HTTP_PID=$!
	wait_line "$TMP/http.log" port || return 1
	URL="http://127.0.0.1:$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$TMP/http.log" | head -1)"
}

# start_plot_dashboard ARGS...: aiperf-plot --dashboard --port 0 ARGS... in
# the background, until it serves; sets URL (plot_dashboard_url).
start_plot_dashboard() {
	rm -f dash.rc dash.err "$TMP/dash.pid"
	# shellcheck disable=SC2094 # dash.pid is written once, then read
	sh -c 'aiperf-plot --dashboard --port 0 "$@" 2>dash.err &
		echo $! >"$0"; wait $!; echo $? >dash.rc' "$TMP/dash.pid" "$@" &
	wait_line dash.err "serving http://" &&
	plot_dashboard_url
}

# plot_dashboard_url: URL, from the dashboard's message in dash.err.
plot_dashboard_url() {
	URL=$(sed -n "s|.*serving \(http://[^ ]*\) .*|\1|p" dash.err | head -1)
	test -n "$URL"
}

# stop_plot_dashboard SIGNAL: the dashboard stops on SIGNAL and exits 0.
stop_plot_dashboard() {
	kill -"$1" "$(cat "$TMP/dash.pid")" &&
	wait_line dash.rc . &&
	rm -f "$TMP/dash.pid" &&
	test "$(cat dash.rc)" -eq 0
}

# plant_links DIR NAME...: DIR/NAME a symbolic link to $TMP/victims/NAME
# (the folders made), which holds "victim NAME"; victims_untouched NAME...:
# each victim still holds it (what a tool that must not write through a
# link planted in its output folder leaves).
plant_links() {
	_pl_d=$1
	shift
	for _pl_n in "$@"; do
		mkdir -p "$TMP/victims/$(dirname "$_pl_n")" "$_pl_d/$(dirname "$_pl_n")" &&
		echo "victim $_pl_n" >"$TMP/victims/$_pl_n" &&
		ln -s "$TMP/victims/$_pl_n" "$_pl_d/$_pl_n" || return 1
	done
}

victims_untouched() {
	for _pl_n in "$@"; do
		test "$(cat "$TMP/victims/$_pl_n")" = "victim $_pl_n" ||
			{ echo "victims/$_pl_n written through the link"; return 1; }
	done
}

test_done() {
	echo "1..$test_count"
	[ "$test_failed" -eq 0 ]
}
