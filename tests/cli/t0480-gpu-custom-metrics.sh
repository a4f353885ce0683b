#!/bin/sh
# Custom GPU metrics CSV (--gpu-telemetry FILE.csv, aiperf-export
# --gpu-metrics): the extra DCGM fields it names are collected into
# gpu_telemetry_export.jsonl, telemetry_data, the CSV and the console.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --dcgm --dcgm-gpus 2 --ttft-ms 5 --itl-ms 1
# one profiling record: the window starts long before any scrape
printf '{"metadata":{"request_start_ns":1000000000,"request_end_ns":2000000000,"benchmark_phase":"profiling"},"metrics":{"request_latency":{"value":10.0,"unit":"ms"}}}\n' \
	>"$TMP/rec.jsonl"

cat >"$TMP/custom.csv" <<'CSV'
# Format
# DCGM FIELD, Prometheus metric type, help message

# Clocks
DCGM_FI_DEV_SM_CLOCK,  gauge, SM clock frequency (in MHz).
  DCGM_FI_DEV_FB_FREE , gauge , Framebuffer memory free (in MiB).
DCGM_FI_DEV_GPU_UTIL, gauge, GPU utilization (in %).
DCGM_FI_DEV_NOT_EXPORTED, gauge, Never there (in W).
not a metric line
DCGM_FI_DEV_X, histogram, bad type
CSV

test_expect_success 'aiperf-export --gpu-metrics: the extra fields in every output' '
	for i in 1 2 3; do aiperf-scrape --once "$MOCK_URL/metrics" || exit 1; done >samples &&
	aiperf-export --gpu-console --artifact-dir a --gpu-samples samples \
		--gpu-metrics custom.csv <rec.jsonl >out 2>err &&
	grep -q "custom.csv:9: expected 3 comma-separated values; line skipped" err &&
	grep -q "custom.csv:10: the metric type should be .gauge. or .counter.; line skipped" err &&
	test "$(grep -c warning err)" -eq 2 &&
	l=a/gpu_telemetry_export.jsonl && test "$(wc -l <$l)" -eq 6 &&
	jq -e ".telemetry_data | .sm_clock == 345 and .fb_free == 123771 and
		.gpu_utilization == 0 and (has(\"not_exported\") | not)" $l >/dev/null &&
	test "$(jq -c ".telemetry_data | keys_unsorted | .[-2:]" $l | sort -u)" = "[\"sm_clock\",\"fb_free\"]" &&
	j=a/profile_export_aiperf.json &&
	jq -e ".telemetry_data.endpoints[].gpus.gpu_1.metrics |
		.sm_clock.unit == \"MHz\" and .sm_clock.avg == 345 and .sm_clock.std == 0 and
		.fb_free.unit == \"count\" and .fb_free.p99 == 123771 and
		(keys_unsorted | .[-2:] == [\"sm_clock\", \"fb_free\"])" $j &&
	grep -q ",1,NVIDIA H200,GPU-a1b2c3d4-0000-4000-8000-000000000001,SM Clock Frequency (MHz),345.00," \
		a/profile_export_aiperf.csv &&
	grep -q "Framebuffer Memory Free (count)" a/profile_export_aiperf.csv &&
	grep -q "SM Clock Frequency (MHz)" out
'

test_expect_success 'without the CSV the extra fields are left out' '
	aiperf-export --no-console --artifact-dir b --gpu-samples samples <rec.jsonl &&
	jq -e "[.telemetry_data | has(\"sm_clock\") or has(\"fb_free\")] | any | not" \
		b/gpu_telemetry_export.jsonl >/dev/null &&
	! grep -q "SM Clock" b/profile_export_aiperf.csv
'

test_expect_success 'an unreadable CSV is a usage error; an empty one adds nothing' '
	test_expect_code 2 aiperf-export --check --gpu-metrics nothere.csv 2>err &&
	grep -q "gpu-metrics: cannot read .nothere.csv." err &&
	: >empty.csv &&
	aiperf-export --no-console --artifact-dir c --gpu-samples samples \
		--gpu-metrics empty.csv <rec.jsonl 2>err && ! test -s err &&
	cmp b/gpu_telemetry_export.jsonl c/gpu_telemetry_export.jsonl
'

test_expect_success 'hostile CSV lines: warned, never fatal' '
	printf "DCGM_FI_DEV_\\377X, gauge, x\\nDCGM_FI_DEV_DCGM_FI_DEV_, gauge, x\\n,,,\\n\\0\\nDCGM_FI_DEV_SM_CLOCK,gauge,a\\nDCGM_FI_DEV_SM_CLOCK,gauge,b\\n" >bad.csv &&
	aiperf-export --no-console --artifact-dir d --gpu-samples samples \
		--gpu-metrics bad.csv <rec.jsonl 2>err &&
	test "$(grep -c "line skipped" err)" -eq 5 &&
	jq -e ".telemetry_data.endpoints[].gpus.gpu_0.metrics.sm_clock.unit == \"count\"" \
		d/profile_export_aiperf.json
'

test_expect_success 'aiperf profile --gpu-telemetry URL custom.csv end to end' '
	AIPERF_GPU_DEFAULT_DCGM_URLS= AIPERF_GPU_COLLECTION_INTERVAL=0.05 \
	aiperf profile --model m --url "$MOCK_URL" --tokenizer builtin --random-seed 7 \
		--isl 16 --osl 8 --streaming --concurrency 2 --request-count 20 \
		--gpu-telemetry "$MOCK_URL/dcgm1/metrics" custom.csv --artifact-dir p >out 2>err &&
	jq -e ".telemetry_data.endpoints[].gpus.gpu_0.metrics.sm_clock.unit == \"MHz\"" \
		p/profile_export_aiperf.json &&
	head -1 p/gpu_telemetry_export.jsonl | jq -e ".telemetry_data.sm_clock >= 345" &&
	grep -q "SM Clock Frequency (MHz)" out &&
	grep -q "SM Clock Frequency (MHz)" p/profile_export_aiperf.csv
'

test_done
