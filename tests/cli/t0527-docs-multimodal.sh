#!/bin/sh
# run.sh: long
# The original's multimodal tutorials (vision, audio, synthetic video:
# their `aiperf profile` commands, kept in tests/data/docs-multimodal, as
# the reference docs carry none) run against aiperf-mock, adapted as t0808
# adapts the reference docs' examples (tests/cli/docs-examples.py: the
# mock's URL, small counts, sizes and durations, a builtin tokenizer) and
# write sound artifacts. Options newer than the reference (--video-audio-*)
# are refused as unknown (the synthesis type "noise" runs: 0.11's), and
# the h264_nvenc codec fails with ffmpeg's reason where ffmpeg has no
# NVIDIA encoder. The image_generation (SGLang), image_retrieval (NIM)
# and video_generation (SGLang) tutorials run too, each with its
# endpoint's evidence: the prompts and extra inputs the mock was sent,
# the image metrics (and no tokenizer: image_retrieval loads none), the video job metrics, and with
# --download-video-content records that end after the content's download.
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
command -v ffmpeg >/dev/null || test_skip_all "no ffmpeg"
# -v: the mock logs each request (request line, arrival time) to .mock.err
start_mock -v --ttft-ms 1 --itl-ms 1 --video-time-ms 30 \
	--image-retrieval-base-latency 1 --image-retrieval-per-image-latency 1
MOCKLOG=$TMP/.mock.err

# a small PNG (the tutorials' local images and data URLs)
$PY -c "from PIL import Image; Image.new(\"RGB\", (32, 24), (200, 90, 40)).save(\"$TMP/page.png\")" ||
	test_skip_all "no PIL"
PNG64=$(base64 -w0 "$TMP/page.png")

# The inputs.jsonl the tutorials write: images by URL (vision), local WAV
# files (audio; the tutorial's /fixtures/audio/ files are made here),
# prompts (image and video generation), an image each as URL, local file
# and data URL (image retrieval; /path/to/... files are made here), or
# several.
fixtures() {
	case $1 in
	*image_prompts.jsonl*)
		cat >image_prompts.jsonl <<-\EOF
		{"text": "A serene mountain landscape at sunset"}
		{"text": "A futuristic city with flying cars"}
		{"text": "A cute robot playing with a kitten"}
		EOF
		;;
	*video_prompts.jsonl*)
		cat >video_prompts.jsonl <<-\EOF
		{"text": "A serene lake at sunset with mountains in the background"}
		{"text": "A cat playing with a ball of yarn in a cozy living room"}
		{"text": "A futuristic city with flying cars and neon lights"}
		EOF
		;;
	*multi_image_inputs.jsonl*)
		cp "$TMP/page.png" chart1.jpg && cp "$TMP/page.png" chart2.jpg &&
		cp "$TMP/page.png" chart3.jpg &&
		cat >multi_image_inputs.jsonl <<-\EOF
		{"images": ["https://example.com/page1.png", "https://example.com/page2.png"]}
		{"images": ["chart1.jpg", "chart2.jpg", "chart3.jpg"]}
		EOF
		;;
	*image_retrieval*)
		cp "$TMP/page.png" document_page.png &&
		{
			echo '{"image": "https://assets.ngc.nvidia.com/products/api-catalog/nemo-retriever/object-detection/page-elements-example-1.jpg"}'
			echo '{"image": "document_page.png"}'
			echo '{"image": "data:image/png;base64,'"$PNG64"'"}'
		} >inputs.jsonl
		;;
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
	test "$(grep -c "^run	" examples)" -ge 33 &&
	test "$(grep -c "^run	.*--endpoint-type image_generation" examples)" = 3 &&
	test "$(grep -c "^run	.*--endpoint-type image_retrieval" examples)" = 3 &&
	test "$(grep -c "^run	.*--endpoint-type video_generation" examples)" = 11 &&
	test "$(grep -c "^run	AIPERF_HTTP_VIDEO_POLL_INTERVAL=0.5 aiperf profile" examples)" = 1 &&
	test "$(grep -c -- "--audio-length-mean" examples)" = 1 &&
	test "$(grep -c -- "--image-width-mean" examples)" = 1 &&
	test "$(grep -c "^unknown:--video-audio-num-channels	" examples)" = 5
'

# check_run CMD: one artifact directory, requests counted, no errors, and
# the endpoint's evidence (check_media, check_imagegen, check_retrieval,
# check_video) in the artifacts and in the requests the mock saw (seen: its
# log lines since the run began)
check_run() {
	j=$(find . -name profile_export_aiperf.json) &&
	test "$(printf '%s\n' "$j" | wc -l)" -eq 1 &&
	d=$(dirname "$j") &&
	nreq=$(jq .request_count.avg "$j") &&
	test "$nreq" -gt 0 &&
	test "$(jq ".error_request_count.avg // 0" "$j")" = 0 &&
	case $1 in
	*image_generation*) check_imagegen "$1" ;;
	*image_retrieval*) check_retrieval "$1" ;;
	*video_generation*) check_video "$1" ;;
	*) check_media ;;
	esac
}

