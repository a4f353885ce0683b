#!/bin/sh
# aiperf-send's video_generation records against aiperf-mock: the payload
# submitted as multipart/form-data, the job polled at once and then every
# --video-poll-interval until completed, each changed poll kept in the
# record's responses, --download-video-content's GET of the content; the
# original's stamps (start: the submit's, request latency up to the
# completed poll, end_perf_ns after the download); a failed job and a
# timed-out one are one error record each. Both engines.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --video-time-ms 400 --video-content-bytes 300000

req() {	# id prompt
	printf '{"id":"%s","endpoint_type":"video_generation","payload":{"prompt":"%s","model":"wan","size":"64x64","seconds":4,"seed":7,"loop":true,"opt":null}}\n' "$1" "$2"
}

test_expect_success 'submit, polls until completed, one record; both engines' '
	req r1 "a cat" >in &&
	for e in h1 curl; do
		aiperf-send -u "$MOCK_URL" --http-engine $e --video-poll-interval 0.05 <in >raw.$e &&
		test "$(wc -l <raw.$e)" -eq 1 &&
		jq -e "(.error | not) and .status == 200 and
			(.responses[0].text | fromjson | .status) == \"queued\" and
			(.responses[-1].text | fromjson | .status) == \"completed\" and
			(.responses[-1].text | fromjson | .inference_time_s) == 0.4 and
			([.responses[].text | fromjson | .status] | index(\"in_progress\")) != null and
			.aiperf.video.polls >= 2 and (.aiperf.video.job_id | startswith(\"video_\")) and
			(.aiperf.video | has(\"content_bytes\") | not) and
			.payload == {prompt: \"a cat\", model: \"wan\", size: \"64x64\", seconds: 4, seed: 7, loop: true, opt: null} and
			(.request_headers[\"Content-Type\"] | startswith(\"multipart/form-data; boundary=\")) and
			.aiperf.url == \"$MOCK_URL/v1/videos\" and
			.aiperf.end_perf_ns == .responses[-1].perf_ns and
			.start_perf_ns < .responses[0].perf_ns" raw.$e >/dev/null || { cat raw.$e; exit 1; }
	done
'

test_expect_success 'identical polls are kept once; polls follow --video-poll-interval' '
	jq -e "[.responses[1:][].text] | length == (unique | length)" raw.h1 >/dev/null &&
	aiperf-send -u "$MOCK_URL" --video-poll-interval 0.2 <in >slow &&
	jq -e ".aiperf.video.polls <= 4" slow >/dev/null &&
	AIPERF_HTTP_VIDEO_POLL_INTERVAL=0.01 aiperf-send -u "$MOCK_URL" <in >fast &&
	jq -e ".aiperf.video.polls >= 5" fast >/dev/null
'

test_expect_success 'the mock sees the form fields: the job echoes size and seconds' '
	jq -e ".responses[0].text | fromjson | .size == \"64x64\" and .seconds == \"4\" and .model == \"wan\"" \
		raw.curl >/dev/null
'

test_expect_success '--download-video-content: the content counted, end after it, latency to completion' '
	for e in h1 curl; do
		aiperf-send -u "$MOCK_URL" --http-engine $e --download-video-content <in >dl.$e &&
		jq -e "(.error | not) and .aiperf.video.content_bytes == 300000 and
			.responses[-1].content_type == \"video/mp4\" and .responses[-1].text == \"\" and
			(.responses[-2].text | fromjson | .status) == \"completed\" and
			.aiperf.end_perf_ns == .responses[-1].perf_ns and
			.responses[-1].perf_ns > .responses[-2].perf_ns" dl.$e >/dev/null || { cat dl.$e; exit 1; }
		aiperf-metrics --tokenizer builtin <dl.$e >m.$e &&
		# request latency ends at the completed poll (the original: the last
		# content response), the download shows in request_end_ns only
		lat=$(jq -r "(.responses[-2].perf_ns - .start_perf_ns) / 1e6" dl.$e) &&
		jq -e --argjson lat "$lat" "(.metrics.request_latency.value - \$lat | fabs) < 1e-6 and
			.metrics.video_inference_time.value == 400 and
			.metrics.video_peak_memory.unit == \"MB\"" m.$e >/dev/null &&
		jq -e "(.metadata.request_end_ns - .metadata.request_start_ns) >
			.metrics.request_latency.value * 1e6 - 1" m.$e >/dev/null || exit 1
	done
'

test_expect_success 'a failed job: one VideoGenerationError record with the server message' '
	{ req ok "fine" && req bad "a [video-fail] b" && req ok2 "fine too"; } >in3 &&
	aiperf-send -u "$MOCK_URL" --concurrency 3 --video-poll-interval 0.05 <in3 >raw3 &&
	test "$(wc -l <raw3)" -eq 3 &&
	jq -se "map(select(.error)) | length == 1 and .[0].metadata.x_request_id == \"bad\" and
		.[0].error == {code: 500, type: \"VideoGenerationError\",
			message: \"Video generation failed: aiperf-mock: video generation failed\"} and
		(.[0].responses[-1].text | fromjson | .status) == \"failed\"" raw3 >/dev/null &&
	aiperf-metrics --tokenizer builtin <raw3 >m3 &&
	jq -se "map(select(.error)) | length == 1" m3 >/dev/null
'

test_expect_success 'polls past --request-timeout-seconds: TimeoutError 504' '
	aiperf-send -u "$MOCK_URL" --request-timeout-seconds 0.15 --video-poll-interval 0.05 <in >to &&
	jq -e ".error == {code: 504, type: \"TimeoutError\", message: \"Video generation timed out after 0.15s\"}
		and (.responses[0].text | fromjson | .status) == \"queued\"" to >/dev/null
'

test_expect_success 'bad --video-poll-interval values, the environment one too' '
	test_expect_code 2 aiperf-send --video-poll-interval 0 </dev/null 2>err &&
	grep -q "invalid value for --video-poll-interval: must be between 0.001 and 10 seconds" err &&
	AIPERF_HTTP_VIDEO_POLL_INTERVAL=11 test_expect_code 2 aiperf-send </dev/null 2>err &&
	grep -q "AIPERF_HTTP_VIDEO_POLL_INTERVAL: must be between" err &&
	AIPERF_HTTP_VIDEO_POLL_INTERVAL=x test_expect_code 2 aiperf-send </dev/null 2>err &&
	grep -q "invalid value for AIPERF_HTTP_VIDEO_POLL_INTERVAL: .x." err &&
	AIPERF_HTTP_VIDEO_POLL_INTERVAL=x aiperf-send --video-poll-interval 0.5 </dev/null
'

test_expect_success 'SIGINT while jobs wait between polls: each still one record' '
	{ req a "x" && req b "y"; } >in4 &&
	aiperf-send -u "$MOCK_URL" --concurrency 2 --video-poll-interval 5 --shutdown-grace-period 0 \
		<in4 >raw4 2>err4 &
	pid=$! && sleep 1 &&
	kill -INT $pid && { wait $pid || :; } &&
	test "$(wc -l <raw4)" -eq 2 &&
	jq -se "all(.error.type == \"NotFinishedError\" or .error.type == \"NotSentError\")" raw4 >/dev/null &&
	jq -se "map(.payload.prompt) | sort == [\"x\", \"y\"]" raw4 >/dev/null
'

test_expect_success 'video jobs beside chat requests in one run: every record right' '
	{ req v1 "a" && req v2 "b" &&
	  for i in 1 2 3 4 5; do
		printf "{\"id\":\"c%s\",\"payload\":{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"model\":\"m\",\"stream\":true}}\n" $i
	  done; } >mix &&
	for e in h1 curl; do
		aiperf-send -u "$MOCK_URL" --http-engine $e --concurrency 4 --video-poll-interval 0.02 <mix >raw.mix &&
		jq -se "length == 7 and all(.error | not) and
			(map(select(.aiperf.endpoint_type == \"video_generation\")) | length == 2 and
				all(.aiperf.video.polls >= 2)) and
			(map(select(.aiperf.endpoint_type == \"chat\")) | length == 5 and
				all(.request_headers[\"Content-Type\"] == \"application/json\" and
				    (.responses | length) > 2))" raw.mix || exit 1
	done
'

kill "$MOCK_PID"
test_done
