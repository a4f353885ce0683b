#!/bin/sh
# The original's multimodal tutorials (vision, audio, synthetic video:
# their `aiperf profile` commands, kept in tests/data/docs-multimodal, as
# the reference docs carry none) run against aiperf-mock, adapted as t0808
# adapts the reference docs' examples (tests/cli/docs-examples.py: the
# mock's URL, small counts, sizes and durations, a builtin tokenizer) and
# write sound artifacts. Options newer than the reference (--video-audio-*)
# are refused as unknown, the synthesis type "noise" as an invalid value,
# and the h264_nvenc codec fails with ffmpeg's reason where ffmpeg has no
# NVIDIA encoder. The image_generation, video_generation and
# image_retrieval tutorials are other endpoints' (not here).
# shellcheck disable=SC2016 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
command -v ffmpeg >/dev/null || test_skip_all "no ffmpeg"
start_mock --ttft-ms 1 --itl-ms 1

# The inputs.jsonl the tutorials write: images by URL (vision), local WAV
# files (audio; the tutorial's /fixtures/audio/ files are made here).
fixtures() {
	case $1 in
	*Audio*)
		for f in test_audio_1s test_audio_2 test_audio_3; do
			$PY -c "import wave, sys
w = wave.open(sys.argv[1], \"wb\")
w.setnchannels(1); w.setsampwidth(2); w.setframerate(16000)
w.writeframes(bytes(3200)); w.close()" "$f.wav" || return 1
		done
		cat >inputs.jsonl <<-\EOF
		{"texts": ["Transcribe this."], "audios": ["test_audio_1s.wav"]}
		{"texts": ["What is said?"], "audios": ["test_audio_2.wav"]}
		{"texts": ["Summarize."], "audios": ["test_audio_3.wav"]}
		EOF
		;;
	*)
		for i in 1 2 3 4 5; do
			printf '{"texts": ["Describe image %d."], "images": ["https://picsum.photos/512/512?random=%d"]}\n' "$i" "$i"
		done >inputs.jsonl
		;;
	esac
}

$PY "$TOP/tests/cli/docs-examples.py" "$TOP/tests/data/docs-multimodal" \
	"$TOP/data/profile-options.tsv" "$MOCK_URL" >"$TMP/examples"

test_expect_success 'the tutorials hold the examples this test knows' '
	test "$(grep -c "^run	" examples)" -ge 17 &&
	test "$(grep -c -- "--audio-length-mean" examples)" = 1 &&
	test "$(grep -c -- "--image-width-mean" examples)" = 1 &&
	test "$(grep -c "^unknown:--video-audio-num-channels	" examples)" = 5
'

# check_run: one artifact directory, requests counted, no errors, and the
# media in inputs.json (as digests) and in the raw requests the mock saw
check_run() {
	j=$(find . -name profile_export_aiperf.json) &&
	test "$(printf '%s\n' "$j" | wc -l)" -eq 1 &&
	test "$(jq .request_count.avg "$j")" -gt 0 &&
	test "$(jq ".error_request_count.avg // 0" "$j")" = 0 &&
	in=$(dirname "$j")/inputs.json &&
	jq -e "[.data[].payloads[].messages[].content | arrays | .[] |
		select(.type == \"image_url\" or .type == \"input_audio\" or
		.type == \"video_url\")] | length > 0" "$in" >/dev/null
}

n=0
while IFS='	' read -r kind cmd; do
	n=$((n + 1))
	test_expect_success "tutorial example $n ($kind): $cmd" '
		mkdir e'$n' && cd e'$n' && fixtures "$cmd" &&
		st=0 && eval "$cmd" >out 2>err </dev/null || st=$?
		case $kind:$cmd in
		unknown:*) test $st -eq 2 &&
			grep -qF "unknown option '"'"'${kind#unknown:}'"'"'" err ;;
		*--video-synth-type\ noise*) test $st -eq 2 &&
			grep -q "invalid value for --video-synth-type: .noise." err ;;
		*h264_nvenc*) test $st -eq 0 && check_run ||
			{ test $st -eq 1 && grep -q "ffmpeg failed to create the video (codec h264_nvenc" err; } ;;
		*) test $st -eq 0 || { echo "status $st"; cat err; exit 1; }
			check_run ;;
		esac
	'
done <"$TMP/examples"

test_done
