#!/bin/sh
# DESIGN.md user stories 1-3: a hand-built pipeline, byte-identical offline
# replay, and a stage replaced by a jq one-liner.
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 5 --itl-ms 1

test_expect_success 'story 1: gen | send | tee | metrics | export by hand' '
	aiperf-gen -m m --tokenizer builtin --streaming --isl 16 --osl 4 \
		--request-count 20 --random-seed 3 |
	aiperf-send --url "$MOCK_URL" --concurrency 4 --ui-type none |
	tee raw.ndjson |
	aiperf-metrics --tokenizer builtin |
	aiperf-export --benchmark-id fixed --artifact-dir live >table &&
	test $(wc -l <raw.ndjson) -eq 20 &&
	test $(wc -l <live/profile_export.jsonl) -eq 20 &&
	grep -q "Request Count (requests)" table
'

test_expect_success 'story 2: offline replay of raw records gives byte-identical summaries' '
	aiperf-metrics --tokenizer builtin <raw.ndjson |
	aiperf-export --benchmark-id fixed --artifact-dir replay >table2 &&
	cmp live/profile_export_aiperf.json replay/profile_export_aiperf.json &&
	cmp live/profile_export_aiperf.csv replay/profile_export_aiperf.csv &&
	cmp live/profile_export.jsonl replay/profile_export.jsonl &&
	grep -v Export: table >t1 && grep -v Export: table2 >t2 && cmp t1 t2
'

test_expect_success 'story 2: replay from a file argument and from zstd' '
	zstd -q raw.ndjson -o raw.ndjson.zst &&
	aiperf-metrics --tokenizer builtin raw.ndjson.zst |
	aiperf-export --benchmark-id fixed --artifact-dir zst >/dev/null &&
	cmp live/profile_export_aiperf.json zst/profile_export_aiperf.json
'

test_expect_success 'story 3: jq replaces aiperf-gen' '
	jq -nc --arg u x "range(5) | {schema: \"aiperf.request/1\",
		id: \"req-\\(.)\", session_num: ., conversation_id: \"s\\(.)\",
		x_correlation_id: \"c\\(.)\", turn_index: 0, phase: \"profiling\",
		model: \"m\", endpoint_type: \"chat\", path: \"/v1/chat/completions\",
		stream: false, payload: {messages: [{role: \"user\", content: \"hi there\"}],
		model: \"m\", stream: false, max_tokens: 3}}" |
	aiperf-send --url "$MOCK_URL" --ui-type none |
	aiperf-metrics --tokenizer builtin |
	aiperf-export --no-console --artifact-dir jqgen &&
	test "$(jq .request_count.avg jqgen/profile_export_aiperf.json)" = 5 &&
	test "$(jq .output_sequence_length.avg jqgen/profile_export_aiperf.json)" = 3
'

test_expect_success 'story 3: jq filter between metrics and export' '
	aiperf-metrics --tokenizer builtin <raw.ndjson |
	jq -c "select(.metadata.session_num < 10)" |
	aiperf-export --no-console --artifact-dir half &&
	test "$(jq .request_count.avg half/profile_export_aiperf.json)" = 10
'

test_done
