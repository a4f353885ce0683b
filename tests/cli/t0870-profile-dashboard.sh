#!/bin/sh
# aiperf profile's dashboard (aiperf-ui, ncurses) driven in tmux at about
# 1,000 requests/s: the live numbers change while the run lasts, the
# sender's CPU shows, the "interrupted" line shows on the dashboard and
# stays once the screen is restored at the end, and the screen is restored
# when aiperf-ui is killed.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

command -v tmux >/dev/null || test_skip_all "no tmux"
SOCK=aiperf-t0870-$$
# the server's socket in the scratch directory, removed with it
TMUX_TMPDIR=$TMP
export TMUX_TMPDIR
trap 'tmux -L "$SOCK" kill-server 2>/dev/null; cleanup' EXIT
start_mock --ttft-ms 20 --itl-ms 1 || test_skip_all "aiperf-mock did not start"
export MOCK_URL SOCK

# pane: the visible screen of the test's tmux session.
# (session $S: t, c and u, one a test, all kept until the end)
S=t
pane() { tmux -L "$SOCK" capture-pane -p -t "$S"; }

# wait_for PATTERN [TRIES]: polls the pane (0.1 s apart) until PATTERN.
wait_for() {
	i=0
	while [ "$i" -lt "${2:-300}" ]; do
		pane >screen 2>/dev/null && grep -q "$1" screen && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "not on the screen: $1" >&2
	cat screen >&2
	return 1
}

# completed: the dashboard's "Completed" count on the screen now.
completed() { pane | sed -n "s/^ *Completed *\([0-9]*\)\$/\1/p"; }

test_expect_success 'the dashboard shows the live numbers at 1,000 requests/s' '
	cat >run.sh <<-EOS &&
	cd "$TMP" && echo BEFORE-THE-RUN
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --isl 8 --osl 2 \
		--request-rate 1000 --request-count 8000 --warmup-request-count 50 \
		--artifact-dir d >out; echo \$? >rc
	while :; do sleep 1; done
	EOS
	tmux -L "$SOCK" -f /dev/null new-session -d -s t -x 120 -y 40 "sh $TMP/run.sh" &&
	wait_for "8000 requests" &&
	wait_for "aiperf profile   phase: " &&
	wait_for "Time to first token" &&
	wait_for "Request latency" &&
	wait_for "Schedule lateness (us)" &&
	wait_for "Errors by type" &&
	wait_for "aiperf-send CPU  *[0-9.]*% of a core" &&
	wait_for "^  Completed  *[1-9]" &&
	a=$(completed) && i=0 && b=$a &&
	while [ "$b" = "$a" ] && [ $i -lt 100 ] && [ ! -s rc ]; do
		sleep 0.1; b=$(completed); i=$((i + 1))
	done &&
	echo "completed: $a, then $b" &&
	test -n "$b" && test "$b" -gt "$a" &&
	wait_for "Request throughput  *[1-9]"
'

test_expect_success 'the screen is restored at the end, the table on stdout is data' '
	i=0 && while [ ! -s rc ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done &&
	test "$(cat rc)" = 0 &&
	wait_for "aiperf: done, profiling 8000/8000 requests (100%)" &&
	grep -q BEFORE-THE-RUN screen &&
	! grep -q "Latency so far" screen &&
	! grep -q "Time to first token  " screen &&
	grep -q "Request Throughput" d/profile_export_aiperf.csv &&
	grep -q "Request Count" out &&
	! grep -q "$(printf "\\033")" out &&
	! grep -q "aiperf: done" out
'

S=c
test_expect_success 'Ctrl-C: the run stops, the screen is restored, the artifacts are written' '
	rm -f rc &&
	cat >run.sh <<-EOS &&
	cd "$TMP" && echo BEFORE-THE-RUN && trap : INT
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --isl 8 --osl 2 \
		--request-rate 1000 --request-count 600000 --artifact-dir c >out; echo \$? >rc
	while :; do sleep 1; done
	EOS
	tmux -L "$SOCK" new-session -d -s c -x 120 -y 40 "sh $TMP/run.sh" &&
	wait_for "^  Completed  *[1-9]" &&
	tmux -L "$SOCK" send-keys -t c C-c &&
	i=0 && while [ ! -s rc ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done &&
	test "$(cat rc)" = 130 &&
	wait_for "aiperf: done, profiling [0-9]*/600000 requests" &&
	grep -q "^aiperf profile: interrupted: stopping (again to cancel requests in flight)" screen &&
	test "$(grep -c "interrupted: stopping" screen)" = 1 &&
	grep -q BEFORE-THE-RUN screen &&
	! grep -q "Latency so far" screen &&
	test -s c/profile_export_aiperf.json &&
	jq -e ".was_cancelled == true" c/profile_export_aiperf.json
'

S=u
test_expect_success 'SIGTERM to aiperf-ui restores the screen' '
	mkfifo st &&
	cat >ui.sh <<-EOS &&
	cd "$TMP" && echo BEFORE-THE-UI && echo \$\$ >ui.pid
	exec aiperf-ui --request-count 10 <st
	EOS
	tmux -L "$SOCK" new-session -d -s u -x 120 -y 40 "sh $TMP/ui.sh; echo ui-status \$?; while :; do sleep 1; done" &&
	exec 7>st &&
	echo "{\"phase\":\"profiling\",\"profiling\":{\"done\":4,\"errors\":1,\"request_rate\":2},\"errors_by_type\":{\"Timeout\":1},\"end\":false}" >&7 &&
	wait_for "4 / 10 requests" &&
	wait_for "Timeout" &&
	kill -TERM "$(cat ui.pid)" &&
	wait_for "ui-status 143" &&
	grep -q BEFORE-THE-UI screen &&
	! grep -q "Latency so far" screen &&
	exec 7>&-
'

S=n
test_expect_success 'a notice shows on the dashboard, then stays on the restored screen' '
	mkfifo st2 &&
	cat >ui2.sh <<-EOS &&
	cd "$TMP" && echo BEFORE-THE-UI
	aiperf-ui --request-count 10 --notice-file "$TMP/notice" <st2
	echo ui-status \$?
	EOS
	tmux -L "$SOCK" new-session -d -s n -x 120 -y 40 "sh $TMP/ui2.sh; while :; do sleep 1; done" &&
	exec 7>st2 &&
	echo "{\"phase\":\"profiling\",\"profiling\":{\"done\":4},\"end\":false}" >&7 &&
	wait_for "4 / 10 requests" &&
	! grep -q "stopping now" screen &&
	printf "aiperf profile: stopping now\n" >notice &&
	wait_for "^ aiperf profile: stopping now" &&
	grep -q "Latency so far" screen &&
	echo "{\"phase\":\"profiling\",\"profiling\":{\"done\":5},\"end\":true}" >&7 &&
	exec 7>&- &&
	wait_for "ui-status 0" &&
	! grep -q "Latency so far" screen &&
	grep -q "^aiperf profile: stopping now" screen &&
	test ! -e notice
'

test_done