# the media in inputs.json (as digests)
check_media() {
	jq -e "[.data[].payloads[].messages[].content | arrays | .[] |
		select(.type == \"image_url\" or .type == \"input_audio\" or
		.type == \"video_url\")] | length > 0" "$d/inputs.json" >/dev/null
}

# image_generation: the prompts (the input file's, when it has one) and
# the extra inputs in every payload, each request at the mock, a latency
check_imagegen() {
	jq -e ".data | length > 0 and all(.payloads[0] | (.prompt | length > 0) and
		.size == \"512x512\" and .quality == \"standard\")" "$d/inputs.json" >/dev/null &&
	case $1 in
	*--input-file*)
		jq -r .text image_prompts.jsonl | sort >want &&
		jq -r ".data[].payloads[0].prompt" "$d/inputs.json" | sort -u >got &&
		test_cmp want got ;;
	esac &&
	test "$(grep -c "\"POST /v1/images/generations HTTP/1.1\" 200 " seen)" = "$nreq" &&
	jq -e ".request_latency.avg > 0" "$j" >/dev/null &&
	case $1 in
	*"--export-level raw"*) test "$(wc -l <"$d/profile_export_raw.jsonl")" = "$nreq" ;;
	esac
}

# image_retrieval: the image metrics, each request at /v1/infer, no
# tokenizer loaded (docs-examples.py names none, the model has none); the
# local file and the data URL sent as the same data URL, the remote image
# as its URL; several images a request for multi_image_inputs
check_retrieval() {
	jq -e ".image_throughput.avg > 0 and .image_latency.avg > 0" "$j" >/dev/null &&
	grep -q "Tokenization is disabled for this endpoint" "$d/logs/aiperf.log" &&
	test "$(grep -c "\"POST /v1/infer HTTP/1.1\" 200 " seen)" = "$nreq" &&
	case $1 in
	*multi_image*) jq -e ".num_images.max == 3" "$j" >/dev/null ;;
	*) jq -e ".num_images.avg == 1" "$j" >/dev/null &&
		jq -r ".data[].payloads[0].input[].url" "$d/inputs.json" | sort -u >got &&
		printf "%s\n" "data:image/png;base64,$PNG64" "$(jq -r .image inputs.jsonl | head -1)" |
			sort >want &&
		test_cmp want got ;;
	esac
}

# video_generation: the job metrics, a job submitted per request; the
# content downloaded only with --download-video-content, each record
# then spanning at least the time from its job's submit to the download's
# request (concurrency 1: jobs and records pair in order)
check_video() {
	jq -e ".video_inference_time.avg == 30 and .video_peak_memory.avg > 0" "$j" >/dev/null &&
	test "$(grep -c "\"POST /v1/videos HTTP/1.1\" 200 " seen)" = "$nreq" &&
	ndl=$(grep -c "\"GET /v1/videos/[^ /]*/content HTTP/1.1\" 200 " seen || :) &&
	case $1 in
	*--download-video-content*)
		test "$ndl" = "$nreq" &&
		$PY -c "
import json, re, sys
t = {}
for line in open(\"seen\"):
    m = re.search(r\"\\\"(POST|GET) /v1/videos(/[^ /]*(/content)?)? HTTP/1.1\\\" 200 (\\d+)\", line)
    if m and (m.group(1) == \"POST\" or m.group(3)):
        t.setdefault(m.group(1), []).append(int(m.group(4)))
recs = sorted((json.loads(l)[\"metadata\"] for l in open(sys.argv[1])),
              key=lambda r: r[\"request_start_ns\"])
assert len(recs) == len(t[\"POST\"]) == len(t[\"GET\"]), t
for r, p, g in zip(recs, t[\"POST\"], t[\"GET\"]):
    assert r[\"request_end_ns\"] - r[\"request_start_ns\"] >= g - p, (r, p, g)
" "$d/profile_export.jsonl" ;;
	*) test "$ndl" = 0 ;;
	esac &&
	case $1 in
	*"--export-level raw"*)
		jq -se "length == $nreq and all(.aiperf.video.polls >= 1)" \
			"$d/profile_export_raw.jsonl" >/dev/null ;;
	esac
}

n=0
while IFS='	' read -r kind cmd; do
	n=$((n + 1))
	test_expect_success "tutorial example $n ($kind): $cmd" '
		mkdir e'$n' && cd e'$n' && fixtures "$cmd" &&
		l0=$(wc -l <"$MOCKLOG") &&
		st=0 && eval "$cmd" >out 2>err </dev/null || st=$?
		tail -n +$((l0 + 1)) "$MOCKLOG" >seen
		case $kind:$cmd in
		unknown:*) test $st -eq 2 &&
			grep -qF "unknown option '"'"'${kind#unknown:}'"'"'" err ;;
		*h264_nvenc*) test $st -eq 0 && check_run "$cmd" ||
			{ test $st -eq 1 && grep -q "ffmpeg failed to create the video (codec h264_nvenc" err; } ;;
		*) test $st -eq 0 || { echo "status $st"; cat err; exit 1; }
			check_run "$cmd" ;;
		esac
	'
done <"$TMP/examples"

test_done
