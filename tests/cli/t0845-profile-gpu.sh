#!/bin/sh
# aiperf profile GPU telemetry: --gpu-telemetry URL (a second aiperf-mock
# as a DCGM exporter), dashboard, pynvml (the stub libnvidia-ml), the
# default exporters probed, --no-gpu-telemetry, a missing custom metrics
# CSV (t0480: one that is there).
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --dcgm --dcgm-gpus 2
DCGM_URL=$MOCK_URL
DCGM_PID=$MOCK_PID
trap 'kill "$DCGM_PID" 2>/dev/null; cleanup' EXIT
start_mock --ttft-ms 5 --itl-ms 1
LLM_URL=$MOCK_URL
# no exporter on the default ports of this host stands in: port 1 refuses
export AIPERF_GPU_DEFAULT_DCGM_URLS="http://127.0.0.1:1/metrics"
export AIPERF_GPU_COLLECTION_INTERVAL=0.05

prof() {
	aiperf profile --model m --url "$LLM_URL" --tokenizer builtin --random-seed 7 \
		--isl 16 --osl 8 --streaming --concurrency 2 --request-count 40 "$@"
}

# shim: a copy of the wrapper whose aiperf-scrape logs that it ran.
shim_scrape() {
	mkdir -p shim &&
	cp "$TOP/bin/aiperf" shim/ &&
	for t in "$TOP"/bin/aiperf-*; do ln -sf "$t" shim/; done &&
	rm shim/aiperf-scrape &&
	printf "#!/bin/sh\necho \"\$*\" >>\"%s/scrape.args\"\nexec \"%s/bin/aiperf-scrape\" \"\$@\"\n" \
		"$PWD" "$TOP" >shim/aiperf-scrape &&
	chmod +x shim/aiperf-scrape
}

test_expect_success '--gpu-telemetry URL: a JSONL line per GPU per scrape' '
	prof --gpu-telemetry "$DCGM_URL" --artifact-dir a >out 2>err &&
	f=a/gpu_telemetry_export.jsonl && test -s $f &&
	n=$(wc -l <$f) && test $((n % 2)) -eq 0 && test "$n" -ge 4 &&
	test "$(jq -s "[.[] | .gpu_index] == ([range(0; $n / 2)] | map(0, 1))" $f)" = true &&
	test "$(jq -s "[.[].dcgm_url] | unique" $f)" = "$(jq -n "[\"$DCGM_URL/metrics\"]")" &&
	jq -s -e "all(.[]; .gpu_model_name == \"NVIDIA H200\" and .hostname == \"localhost\" and
		.telemetry_data.gpu_power_usage >= 70)" $f
'

