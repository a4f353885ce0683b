#!/bin/sh
# aiperf-mock's /v1/videos jobs (OpenAI/SGLang video API shapes): a form
# (multipart, urlencoded) or JSON submit answers a queued job; its status
# goes queued, in_progress, completed after --video-time-ms, with
# inference_time_s and peak_memory_mb; the content is an MP4-looking body of
# --video-content-bytes; a prompt with [video-fail] or --video-fail-rate 100
# makes the job fail; hostile ids and methods get 404 and 405.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

curl() {
	command curl --max-time 30 "$@"
}

# poll ID: GET the job until it is completed or failed (at most 400 tries)
poll() {
	i=0
	while [ $i -lt 400 ]; do
		curl -sf "$MOCK_URL/v1/videos/$1" >job || return 1
		st=$(jq -r .status job)
		echo "$st" >>states
		[ "$st" = completed ] || [ "$st" = failed ] && return 0
		sleep 0.02
		i=$((i + 1))
	done
	return 1
}

start_mock --video-time-ms 2000 --video-content-bytes 5000 --model mock-video

test_expect_success 'multipart submit: a queued video job with the form fields' '
	curl -sf -F prompt="a cat" -F model=wan -F size=64x64 -F seconds=4 \
		"$MOCK_URL/v1/videos" >sub &&
	jq -e ".object == \"video\" and .status == \"queued\" and .progress == 0 and
		.model == \"wan\" and .size == \"64x64\" and .seconds == \"4\" and
		(.id | startswith(\"video_\")) and (.created_at | type) == \"number\"" sub >/dev/null
'

test_expect_success 'the job goes queued, in_progress, completed, with the server metrics' '
	id=$(jq -r .id sub) && rm -f states &&
	poll "$id" &&
	grep -qx in_progress states && test "$(tail -1 states)" = completed &&
	jq -e ".progress == 100 and .inference_time_s == 2 and (.peak_memory_mb | type) == \"number\"
		and .completed_at >= .created_at and .expires_at > .completed_at
		and .model == \"mock-video\"" job >/dev/null
'

test_expect_success 'the content: --video-content-bytes of an ftyp/mdat MP4 body' '
	id=$(jq -r .id sub) &&
	curl -sf -D head -o video.mp4 "$MOCK_URL/v1/videos/$id/content" &&
	grep -qi "^content-type: video/mp4" head &&
	test "$(wc -c <video.mp4)" -eq 5000 &&
	test "$(dd if=video.mp4 bs=1 skip=4 count=4 2>/dev/null)" = ftyp &&
	test "$(dd if=video.mp4 bs=1 skip=28 count=4 2>/dev/null)" = mdat
'

test_expect_success 'urlencoded and JSON submits too; no prompt is 422' '
	curl -sf -d "prompt=a+dog&model=m%2B1" "$MOCK_URL/v1/videos" >u &&
	jq -e ".status == \"queued\" and .model == \"m+1\"" u >/dev/null &&
	curl -sf -H "Content-Type: application/json" -d "{\"prompt\":\"x\",\"seconds\":8}" \
		"$MOCK_URL/v1/videos" >j &&
	jq -e ".seconds == \"8\"" j >/dev/null &&
	test "$(curl -s -o /dev/null -w "%{http_code}" -F model=m "$MOCK_URL/v1/videos")" = 422
'

test_expect_success 'a prompt with [video-fail]: the job fails with an error object' '
	curl -sf -F "prompt=a [video-fail] cat" "$MOCK_URL/v1/videos" >f &&
	rm -f states && poll "$(jq -r .id f)" &&
	jq -e ".status == \"failed\" and .error.message == \"aiperf-mock: video generation failed\"
		and (has(\"inference_time_s\") | not)" job >/dev/null &&
	test "$(curl -s -o /dev/null -w "%{http_code}" "$MOCK_URL/v1/videos/$(jq -r .id f)/content")" = 404
'

test_expect_success 'content before completion, unknown and hostile ids: 404; wrong methods: 405' '
	curl -sf -F prompt=x "$MOCK_URL/v1/videos" >early && id=$(jq -r .id sub) &&
	test "$(curl -s -o /dev/null -w "%{http_code}" "$MOCK_URL/v1/videos/$(jq -r .id early)/content")" = 404 &&
	for bad in nope video_ video_1_2 video_1_2_3_4 video_x_1_0_1 "video_1_1_0_1/x" video_1_-5_0_1; do
		test "$(curl -s -o /dev/null -w "%{http_code}" "$MOCK_URL/v1/videos/$bad")" = 404 ||
			{ echo "$bad"; exit 1; }
	done &&
	test "$(curl -s -o /dev/null -w "%{http_code}" "$MOCK_URL/v1/videos")" = 405 &&
	test "$(curl -s -o /dev/null -w "%{http_code}" -X DELETE "$MOCK_URL/v1/videos/$(jq -r .id sub)")" = 405
'

kill "$MOCK_PID"

test_expect_success '--video-fail-rate 100 fails every job; -f completes at once' '
	start_mock -f --video-fail-rate 100 &&
	curl -sf -F prompt=x "$MOCK_URL/v1/videos" >r &&
	curl -sf "$MOCK_URL/v1/videos/$(jq -r .id r)" >s &&
	jq -e ".status == \"failed\"" s >/dev/null &&
	kill "$MOCK_PID" &&
	start_mock -f &&
	curl -sf -F prompt=x "$MOCK_URL/v1/videos" >r &&
	curl -sf "$MOCK_URL/v1/videos/$(jq -r .id r)" >s &&
	jq -e ".status == \"completed\" and .inference_time_s == 0" s >/dev/null &&
	kill "$MOCK_PID"
'

test_done
