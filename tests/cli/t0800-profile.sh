#!/bin/sh
# aiperf profile: the original's flags in, the original's artifact files out.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 10 --itl-ms 1

prof() {
	aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin \
		--random-seed 7 --isl 32 --osl 8 "$@"
}

test_expect_success 'default artifact directory name and files' '
	prof --streaming --concurrency 2 --request-count 6 >out 2>err &&
	d=artifacts/test_model-openai-chat-concurrency2 &&
	test -s $d/profile_export_aiperf.json &&
	test -s $d/profile_export_aiperf.csv &&
	test -s $d/inputs.json &&
	test -f $d/logs/aiperf.log &&
	test $(wc -l <$d/profile_export.jsonl) -eq 6 &&
	test ! -e $d/profile_export_raw.jsonl &&
	grep -q "NVIDIA AIPerf | LLM Metrics" out &&
	grep -q "^CLI Command: aiperf profile --model test/model" out &&
	grep -q "^JSON Export: $PWD/$d/profile_export_aiperf.json" out
'

test_expect_success 'summary JSON: request count, zero errors, OSL as requested' '
	j=artifacts/test_model-openai-chat-concurrency2/profile_export_aiperf.json &&
	test "$(jq .request_count.avg $j)" = 6 &&
	test "$(jq ".error_request_count.avg // 0" $j)" = 0 &&
	test "$(jq .output_sequence_length.avg $j)" = 8 &&
	test "$(jq -r ".input_config.endpoint.model_names[0]" $j)" = test/model &&
	test "$(jq -r ".input_config.endpoint.streaming" $j)" = true
'

test_expect_success '--export-level raw keeps every raw record; summary writes only summaries' '
	prof --concurrency 3 --request-count 5 --export-level raw --artifact-dir raw >/dev/null 2>&1 &&
	test $(wc -l <raw/profile_export_raw.jsonl) -eq 5 &&
	prof --request-count 2 --export-level summary --artifact-dir sum >/dev/null 2>&1 &&
	test -s sum/profile_export_aiperf.json && test ! -e sum/profile_export.jsonl
'

# shim_send: a copy of the wrapper in shim/ whose aiperf-send logs its
# arguments to send.args, one per line, before running the real one.
shim_send() {
	mkdir -p shim &&
	cp "$TOP/bin/aiperf" shim/ &&
	for t in "$TOP"/bin/aiperf-*; do ln -sf "$t" shim/; done &&
	rm shim/aiperf-send &&
	printf "#!/bin/sh\nprintf \"%%s\\\\n\" \"\$@\" >>\"%s/send.args\"\nexec \"%s/bin/aiperf-send\" \"\$@\"\n" \
		"$PWD" "$TOP" >shim/aiperf-send &&
	chmod +x shim/aiperf-send
}

test_expect_success 'our sender options pass through: --http-engine, --busy-poll' '
	shim_send &&
	shim/aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin \
		--random-seed 7 --isl 32 --osl 8 --streaming --request-count 3 \
		--http-engine curl --busy-poll --export-level raw --artifact-dir eng \
		>/dev/null 2>&1 &&
	grep -qx -- --busy-poll send.args &&
	grep -x -A1 -- --http-engine send.args | tail -1 | grep -qx curl &&
	test $(grep -c "\"http_version\":\"1.1\"" eng/profile_export_raw.jsonl) -eq 3 &&
	test "$(jq .request_count.avg eng/profile_export_aiperf.json)" = 3 &&
	test_expect_code 2 prof --request-count 1 --http-engine h2 --artifact-dir bad \
		>/dev/null 2>err &&
	grep -q "invalid value for --http-engine" err && test ! -e bad/profile_export_aiperf.json
'

