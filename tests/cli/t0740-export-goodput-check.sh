#!/bin/sh
# aiperf-export: --goodput checked against the endpoint and --streaming
# before any record is read, and --check, which checks and does nothing else.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

IN=$TOP/tests/golden/aiperf-export/nonstreaming/in.ndjson

# no_input CMD...: runs CMD with a standard input that never ends (a FIFO we
# hold open for writing): a command that read it would hang until timeout.
no_input() {
	rm -f fifo && mkfifo fifo && exec 3<>fifo &&
	_ni=0 && timeout 10 "$@" <fifo || _ni=$?
	exec 3>&-
	return "$_ni"
}

# refused WHY ARGS...: aiperf-export ARGS exits 2 before reading its input,
# with the message WHY and the usual hint, and writes no file.
refused() {
	_why=$1
	shift
	test_expect_code 2 no_input aiperf-export --artifact-dir art "$@" 2>err &&
	printf "aiperf-export: %s\nTry 'aiperf-export --help' for more information.\n" \
		"$_why" >want &&
	test_cmp want err && test ! -e art
}

NA='are not applicable to the current endpoint/configuration.'

test_expect_success 'the documented example without --streaming: inter_token_latency refused' '
	refused "Invalid --goodput: metric(s) inter_token_latency $NA" \
		--goodput "request_latency:250 inter_token_latency:10"
'

test_expect_success 'every inapplicable tag at once, sorted' '
	refused "Invalid --goodput: metric(s) inter_token_latency, time_to_first_token $NA" \
		--goodput "time_to_first_token:5,request_latency:250 inter_token_latency:10"
'

test_expect_success 'an unknown tag is named first, even after an inapplicable one' '
	refused "Unknown metric tag in --goodput: bogus_metric" \
		--goodput "inter_token_latency:10 bogus_metric:3"
'

test_expect_success 'with --streaming the streaming metrics apply' '
	no_input aiperf-export --check --streaming \
		--goodput "request_latency:250 inter_token_latency:10 time_to_first_token:5"
'

test_expect_success 'an endpoint that cannot stream has no streaming metrics' '
	refused "Invalid --goodput: metric(s) time_to_first_token $NA" \
		--endpoint-type embeddings --streaming --goodput time_to_first_token:5
'

test_expect_success 'an endpoint without tokens out (or in) has no token metrics' '
	refused "Invalid --goodput: metric(s) output_sequence_length $NA" \
		--endpoint-type embeddings --goodput "request_latency:9 output_sequence_length:5" &&
	refused "Invalid --goodput: metric(s) input_sequence_length $NA" \
		--endpoint-type image_retrieval --goodput input_sequence_length:5 &&
	no_input aiperf-export --check --endpoint-type nim_rankings \
		--goodput "request_latency:9 input_sequence_length:5"
'

test_expect_success '--use-server-token-count rules out the usage differences' '
	no_input aiperf-export --check --goodput usage_prompt_tokens_diff_pct:5 &&
	refused "Invalid --goodput: metric(s) usage_prompt_tokens_diff_pct $NA" \
		--use-server-token-count --goodput usage_prompt_tokens_diff_pct:5
'

test_expect_success 'derived metrics are not SLOs; aggregate counters have no per-request value' '
	refused "Invalid --goodput: metric(s) request_throughput $NA" \
		--goodput request_throughput:5 &&
	refused "Invalid --goodput: metric(s) good_request_count, request_count have no per-request value in the metric records" \
		--goodput "request_count:1 good_request_count:1"
'

test_expect_success 'an unknown --endpoint-type is a usage error naming the known ones' '
	test_expect_code 2 no_input aiperf-export --check --endpoint-type chatt 2>err &&
	grep -q "^aiperf-export: invalid value for --endpoint-type: .chatt. (chat, completions, " err
'

test_expect_success '--check: a valid configuration exits 0, reads and writes nothing' '
	no_input aiperf-export --check --artifact-dir art --export-level raw \
		--slice-duration 1 --profile-export-prefix p/run >out 2>err &&
	test ! -e art && test_cmp /dev/null out && test_cmp /dev/null err
'

test_expect_success '--check: other usage errors too' '
	test_expect_code 2 no_input aiperf-export --check --export-level all 2>err &&
	grep -q "invalid value for --export-level" err &&
	test_expect_code 2 no_input aiperf-export --check --profile-export-prefix _raw.jsonl 2>err &&
	grep -q "invalid value for --profile-export-prefix" err &&
	test_expect_code 2 no_input aiperf-export --check --min-goodput-pct 5 2>err &&
	grep -q "needs --goodput" err
'

test_expect_success 'a tag given twice: the last value counts, as in a dict' '
	aiperf-export --no-console --artifact-dir d --endpoint-type completions \
		--goodput "request_latency:1 request_latency:1e9" <"$IN" &&
	grep -A2 "\"good_request_count\"" d/profile_export_aiperf.json >got &&
	grep -A2 "\"request_count\"" d/profile_export_aiperf.json | sed s/request_count/good_request_count/ >want &&
	test_cmp want got
'

test_done
