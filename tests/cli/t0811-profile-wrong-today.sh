#!/bin/sh
# What aiperf profile got wrong for the original's users, each through the
# wrapper as they run it (issue #11): a --goodput the run cannot measure,
# -H as a JSON object, the raw file under --profile-export-prefix, the
# requests cut off by the grace period, and writing before checking.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 2 --itl-ms 1

prof() {
	aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin \
		--random-seed 7 --isl 16 --osl 4 "$@"
}

test_expect_success '--goodput with an SLO the run cannot measure: refused before anything is sent' '
	test_expect_code 2 prof --request-count 2 --artifact-dir g \
		--goodput "request_latency:250 inter_token_latency:10" >out 2>err &&
	grep -q "Invalid --goodput: metric(s) inter_token_latency are not applicable to the current endpoint/configuration" err &&
	test ! -e g && ! grep -q "NVIDIA AIPerf" out &&
	test_expect_code 2 prof --request-count 2 --artifact-dir g --goodput "nonsense:1" 2>err &&
	grep -q "Unknown metric tag in --goodput: nonsense" err && test ! -e g &&
	prof --request-count 2 --artifact-dir s --streaming \
		--goodput "request_latency:250 inter_token_latency:10" >/dev/null 2>&1 &&
	jq -e ".good_request_count.avg == 2" s/profile_export_aiperf.json >/dev/null
'

test_expect_success '-H as a JSON object: one header per member on the wire' '
	prof --request-count 1 --artifact-dir h --export-level raw \
		-H "{\"X-A\": \"1\", \"X-B\": \"2\"}" >/dev/null 2>&1 &&
	jq -e ".request_headers[\"X-A\"] == \"1\" and .request_headers[\"X-B\"] == \"2\"" \
		h/profile_export_raw.jsonl >/dev/null &&
	jq -r .input_config.cli_command h/profile_export_aiperf.json | grep -qF "X-A"
'

test_expect_success '--profile-export-prefix P: P_raw.jsonl beside P.json, its directories kept' '
	prof --request-count 2 --artifact-dir p --export-level raw \
		--profile-export-prefix runs/first >out 2>&1 &&
	test -s p/runs/first.json && test -s p/runs/first.csv &&
	test "$(wc -l <p/runs/first.jsonl)" -eq 2 &&
	test "$(wc -l <p/runs/first_raw.jsonl)" -eq 2 &&
	test ! -e p/profile_export_raw.jsonl && test ! -e p/profile_export_aiperf.json &&
	grep -q "^Raw Records: $PWD/p/runs/first_raw.jsonl\$" out
'

# a slow server: requests outlive the duration and its grace period
kill "$MOCK_PID" && wait "$MOCK_PID" 2>/dev/null
start_mock --ttft-ms 5 --itl-ms 150 --output-tokens 8
test_expect_success 'the grace period ends: requests still in flight are kept raw, out of every metric' '
	prof --streaming --concurrency 4 --benchmark-duration 1 --benchmark-grace-period 0 \
		--export-level raw --artifact-dir d >out 2>err &&
	n=$(grep -c NotFinishedError d/profile_export_raw.jsonl) &&
	test "$n" -ge 1 &&
	j=d/profile_export_aiperf.json &&
	jq -e "(.error_request_count.avg // 0) == 0" $j >/dev/null &&
	ok=$(wc -l <d/profile_export.jsonl) && test "$ok" -ge 1 &&
	jq -e ".request_count.avg == $ok" $j >/dev/null &&
	notsent=$(grep -c NotSentError d/profile_export_raw.jsonl || :) &&
	test "$(wc -l <d/profile_export_raw.jsonl)" -eq $((ok + n + notsent)) &&
	! grep -q "499" out &&
	grep -q " - aiperf-send - INFO - sending stopped; [0-9]* requests in flight get 0.000 s to finish" d/logs/aiperf.log &&
	grep -q " - aiperf-send - INFO - the grace period ended: cancelling $n requests in flight" d/logs/aiperf.log
'

test_done
