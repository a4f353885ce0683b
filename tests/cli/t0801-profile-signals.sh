#!/bin/sh
# run.sh: long
# aiperf profile under SIGINT and SIGTERM, to its process group (a terminal's
# Ctrl-C, `kill -- -PGID`) or to the wrapper alone (docker stop, timeout):
# every record read is written, the artifacts say was_cancelled, the status
# is 128+signal, nothing is left running and nothing else is signalled.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 300 --itl-ms 20

prof() {	# DIR [options]: a run that lasts long enough to be interrupted
	d=$1
	shift
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --streaming \
		--isl 16 --osl 20 --concurrency 4 --request-count 400 \
		--export-level raw --artifact-dir "$d" "$@"
}

# grep_wait PATTERN FILE: until FILE has a line matching PATTERN (30 s at most).
grep_wait() {
	i=0
	while ! grep -q -- "$1" "$2" && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -q -- "$1" "$2"
}

# send_ready SID: until an aiperf-send in session SID takes SIGINT itself
# (blocked for its signalfd, or caught: bit 2 of SigBlk or SigCgt), 30 s
# at most. A signal before that ends the sender by default, with no
# "interrupted" line to wait for.
send_ready() {
	i=0
	while [ $i -lt 300 ]; do
		for p in $(pgrep -s "$1" -x aiperf-send); do
			m=$(awk '/^Sig(Blk|Cgt):/ { printf "%s ", $2 }' "/proc/$p/status" 2>/dev/null)
			for x in $m; do
				[ $((0x$x & 2)) -ne 0 ] && return 0
			done
		done
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# check_run DIR STATUS WANT: the interrupted run in DIR ended as it must.
check_run() {
	test "$2" -eq "$3" || { echo "status $2, want $3"; return 1; }
	test "$(jq .was_cancelled "$1/profile_export_aiperf.json")" = true &&
	grep -q "^aiperf-send: interrupted: " err &&
	# every record read is in the raw file, whole: ended + never sent; the
	# metric records leave out those cancelled in flight (NotFinishedError)
	ended=$(sed -n "s/^aiperf-send: interrupted: \([0-9]*\) requests ended.*/\1/p" err) &&
	cut=$(sed -n "s/^aiperf-send: interrupted: .*, \([0-9]*\) of them cancelled.*/\1/p" err) &&
	never=$(sed -n "s/^aiperf-send: interrupted: .*; \([0-9]*\) read.*/\1/p" err) &&
	jq -c . "$1/profile_export_raw.jsonl" >/dev/null &&
	test "$(wc -l <"$1/profile_export_raw.jsonl")" -eq $((ended + never)) &&
	test "$(grep -c NotSentError "$1/profile_export_raw.jsonl")" -eq "$never" &&
	test "$(grep -c NotFinishedError "$1/profile_export_raw.jsonl")" -eq "$cut" &&
	test "$(wc -l <"$1/profile_export.jsonl")" -eq $((ended - cut)) &&
	grep -q "The profile run was cancelled early" out &&
	# nothing left running: not the stages, not tee
	! pgrep -f -- "$1" >/dev/null && ! pgrep -f -- "$MOCK_URL" >/dev/null
}

for sig in INT TERM; do
	want=130
	[ $sig = TERM ] && want=143
	test_expect_success "SIG$sig to the process group: artifacts, status $want" "
		grp sh -c 'echo \$\$ >pid; exec \"\$0\" \"\$@\"' aiperf profile -m m \
			--url \"\$MOCK_URL\" --tokenizer builtin --streaming --isl 16 \
			--osl 20 --concurrency 4 --request-count 400 --export-level raw \
			--artifact-dir g$sig >out 2>err &
		wait_raw g$sig &&
		kill -$sig -\$(cat pid) &&
		st=0 && wait \$! || st=\$?
		check_run \"\$PWD/g$sig\" \$st $want
	"

	test_expect_success "SIG$sig to the wrapper alone: artifacts, status $want" "
		grp sh -c 'echo \$\$ >pid; exec \"\$0\" \"\$@\"' aiperf profile -m m \
			--url \"\$MOCK_URL\" --tokenizer builtin --streaming --isl 16 \
			--osl 20 --concurrency 4 --request-count 400 --export-level raw \
			--artifact-dir s$sig >out 2>err &
		wait_raw s$sig &&
		kill -$sig \$(cat pid) &&
		st=0 && wait \$! || st=\$?
		check_run \"\$PWD/s$sig\" \$st $want
	"
done

test_expect_success 'timeout -s INT: the wrapper stops at once, not at the end' '
	st=0 &&
	timeout --preserve-status -s INT 3 aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin \
		--streaming --isl 16 --osl 20 --concurrency 4 --request-count 400 \
		--export-level raw --artifact-dir t >out 2>err || st=$?
	check_run "$PWD/t" $st 130 &&
	test "$(grep -c NotSentError t/profile_export_raw.jsonl)" -gt 0 &&
	# the sender read all 400 before the first request (--read-all): fewer ended
	test "$(grep -vc NotSentError t/profile_export_raw.jsonl)" -lt 400
'

test_expect_success 'a second signal cancels the requests in flight at once' '
	grp sh -c "echo \$\$ >pid; exec aiperf profile -m m --url $MOCK_URL \
		--tokenizer builtin --streaming --isl 16 --osl 400 --concurrency 4 \
		--request-count 40 --export-level raw --artifact-dir two" >out 2>err &
	wait_raw two &&
	kill -INT -$(cat pid) &&
	sleep 0.2 &&
	kill -INT -$(cat pid) &&
	st=0 && wait $! || st=$?
	check_run "$PWD/two" $st 130 &&
	n=$(sed -n "s/.* \([0-9]*\) of them cancelled in flight.*/\1/p" err) &&
	test "$n" -gt 0 &&
	test "$(grep -c "Request cancelled in flight: the run was interrupted" two/profile_export_raw.jsonl)" -eq "$n" &&
	! grep -q NotFinishedError two/profile_export.jsonl
'

test_expect_success 'a second signal also stops a generator still preparing' '
	grp sh -c "echo \$\$ >pid; exec aiperf profile -m m --url $MOCK_URL \
		--tokenizer builtin --isl 100000 --osl 4 --num-dataset-entries 20000 \
		--request-count 5 --artifact-dir busy" >out 2>err &
	prof=$! &&
	# until the generator runs (a signal before the stages start ends the
	# run at once, with nothing written)
	i=0 && while ! pgrep -f -- "$PWD/busy/inputs.json" >/dev/null && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done &&
	send_ready "$(cat pid)" &&
	kill -INT -$(cat pid) &&
	grep_wait "^aiperf-send: interrupted" err &&
	kill -INT -$(cat pid)
	# the generator would work for minutes: 60 s is only a bound on a hang
	( sleep 60 && ps -o pid=,stat=,args= -s "$(cat pid)" >hung &&
		kill -KILL -$(cat pid) 2>/dev/null ) &
	dog=$!
	st=0 && wait $prof || st=$?
	# the watchdog may be gone by now (its sleep killed, it exits): under
	# set -e a failed kill here would fail the test without a word
	pkill -P $dog || :
	kill $dog 2>/dev/null || :
	test $st -eq 130 || { echo "status $st"; cat err; cat hung 2>/dev/null; false; }
	test "$(jq .was_cancelled busy/profile_export_aiperf.json)" = true &&
	! pgrep -f -- "$PWD/busy" >/dev/null
'

test_expect_success 'SIGTERM from a calling script touches nothing else' '
	cat >caller.sh <<-EOF &&
	sleep 60 &
	echo \$! >sibling
	aiperf profile -m m --url $MOCK_URL --tokenizer builtin --streaming \
		--isl 16 --osl 20 --concurrency 4 --request-count 400 \
		--export-level raw --artifact-dir c >out 2>err &
	echo \$! >wrapper
	wait \$!
	echo "wrapper \$?" >caller.done
	EOF
	grp sh caller.sh &
	caller=$! &&
	wait_raw c &&
	kill -TERM "$(cat wrapper)" &&
	wait $caller &&
	test "$(cat caller.done)" = "wrapper 143" &&
	kill -0 "$(cat sibling)" &&
	kill "$(cat sibling)" &&
	check_run "$PWD/c" 143 143
'

test_done
