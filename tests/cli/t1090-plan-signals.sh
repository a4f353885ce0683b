#!/bin/sh
# aiperf-plan and the signals that stop a run (issue #28): SIGINT, SIGTERM
# and SIGHUP while it plans do not end it: the probes of the default DCGM
# exporters (one that accepts and never answers) are cut short and count
# as unreachable, the plan is finished and written (exit 0), a warning
# goes to the run log's lines, no probe is left running; the script,
# which had the same signal, has the run written as cancelled. A signal
# already pending when it starts skips the probes, and the stages'
# checks still run (their signals unblocked, at their defaults).
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

start_staller 60 || exit 1
trap 'kill "$STALL_PID" 2>/dev/null; cleanup' EXIT
export AIPERF_GPU_DEFAULT_DCGM_URLS="http://127.0.0.1:$STALL_PORT/metrics"
export AIPERF_GPU_REACHABILITY_TIMEOUT=30
P="-m m --tokenizer builtin --request-count 3 --url http://127.0.0.1:1"

# plan_signalled NAME SIG: aiperf-plan, in a session of its own (as a
# terminal job), gets SIG in its group once its probe runs; NAME.rc its
# status, NAME.secs how long it took after the signal
plan_signalled() {
	mkdir -p "$1.run" &&
	grp sh -c "echo \$\$ >$1.pid; exec aiperf-plan --run-dir $PWD/$1.run --plan $PWD/$1.json \
		-- $P --artifact-dir $PWD/$1.a" >"$1.sh" 2>"$1.err" &
	job=$!
	i=0
	while ! pgrep -f "aiperf-scrape --once.*:$STALL_PORT/" >/dev/null && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	t0=$(date +%s%N)
	kill -"$2" -"$(cat "$1.pid")"
	wait "$job"
	echo $? >"$1.rc"
	echo $((($(date +%s%N) - t0) / 1000000000)) >"$1.secs"
}

for sig in INT TERM HUP; do
	test_expect_success "SIG$sig while the DCGM probe waits: the plan is finished, the probe cut short" '
		plan_signalled '"$sig"' '"$sig"' &&
		test "$(cat '"$sig"'.rc)" = 0 && test "$(cat '"$sig"'.secs)" -lt 5 &&
		test -s '"$sig"'.json && test -s '"$sig"'.run/input_config.json &&
		jq -e ".plan.senders | length == 1" '"$sig"'.json >/dev/null &&
		jq -e ".plan.log | any(startswith(\"WARNING SIG'"$sig"' while planning: the DCGM exporters\"))" '"$sig"'.json >/dev/null &&
		grep -q "^GPU_URLS=()" '"$sig"'.sh &&
		! pgrep -f "aiperf-scrape --once.*:$STALL_PORT/" &&
		test ! -s '"$sig"'.err
	'
done

test_expect_success 'a signal pending at the start: no probe, the checks still run and refuse bad options' '
	mkdir -p pend.run &&
	python3 -c "import os, signal, sys
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGINT])
os.kill(os.getpid(), signal.SIGINT)
os.execvp(sys.argv[1], sys.argv[1:])" aiperf-plan --run-dir "$PWD/pend.run" --plan "$PWD/pend.json" -- \
		$P --artifact-dir "$PWD/pend.a" >pend.sh 2>pend.err &&
	grep -q "^GPU_URLS=()" pend.sh && test -s pend.json &&
	test_expect_code 2 python3 -c "import os, signal, sys
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGINT])
os.kill(os.getpid(), signal.SIGINT)
os.execvp(sys.argv[1], sys.argv[1:])" aiperf-plan --run-dir "$PWD/pend.run" -- \
		$P --output-tokens-mean -4 --artifact-dir "$PWD/bad.a" >bad.sh 2>bad.err &&
	grep -q "invalid value for --osl" bad.err
'

# A Ctrl-C sent while a check starts reached the check as well (it was in
# our group until posix_spawn's setpgid) and was read as the options'
# fault (an empty usage error, exit 2): each child now discards what
# reached it before it had its group; the artifact directory is readied
# (its log made) all the same.
test_expect_success 'SIGINT to the group again and again while planning: each plan finished, no check read as failed' '
	k=0 &&
	while [ $k -lt 20 ]; do
		mkdir -p flood.run &&
		AIPERF_GPU_DEFAULT_DCGM_URLS= grp sh -c "echo \$\$ >flood.pid; trap \"\" INT; \
			exec aiperf-plan --run-dir $PWD/flood.run --plan $PWD/flood.json -- $P --artifact-dir $PWD/flood.a" \
			>flood.sh 2>flood.err &
		job=$! &&
		i=0 &&
		while [ ! -s flood.pid ] && [ $i -lt 200 ]; do sleep 0.01; i=$((i + 1)); done &&
		pg=$(cat flood.pid) &&
		i=0 &&
		while kill -INT -"$pg" 2>/dev/null && [ $i -lt 200000 ]; do i=$((i + 1)); done &&
		st=0 && wait "$job" || st=$?
		test "$st" = 0 || { echo "try $k: status $st"; cat flood.err; exit 1; }
		test -s flood.json && test ! -s flood.err && test -f flood.a/logs/aiperf.log || exit 1
		rm -rf flood.pid flood.run flood.a flood.json
		k=$((k + 1))
	done
'

test_done
