#!/bin/sh
# aiperf profile --workers-max N under SIGINT and SIGTERM: every sender
# stops, every record read by any of them is written once, the artifacts
# say was_cancelled, the status is 128+signal, nothing is left running.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 300 --itl-ms 20

# sum N-th-number-of-the-interrupted-lines: the senders' counts added up.
sum_of() {
	sed -n "$1" err | awk '{ s += $1 } END { print s + 0 }'
}

# check_run DIR STATUS WANT N: the interrupted run of N senders in DIR.
check_run() {
	test "$2" -eq "$3" || { echo "status $2, want $3"; return 1; }
	test "$(jq .was_cancelled "$1/profile_export_aiperf.json")" = true &&
	test "$(grep -c "^aiperf-send: interrupted: " err)" -eq "$4" &&
	ended=$(sum_of "s/^aiperf-send: interrupted: \([0-9]*\) requests ended.*/\1/p") &&
	cut=$(sum_of "s/^aiperf-send: interrupted: .*, \([0-9]*\) of them cancelled.*/\1/p") &&
	never=$(sum_of "s/^aiperf-send: interrupted: .*; \([0-9]*\) read.*/\1/p") &&
	jq -c . "$1/profile_export_raw.jsonl" >/dev/null &&
	test "$(wc -l <"$1/profile_export_raw.jsonl")" -eq $((ended + never)) &&
	test "$(jq -r .metadata.x_request_id "$1/profile_export_raw.jsonl" | sort | uniq -d | wc -l)" -eq 0 &&
	test "$(grep -c NotSentError "$1/profile_export_raw.jsonl")" -eq "$never" &&
	test "$(grep -c NotFinishedError "$1/profile_export_raw.jsonl")" -eq "$cut" &&
	# metric records: the profiling ones that ended (warmup ones have none)
	kept=$(jq -r "select(.metadata.benchmark_phase == \"profiling\") | .error.type // \"ok\"" \
		"$1/profile_export_raw.jsonl" | grep -vc "NotSentError\|NotFinishedError") &&
	test "$(wc -l <"$1/profile_export.jsonl")" -eq "$kept" &&
	test "$(grep -c "\"benchmark_phase\":\"warmup\"" "$1/profile_export_raw.jsonl")" -le 1 &&
	grep -q "The profile run was cancelled early" out &&
	! ls "$1"/.raw_records.spill* 2>/dev/null &&
	! pgrep -f -- "$1" >/dev/null
}

for sig in INT TERM; do
	want=130
	[ $sig = TERM ] && want=143
	test_expect_success "SIG$sig to the wrapper: 3 senders stop, nothing lost" "
		grp sh -c 'echo \$\$ >pid; exec \"\$0\" \"\$@\"' aiperf profile -m m \
			--url \"\$MOCK_URL\" --tokenizer builtin --streaming --isl 16 \
			--osl 20 --concurrency 6 --request-count 600 --export-level raw \
			--workers-max 3 --artifact-dir s$sig >out 2>err &
		wait_raw s$sig &&
		kill -$sig \$(cat pid) &&
		st=0 && wait \$! || st=\$?
		check_run \"\$PWD/s$sig\" \$st $want 3
	"
done

# Sender 2 has no warmup record: it waits at the profiling barrier while
# sender 1 sends the warmup request (700 ms); the signal ends its wait
# and it starts nothing: no profiling record may have ended, so there may
# be no metrics to export, but every record read is in the raw file.
test_expect_success 'SIGINT to the process group during the profiling barrier' '
	grp sh -c "echo \$\$ >pid; exec aiperf profile -m m --url $MOCK_URL \
		--tokenizer builtin --streaming --isl 16 --osl 20 --concurrency 2 \
		--warmup-request-count 1 --request-count 200 --export-level raw \
		--workers-max 2 --artifact-dir g" >out 2>err &
	prof=$! &&
	i=0 && while ! grep -q "warmup barrier passed" g/logs/aiperf.log 2>/dev/null &&
		[ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done &&
	kill -INT -$(cat pid) &&
	st=0 && wait $prof || st=$?
	test $st -eq 130 &&
	test "$(grep -c "^aiperf-send: interrupted: " err)" -eq 2 &&
	ended=$(sum_of "s/^aiperf-send: interrupted: \([0-9]*\) requests ended.*/\1/p") &&
	never=$(sum_of "s/^aiperf-send: interrupted: .*; \([0-9]*\) read.*/\1/p") &&
	test "$(wc -l <g/profile_export_raw.jsonl)" -eq $((ended + never)) &&
	test $((ended + never)) -eq 201 &&
	! ls g/.raw_records.spill* 2>/dev/null &&
	! pgrep -f -- "$PWD/g" >/dev/null
'

test_done
