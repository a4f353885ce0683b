#!/bin/sh
# run.sh: long
# SIGHUP: to aiperf profile's process group and to the script alone
# mid-run, and a closed tmux pane under --ui-type dashboard (two senders):
# the stages stop, the summary is written (was_cancelled), status 129,
# nothing is left running, no spill file is left. A signal after the
# senders' last record (the server metrics' final scrape held by a server
# that never answers): every artifact, was_cancelled false, export's
# status; three of them then: the export killed, status 130, one line
# that says so.
# shellcheck disable=SC2016,SC2009,SC2086,SC2010,SC2034 source=tests/cli/lib.sh # eval'd bodies, ps of a session, word lists
. "$(dirname "$0")/lib.sh"

export AIPERF_GPU_DEFAULT_DCGM_URLS=
start_mock --ttft-ms 50 --itl-ms 10
TMUX_L=aiperf-t1052-$$
trap 'tmux -L "$TMUX_L" kill-server 2>/dev/null; cleanup' EXIT

S="-m m --tokenizer builtin --streaming --isl 16 --osl 50 --concurrency 4"
P="$S --no-server-metrics"

# stop_wait PID: until PID has ended, 10 s at most
stop_wait() {
	i=0
	while kill -0 "$1" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	! kill -0 "$1" 2>/dev/null
}

# log_wait PATTERN FILE: until FILE has a line matching PATTERN, 30 s at most
log_wait() {
	i=0
	while ! grep -q -- "$1" "$2" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	grep -q -- "$1" "$2"
}

# hup_run DIR TARGET: a run in a session of its own, SIGHUP to TARGET
# (group or script) once its sender has sent; status 129, cancelled, no spill
hup_run() {
	session "$1.pid" aiperf profile $P --url "$MOCK_URL" --request-count 2000 --ui-type none \
		--workers-max 2 --artifact-dir "$1" >/dev/null 2>"$1.err"
	pid=$SPID
	log_wait "aiperf-send - INFO" "$1/logs/aiperf.log" || return 1
	if [ "$2" = group ]; then kill -HUP -"$pid"; else kill -HUP "$pid"; fi
	stop_wait "$pid" || { kill -KILL -"$pid"; echo "still running"; return 1; }
	st=0
	wait "$BG" || st=$?
	test "$st" -eq 129 || { echo "status $st"; cat "$1.err"; return 1; }
	test -z "$(left "$pid")" || { left "$pid"; return 1; }
	test "$(jq .was_cancelled "$1/profile_export_aiperf.json")" = true &&
	grep -q "SIGHUP (1): no new requests" "$1/logs/aiperf.log" &&
	! ls -a "$1" | grep -q spill
}

test_expect_success 'SIGHUP to the process group mid-run: stopped, cancelled, 129' '
	hup_run g group
'

test_expect_success 'SIGHUP to the script alone mid-run: stopped, cancelled, 129' '
	hup_run s script
'

test_expect_success 'a closed tmux pane under the dashboard: stopped, the summary written' '
	tmux -L "$TMUX_L" -f /dev/null new-session -d -x 150 -y 50 \
		"cd $PWD && aiperf profile $P --url $MOCK_URL --request-count 2000 --ui-type dashboard --workers-max 2 --artifact-dir tm 2>tm.err" &&
	sid=$(tmux -L "$TMUX_L" display -p "#{pane_pid}") &&
	log_wait "aiperf-send - INFO" tm/logs/aiperf.log &&
	tmux -L "$TMUX_L" kill-server &&
	i=0 && while [ -n "$(left "$sid")" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done &&
	test -z "$(left "$sid")" &&
	log_wait "the stages ended: cancelled by SIGHUP" tm/logs/aiperf.log &&
	test "$(jq .was_cancelled tm/profile_export_aiperf.json)" = true &&
	! ls -a tm | grep -q spill
'

# after_end DIR SIGNALS: a run whose final server scrape waits on a server
# that never answers, SIGNALS times SIGINT once its senders have ended,
# 0.2 s apart and each after the supervisor logged the one before
after_end() {
	start_staller 60 || return 1
	session "$1.pid" aiperf profile $S --url "$MOCK_URL" --request-count 8 --ui-type none -v \
		--server-metrics "http://127.0.0.1:$STALL_PORT/metrics" \
		--artifact-dir "$1" >/dev/null 2>"$1.err"
	pid=$SPID
	log_wait "the senders have ended" "$1/logs/aiperf.log" ||
		{ echo "no 'the senders have ended' in $1/logs/aiperf.log"; return 1; }
	# each signal once the one before it is in the log: two signals that
	# reach a loaded machine's script at once would be one (a pending
	# signal does not queue)
	n=0
	while [ $n -lt "$2" ]; do
		kill -INT -"$pid"
		n=$((n + 1))
		[ $n -lt "$2" ] || break
		log_wait "SIGINT ($n)" "$1/logs/aiperf.log" ||
			{ echo "SIGINT $n is not in $1/logs/aiperf.log"; return 1; }
		sleep 0.2
	done
	stop_wait "$pid" || { kill -KILL -"$pid"; echo "still running after $2 SIGINT"; return 1; }
	ST=0
	wait "$BG" || ST=$?
	kill "$STALL_PID" 2>/dev/null
	test -z "$(left "$pid")" || { left "$pid"; return 1; }
}

# said DIR: what the run printed and logged, for a failure's report
said() {
	echo "status $ST; $1.err:"
	cat "$1.err"
	echo "$1/logs/aiperf.log, its last lines:"
	tail -8 "$1/logs/aiperf.log"
}

test_expect_success 'a signal after the senders'"'"' end: every artifact, not cancelled' '
	after_end late 1 &&
	test "$ST" -eq 0 &&
	test "$(jq .was_cancelled late/profile_export_aiperf.json)" = false &&
	test "$(jq .request_count.avg late/profile_export_aiperf.json)" = 8 &&
	test -s late/server_metrics_export.json &&
	grep -q "SIGINT (1)" late/logs/aiperf.log &&
	grep -q "the stages ended: aiperf-export status 0" late/logs/aiperf.log
'

test_expect_success 'three signals during the export: killed, 130, one line says so' '
	after_end kill3 3 &&
	{ test "$ST" -eq 130 &&
	test "$(grep -c "killed at the third signal" kill3.err)" = 1 &&
	grep -q "^aiperf profile: aiperf-export killed at the third signal$" kill3.err ||
	{ said kill3; false; }; }
'

test_done
