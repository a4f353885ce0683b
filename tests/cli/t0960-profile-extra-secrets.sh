#!/bin/sh
# aiperf profile: --extra-inputs under secret-looking keys, in both forms,
# and the secret query parameters of --url are redacted wherever the
# command line or the configuration is echoed (the console, cli_command,
# input_config, logs/aiperf.log, server_metrics_export.json), by the one
# rule of lib/http/redact.c that -H headers follow; the payload
# (inputs.json) is the user's and keeps them. A --url with a query string
# is scraped at its base + /metrics (issue #27, R13 and R26).
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
unset AIPERF_API_KEY

start_mock --ttft-ms 5 --itl-ms 1

prof() {
	aiperf profile --model test/model --tokenizer builtin --random-seed 7 \
		--isl 16 --osl 4 --request-count 2 "$@"
}

test_expect_success '--extra-inputs secrets: in no echo of the command or the config' '
	prof --url "$MOCK_URL" -v --extra-inputs api_key:SEKA \
		--extra-inputs "{\"password\":\"SEKB\",\"client_secret\":\"SEKC\",\"temperature\":0.25}" \
		--extra-inputs client_secret:SEKD,max_tokens:4 -H "apikey: SEKE" \
		--artifact-dir x >out 2>err &&
	! grep -q SEK out err &&
	! grep -q SEK x/logs/aiperf.log x/profile_export_aiperf.json x/server_metrics_export.json &&
	grep -qF -- "--extra-inputs '"'"'api_key:<redacted>'"'"'" out &&
	grep -qF -- "--extra-inputs '"'"'{\"password\":\"<redacted>\",\"client_secret\":\"<redacted>\",\"temperature\":0.25}'"'"'" out &&
	grep -qF -- "--extra-inputs '"'"'client_secret:<redacted>,max_tokens:4'"'"'" out &&
	grep -qF -- "--header '"'"'apikey: <redacted>'"'"'" out &&
	for f in profile_export_aiperf.json server_metrics_export.json; do
		jq -e ".input_config.input.extra == [\"api_key:<redacted>\",
			\"{\\\"password\\\":\\\"<redacted>\\\",\\\"client_secret\\\":\\\"<redacted>\\\",\\\"temperature\\\":0.25}\",
			\"client_secret:<redacted>,max_tokens:4\"]" x/$f >/dev/null &&
		jq -r .input_config.cli_command x/$f | grep -qF "api_key:<redacted>" ||
		{ echo "$f"; exit 1; }
	done &&
	grep -q "CLI Command: .*api_key:<redacted>" x/logs/aiperf.log &&
	grep -q "aiperf-gen .*--extra-inputs '"'"'api_key:<redacted>'"'"'" x/logs/aiperf.log
'

test_expect_success '--extra-inputs secrets: the payload keeps them' '
	grep -q "\"api_key\": \"SEKA\"" x/inputs.json &&
	grep -q "\"password\": \"SEKB\"" x/inputs.json &&
	grep -q "\"client_secret\": \"SEKD\"" x/inputs.json &&
	grep -q "\"max_tokens\": 4" x/inputs.json
'

test_expect_success '--extra-inputs: ordinary keys are not redacted' '
	prof --url "$MOCK_URL" --extra-inputs max_tokens:4,top_k:2 \
		--extra-inputs "{\"stop_token_ids\":[7],\"ignore_eos\":true}" \
		--artifact-dir plain >out 2>err &&
	! grep -q "<redacted>" out plain/profile_export_aiperf.json &&
	grep -qF -- "--extra-inputs max_tokens:4,top_k:2" out
'

test_expect_success '--url with a query string: scraped at its base + /metrics, its secret redacted' '
	prof --url "$MOCK_URL?api_key=SEKQ" --artifact-dir q >out 2>err &&
	! grep -rq SEKQ out err q &&
	! grep -q "server metrics" err &&
	test "$(jq -r ".summary.endpoints_successful[]" q/server_metrics_export.json)" = "$MOCK_URL/metrics" &&
	test "$(jq -r ".input_config.endpoint.urls[0]" q/profile_export_aiperf.json)" = \
		"$MOCK_URL?api_key=<redacted>" &&
	grep -qF -- "--url '"'"'$MOCK_URL?api_key=<redacted>'"'"'" out
'

test_expect_success '--server-metrics without a path: /metrics goes before its query' '
	host=${MOCK_URL#http://} &&
	prof --url "$MOCK_URL" --server-metrics "$host?token=SEKS" \
		--artifact-dir s >out 2>err &&
	! grep -rq SEKS out err s &&
	jq -r ".summary.endpoints_successful[]" s/server_metrics_export.json >eps &&
	grep -qxF "$MOCK_URL/metrics?token=<redacted>" eps &&
	! grep -q "server metrics" err
'

test_expect_success '--gpu-telemetry URL credentials: in no log line or message' '
	AIPERF_GPU_DEFAULT_DCGM_URLS= prof --url "$MOCK_URL" \
		--gpu-telemetry "http://u:SEKG@127.0.0.1:1/metrics?token=SEKH" \
		--artifact-dir g >out 2>err &&
	! grep -rq "SEK[GH]" out err g &&
	grep -q "GPU telemetry from 1 DCGM exporter(s)" g/logs/aiperf.log &&
	grep -qF "http://<redacted>@127.0.0.1:1/metrics?token=<redacted>" err &&
	AIPERF_GPU_DEFAULT_DCGM_URLS= AIPERF_NVML_LIB=/nonexistent prof --url "$MOCK_URL" \
		--gpu-telemetry pynvml "http://u:SEKG@127.0.0.1:1/metrics" \
		--artifact-dir g2 >out 2>err &&
	! grep -rq "SEK[GH]" out err g2 &&
	grep -q "DCGM URLs are not used with pynvml (NVML reads this host.s GPUs): 1 ignored" err
'

test_expect_success 'a 100 KB --extra-inputs: its error is cut, the reason kept' '
	big=$(awk "BEGIN { while (i++ < 100000) printf \"x\" }") &&
	test_expect_code 2 prof --url "$MOCK_URL" --extra-inputs "$big" \
		--artifact-dir big >out 2>err &&
	test "$(wc -c <err)" -lt 1000 &&
	grep -qF "...'"'"' (100000 bytes): each item must be in '"'"'key:value'"'"' format" err &&
	test_expect_code 2 prof --url "$MOCK_URL" --extra-inputs "{\"a\":\"$big" \
		--artifact-dir big >out 2>err &&
	test "$(wc -c <err)" -lt 1000 &&
	grep -q "(100006 bytes) must be a valid JSON object: at byte" err
'

test_done