test_expect_success 'telemetry_data: both GPUs of the exporter, their stats' '
	j=a/profile_export_aiperf.json &&
	host=${DCGM_URL#http://} &&
	jq -e --arg h "$host" ".telemetry_data.endpoints | keys == [\$h]" $j &&
	jq -e --arg h "$host" ".telemetry_data.endpoints[\$h].gpus | keys == [\"gpu_0\", \"gpu_1\"]" $j &&
	jq -e --arg h "$host" ".telemetry_data.endpoints[\$h].gpus.gpu_1 |
		.gpu_uuid == \"GPU-a1b2c3d4-0000-4000-8000-000000000001\" and
		.gpu_name == \"NVIDIA H200\" and
		.metrics.gpu_temperature.avg == 40 and .metrics.gpu_memory_used.unit == \"GB\" and
		.metrics.gpu_power_usage.min >= 70 and
		(.metrics.energy_consumption | keys == [\"avg\", \"unit\"])" $j &&
	jq -e ".telemetry_data.summary.endpoints_successful == [\"$DCGM_URL/metrics\"]" $j &&
	jq -e ".input_config.gpu_telemetry == [\"$DCGM_URL\"]" $j
'

test_expect_success 'the CSV GPU section and the console table (--gpu-telemetry shows it)' '
	tr -d "\r" <a/profile_export_aiperf.csv >csv &&
	grep -q "^Endpoint,GPU_Index,GPU_Name,GPU_UUID,Metric,avg,min,max,sum,p1," csv &&
	test "$(grep -c "^${DCGM_URL#http://},[01],NVIDIA H200,GPU-a1b2c3d4" csv)" -ge 16 &&
	grep -q "^${DCGM_URL#http://},1,NVIDIA H200,.*,GPU Temperature (°C),40.00," csv &&
	grep -q "NVIDIA AIPerf | GPU Telemetry Summary" out &&
	grep -q "${DCGM_URL#http://} | GPU 1 | NVIDIA H200" out &&
	grep -q "^GPU Telemetry Export: .*/a/gpu_telemetry_export.jsonl" out&&
	aiperf-validate a >v && ! grep -q "^FAIL" v
'

test_expect_success 'dashboard, an address without scheme and path' '
	prof --gpu-telemetry dashboard "${DCGM_URL#http://}" --artifact-dir b >out 2>err &&
	grep -q "GPU 0 | NVIDIA H200" out &&
	jq -e ".telemetry_data.summary.endpoints_configured == [\"$DCGM_URL/metrics\"]" \
		b/profile_export_aiperf.json
'

test_expect_success 'a default exporter that answers is scraped; the console table needs --gpu-telemetry' '
	AIPERF_GPU_DEFAULT_DCGM_URLS="http://127.0.0.1:1/metrics $DCGM_URL/metrics" \
		prof --artifact-dir c >out 2>err &&
	test -s c/gpu_telemetry_export.jsonl &&
	jq -e ".telemetry_data.summary.endpoints_configured == [\"$DCGM_URL/metrics\"]" \
		c/profile_export_aiperf.json &&
	! grep -q "GPU Telemetry Summary" out
'

test_expect_success 'pynvml: the stub library GPUs, their power and memory' '
	AIPERF_NVML_LIB=$TOP/build/tests/libnvml-stub.so \
		prof --gpu-telemetry pynvml --artifact-dir d >out 2>err &&
	j=d/profile_export_aiperf.json &&
	jq -e ".telemetry_data.summary.endpoints_configured == [\"pynvml://localhost\"]" $j &&
	jq -e ".telemetry_data.endpoints.localhost.gpus |
		.gpu_0.gpu_name == \"Stub GPU A100\" and .gpu_1.gpu_name == \"Stub GPU B100\" and
		.gpu_0.metrics.gpu_power_usage.avg == 150 and .gpu_1.metrics.gpu_power_usage.avg == 200 and
		.gpu_0.metrics.gpu_memory_used.avg == 8 and .gpu_1.metrics.gpu_memory_used.avg == 16" $j &&
	grep -q "localhost | GPU 1 | Stub GPU B100" out &&
	head -1 d/gpu_telemetry_export.jsonl | jq -e ".dcgm_url == \"pynvml://localhost\" and
		.pci_bus_id == \"00000000:3B:00.0\" and .device == \"nvidia0\""
'

test_expect_success 'pynvml replaces the exporters: a URL beside it is not scraped (warned)' '
	AIPERF_NVML_LIB=$TOP/build/tests/libnvml-stub.so \
		prof --gpu-telemetry pynvml "$DCGM_URL" bogus --artifact-dir d2 >out 2>err &&
	grep -q "DCGM URLs are not used with pynvml" err &&
	grep -q "bogus. is neither dashboard, pynvml, a URL nor a .csv file: ignored" err &&
	jq -e ".telemetry_data.summary.endpoints_configured == [\"pynvml://localhost\"]" \
		d2/profile_export_aiperf.json
'

test_expect_success 'pynvml without the library: a warning, the run goes on' '
	AIPERF_NVML_LIB=$TMP/none.so prof --gpu-telemetry pynvml --artifact-dir e >out 2>err &&
	grep -q "warning: --nvml: cannot load" err &&
	test ! -e e/gpu_telemetry_export.jsonl &&
	jq -e "has(\"telemetry_data\") | not" e/profile_export_aiperf.json
'

# (the client health warning depends on the machine's load, not on GPUs)
test_expect_success 'no exporter, no GPU: no error, no telemetry section, no scraper' '
	shim_scrape &&
	AIPERF_GPU_REACHABILITY_TIMEOUT=2 shim/aiperf profile --model m --url "$LLM_URL" \
		--tokenizer builtin --isl 16 --osl 8 --request-count 4 --artifact-dir f >out 2>err &&
	! grep -v "client may be the bottleneck" err | grep -q . &&
	test ! -e f/gpu_telemetry_export.jsonl &&
	jq -e "has(\"telemetry_data\") | not" f/profile_export_aiperf.json &&
	! grep -q "^Endpoint," f/profile_export_aiperf.csv &&
	test "$(grep -c -- "--once" scrape.args)" -eq 1 &&
	! grep -q -- "--interval" scrape.args &&
	grep -q "GPU telemetry: no DCGM exporter reachable" f/logs/aiperf.log
'

test_expect_success '--no-gpu-telemetry: nothing probed, no scraper, even with an exporter up' '
	rm -f scrape.args &&
	AIPERF_GPU_DEFAULT_DCGM_URLS="$DCGM_URL/metrics" shim/aiperf profile --model m \
		--url "$LLM_URL" --tokenizer builtin --isl 16 --osl 8 --request-count 4 \
		--no-gpu-telemetry --artifact-dir g >out 2>err &&
	! grep -q -e "$DCGM_URL" -e --nvml scrape.args 2>/dev/null &&
	test ! -e g/gpu_telemetry_export.jsonl &&
	jq -e "(has(\"telemetry_data\") | not) and .input_config.no_gpu_telemetry == true" \
		g/profile_export_aiperf.json
'

test_expect_success 'a custom metrics CSV that is not there: a clear usage error' '
	test_expect_code 2 prof --gpu-telemetry custom.csv --artifact-dir h 2>err &&
	grep -q "custom.csv: no such readable custom GPU metrics file" err &&
	! test -e h/profile_export_aiperf.json
'

test_done
