#!/bin/sh
# aiperf profile keeps the other stages off the sender's CPU while requests
# are in flight (issue #12): they run under SCHED_IDLE, and client health
# says how much CPU they used inside the measured window.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

chrt --idle 0 true 2>/dev/null || test_skip_all "no SCHED_IDLE here (chrt)"
start_mock --ttft-ms 2 --itl-ms 50 --output-tokens 20

# cls NAME: the scheduling class ps shows for this test's process NAME.
cls() {
	sid=$(ps -o sid= -p $$ | tr -d " ")
	ps -o cls=,comm= -s "$sid" | awk -v n="$1" '$2 == n { print $1; exit }'
}

test_expect_success 'while requests are in flight only the sender runs at normal priority' '
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --streaming --osl 20 \
		--concurrency 2 --request-count 6 --artifact-dir a >out 2>err &
	pid=$! &&
	i=0 && while [ -z "$(cls aiperf-send)" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done &&
	sleep 0.2 &&
	s=$(cls aiperf-send) && m=$(cls aiperf-metrics) && e=$(cls aiperf-export) &&
	wait $pid &&
	echo "send $s metrics $m export $e" &&
	test "$s" = TS && test "$m" = IDL && test "$e" = IDL
'

test_expect_success 'client health: the other stages'"'"' CPU in the window, each and in all' '
	j=a/profile_export_aiperf.json &&
	jq -e ".client.other_stages_cpu | keys == [\"aiperf-export\", \"aiperf-gen\", \"aiperf-metrics\"]" $j >/dev/null &&
	jq -e "(.client.other_stages_cpu | add) - .client.other_stages_cpu_seconds | fabs < 1e-9" $j >/dev/null &&
	grep -q "^Other Stages CPU in the [0-9.]* s Window (s): [0-9.]* (aiperf-gen [0-9.]*, aiperf-metrics [0-9.]*, aiperf-export [0-9.]*)\$" out
'

test_expect_success 'aiperf-export --stage-cpu: a bad file is a warning, the run stands' '
	printf "names a\nnot a sample\nend\n" >bad &&
	aiperf-metrics --tokenizer builtin <"$TOP/tests/golden/aiperf-metrics/chat-stream/in.ndjson" >rec 2>/dev/null &&
	aiperf-export --stage-cpu bad --no-console <rec 2>err >/dev/null &&
	grep -q "aiperf-export: --stage-cpu: bad: line 2: not a sample" err
'

test_done
