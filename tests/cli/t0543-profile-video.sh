#!/bin/sh
# aiperf profile --endpoint-type video_generation against aiperf-mock: the
# original's artifacts with its Video Generation Metrics (request latency,
# video inference time in ms, video peak memory in MB, input sequence
# length; no token output metrics), --download-video-content passed to
# aiperf-send, AIPERF_HTTP_VIDEO_POLL_INTERVAL honoured, a failing job in the
# error summary.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

start_mock --video-time-ms 150 --video-content-bytes 20000

prof() {
	aiperf profile --model wan --url "$MOCK_URL" --tokenizer builtin --endpoint-type video_generation \
		--random-seed 7 --isl 8 --request-count 4 --concurrency 2 \
		--extra-inputs size:64x64 --extra-inputs seconds:4 "$@"
}

test_expect_success 'the artifacts, with the video metrics under their console title' '
	prof --artifact-dir v --export-level raw >out 2>err || { cat err; exit 1; } &&
	grep -q "NVIDIA AIPerf | Video Generation Metrics *\$" out &&
	grep -q "Video Inference Time (ms) " out && grep -q "Video Peak Memory (MB) " out &&
	j=v/profile_export_aiperf.json &&
	jq -e ".request_count.avg == 4 and (.error_request_count.avg // 0) == 0 and
		.video_inference_time.unit == \"ms\" and .video_inference_time.avg == 150 and
		.video_peak_memory.unit == \"MB\" and .video_peak_memory.avg >= 2048 and
		.request_latency.avg >= 150 and .input_sequence_length.avg == 8 and
		.output_sequence_length == null and .time_to_first_token == null" $j &&
	grep -q "^Video Inference Time (ms)," v/profile_export_aiperf.csv &&
	grep -q "^Video Peak Memory (MB)," v/profile_export_aiperf.csv &&
	test "$(wc -l <v/profile_export.jsonl)" -eq 4 &&
	jq -se "all(.metrics.video_inference_time.value == 150)" v/profile_export.jsonl &&
	jq -se "all(.payload.size == \"64x64\" and .aiperf.video.polls >= 1 and
		(.aiperf.video | has(\"content_bytes\") | not))" v/profile_export_raw.jsonl
'

test_expect_success '--download-video-content reaches the sender' '
	prof --artifact-dir d --export-level raw --download-video-content >out 2>err || { cat err; exit 1; } &&
	grep -q "^CLI Command: .*--download-video-content" out &&
	jq -se "length == 4 and all(.aiperf.video.content_bytes == 20000)" d/profile_export_raw.jsonl
'

test_expect_success 'AIPERF_HTTP_VIDEO_POLL_INTERVAL sets the poll interval' '
	AIPERF_HTTP_VIDEO_POLL_INTERVAL=1 prof --artifact-dir p --export-level raw --request-count 1 \
		>out 2>err || { cat err; exit 1; } &&
	jq -e ".aiperf.video.polls == 2" p/profile_export_raw.jsonl
'

kill "$MOCK_PID"
start_mock -f --video-fail-rate 50

test_expect_success 'failing jobs: in the error summary as VideoGenerationError' '
	prof --artifact-dir f --request-count 8 >out 2>err || { cat err; exit 1; } &&
	grep -q "500 .* VideoGenerationError .* Video generation failed: aiperf-mock: video generation failed" out &&
	jq -e ".error_request_count.avg >= 1 and .request_count.avg >= 1 and
		.error_request_count.avg + .request_count.avg == 8" f/profile_export_aiperf.json
'

kill "$MOCK_PID"
test_done
