#!/bin/sh
# run.sh: long
# aiperf profile keeps the other stages off the sender's CPU while requests
# are in flight (issue #12): they run under SCHED_IDLE, on CPUs other than
# the sender's, and client health says how much CPU they used inside the
# measured window.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

chrt --idle 0 true 2>/dev/null || test_skip_all "no SCHED_IDLE here (chrt)"
start_mock --ttft-ms 2 --itl-ms 50 --output-tokens 20

# stage_pid NAME: the pid of this test's pipeline stage NAME, not of the
# option checks the wrapper runs before it: the sender reads ahead, metrics
# follows the spool, export gets --stage-cpu.
stage_pid() {
	sid=$(ps -o sid= -p $$ | tr -d " ")
	case $1 in
	aiperf-send) m=--read- ;;
	aiperf-metrics) m=--follow ;;
	aiperf-export) m=--stage-cpu ;;
	*) m= ;;
	esac
	ps -o pid=,comm=,args= -s "$sid" |
		awk -v n="$1" -v m="$m" '$2 == n && (m == "" || index($0, m)) { print $1; exit }'
}
# cls NAME: the scheduling class ps shows for stage NAME.
cls() {
	p=$(stage_pid "$1") && [ -n "$p" ] && ps -o cls= -p "$p" | tr -d " "
}

test_expect_success 'while requests are in flight only the sender runs at normal priority' '
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --streaming --osl 20 \
		--concurrency 2 --request-count 6 --artifact-dir a >out 2>err &
	pid=$! &&
	i=0 && until [ -n "$(cls aiperf-send)" ] && [ -n "$(cls aiperf-metrics)" ] &&
		[ -n "$(cls aiperf-export)" ] && [ -n "$(cls cat)" ] || [ $i -ge 200 ]; do
		sleep 0.05; i=$((i + 1)); done &&
	s=$(cls aiperf-send) && m=$(cls aiperf-metrics) && e=$(cls aiperf-export) && c=$(cls cat) &&
	wait $pid &&
	echo "send $s metrics $m export $e" &&
	echo "spool $c" &&
	test "$s" = TS && test "$m" = IDL && test "$e" = IDL && test "$c" = IDL
'

# cpus NAME: the CPUs stage NAME may run on (as the kernel lists them:
# 0-1, 1, 0,2).
cpus() {
	p=$(stage_pid "$1") && [ -n "$p" ] &&
		awk '/^Cpus_allowed_list:/ { print $2 }' "/proc/$p/status" 2>/dev/null
}
# ncpus: how many CPUs this test may run on.
ncpus() {
	nproc 2>/dev/null || echo 1
}

test_expect_success 'the sender has a CPU to itself among the stages (2 CPUs: when it busy-polls); AIPERF_PIN=0 leaves them to the scheduler, AIPERF_PIN=1 splits two' '
	if [ "$(ncpus)" -lt 2 ] || ! command -v taskset >/dev/null; then
		echo "one CPU (or no taskset): nothing to split" && exit 0
	fi
	all=$(awk "/^Cpus_allowed_list:/ { print \$2 }" /proc/self/status)
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --streaming --osl 20 \
		--concurrency 2 --request-count 6 --busy-poll --artifact-dir p >/dev/null 2>&1 &
	pid=$! &&
	i=0 && until [ -n "$(cpus aiperf-send)" ] && [ -n "$(cpus aiperf-metrics)" ] &&
		[ -n "$(cpus aiperf-export)" ] && [ -n "$(cpus cat)" ] || [ $i -ge 200 ]; do
		sleep 0.05; i=$((i + 1)); done &&
	s=$(cpus aiperf-send) && m=$(cpus aiperf-metrics) && e=$(cpus aiperf-export) && c=$(cpus cat) &&
	wait $pid &&
	echo "all $all send $s metrics $m export $e cat $c" &&
	case $s in *[,-]*) false ;; esac &&
	for o in "$m" "$e" "$c"; do
		test -n "$o" && test "$o" != "$all" &&
		! echo ",$o," | grep -q ",$s,"
	done || exit 1
	AIPERF_PIN=0 aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --streaming --osl 20 \
		--concurrency 2 --request-count 6 --busy-poll --artifact-dir q >/dev/null 2>&1 &
	pid=$! &&
	i=0 && until [ -n "$(cpus aiperf-send)" ] && [ -n "$(cpus aiperf-metrics)" ] || [ $i -ge 200 ]; do
		sleep 0.05; i=$((i + 1)); done &&
	s=$(cpus aiperf-send) && m=$(cpus aiperf-metrics) &&
	wait $pid &&
	echo "AIPERF_PIN=0: send $s metrics $m" &&
	test "$s" = "$all" && test "$m" = "$all" || exit 1
	[ "$(ncpus)" -eq 2 ] || exit 0
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --streaming --osl 20 \
		--concurrency 2 --request-count 6 --artifact-dir r >/dev/null 2>&1 &
	pid=$! &&
	i=0 && until [ -n "$(cpus aiperf-send)" ] && [ -n "$(cpus aiperf-metrics)" ] || [ $i -ge 200 ]; do
		sleep 0.05; i=$((i + 1)); done &&
	s=$(cpus aiperf-send) && m=$(cpus aiperf-metrics) &&
	wait $pid &&
	echo "2 CPUs, sleeping: send $s metrics $m" &&
	test "$s" = "$all" && test "$m" = "$all" || exit 1
	AIPERF_PIN=1 aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --streaming --osl 20 \
		--concurrency 2 --request-count 6 --artifact-dir t >/dev/null 2>&1 &
	pid=$! &&
	i=0 && until [ -n "$(cpus aiperf-send)" ] && [ -n "$(cpus aiperf-metrics)" ] || [ $i -ge 200 ]; do
		sleep 0.05; i=$((i + 1)); done &&
	s=$(cpus aiperf-send) && m=$(cpus aiperf-metrics) &&
	wait $pid &&
	echo "2 CPUs, sleeping, AIPERF_PIN=1: send $s metrics $m" &&
	case $s in *[,-]*) false ;; esac &&
	test -n "$m" && test "$m" != "$all" && test "$m" != "$s"
