#!/bin/sh
# aiperf-export --gpu-samples / --gpu-console: GPU telemetry from DCGM
# sample records: gpu_telemetry_export.jsonl, telemetry_data, the CSV GPU
# section, the console tables; the profiling window; hostile samples.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

S=1000000000000	# the profiling window starts here (ns)
printf '{"metadata":{"request_start_ns":%s,"request_end_ns":%s,"benchmark_phase":"profiling"},"metrics":{"request_latency":{"value":10.0,"unit":"ms"}}}\n' \
	$S $((S + 5000000000)) >"$TMP/rec.jsonl"

# samp TS POWER ENERGY: one scrape of two GPUs (GPU 1 reports power only)
samp() {
	g0='"gpu":"0","UUID":"GPU-0","modelName":"Test GPU","pci_bus_id":"00000000:18:00.0","device":"nvidia0","Hostname":"n1"'
	printf '{"schema":"aiperf.sample/1","endpoint_url":"http://h:9400/metrics","scrape":1,"timestamp_ns":%s,"metrics":{"DCGM_FI_DEV_POWER_USAGE":{"type":"gauge","series":[{"labels":{%s},"value":%s},{"labels":{"gpu":"1","UUID":"GPU-1","modelName":"Test GPU"},"value":50}]},"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION":{"type":"counter","series":[{"labels":{%s},"value":%s}]},"DCGM_FI_DEV_FB_USED":{"type":"gauge","series":[{"labels":{%s},"value":1000}]},"DCGM_FI_DEV_FB_FREE":{"type":"gauge","series":[{"labels":{%s},"value":1}]}}}\n' \
		"$1" "$g0" "$2" "$g0" "$3" "$g0" "$g0"
}
{
	samp $((S - 1000000000)) 100 1000000000	# before the window: a counter's reference
	samp $((S + 1000000000)) 110 2000000000
	samp $((S + 2000000000)) 120 3000000000
	samp $((S + 3000000000)) 130 4000000000
} >"$TMP/s.jsonl"

test_expect_success 'gpu_telemetry_export.jsonl: a line per GPU per scrape, keys as the original' '
	aiperf-export --gpu-samples s.jsonl --artifact-dir o --no-console <rec.jsonl &&
	test "$(wc -l <o/gpu_telemetry_export.jsonl)" -eq 8 &&
	head -1 o/gpu_telemetry_export.jsonl >first &&
	printf "%s\n" "{\"gpu_index\":0,\"gpu_uuid\":\"GPU-0\",\"gpu_model_name\":\"Test GPU\",\"pci_bus_id\":\"00000000:18:00.0\",\"device\":\"nvidia0\",\"hostname\":\"n1\",\"timestamp_ns\":999000000000,\"dcgm_url\":\"http://h:9400/metrics\",\"telemetry_data\":{\"gpu_power_usage\":100.0,\"energy_consumption\":1.0,\"gpu_memory_used\":1.0485760000000002}}" >want &&
	test_cmp want first &&
	sed -n 2p o/gpu_telemetry_export.jsonl | jq -e "keys_unsorted == [\"gpu_index\",\"gpu_uuid\",\"gpu_model_name\",\"timestamp_ns\",\"dcgm_url\",\"telemetry_data\"]"
'

