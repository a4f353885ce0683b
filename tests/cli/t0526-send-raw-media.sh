#!/bin/sh
# Raw records keep media bounded (issue #17): aiperf-send writes each
# base64 data: URL and input_audio "data" of a payload as
# "<elided: N base64 chars, sha256 HEX>" (the inputs.json form: HEX of the
# decoded bytes), unless --raw-full-media; text-only payloads are written
# as they were sent; replayed metrics are the same either way; aiperf
# profile --export-level raw writes the bounded form (--raw-full-media:
# whole), and nothing on the console is base64.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 1 --itl-ms 1

G="aiperf-gen -m m --tokenizer builtin --random-seed 5 --isl 6 --osl 3"

test_expect_success 'images and audio: markers in the raw payload, whole with --raw-full-media' '
	$G --num-dataset-entries 2 --request-count 4 --image-width-mean 80 \
		--image-height-mean 60 --audio-length-mean 0.3 >req &&
	aiperf-send -u "$MOCK_URL" <req >raw &&
	aiperf-send -u "$MOCK_URL" --raw-full-media <req >full &&
	test "$(wc -l <raw)" = 4 &&
	test "$(jq -r ".payload.messages[0].content[1].image_url.url" raw |
		grep -c "^data:image/png;base64,<elided: [0-9]* base64 chars, sha256 [0-9a-f]\{64\}>$")" = 4 &&
	test "$(jq -r ".payload.messages[0].content[2].input_audio.data" raw |
		grep -c "^<elided: [0-9]* base64 chars, sha256 [0-9a-f]\{64\}>$")" = 4 &&
	jq -cS "[.id, .payload]" req | sort >want &&
	jq -cS "[.metadata.x_request_id, .payload]" full | sort >got &&
	test_cmp want got &&
	test "$(wc -c <raw)" -lt "$(($(wc -c <full) / 10))"
'

test_expect_success 'each marker names its length and the SHA-256 of the decoded bytes' '
	jq -r "[.id, .payload.messages[0].content[1].image_url.url, .payload.messages[0].content[2].input_audio.data] | @tsv" req |
		sort | while IFS="	" read -r id img aud; do
		b=${img#*,} &&
		printf "%s <elided: %s base64 chars, sha256 %s> <elided: %s base64 chars, sha256 %s>\n" \
			"$id" "${#b}" "$(printf %s "$b" | base64 -d | sha256sum | cut -d" " -f1)" \
			"${#aud}" "$(printf %s "$aud" | base64 -d | sha256sum | cut -d" " -f1)" || return 1
	done >want &&
	jq -r "[.metadata.x_request_id, (.payload.messages[0].content[1].image_url.url | sub(\"^data:image/png;base64,\"; \"\")), .payload.messages[0].content[2].input_audio.data] | join(\" \")" raw |
		sort >got &&
	test_cmp want got
'

test_expect_success 'text-only payloads, and short data: URLs, are written as sent' '
	$G --request-count 3 >treq &&
	aiperf-send -u "$MOCK_URL" <treq >traw &&
	jq -c "[.id, .payload]" treq | sort >want &&
	jq -c "[.metadata.x_request_id, .payload]" traw | sort >got &&
	test_cmp want got &&
	printf "%s\n" "{\"id\":\"r1\",\"path\":\"/v1/chat/completions\",\"payload\":{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/png;base64,AAAA\"}},{\"type\":\"text\",\"text\":\"\\\"data: is not base64\"}]}]}}" >sreq &&
	aiperf-send -u "$MOCK_URL" <sreq >sraw &&
	jq -c .payload sreq >want &&
	jq -c .payload sraw >got &&
	test_cmp want got
'

# sizes and token counts (the two runs' timings differ)
counts='[.metadata.x_request_id, (.metrics | with_entries(select(.value.unit == "tokens" or .value.unit == "KB")))]'

test_expect_success 'replayed metrics count the same from elided and whole records' '
	aiperf-metrics --tokenizer builtin <raw | jq -c "$counts" | sort >m1 &&
	aiperf-metrics --tokenizer builtin <full | jq -c "$counts" | sort >m2 &&
	test "$(wc -l <m1)" = 4 && grep -q input_sequence_length m1 &&
	test_cmp m1 m2
'

test_expect_success 'profile --export-level raw: markers in profile_export_raw.jsonl, none on the console' '
	aiperf profile -m m --tokenizer builtin --random-seed 5 --url "$MOCK_URL" \
		--isl 6 --osl 3 --request-count 3 --image-width-mean 64 \
		--image-height-mean 64 --export-level raw --artifact-dir p >out 2>err ||
		{ cat err; exit 1; } &&
	r=p/profile_export_raw.jsonl &&
	test "$(wc -l <$r)" = 3 &&
	test "$(jq -r ".payload.messages[0].content[1].image_url.url" $r | grep -c "base64,<elided: ")" = 3 &&
	! grep -q "[A-Za-z0-9+/]\{200\}" out err &&
	aiperf profile -m m --tokenizer builtin --random-seed 5 --url "$MOCK_URL" \
		--isl 6 --osl 3 --request-count 3 --image-width-mean 64 \
		--image-height-mean 64 --export-level raw --raw-full-media \
		--artifact-dir f >out 2>err || { cat err; exit 1; } &&
	! grep -q "<elided" f/profile_export_raw.jsonl &&
	grep -q "base64,iVBORw0KGgo" f/profile_export_raw.jsonl &&
	! grep -q "[A-Za-z0-9+/]\{200\}" out err &&
	grep -q -- "--raw-full-media" f/profile_export_aiperf.json
'

test_done
