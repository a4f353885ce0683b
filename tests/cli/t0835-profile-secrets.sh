#!/bin/sh
# aiperf profile: no credential in any artifact, on the console, or in ps
# when the key comes from a file or $AIPERF_API_KEY (issue #9). The wrapper
# hands the command line as typed to aiperf-export, whose lib/redact rule
# is the only one.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
unset AIPERF_API_KEY

start_mock --ttft-ms 5 --itl-ms 1

prof() {
	aiperf profile --model test/model --tokenizer builtin --random-seed 7 \
		--isl 16 --osl 4 --export-level raw "$@"
}

test_expect_success '--url user:password: not in records, JSON, CSV or console' '
	host=${MOCK_URL#http://} &&
	prof --url "http://user:SECRET1@$host/?api_key=SECRET2" --request-count 2 \
		--artifact-dir url >out 2>err &&
	! grep -rq SECRET out err url &&
	test $(grep -c "\"status\":200" url/profile_export_raw.jsonl) -eq 2 &&
	grep -qF "CLI Command: aiperf profile --model test/model" out &&
	grep -qF "'"'"'http://<redacted>@$host/?api_key=<redacted>'"'"'" out &&
	test "$(jq -r ".input_config.endpoint.urls[0]" url/profile_export_aiperf.json)" = \
		"http://<redacted>@$host/?api_key=<redacted>" &&
	jq -r .input_config.cli_command url/profile_export_aiperf.json | grep -qF "<redacted>@"
'

test_expect_success 'headers and --api-key: the same rule in cli_command and request_headers' '
	prof --url "$MOCK_URL" --request-count 1 --api-key SECRET3 \
		-H "X-Auth: SECRET4" -H "Password: SECRET5" -H "apikey: SECRET6" \
		-H "api_key: SECRET7" -H "X-Custom: visible" --artifact-dir hdr >out 2>&1 &&
	! grep -rq SECRET out hdr &&
	grep -qF -- "--api-key '"'"'<redacted>'"'"'" out &&
	grep -qF -- "--header '"'"'X-Auth: <redacted>'"'"'" out &&
	grep -qF -- "--header '"'"'X-Custom: visible'"'"'" out &&
	for h in Authorization X-Auth Password apikey api_key; do
		grep -q "\"$h\":\"<redacted>\"" hdr/profile_export_raw.jsonl || { echo "$h"; exit 1; }
	done
'

test_expect_success 'nothing of the run is left beside the artifacts' '
	test ! -e hdr/.input_config.json && test ! -e url/.input_config.json
'

# ps_during_run FILE CMD...: runs CMD in the background and writes the
# command line of every process of this test's session (tests/run.sh gives
# each test its own; other runs on the machine are not ours to read) to
# FILE at a moment its pipeline (aiperf-send and aiperf-metrics) is running.
ps_during_run() {
	f=$1
	shift
	"$@" >/dev/null 2>&1 &
	pid=$!
	sid=$(ps -o sid= -p $$ | tr -d " ")
	i=0
	while [ $i -lt 500 ]; do
		ps -o args= -s "$sid" >"$f"
		grep -q "^aiperf-metrics" "$f" && grep -q "^aiperf-send" "$f" && break
		sleep 0.01
		i=$((i + 1))
	done
	wait "$pid"
}

stop_mock() {
	kill "$MOCK_PID" 2>/dev/null
	wait "$MOCK_PID" 2>/dev/null
	MOCK_PID=
}
stop_mock
start_mock --ttft-ms 300 --itl-ms 1

test_expect_success '--api-key-file: the key is sent, and in no artifact and no ps line' '
	printf "FILEKEY9\n" >key &&
	ps_during_run ps.txt prof --url "$MOCK_URL" --request-count 2 --concurrency 1 \
		--api-key-file "$PWD/key" --artifact-dir file &&
	grep -q "^aiperf-send .*--api-key-file" ps.txt &&
	! grep -q FILEKEY9 ps.txt &&
	! grep -rq FILEKEY9 file &&
	test $(grep -c "\"Authorization\":\"<redacted>\"" file/profile_export_raw.jsonl) -eq 2 &&
	grep -qF -- "--api-key-file $PWD/key" file/profile_export_aiperf.json
'

test_expect_success '$AIPERF_API_KEY: the key is sent, and in no artifact and no ps line' '
	AIPERF_API_KEY=ENVKEY9 &&
	export AIPERF_API_KEY &&
	ps_during_run ps.txt prof --url "$MOCK_URL" --request-count 2 --concurrency 1 \
		--artifact-dir env &&
	grep -q "^aiperf-send" ps.txt && ! grep -q ENVKEY9 ps.txt &&
	! grep -rq ENVKEY9 env &&
	test $(grep -c "\"Authorization\":\"<redacted>\"" env/profile_export_raw.jsonl) -eq 2
'

test_expect_success '--api-key with --api-key-file is a usage error' '
	test_expect_code 2 prof --url "$MOCK_URL" --api-key a --api-key-file key \
		--artifact-dir both 2>err >/dev/null &&
	grep -q "cannot be used together" err
'

test_done