'

test_expect_success 'client health: the other stages'"'"' CPU in the window, each and in all' '
	j=a/profile_export_aiperf.json &&
	jq -e ".client.other_stages_cpu | keys == [\"aiperf-export\", \"aiperf-gen\", \"aiperf-metrics\"]" $j >/dev/null &&
	jq -e "(.client.other_stages_cpu | add) - .client.other_stages_cpu_seconds | fabs < 1e-9" $j >/dev/null &&
	grep -q "^Other Stages CPU in the [0-9.]* s Window (s): [0-9.]* (aiperf-gen [0-9.]*, aiperf-metrics [0-9.]*, aiperf-export [0-9.]*)\$" out
'

test_expect_success 'the live view is drawn from aiperf-metrics'"'"' records, not by the sender' '
	command -v script >/dev/null || { echo "no script(1): skipped"; exit 0; }
	script -qec "aiperf profile -m m --url $MOCK_URL --tokenizer builtin --isl 8 --osl 2 \
		--concurrency 4 --request-count 40 --artifact-dir t" /dev/null >tty.out 2>&1 &&
	grep -a -q "aiperf: done, profiling 40/40 requests (100%), 0 errors, [0-9.]* requests/s" tty.out &&
	! grep -a -q "aiperf-send: [0-9]* sent" tty.out &&
	script -qec "aiperf profile -m m --url $MOCK_URL --tokenizer builtin --isl 8 --osl 2 \
		--concurrency 4 --request-count 40 --ui-type none --artifact-dir n" /dev/null >tty.out 2>&1 &&
	! grep -a -q "requests done" tty.out && ! grep -a -q "aiperf: done" tty.out &&
	test_expect_code 2 aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --ui-type bogus \
		--artifact-dir b \
		>/dev/null 2>err &&
	grep -q "invalid value for --ui-type" err
'

test_expect_success 'aiperf-metrics --progress-fd: nothing when the descriptor is not a terminal' '
	aiperf-metrics --tokenizer builtin --progress-fd 2 \
		<"$TOP/tests/golden/aiperf-metrics/chat-stream/in.ndjson" >rec 2>err &&
	test -s rec && test ! -s err &&
	test_expect_code 2 aiperf-metrics --progress-fd -1 </dev/null 2>err
'

test_expect_success 'aiperf-export --stage-cpu: a bad file is a warning, the run stands' '
	printf "names a\nnot a sample\nend\n" >bad &&
	aiperf-metrics --tokenizer builtin <"$TOP/tests/golden/aiperf-metrics/chat-stream/in.ndjson" >rec 2>/dev/null &&
	aiperf-export --stage-cpu bad --no-console <rec 2>err >/dev/null &&
	grep -q "aiperf-export: --stage-cpu: bad: line 2: not a sample" err
'

test_done
