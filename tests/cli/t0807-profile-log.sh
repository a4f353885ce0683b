#!/bin/sh
# aiperf profile writes a real logs/aiperf.log (issue #11): the original's
# line form, the wrapper's settings and verdict, each stage's own warnings
# and errors, -v for DEBUG and -vv for TRACE; options without meaning here
# are accepted and the log says so.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 2 --itl-ms 1

prof() {
	aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin \
		--random-seed 7 --isl 16 --osl 4 --request-count 3 "$@"
}

# stamped FILE: every line of FILE has the original's form.
stamped() {
	! grep -v '^[0-9]\{4\}-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9]\{3\} - [a-z.-]* - \(TRACE\|DEBUG\|INFO\|NOTICE\|WARNING\|SUCCESS\|ERROR\|CRITICAL\) - ' "$1"
}

test_expect_success 'a good run: stamped lines from the wrapper, nothing below INFO' '
	prof --artifact-dir a >out 2>err &&
	l=a/logs/aiperf.log &&
	test -s $l && stamped $l &&
	grep -q " - aiperf.profile - INFO - artifact directory: $PWD/a\$" $l &&
	grep -q " - aiperf.profile - INFO - timing mode: concurrency\$" $l &&
	grep -q " - aiperf.profile - INFO - the stages ended: aiperf-export status 0\$" $l &&
	grep -q " - aiperf-send - INFO - profiling phase started\$" $l &&
	grep -q " - aiperf-send - INFO - 3 records written, 0 of them never sent" $l &&
	grep -q " - aiperf-export - INFO - CLI Command: aiperf profile --model test/model " $l &&
	grep -q " - aiperf-export - INFO - 3 profiling requests: 3 valid, 0 errors" $l &&
	! grep -q " - DEBUG - " $l
'

test_expect_success '-v adds DEBUG lines, -vv TRACE level, --log-level WARNING drops INFO' '
	prof --artifact-dir v -v >/dev/null 2>&1 &&
	grep -q " - aiperf.profile - DEBUG - stages: " v/logs/aiperf.log && stamped v/logs/aiperf.log &&
	prof --artifact-dir w --log-level warning >/dev/null 2>&1 &&
	! grep -q " - INFO - " w/logs/aiperf.log &&
	prof --artifact-dir vv -vv >/dev/null 2>&1 &&
	grep -q " - DEBUG - " vv/logs/aiperf.log
'

test_expect_success '-v: each stage logs its command line, with no secret in it' '
	prof --artifact-dir c -v --api-key SECRET1 -H "X-Auth: SECRET2" \
		--url "http://user:SECRET3@${MOCK_URL#http://}" >/dev/null 2>&1 &&
	for s in gen send metrics export; do
		grep -q " - aiperf-$s - DEBUG - command line: " c/logs/aiperf.log ||
			{ echo "aiperf-$s"; exit 1; }
	done &&
	grep -q "X-Auth: <redacted>" c/logs/aiperf.log &&
	! grep -q SECRET c/logs/aiperf.log
'

test_expect_success 'a stage warning lands in the log with its own name and level' '
	AIPERF_API_KEY=k prof --artifact-dir k -H "Authorization: Bearer x" >/dev/null 2>err &&
	stamped k/logs/aiperf.log &&
	grep -q " - aiperf-send - WARNING - the API key replaces the Authorization header given with -H\$" \
		k/logs/aiperf.log
'

test_expect_success 'options that configure the original'"'"'s services: accepted, logged as without effect' '
	prof --artifact-dir z --zmq-host 10.0.0.1 --zmq-ipc-path /tmp/x \
		--record-processor-service-count 2 >/dev/null 2>&1 &&
	for o in --zmq-host --zmq-ipc-path --record-processor-service-count; do
		grep -q " - aiperf.profile - WARNING - $o has no effect: " z/logs/aiperf.log ||
			{ echo "$o"; exit 1; }
	done
'

test_expect_success 'a failed stage is an ERROR line naming it' '
	aiperf profile --model m --url http://127.0.0.1:1 --tokenizer builtin --request-count 1 \
		--request-timeout-seconds 1 --artifact-dir f --export-level raw >/dev/null 2>&1 || :
	stamped f/logs/aiperf.log &&
	grep -q " - aiperf.profile - INFO - the stages ended" f/logs/aiperf.log
'

test_expect_success 'a usage error writes nothing' '
	test_expect_code 2 prof --artifact-dir u --log-level loud 2>err &&
	test ! -e u &&
	test_expect_code 2 prof --artifact-dir u --url-strategy random 2>err &&
	test ! -e u && grep -q "the only choice here: round_robin" err
'

test_done
