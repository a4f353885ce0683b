#!/bin/sh
# aiperf profile --public-dataset sharegpt against aiperf-mock: the kept
# conversations sent in order with their completion lengths as max_tokens,
# the option in the run's configuration; a download from a loopback hub
# happens before the run (its progress where the user sees it), and the
# run reads the cache.
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || test_skip_all "python3 is not installed"
unset HF_TOKEN HF_ENDPOINT HF_HUB_CACHE HF_HUB_OFFLINE TRANSFORMERS_OFFLINE XDG_CACHE_HOME
export HF_HOME="$TMP/hfhome"
REPO=anon8231489123/ShareGPT_Vicuna_unfiltered
FILE=ShareGPT_V3_unfiltered_cleaned_split.json
trap '[ -s "$TMP/.hub.pid" ] && kill "$(cat "$TMP/.hub.pid")" 2>/dev/null; cleanup' EXIT

start_mock --ttft-ms 1 --itl-ms 1

mkdir -p "$TMP/root/datasets/$REPO"
cat >"$TMP/root/datasets/$REPO/$FILE" <<'J'
[{"id": "a", "conversations": [
   {"from": "human", "value": "What is the capital city of France?"},
   {"from": "gpt", "value": "The capital city of France is Paris."}]},
 {"id": "skipped", "conversations": [{"from": "human", "value": "Hi"}, {"from": "gpt", "value": "Hello there, how can I help?"}]},
 {"id": "b", "conversations": [
   {"from": "human", "value": "Write a haiku about the sea, please."},
   {"from": "gpt", "value": "Waves fold into foam, salt wind carries gull voices."}]}]
J

prof() {
	aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin \
		--random-seed 7 --public-dataset sharegpt --export-level raw "$@"
}

test_expect_success 'offline with no copy: refused before any artifact' '
	test_expect_code 1 env HF_HUB_OFFLINE=1 aiperf profile --model test/model \
		--url "$MOCK_URL" --tokenizer builtin --public-dataset sharegpt \
		--artifact-dir nothing >out 2>err &&
	grep -q "is not in the HuggingFace cache" err &&
	grep -q "give it with --input-file FILE, or put it at ./.cache/aiperf/datasets/$FILE" err &&
	test ! -e nothing
'

test_expect_success 'downloaded before the run, then sent: two conversations, in order' '
	python3 "$TOP/tests/cli/hfhub-mock.py" "$TMP/root" >hub.url 2>hub.err &
	HUB_PID=$! && echo "$HUB_PID" >.hub.pid &&
	i=0 && while [ ! -s hub.url ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done &&
	HF_ENDPOINT=$(cat hub.url) prof --request-count 4 --artifact-dir a1 >out 2>err &&
	kill "$HUB_PID" &&
	grep -q "^aiperf-gen: downloading .*/datasets/$REPO/resolve/main/$FILE into $HF_HOME/hub$" err &&
	test -L "$HF_HOME/hub/datasets--anon8231489123--ShareGPT_Vicuna_unfiltered/snapshots/$(printf "aiperf test hub" | sha1sum | cut -c1-40)/$FILE" &&
	test "$(wc -l <a1/profile_export_raw.jsonl)" = 4 &&
	test "$(jq .request_count.avg a1/profile_export_aiperf.json)" = 4 &&
	test "$(jq "[.error // empty] | length" a1/profile_export_raw.jsonl | sort -u)" = 0 &&
	jq -r .aiperf.max_tokens a1/profile_export_raw.jsonl | sort | uniq -c | awk "{ print \$1, \$2 }" >mt &&
	printf "%s\n" "2 12" "2 8" >expect && test_cmp expect mt
'

test_expect_success 'the configuration records the public dataset' '
	test "$(jq -r .input_config.input.public_dataset a1/profile_export_aiperf.json)" = sharegpt &&
	grep -q -- "--public-dataset sharegpt" a1/profile_export_aiperf.json
'

test_expect_success 'the second run reads the cache with no hub at all' '
	HF_HUB_OFFLINE=1 prof --request-count 2 --artifact-dir a2 >out 2>err &&
	test "$(wc -l <a2/profile_export_raw.jsonl)" = 2 &&
	! grep -q downloading err
'

test_expect_success 'any case, as the original takes its choices; --input-file as the copy' '
	sed "s/capital city of France/capital of Peru/" "$TMP/root/datasets/$REPO/$FILE" >copy.json &&
	aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin \
		--public-dataset ShareGPT --input-file copy.json --request-count 1 \
		--export-level raw --artifact-dir a3 >out 2>err &&
	test "$(jq .request_count.avg a3/profile_export_aiperf.json)" = 1 &&
	test "$(jq -r .input_config.input.public_dataset a3/profile_export_aiperf.json)" = sharegpt
'

test_expect_success 'a SPEED-Bench name given as a public dataset: the custom type to give (exit 2)' '
	test_expect_code 2 aiperf profile --model test/model --url "$MOCK_URL" \
		--public-dataset speed_bench_math >out 2>err &&
	grep -q "speed_bench_math is a custom dataset type, not a public dataset: .*--custom-dataset-type speed_bench_math" err
'

test_done
