#!/bin/sh
# aiperf-metrics on video_generation raw records written by hand: every
# non-empty job object is a content response (request latency to the last
# one), video_inference_time (s -> ms) and video_peak_memory (MB) from the
# first response that has each (a number, or a string that is one), none
# when no response has them; a truthy non-object body raises as the
# original's .get() would; the video metrics belong to this endpoint only.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

# rec ET BODY...: a raw record whose responses are the bodies, 1 ms apart
rec() {
	et=$1
	shift
	jq -nc --arg et "$et" --args '{metadata: {x_request_id: "r"}, start_perf_ns: 1000000,
		payload: {prompt: "a b c", model: "m"},
		aiperf: {endpoint_type: $et, end_perf_ns: 9000000},
		responses: [$ARGS.positional | to_entries[] | {perf_ns: (2000000 + .key * 1000000), text: .value}]}' "$@"
}

test_expect_success 'latency to the last job object; the first inference time and peak memory' '
	rec video_generation "{\"id\":\"v\",\"status\":\"queued\"}" \
		"{\"status\":\"in_progress\",\"peak_memory_mb\":\"512.5\"}" \
		"{\"status\":\"completed\",\"inference_time_s\":1.25,\"peak_memory_mb\":4096}" >raw &&
	aiperf-metrics --tokenizer builtin <raw >m &&
	jq -e ".metrics.request_latency.value == 3 and
		.metrics.video_inference_time == {value: 1250, unit: \"ms\"} and
		.metrics.video_peak_memory == {value: 512.5, unit: \"MB\"} and
		.metrics.input_sequence_length.value == 3 and
		(.metrics | has(\"output_sequence_length\") | not)" m
'

test_expect_success 'no server fields: no video metrics; odd values are skipped' '
	rec video_generation "{\"status\":\"completed\",\"inference_time_s\":\"soon\",\"peak_memory_mb\":[1]}" >raw &&
	aiperf-metrics --tokenizer builtin <raw >m &&
	jq -e "(.error | not) and (.metrics | has(\"video_inference_time\") or has(\"video_peak_memory\") | not)" m
'

test_expect_success 'a list body raises AttributeError; an empty object is no data' '
	rec video_generation "[1]" >raw &&
	aiperf-metrics --tokenizer builtin <raw >m &&
	jq -e ".error.type == \"AttributeError\"" m &&
	rec video_generation "{}" >raw &&
	aiperf-metrics --tokenizer builtin <raw >m &&
	jq -e ".error.type == \"InvalidInferenceResultError\"" m
'

test_expect_success 'the video metrics are the video endpoint'"'"'s only' '
	rec embeddings "{\"data\":[{\"object\":\"embedding\",\"embedding\":[1]}],\"inference_time_s\":2}" >raw &&
	aiperf-metrics --tokenizer builtin <raw >m &&
	jq -e "(.metrics | has(\"video_inference_time\") | not)" m &&
	aiperf-metrics --tokenizer builtin --endpoint-type video_generation </dev/null
'

test_expect_success 'aiperf-export: the title, units and order after request latency' '
	rec video_generation "{\"status\":\"completed\",\"inference_time_s\":0.5,\"peak_memory_mb\":100}" |
		aiperf-metrics --tokenizer builtin | aiperf-export --endpoint-type video_generation >out &&
	grep -q "NVIDIA AIPerf | Video Generation Metrics" out &&
	grep -n "Request Latency (ms)\|Video Inference Time (ms)\|Video Peak Memory (MB)" out | cut -d: -f1 >lines &&
	test "$(wc -l <lines)" -eq 3 && sort -n lines | cmp - lines
'

test_done