test_expect_success 'telemetry_data: the window (warmup left out), gauges and counters' '
	j=o/profile_export_aiperf.json &&
	jq -e ".telemetry_data.summary | .endpoints_configured == [\"http://h:9400/metrics\"] and
		.endpoints_successful == [\"http://h:9400/metrics\"] and has(\"start_time\")" $j &&
	jq -e ".telemetry_data.endpoints | keys == [\"h:9400\"]" $j &&
	jq -e ".telemetry_data.endpoints[\"h:9400\"].gpus.gpu_0 |
		.gpu_index == 0 and .gpu_name == \"Test GPU\" and .gpu_uuid == \"GPU-0\" and
		.hostname == \"n1\" and (.metrics | keys_unsorted) ==
		[\"gpu_power_usage\", \"energy_consumption\", \"gpu_memory_used\"]" $j &&
	jq -e ".telemetry_data.endpoints[\"h:9400\"].gpus.gpu_0.metrics.gpu_power_usage ==
		{unit: \"W\", avg: 120, p1: 110.2, p5: 111, p10: 112, p25: 115, p50: 120,
		 p75: 125, p90: 128, p95: 129, p99: 129.8, min: 110, max: 130, std: 10}" $j &&
	jq -e ".telemetry_data.endpoints[\"h:9400\"].gpus.gpu_0.metrics.energy_consumption ==
		{unit: \"MJ\", avg: 3}" $j &&
	jq -e ".telemetry_data.endpoints[\"h:9400\"].gpus.gpu_1 | (has(\"hostname\") | not) and
		.metrics.gpu_power_usage.avg == 50" $j &&
	jq -e ".telemetry_data.error_summary == []" $j &&
	jq -e "keys_unsorted | index(\"telemetry_data\") < index(\"input_config\") // 99" $j
'

test_expect_success 'the CSV GPU section: two blank rows, header, a row per GPU and metric' '
	tr -d "\r" <o/profile_export_aiperf.csv >csv &&
	sed -n "/^Endpoint,/,\$p" csv >gpu &&
	cat >want <<-\EOF &&
	Endpoint,GPU_Index,GPU_Name,GPU_UUID,Metric,avg,min,max,sum,p1,p5,p10,p25,p50,p75,p90,p95,p99,std,Hostname
	h:9400,0,Test GPU,GPU-0,GPU Power Usage (W),120.00,110.00,130.00,360.00,110.20,111.00,112.00,115.00,120.00,125.00,128.00,129.00,129.80,10.00,n1
	h:9400,0,Test GPU,GPU-0,Energy Consumption (MJ),3.00,,,,,,,,,,,,,,n1
	h:9400,0,Test GPU,GPU-0,GPU Memory Used (GB),1.05,1.05,1.05,3.15,1.05,1.05,1.05,1.05,1.05,1.05,1.05,1.05,1.05,0.00,n1
	h:9400,1,Test GPU,GPU-1,GPU Power Usage (W),50.00,50.00,50.00,150.00,50.00,50.00,50.00,50.00,50.00,50.00,50.00,50.00,50.00,0.00,
	EOF
	test_cmp want gpu &&
	grep -B3 "^Endpoint," csv | head -3 | tail -2 | grep -c "^\$" | grep -qx 2
'

test_expect_success '--gpu-console: a table per GPU; without it none' '
	aiperf-export --gpu-samples s.jsonl --gpu-console --artifact-dir c <rec.jsonl >out &&
	grep -q "NVIDIA AIPerf | GPU Telemetry Summary" out &&
	grep -q "h:9400 | GPU 0 | Test GPU" out &&
	grep -q "h:9400 | GPU 1 | Test GPU" out &&
	grep -q "GPU Power Usage (W) │ 120.00 │ 110.00 │ 130.00 │ 129.80 │ 128.00 │ 120.00 │ 10.00" out &&
	grep -q "Energy Consumption (MJ) │   3.00 │    N/A" out &&
	grep -q "^GPU Telemetry Export: $TMP/c/gpu_telemetry_export.jsonl" out &&
	aiperf-export --gpu-samples s.jsonl --artifact-dir d <rec.jsonl >out &&
	! grep -q "GPU Telemetry Summary" out
'

test_expect_success 'no samples (an empty file, none given): no telemetry anywhere, no error' '
	: >empty &&
	aiperf-export --gpu-samples empty --artifact-dir e --no-console <rec.jsonl 2>err &&
	test ! -s err && test ! -e e/gpu_telemetry_export.jsonl &&
	jq -e "has(\"telemetry_data\") | not" e/profile_export_aiperf.json &&
	! grep -q "^Endpoint," e/profile_export_aiperf.csv &&
	aiperf-export --artifact-dir f --no-console <rec.jsonl &&
	jq -e "has(\"telemetry_data\") | not" f/profile_export_aiperf.json &&
	aiperf-export --gpu-samples missing --artifact-dir g --no-console <rec.jsonl 2>err &&
	grep -q "cannot open .missing.*no GPU telemetry" err &&
	test ! -e g/gpu_telemetry_export.jsonl
'

test_expect_success 'hostile samples: warned once, left out, the rest counts' '
	{
		echo "not json"
		echo "[1,2]"
		echo "{\"endpoint_url\":\"http://x/metrics\"}"
		echo "{\"endpoint_url\":\"http://x/metrics\",\"timestamp_ns\":2000000000000,\"error\":{\"type\":\"ConnectionError\",\"message\":\"m\"}}"
		echo "{\"endpoint_url\":\"http://h:9400/metrics\",\"timestamp_ns\":2000000000000,\"metrics\":[]}"
		echo "{\"endpoint_url\":\"http://h:9400/metrics\",\"timestamp_ns\":2000000000000,\"metrics\":{\"DCGM_FI_DEV_GPU_TEMP\":{\"series\":[{\"labels\":{\"gpu\":\"0\"},\"value\":1},{\"labels\":{\"UUID\":\"GPU-0\"},\"value\":\"NaN\"},{\"labels\":{\"UUID\":\"GPU-0\"},\"value\":\"x\"},{\"labels\":7,\"value\":1},{\"labels\":{\"UUID\":\"GPU-0\",\"gpu\":\"99999999999999999999\"},\"value\":1e999}]},\"DCGM_FI_DEV_GPU_UTIL\":{\"series\":\"no\"},\"DCGM_FI_DEV_POWER_USAGE\":{\"series\":[{\"labels\":{\"UUID\":\"GPU-9\",\"gpu\":\"7\"},\"value\":5}]}}}"
		cat s.jsonl
	} >bad.jsonl &&
	aiperf-export --gpu-samples bad.jsonl --artifact-dir h --no-console <rec.jsonl 2>err &&
	test "$(grep -c warning err)" -eq 1 && grep -q "bad.jsonl:1: not a sample record" err &&
	j=h/profile_export_aiperf.json &&
	jq -e ".telemetry_data.summary.endpoints_configured == [\"http://x/metrics\", \"http://h:9400/metrics\"] and
		.telemetry_data.summary.endpoints_successful == [\"http://h:9400/metrics\"]" $j &&
	jq -e ".telemetry_data.endpoints[\"h:9400\"].gpus.gpu_0.metrics |
		(has(\"gpu_temperature\") | not) and .gpu_power_usage.avg == 120" $j &&
	jq -e ".telemetry_data.endpoints[\"h:9400\"].gpus | .gpu_0.gpu_uuid == \"GPU-0\" and .gpu_7.gpu_name == \"\" and .gpu_7.metrics.gpu_power_usage.avg == 5" $j
'

test_expect_success '--list-files names the GPU file: written with --gpu-samples, else other' '
	aiperf-export --list-files --artifact-dir /a --gpu-samples x >l &&
	grep -q "^gpu_telemetry	/a/gpu_telemetry_export.jsonl\$" l &&
	aiperf-export --list-files --artifact-dir /a >l &&
	grep -q "^other	/a/gpu_telemetry_export.jsonl\$" l &&
	aiperf-export --list-files --artifact-dir /a --profile-export-prefix run.json --gpu-samples x >l &&
	grep -q "^gpu_telemetry	/a/run_gpu_telemetry.jsonl\$" l
'

test_done
