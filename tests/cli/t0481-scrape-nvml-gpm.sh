#!/bin/sh
# aiperf-scrape --nvml: SM utilization through GPM and JPEG utilization,
# both from newer drivers: resolved when there, absent (no error) on a GPU
# without them or with a driver older than them (the stub library built
# without them).
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

STUB=$TOP/build/tests/libnvml-stub.so
OLD=$TOP/build/tests/libnvml-stub-old.so
export AIPERF_NVML_LIB="$STUB"

# series FILE FAMILY: [[gpu, value], ...] of every record in FILE
series() {
	jq -c "[.metrics[\"$2\"].series // [] | .[] | [.labels.gpu, .value]]" "$1"
}

test_expect_success 'both stub libraries are built' '
	test -f "$STUB" && test -f "$OLD" &&
	! nm -D "$OLD" | grep -q "nvmlGpm\|nvmlDeviceGetJpgUtilization" &&
	nm -D "$STUB" | grep -q nvmlGpmMetricsGet
'

test_expect_success 'GPM SM utilization and JPEG utilization where supported (GPU 0 only)' '
	aiperf-scrape --nvml --interval 0.05 >out 2>err &
	pid=$! && sleep 0.3 && kill -TERM $pid && wait $pid &&
	test ! -s err && test "$(wc -l <out)" -ge 3 &&
	test "$(series out aiperf_nvml_sm_utilization | sort -u)" = "[[\"0\",37.5]]" &&
	test "$(series out aiperf_nvml_jpg_utilization | sort -u)" = "[[\"0\",12]]" &&
	jq -e ".metrics.aiperf_nvml_sm_utilization.type == \"gauge\"" out >/dev/null
'

test_expect_success 'a GPU without GPM: no SM utilization, no error' '
	AIPERF_NVML_STUB_GPM=none aiperf-scrape --nvml --once >out 2>err &&
	test ! -s err &&
	jq -e ".metrics | (has(\"aiperf_nvml_sm_utilization\") | not) and
		has(\"aiperf_nvml_jpg_utilization\") and has(\"DCGM_FI_DEV_POWER_USAGE\")" out
'

test_expect_success 'a driver older than GPM and JPEG: both absent, the rest there, no warning' '
	AIPERF_NVML_LIB=$OLD aiperf-scrape --nvml --once >out 2>err &&
	test ! -s err &&
	jq -e ".metrics | (has(\"aiperf_nvml_sm_utilization\") or has(\"aiperf_nvml_jpg_utilization\") | not) and
		(.DCGM_FI_DEV_GPU_UTIL.series | length == 2)" out
'

test_expect_success 'aiperf-export: sm_utilization and jpg_utilization of GPU 0, in the table order' '
	aiperf-scrape --nvml --interval 0.05 >s.jsonl &
	pid=$! && sleep 0.25 && kill -TERM $pid && wait $pid &&
	printf "{\"metadata\":{\"request_start_ns\":1,\"request_end_ns\":2,\"benchmark_phase\":\"profiling\"},\"metrics\":{\"request_latency\":{\"value\":1.0,\"unit\":\"ms\"}}}\n" >rec.jsonl &&
	aiperf-export --gpu-samples s.jsonl --artifact-dir o --no-console <rec.jsonl &&
	jq -e ".telemetry_data.endpoints.localhost.gpus |
		.gpu_0.metrics.sm_utilization.avg == 37.5 and .gpu_0.metrics.sm_utilization.unit == \"%\" and
		.gpu_0.metrics.jpg_utilization.max == 12 and
		(.gpu_1.metrics | has(\"sm_utilization\") or has(\"jpg_utilization\") | not) and
		(.gpu_0.metrics | keys_unsorted | index(\"sm_utilization\") < index(\"jpg_utilization\"))" \
		o/profile_export_aiperf.json &&
	head -1 o/gpu_telemetry_export.jsonl | jq -e ".telemetry_data.sm_utilization == 37.5 and
		.telemetry_data.jpg_utilization == 12" &&
	grep -q ",SM Utilization (%),37.50," o/profile_export_aiperf.csv &&
	grep -q ",JPEG Utilization (%),12.00," o/profile_export_aiperf.csv
'

test_done