# fake_cpus LIST: a taskset in shim/ that reports LIST as the CPUs the
# wrapper may run on and pins nothing (this machine may have fewer).
fake_cpus() {
	cat >shim/taskset <<-EOF &&
	#!/bin/sh
	if [ "\$1" = -pc ] && [ \$# -eq 2 ]; then echo "pid \$2's current affinity list: $1"; exit 0; fi
	if [ "\$1" = -pc ]; then exit 0; fi
	shift 2
	exec "\$@"
	EOF
	chmod +x shim/taskset
}

test_expect_success 'busy-polling by default with 4 CPUs or more, not with 3; --no-busy-poll; never on one CPU' '
	shim_send &&
	fake_cpus 0-3 &&
	PATH="$PWD/shim:$PATH" shim/aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin \
		--isl 8 --osl 2 --request-count 2 --artifact-dir c4 >/dev/null 2>&1 &&
	grep -qx -- --busy-poll send.args && rm send.args &&
	PATH="$PWD/shim:$PATH" shim/aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin \
		--isl 8 --osl 2 --request-count 2 --no-busy-poll --artifact-dir c4n >/dev/null 2>&1 &&
	! grep -qx -- --busy-poll send.args && rm send.args &&
	fake_cpus 0,2,5 &&
	PATH="$PWD/shim:$PATH" shim/aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin \
		--isl 8 --osl 2 --request-count 2 --artifact-dir c2 >/dev/null 2>&1 &&
	! grep -qx -- --busy-poll send.args && rm send.args shim/taskset &&
	taskset -c 0 shim/aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin \
		--isl 8 --osl 2 --request-count 2 --busy-poll --artifact-dir c1 >/dev/null 2>err &&
	grep -q "^aiperf profile: --busy-poll ignored: one CPU to run on" err &&
	! grep -qx -- --busy-poll send.args &&
	test_expect_code 2 prof --request-count 1 --busy-poll --no-busy-poll --artifact-dir bad \
		>/dev/null 2>err &&
	grep -q "cannot be used together" err
'

test_expect_success 'non-streaming completions with aliases and --flag=value' '
	prof --endpoint-type=completions --num-requests 4 --concurrency=2 \
		--output-artifact-dir comp >out 2>&1 &&
	test "$(jq .request_count.avg comp/profile_export_aiperf.json)" = 4 &&
	test "$(jq "has(\"time_to_first_token\")" comp/profile_export_aiperf.json)" = false
'

test_expect_success 'secrets stay out of artifacts' '
	prof --api-key sk-secret-123 -H "X-Api-Token: tok" --request-count 2 \
		--export-level raw --artifact-dir sec >/dev/null 2>&1 &&
	! grep -rq sk-secret-123 sec
'

test_expect_success 'unknown flag: usage error naming it' '
	! prof --no-such-flag 2>err >/dev/null &&
	test_expect_code 2 prof --no-such-flag 2>err >/dev/null &&
	grep -q "unknown option .--no-such-flag." err
'

test_expect_success 'missing --model and missing values are usage errors' '
	test_expect_code 2 aiperf profile --url "$MOCK_URL" 2>err && grep -q "model is required" err &&
	test_expect_code 2 aiperf profile -m x --concurrency 2>err && grep -q "needs a value" err
'

test_expect_success 'a tokenizer that cannot load: said before anything is written' '
	test_expect_code 1 aiperf profile -m x --tokenizer /nonexistent --url "$MOCK_URL" \
		--artifact-dir bad >out 2>err &&
	grep -q "cannot load tokenizer ./nonexistent." err &&
	test ! -e bad && ! grep -q "NVIDIA AIPerf" out
'

test_expect_success 'a failing stage is reported with its log' '
	printf "%s\n" "{\"input_length\": 16, \"output_length\": 2, \"hash_ids\": [1]}" "{bad" >bad.jsonl &&
	test_expect_code 1 aiperf profile -m x --tokenizer builtin --url "$MOCK_URL" \
		--input-file bad.jsonl --custom-dataset-type mooncake_trace --isl-block-size 16 \
		--artifact-dir bad >out 2>err &&
	grep -q "aiperf-gen failed (status 1); its messages are in $PWD/bad/logs/aiperf.log" err &&
	grep -q " - aiperf-gen - ERROR - " bad/logs/aiperf.log
'

test_expect_success 'aiperf analyze-trace runs aiperf-trace analyze' '
	printf "{\"input_length\":1024,\"output_length\":20,\"hash_ids\":[1,2]}\n" >t.jsonl &&
	aiperf analyze-trace t.jsonl >out && grep -q "Total requests:" out
'

test_expect_success 'request rate: artifact name, target rate in the client object' '
	prof --request-rate 50 --request-count 10 >/dev/null 2>&1 &&
	j=artifacts/test_model-openai-chat-request_rate50.0/profile_export_aiperf.json &&
	test "$(jq .request_count.avg $j)" = 10 &&
	test "$(jq .client.target_request_rate $j)" = 50 &&
	jq -e ".client.schedule_lateness_ms.p99 >= 0" $j >/dev/null
'

test_expect_success 'benchmark duration: the sender stops, unsent requests are not errors' '
	prof --concurrency 2 --benchmark-duration 1 --artifact-dir dur >/dev/null 2>&1 &&
	test "$(jq ".error_request_count.avg // 0" dur/profile_export_aiperf.json)" = 0 &&
	jq -e ".request_count.avg >= 2" dur/profile_export_aiperf.json >/dev/null
'

test_expect_success 'grace period without duration: the original error' '
	test_expect_code 2 prof --benchmark-grace-period 5 2>err >/dev/null &&
	grep -q "only be used with duration-based benchmarking" err
'

test_expect_success 'ramps and prefill pass through; prefill needs streaming' '
	prof --streaming --concurrency 4 --prefill-concurrency 2 \
		--concurrency-ramp-duration 0.2 --request-count 8 --artifact-dir ramp >/dev/null 2>&1 &&
	test "$(jq .request_count.avg ramp/profile_export_aiperf.json)" = 8 &&
	test_expect_code 2 prof --prefill-concurrency 2 2>err >/dev/null &&
	grep -q "requires --streaming" err
'

test_expect_success 'user-centric rate: the original artifact name, every turn sent' '
	prof --user-centric-rate 20 --num-users 2 --session-turns-mean 2 \
		--request-count 4 >/dev/null 2>&1 &&
	j=artifacts/test_model-openai-chat-user_centric-users2-qps20.0/profile_export_aiperf.json &&
	test "$(jq .request_count.avg $j)" = 4
'

test_expect_success '--show-trace-timing adds the HTTP trace table' '
	prof --request-count 2 --show-trace-timing --artifact-dir tt >out 2>/dev/null &&
	grep -q "NVIDIA AIPerf | HTTP Trace Timing" out
'

test_done
