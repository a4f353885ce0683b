#!/bin/sh
# aiperf profile --input-file: a mooncake trace replayed on its fixed
# schedule against aiperf-mock, synthesized on the fly (issues 4 and 5).
# shellcheck disable=SC2016 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 2 --itl-ms 1

cat >"$TMP/t.jsonl" <<'T'
{"timestamp": 0, "input_length": 20, "output_length": 5, "hash_ids": [1, 2, 3]}
{"timestamp": 400, "input_length": 18, "output_length": 6, "hash_ids": [1, 2, 4]}
{"timestamp": 250, "text_input": "hello there", "output_length": 7}
{"timestamp": 100, "session_id": "s1", "input_length": 10, "output_length": 2}
{"timestamp": 600, "session_id": "s1", "input_length": 12, "output_length": 3}
T

prof() {
	aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin \
		--random-seed 7 "$@"
}

# first-turn intended send times relative to the earliest, in ms, sorted
first_turn_ms() {
	jq -r "select(.metadata.turn_index == 0) | .aiperf.intended_perf_ns" "$1" |
		sort -n | awk "NR == 1 { z = \$1 } { print (\$1 - z) / 1e6 }" | tr "\n" " "
}

test_expect_success 'fixed schedule + speedup: every line sent once, at trace time / 10' '
	prof --input-file t.jsonl --custom-dataset-type mooncake_trace --fixed-schedule \
		--isl-block-size 8 --synthesis-speedup-ratio 10 --export-level raw \
		>out 2>err &&
	d=artifacts/test_model-openai-chat-fixed_schedule &&
	test $(wc -l <$d/profile_export_raw.jsonl) -eq 5 &&
	test "$(jq .request_count.avg $d/profile_export_aiperf.json)" = 5 &&
	test "$(jq "[.error // empty] | length" $d/profile_export_raw.jsonl | sort -u)" = 0 &&
	test "$(first_turn_ms $d/profile_export_raw.jsonl)" = "0 10 25 40 " &&
	! ls -a $d | grep -q synthesized
'

test_expect_success 'a later turn is never sent before its (scaled) trace time' '
	d=artifacts/test_model-openai-chat-fixed_schedule &&
	jq -r "select(.metadata.turn_index == 1) | .start_perf_ns - .aiperf.intended_perf_ns" \
		$d/profile_export_raw.jsonl >late && test $(cat late) -ge 0
'

test_expect_success 'input_config records the dataset and synthesis options' '
	j=artifacts/test_model-openai-chat-fixed_schedule/profile_export_aiperf.json &&
	test "$(jq -c ".input_config.input | [.file, .custom_dataset_type, .fixed_schedule, .prompt.input_tokens.block_size, .synthesis.speedup_ratio]" $j)" = \
		"[\"t.jsonl\",\"mooncake_trace\",true,8,10]"
'

test_expect_success 'the mooncake sample: request count = lines, fixed schedule auto-enabled' '
	if [ -f "$SHARED/data/mooncake/mooncake_trace.arxiv.first20.jsonl" ]; then
		prof --input-file "$SHARED/data/mooncake/mooncake_trace.arxiv.first20.jsonl" \
			--custom-dataset-type mooncake_trace --synthesis-speedup-ratio 10 \
			--synthesis-max-osl 8 --export-level raw --artifact-dir mc >out 2>err &&
		test $(wc -l <mc/profile_export_raw.jsonl) -eq 20 &&
		test "$(first_turn_ms mc/profile_export_raw.jsonl | tr " " "\n" | sort -un | tr "\n" " ")" = "0 305 " &&
		test "$(jq -s "map(.aiperf.max_tokens) | max" mc/profile_export_raw.jsonl)" = 8
	fi
'

test_expect_success 'max-isl drops lines before the run' '
	prof --input-file t.jsonl --custom-dataset-type mooncake_trace \
		--isl-block-size 8 --synthesis-max-isl 15 --artifact-dir mi >out 2>err &&
	test $(wc -l <mi/profile_export.jsonl) -eq 3
'

test_expect_success 'validation errors stop before any artifact is written' '
	test_expect_code 2 prof --input-file t.jsonl --fixed-schedule-auto-offset --artifact-dir v >out 2>err &&
	grep -q "can only be used with --fixed-schedule" err && test ! -e v
'

test_done
