#!/bin/sh
# aiperf profile with synthetic audio and video against aiperf-mock: the
# options reach the generator (the original's "--audio-depths 16 24" form
# too), every request carries its parts and succeeds, the summary counts
# them, and input_config records the options.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 1 --itl-ms 1

prof() {
	aiperf profile --model test/model --url "$MOCK_URL" --tokenizer builtin \
		--random-seed 7 --isl 16 --osl 4 --request-count 4 \
		--num-dataset-entries 4 "$@"
}

ok_run() {
	j=$1/profile_export_aiperf.json
	test "$(jq .request_count.avg "$j")" = 4 &&
	test "$(jq ".error_request_count.avg // 0" "$j")" = 0 &&
	test "$(wc -l <"$1/profile_export.jsonl")" -eq 4
}

test_expect_success 'audio: --audio-length-mean 1, every request succeeds' '
	prof --audio-length-mean 1 --artifact-dir a >out 2>err || { cat err; exit 1; }
	ok_run a &&
	jq -e ".input_config.input.audio.length.mean == 1.0" a/profile_export_aiperf.json >/dev/null
'

test_expect_success 'audio mp3 (depths and rates as words) and video, streaming' '
	prof --streaming --audio-length-mean 0.5 --audio-format mp3 \
		--audio-depths 16 24 --audio-sample-rates 16 24 \
		--video-width 64 --video-height 64 --video-duration 1 --video-fps 4 \
		--inputs-json-full-media --artifact-dir av >out 2>err || { cat err; exit 1; }
	ok_run av &&
	jq -e ".input_config.input.audio.depths == [16, 24] and
		.input_config.input.video.width == 64 and
		.input_config.input.audio.format == \"mp3\"" av/profile_export_aiperf.json >/dev/null &&
	jq -e ".time_to_first_token.avg > 0" av/profile_export_aiperf.json >/dev/null
'

test_expect_success 'inputs.json elides the base64 of input_audio parts by default' '
	jq -r "[.. | objects | select(.type? == \"input_audio\")][].input_audio.data" \
		a/inputs.json >d &&
	test "$(wc -l <d)" -ge 4 &&
	! grep -v "^<elided: [0-9]* base64 chars, sha256 [0-9a-f]\{64\}>\$" d
'

test_expect_success 'the requests sent carry the parts (inputs.json, --inputs-json-full-media)' '
	f=av/inputs.json &&
	test -s $f &&
	test "$(jq "[.. | objects | select(.type? == \"input_audio\")] | length" $f)" -ge 4 &&
	test "$(jq "[.. | objects | select(.type? == \"video_url\")] | length" $f)" -ge 4 &&
	jq -r "[.. | objects | select(.type? == \"video_url\")][0].video_url.url" $f |
		cut -d, -f2 | base64 -d >v.webm &&
	test "$(ffprobe -v error -show_entries stream=codec_name,width -of csv=p=0 v.webm)" = "vp9,64"
'

test_expect_success 'a bad option is refused before anything is sent' '
	test_expect_code 2 prof --audio-length-mean 1 --audio-depths 12 --artifact-dir bad \
		>out 2>err &&
	grep -q "Unsupported bit depth: 12" err
'

test_done
