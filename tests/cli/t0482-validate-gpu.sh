#!/bin/sh
# aiperf validate: the GPU telemetry summary (telemetry_data) recomputed
# from gpu_telemetry_export.jsonl over the records' profiling window; a
# good artifact directory passes, tampered ones fail naming the value.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 2 --itl-ms 1
printf 'DCGM_FI_DEV_SM_CLOCK, gauge, SM clock frequency (in MHz)\n' >"$TMP/custom.csv"

# tamper DIR FILE JQ: DIR copied to DIR.t with FILE rewritten by JQ
tamper() {
	rm -rf "$1.t" && cp -r "$1" "$1.t" &&
	jq -c "$3" "$1/$2" >"$1.t/$2"
}

test_expect_success 'a good run passes, GPU telemetry included (custom metric too)' '
	AIPERF_GPU_DEFAULT_DCGM_URLS= AIPERF_GPU_COLLECTION_INTERVAL=0.05 \
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --isl 16 --osl 8 \
		--concurrency 2 --request-count 30 --warmup-request-count 3 --ui-type none \
		--gpu-telemetry "$MOCK_URL/dcgm1/metrics" "$MOCK_URL/dcgm2/metrics" \
		http://127.0.0.1:1/metrics custom.csv --artifact-dir a >out 2>err &&
	jq -e ".telemetry_data.endpoints[].gpus.gpu_0.metrics.sm_clock.unit == \"MHz\"" \
		a/profile_export_aiperf.json >/dev/null &&
	aiperf validate a >v &&
	grep -q "^ok gpu: telemetry_data: every value as recomputed from the [0-9]* lines of gpu_telemetry_export.jsonl (4 GPUs)\$" v
'

test_expect_success 'a tampered telemetry_data value fails, naming it' '
	tamper a profile_export_aiperf.json \
		".telemetry_data.endpoints[].gpus.gpu_1.metrics.gpu_power_usage.max += 1" &&
	test_expect_code 1 aiperf validate a.t >v 2>err &&
	grep -q "^FAIL gpu: telemetry_data.endpoints.127.0.0.1:[0-9]*/dcgm[12].gpus.gpu_1.metrics.gpu_power_usage.max is .*, .* from gpu_telemetry_export.jsonl\$" v &&
	grep -q "checks failed: gpu\$" err
'

test_expect_success 'a tampered custom metric or endpoint list fails' '
	tamper a profile_export_aiperf.json \
		".telemetry_data.endpoints[].gpus.gpu_0.metrics.sm_clock.p50 = 1" &&
	test_expect_code 1 aiperf validate a.t >v &&
	grep -q "^FAIL gpu: .*sm_clock.p50 is 1" v &&
	tamper a profile_export_aiperf.json \
		".telemetry_data.summary.endpoints_successful |= .[1:]" &&
	test_expect_code 1 aiperf validate a.t >v &&
	grep -q "^FAIL gpu: " v &&
	tamper a profile_export_aiperf.json "del(.telemetry_data.summary)" &&
	test_expect_code 1 aiperf validate a.t >v &&
	grep -q "^FAIL gpu: telemetry_data has no summary object" v &&
	tamper a profile_export_aiperf.json ".telemetry_data = 5" &&
	test_expect_code 1 aiperf validate a.t >v &&
	grep -q "^FAIL gpu: " v &&
	tamper a profile_export_aiperf.json ".telemetry_data.summary.start_time = \"2000-01-01T00:00:00\"" &&
	aiperf validate a.t >v
'

test_expect_success 'a tampered, truncated or missing JSONL fails' '
	tamper a gpu_telemetry_export.jsonl \
		"if .gpu_index == 1 then .telemetry_data.gpu_temperature += 5 else . end" &&
	test_expect_code 1 aiperf validate a.t >v &&
	grep -q "^FAIL gpu: .*gpu_1.metrics.gpu_temperature" v &&
	rm -rf a.t && cp -r a a.t && sed -i "\$d" a.t/gpu_telemetry_export.jsonl &&
	test_expect_code 1 aiperf validate a.t >v &&
	grep -q "^FAIL gpu: " v &&
	tamper a gpu_telemetry_export.jsonl ".telemetry_data.bogus = 1" &&
	test_expect_code 1 aiperf validate a.t >v &&
	grep -q "^FAIL gpu: gpu_telemetry_export.jsonl: line 1: telemetry_data.bogus: a metric the summary does not have\$" v &&
	rm -rf a.t && cp -r a a.t && echo "{\"x\":" >>a.t/gpu_telemetry_export.jsonl &&
	test_expect_code 1 aiperf validate a.t >v &&
	grep -q "^FAIL gpu: gpu_telemetry_export.jsonl: line [0-9]*: " v &&
	rm -rf a.t && cp -r a a.t && rm a.t/gpu_telemetry_export.jsonl &&
	test_expect_code 1 aiperf validate a.t >v &&
	grep -q "^FAIL gpu: the summary has telemetry_data, but there is no gpu_telemetry_export.jsonl\$" v
'

test_expect_success 'without GPU telemetry: skipped; without records: parsed only' '
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --isl 16 --osl 8 \
		--request-count 5 --ui-type none --no-gpu-telemetry --artifact-dir b >/dev/null 2>&1 &&
	aiperf validate b >v && grep -q "^skip gpu: no GPU telemetry\$" v &&
	rm -rf a.t && cp -r a a.t && rm a.t/profile_export.jsonl &&
	test_expect_code 1 aiperf validate a.t >v && grep -q "^FAIL files: missing profile_export.jsonl" v &&
	grep -q "^skip gpu: gpu_telemetry_export.jsonl parses ([0-9]* lines); telemetry_data not recomputed" v
'

test_done
