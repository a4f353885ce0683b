#!/bin/sh
# genai-perf process-export-files: the runs in the input directory's
# folders (aiperf profile's artifact directories, one per node of a
# distributed run) aggregated by aiperf-aggregate, their records pooled,
# into --artifact-dir (artifacts by default).
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 1 --itl-ms 1
test_expect_success 'two nodes'"'"' runs' '
	for n in 1 2; do
		genai-perf profile -m gpt2 --service-kind openai --endpoint-type chat --url "$MOCK_URL" \
			--tokenizer builtin --request-count 4 --artifact-dir "$TMP/in/run_$n" >/dev/null 2>&1 ||
			return 1
	done &&
	mkdir "$TMP/in/notes" && test -s "$TMP/in/run_2/profile_export_aiperf.json"
'

test_expect_success 'the docs'"'"' example: aggregated into artifacts/' '
	genai-perf process-export-files --input-directory in >out 2>err &&
	test "$(jq .metadata.num_successful_runs artifacts/profile_export_aiperf_aggregate.json)" -eq 2 &&
	test -s artifacts/profile_export_aiperf_aggregate.csv &&
	test "$(jq .metrics.request_latency.combined.count artifacts/profile_export_aiperf_collated.json)" -eq 8
'

test_expect_success '-d and --artifact-dir' '
	genai-perf process-export-files -d in --artifact-dir merged >out 2>err &&
	test -s merged/profile_export_aiperf_aggregate.json
'

test_expect_success 'no input directory, an empty one, an unknown option: refused' '
	test_expect_code 2 genai-perf process-export-files 2>err &&
	grep -q "the input directory is required" err &&
	mkdir empty && test_expect_code 1 genai-perf process-export-files -d empty 2>err &&
	grep -q "no run directories" err &&
	test_expect_code 1 genai-perf process-export-files -d nowhere 2>err &&
	test_expect_code 2 genai-perf process-export-files -d in --generate-plots 2>err &&
	grep -q "unknown option" err
'
test_done
