#!/bin/sh
# run.sh: long
# The signal matrix: aiperf profile in a session of its own with SIGINT at
# its default (a terminal job), SIGINT or SIGTERM to its process group at
# 0.1, 0.3 and 0.5 s, while two CPU hogs load the machine,
# AIPERF_SIGNAL_TRIES times each (3 by default; 10 for a closer look):
# every run stops within 5 s of the signal, with status 128 + the signal,
# profile_export_aiperf.json written and was_cancelled true, and nothing
# of ours is left running.
# shellcheck disable=SC2016,SC2009,SC2086,SC2010,SC2034 source=tests/cli/lib.sh # eval'd bodies, ps of a session, word lists
. "$(dirname "$0")/lib.sh"

export AIPERF_GPU_DEFAULT_DCGM_URLS=
TRIES=${AIPERF_SIGNAL_TRIES:-3}
start_mock --ttft-ms 50 --itl-ms 10

HOGS=
hogs_start() {
	sh -c 'while :; do :; done' &
	HOGS="$HOGS $!"
	sh -c 'while :; do :; done' &
	HOGS="$HOGS $!"
}
hogs_stop() {
	# shellcheck disable=SC2086 # a list of pids
	[ -n "$HOGS" ] && kill $HOGS 2>/dev/null
	HOGS=
}
trap 'hogs_stop; cleanup' EXIT

# one SIG DELAY DIR: a run signalled at DELAY; its status, its stop bounded
one() {
	session "$3.pid" aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --streaming \
		--isl 16 --osl 50 --concurrency 4 --request-count 2000 --ui-type none \
		--no-server-metrics --artifact-dir "$3" >/dev/null 2>"$3.err"
	pid=$SPID
	sleep "$2"
	kill -"$1" -"$pid" 2>/dev/null || kill -"$1" "$pid"
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	if kill -0 "$pid" 2>/dev/null; then
		echo "$3: still running 5 s after SIG$1"
		kill -KILL -"$pid" 2>/dev/null
		return 1
	fi
	st=0
	wait "$BG" || st=$?
	test -z "$(left "$pid")" || { echo "$3: left running:"; left "$pid"; return 1; }
	case $1 in INT) want=130 ;; TERM) want=143 ;; esac
	test "$st" -eq "$want" || { echo "$3: status $st, want $want"; cat "$3.err"; return 1; }
	test "$(jq .was_cancelled "$3/profile_export_aiperf.json")" = true ||
		{ echo "$3: not cancelled"; cat "$3.err"; return 1; }
}

hogs_start
for sig in INT TERM; do
	for at in 0.1 0.3 0.5; do
		test_expect_success "SIG$sig at $at s under load, $TRIES tries: stopped within 5 s, cancelled" '
			k=0 &&
			while [ $k -lt $TRIES ]; do
				one $sig $at r-$sig-$at-$k || exit 1
				k=$((k + 1))
			done
		'
	done
done
hogs_stop

test_done
