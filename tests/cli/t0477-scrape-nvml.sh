#!/bin/sh
# aiperf-scrape --nvml: NVML through dlopen (a stub libnvidia-ml built by
# make units), written as DCGM sample records; no library, no GPU, a
# failing nvmlInit are warnings, never errors.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

STUB=$TOP/build/tests/libnvml-stub.so
export AIPERF_NVML_LIB="$STUB"

test_expect_success 'the stub library is built' '
	test -f "$STUB"
'

test_expect_success '--once: one record, DCGM field names, both GPUs, their labels' '
	aiperf-scrape --nvml --once >out 2>err &&
	test ! -s err &&
	test "$(wc -l <out)" -eq 1 &&
	jq -e ".schema == \"aiperf.sample/1\" and .endpoint_url == \"pynvml://localhost\" and
		.scrape == 1 and .start_perf_ns <= .end_perf_ns and
		.request_sent_ns <= .timestamp_ns and (has(\"error\") | not)" out &&
	jq -e ".metrics.DCGM_FI_DEV_POWER_USAGE.series | length == 2" out &&
	jq -e ".metrics.DCGM_FI_DEV_POWER_USAGE.series[1].labels ==
		{Hostname: \"localhost\", UUID: \"GPU-57ab0000-0000-4000-8000-000000000001\",
		 device: \"nvidia1\", gpu: \"1\", modelName: \"Stub GPU B100\",
		 pci_bus_id: \"00000000:3C:00.0\"}" out
'

test_expect_success 'values in the DCGM exporter units: W, mJ, %, MiB, C; no unsupported field' '
	aiperf-scrape --nvml --once >out &&
	jq -e ".metrics | [.DCGM_FI_DEV_POWER_USAGE.series[].value] == [150, 200]" out &&
	jq -e ".metrics.DCGM_FI_DEV_POWER_USAGE.type == \"gauge\" and
		.metrics.DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION.type == \"counter\"" out &&
	jq -e ".metrics | [.DCGM_FI_DEV_GPU_UTIL.series[].value] == [40, 50]" out &&
	jq -e ".metrics | [.DCGM_FI_DEV_MEM_COPY_UTIL.series[].value] == [20, 20]" out &&
	jq -e ".metrics | [.DCGM_FI_DEV_GPU_TEMP.series[].value] == [50, 51]" out &&
	jq -e ".metrics.DCGM_FI_DEV_FB_USED.series[0].value == 8000000000 / 1048576" out &&
	jq -e ".metrics | has(\"DCGM_FI_DEV_POWER_VIOLATION\") | not" out
'

test_expect_success 'scrapes on the interval; the energy counter ramps; SIGTERM ends with a final scrape' '
	aiperf-scrape --nvml --interval 0.05 >out 2>err &
	pid=$! && sleep 0.4 && kill -TERM $pid && wait $pid &&
	n=$(wc -l <out) && test "$n" -ge 3 &&
	test "$(jq -s "[.[].scrape] == [range(1; $n + 1)]" out)" = true &&
	jq -s -e "[.[].metrics.DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION.series[0].value] |
		. == (sort) and .[0] < .[-1]" out
'

test_expect_success 'NVML beside an endpoint: records of both' '
	aiperf-scrape --nvml --once http://127.0.0.1:1/metrics >out 2>err &&
	test "$(wc -l <out)" -eq 2 &&
	jq -s -e "map(.endpoint_url) | sort == [\"http://127.0.0.1:1/metrics\", \"pynvml://localhost\"]" out
'

test_expect_success 'no library: a warning, no records, exit 0' '
	AIPERF_NVML_LIB=$TMP/none/libnvidia-ml.so.1 aiperf-scrape --nvml --once >out 2>err &&
	test ! -s out &&
	grep -q "warning: --nvml: cannot load .*none/libnvidia-ml.so.1" err
'

test_expect_success 'a library without the NVML functions: a warning, no records' '
	AIPERF_NVML_LIB=libc.so.6 aiperf-scrape --nvml --once >out 2>err &&
	test ! -s out && grep -q "lacks nvmlInit_v2" err
'

test_expect_success 'no GPU, a failing nvmlInit: warnings, no records, exit 0' '
	AIPERF_NVML_STUB_GPUS=0 aiperf-scrape --nvml --once >out 2>err &&
	test ! -s out && grep -q "no GPU found" err &&
	AIPERF_NVML_STUB_FAIL=init aiperf-scrape --nvml --once >out 2>err &&
	test ! -s out && grep -q "nvmlInit failed (Driver Not Loaded)" err
'

test_expect_success 'usage: neither a URL nor --nvml' '
	test_expect_code 2 aiperf-scrape 2>err && grep -q "no endpoint URL given (and no --nvml)" err
'

test_expect_success 'the samples feed aiperf-export: the stub GPUs, power and memory' '
	aiperf-scrape --nvml --interval 0.05 >s.jsonl &
	pid=$! && sleep 0.2 && kill -TERM $pid && wait $pid &&
	printf "{\"metadata\":{\"request_start_ns\":1,\"request_end_ns\":2,\"benchmark_phase\":\"profiling\"},\"metrics\":{\"request_latency\":{\"value\":1.0,\"unit\":\"ms\"}}}\n" >rec.jsonl &&
	aiperf-export --gpu-samples s.jsonl --artifact-dir o --no-console <rec.jsonl &&
	jq -e ".telemetry_data.endpoints.localhost.gpus |
		.gpu_0.gpu_name == \"Stub GPU A100\" and .gpu_1.gpu_name == \"Stub GPU B100\" and
		.gpu_0.metrics.gpu_power_usage.avg == 150 and .gpu_1.metrics.gpu_power_usage.max == 200 and
		.gpu_0.metrics.gpu_memory_used.avg == 8 and .gpu_1.metrics.gpu_memory_used.avg == 16 and
		.gpu_1.metrics.gpu_temperature.avg == 51 and .gpu_0.metrics.energy_consumption.avg > 0" \
		o/profile_export_aiperf.json
'

test_expect_success 'a cue: an NVML reading at once, marked, then the ack' '
	rm -f cue ack && mkfifo cue ack &&
	aiperf-scrape --nvml --interval 5 --unbuffered --cue-fifo cue --ack-fifo ack \
		>samples 2>serr &
	scr=$!
	i=0 && until [ -s samples ] || [ $i -ge 100 ]; do sleep 0.05; i=$((i + 1)); done &&
	{ exec 8<>ack; } &&
	echo cue >cue &&
	a=$(timeout 10 head -n 1 <&8) &&
	exec 8<&- &&
	kill $scr && wait $scr
	test "$a" = ack &&
	# the first reading, the cued one, the final one on SIGTERM
	jq -s -e "length == 3 and map(.cue == true) == [false, true, false] and
		.[1].scrape == 2" samples
'

test_done
