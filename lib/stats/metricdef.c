/* SPDX-License-Identifier: Apache-2.0 */
/* The metric catalogue of the original (spec 1.4). */
#include "stats/metricdef.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "util.h"

#define NS_MS (1e3 / 1e9)
#define NS_S (1.0 / 1e9)
#define B_KB (1.0 / 1024)

#define S MF_STREAMING_ONLY
#define T MF_TOKENS_ONLY
#define I MF_INPUT_ONLY
#define NC MF_NO_CONSOLE
#define NIR MF_NO_INDIVIDUAL
#define E MF_ERROR_ONLY
#define INT MF_INTERNAL
#define EXP MF_EXPERIMENTAL
#define L MF_LARGER_BETTER
#define RS MF_REASONING
#define G MF_GOODPUT
#define H MF_HTTP_TRACE
#define UD MF_USAGE_DIFF
#define LIST MF_LIST
#define IMG MF_IMAGE
#define V MF_VIDEO

#define R METRIC_RECORD
#define A METRIC_AGGREGATE
#define D METRIC_DERIVED

/* Record metrics first, in the order of the original's documented example
 * (ISL, TTFT, request latency, output tokens, ICL, OSL, ITL, ...). */
const struct metricdef metricdefs[] = {
	{ "input_sequence_length", "Input Sequence Length", "tokens", "tokens", 1, R, 700, I | L, NULL },
	{ "time_to_first_token", "Time to First Token", "ns", "ms", NS_MS, R, 100, S | T, NULL },
	{ "time_to_second_token", "Time to Second Token", "ns", "ms", NS_MS, R, 200, S | T, NULL },
	{ "time_to_first_output_token", "Time to First Output Token", "ns", "ms", NS_MS, R, 210, S | T | RS, NULL },
	{ "request_latency", "Request Latency", "ns", "ms", NS_MS, R, 300, 0, NULL },
	{ "stream_setup_latency", "Stream Setup Latency", "ns", "ms", NS_MS, R, 0, S | EXP, NULL },
	{ "stream_prefill_latency", "Stream Prefill Latency", "ns", "ms", NS_MS, R, 0, S | EXP, "time_to_first_token stream_setup_latency" },
	{ "output_token_count", "Output Token Count", "tokens", "tokens", 1, R, 0, T | NC | L, NULL },
	{ "reasoning_token_count", "Reasoning Token Count", "tokens", "tokens", 1, R, 0, T | NC | RS | L, NULL },
	{ "inter_chunk_latency", "Inter Chunk Latency", "ns", "ms", NS_MS, R, 0, S | T | NC | LIST, NULL },
	{ "output_sequence_length", "Output Sequence Length", "tokens", "tokens", 1, R, 600, T | L, "output_token_count reasoning_token_count" },
	{ "inter_token_latency", "Inter Token Latency", "ns", "ms", NS_MS, R, 400, S | T, "request_latency time_to_first_token output_sequence_length" },
	{ "output_token_throughput_per_user", "Output Token Throughput Per User", "tokens/sec/user", "tokens/sec/user", 1, R, 500, S | T | L, "inter_token_latency" },
	{ "e2e_output_token_throughput", "E2E Output Token Throughput", "tokens/sec/user", "tokens/sec/user", 1, R, 510, T | L, "output_sequence_length request_latency" },
	{ "prefill_throughput_per_user", "Prefill Throughput Per User", "tokens/sec/user", "tokens/sec/user", 1, R, 0, S | T | I | NC | L, "input_sequence_length time_to_first_token" },
	{ "usage_prompt_tokens", "Usage Prompt Tokens", "tokens", "tokens", 1, R, 0, I | NC, NULL },
	{ "usage_completion_tokens", "Usage Completion Tokens", "tokens", "tokens", 1, R, 0, T | NC, NULL },
	{ "usage_total_tokens", "Usage Total Tokens", "tokens", "tokens", 1, R, 0, T | NC, NULL },
	{ "usage_reasoning_tokens", "Usage Reasoning Tokens", "tokens", "tokens", 1, R, 0, T | NC | RS, NULL },
	{ "usage_prompt_tokens_diff_pct", "Usage Prompt Diff", "%", "%", 1, R, 0, I | NC | UD, "usage_prompt_tokens input_sequence_length" },
	{ "usage_completion_tokens_diff_pct", "Usage Completion Diff", "%", "%", 1, R, 0, T | NC | UD, "usage_completion_tokens output_sequence_length" },
	{ "usage_reasoning_tokens_diff_pct", "Usage Reasoning Diff", "%", "%", 1, R, 0, T | NC | UD | RS, "usage_reasoning_tokens reasoning_token_count" },
	{ "requested_osl", "Requested OSL", "tokens", "tokens", 1, R, 0, T | NC | INT, NULL },
	{ "osl_mismatch_diff_pct", "OSL Mismatch Diff %", "%", "%", 1, R, 0, T | NC, "output_sequence_length requested_osl" },
	{ "error_isl", "Error Input Sequence Length", "tokens", "tokens", 1, R, 0, I | E | NC, NULL },
	/* image inputs (metrics/types/image_metrics.py): counted in the request body */
	{ "num_images", "Number of Images", "images", "images", 1, R, 0, IMG | NC, NULL },
	{ "image_throughput", "Image Throughput", "images/sec", "images/sec", 1, R, 860, IMG, "num_images request_latency" },
	{ "image_latency", "Image Latency", "ms/image", "ms/image", 1, R, 861, IMG, "num_images request_latency" },
	{ "http_req_blocked", "HTTP Blocked", "ns", "ms", NS_MS, R, 2000, H | NC, NULL },
	{ "http_req_dns_lookup", "HTTP DNS Lookup", "ns", "ms", NS_MS, R, 2010, H | NC, NULL },
	{ "http_req_connecting", "HTTP Connecting", "ns", "ms", NS_MS, R, 2020, H | NC, NULL },
	{ "http_req_sending", "HTTP Sending", "ns", "ms", NS_MS, R, 2030, H | NC, NULL },
	{ "http_req_waiting", "HTTP Waiting (TTFB)", "ns", "ms", NS_MS, R, 2040, H | NC, NULL },
	{ "http_req_receiving", "HTTP Receiving", "ns", "ms", NS_MS, R, 2050, H | NC, NULL },
	{ "http_req_duration", "HTTP Duration (excl. conn)", "ns", "ms", NS_MS, R, 2060, H | NC, NULL },
	{ "http_req_connection_overhead", "HTTP Connection Overhead", "ns", "ms", NS_MS, R, 2070, H | NC, "http_req_blocked http_req_dns_lookup http_req_connecting" },
	{ "http_req_total", "HTTP Total Time", "ns", "ms", NS_MS, R, 2080, H | NC, "http_req_blocked http_req_dns_lookup http_req_connecting http_req_sending http_req_waiting http_req_receiving" },
	{ "http_req_data_sent", "HTTP Data Sent", "B", "KB", B_KB, R, 2090, H | NC, NULL },
	{ "http_req_data_received", "HTTP Data Received", "B", "KB", B_KB, R, 2100, H | NC, NULL },
	{ "http_req_connection_reused", "HTTP Connection Reused", "ratio", "ratio", 1, R, 2110, H | NC, NULL },
	{ "http_req_chunks_sent", "HTTP Chunks Sent", "count", "count", 1, R, 2120, H | NC, NULL },
	{ "http_req_chunks_received", "HTTP Chunks Received", "count", "count", 1, R, 2130, H | NC, NULL },
	{ "video_inference_time", "Video Inference Time", "sec", "ms", 1e3, R, 310, V, NULL },
	{ "video_peak_memory", "Video Peak Memory", "MB", "MB", 1, R, 311, V, NULL },
	{ "request_count", "Request Count", "requests", "requests", 1, A, 1100, L | NIR, NULL },
	{ "error_request_count", "Error Request Count", "requests", "requests", 1, A, 0, E | NIR, NULL },
	{ "min_request_timestamp", "Minimum Request Timestamp", "ns", "ns", 1, A, 0, INT | NC | NIR, NULL },
	{ "max_response_timestamp", "Maximum Response Timestamp", "ns", "ns", 1, A, 0, INT | NC | NIR, NULL },
	{ "good_request_count", "GoodRequestCount", "requests", "requests", 1, A, 0, G | NC | NIR, NULL },
	{ "usage_discrepancy_count", "Usage Discrepancy Count", "requests", "requests", 1, A, 0, NC | NIR | UD, NULL },
	{ "osl_mismatch_count", "OSL Mismatch Count", "requests", "requests", 1, A, 0, T | NC | NIR, NULL },
	{ "benchmark_duration", "Benchmark Duration", "ns", "sec", NS_S, D, 0, NC, NULL },
	{ "total_output_tokens", "Total Output Tokens", "tokens", "tokens", 1, D, 0, T | NC, NULL },
	{ "total_reasoning_tokens", "Total Reasoning Tokens", "tokens", "tokens", 1, D, 0, T | NC | RS, NULL },
	{ "total_osl", "Total Output Sequence Length", "tokens", "tokens", 1, D, 0, T | NC, NULL },
	{ "total_isl", "Total Input Sequence Length", "tokens", "tokens", 1, D, 0, I | NC, NULL },
	{ "total_error_isl", "Total Error Input Sequence Length", "tokens", "tokens", 1, D, 0, I | E | NC, NULL },
	{ "request_throughput", "Request Throughput", "requests/sec", "requests/sec", 1, D, 900, L, NULL },
	{ "output_token_throughput", "Output Token Throughput", "tokens/sec", "tokens/sec", 1, D, 800, T | L, NULL },
	{ "total_token_throughput", "Total Token Throughput", "tokens/sec", "tokens/sec", 1, D, 0, T | NC | L, NULL },
	{ "goodput", "Goodput", "requests/sec", "requests/sec", 1, D, 1000, G | L, NULL },
	{ "total_usage_prompt_tokens", "Total Usage Prompt Tokens", "tokens", "tokens", 1, D, 0, I | NC, NULL },
	{ "total_usage_completion_tokens", "Total Usage Completion Tokens", "tokens", "tokens", 1, D, 0, T | NC, NULL },
	{ "total_usage_total_tokens", "Total Usage Total Tokens", "tokens", "tokens", 1, D, 0, T | NC, NULL },
};

const size_t metricdefs_len = sizeof(metricdefs) / sizeof(metricdefs[0]);

/*
 * metricdef_find() hashes: the readers look up every metric of every record.
 * Slots hold index + 1 (0: empty), at most a quarter used; the first entry
 * of a tag wins, as the linear search (util_fastpath() off) finds it.
 */
#define FIND_SLOTS 1024
static uint16_t find_slot[FIND_SLOTS];
static size_t *find_len;	/* each tag's length */
static pthread_once_t find_once = PTHREAD_ONCE_INIT;

/* Length and three bytes: the catalogue's tags differ there often enough. */
static size_t
tag_hash(const char *s, size_t n)
{
	uint32_t h = (uint32_t)n * 2654435761u;

	if (n)
		h ^= ((uint32_t)(unsigned char)s[0] << 16 | (uint32_t)(unsigned char)s[n / 2] << 8
		      | (unsigned char)s[n - 1]) * 2246822519u;
	return (h ^ h >> 15) & (FIND_SLOTS - 1);
}

static void
find_build(void)
{
	if (metricdefs_len >= FIND_SLOTS / 4)
		return;
	find_len = xreallocarray(NULL, metricdefs_len, sizeof(*find_len));
	for (size_t i = 0; i < metricdefs_len; i++) {
		size_t h = tag_hash(metricdefs[i].tag, find_len[i] = strlen(metricdefs[i].tag));

		while (find_slot[h] && strcmp(metricdefs[find_slot[h] - 1].tag, metricdefs[i].tag))
			h = (h + 1) & (FIND_SLOTS - 1);
		if (!find_slot[h])
			find_slot[h] = (uint16_t)(i + 1);
	}
}

const struct metricdef *
metricdef_findn(const char *tag, size_t n)
{
	if (util_fastpath() && metricdefs_len < FIND_SLOTS / 4) {
		pthread_once(&find_once, find_build);
		for (size_t h = tag_hash(tag, n); find_slot[h]; h = (h + 1) & (FIND_SLOTS - 1)) {
			size_t i = find_slot[h] - 1;

			if (find_len[i] == n && !memcmp(metricdefs[i].tag, tag, n))
				return &metricdefs[i];
		}
		return NULL;
	}
	for (size_t i = 0; i < metricdefs_len; i++)
		if (strlen(metricdefs[i].tag) == n && !memcmp(metricdefs[i].tag, tag, n))
			return &metricdefs[i];
	return NULL;
}

const struct metricdef *
metricdef_find(const char *tag)
{
	return metricdef_findn(tag, strlen(tag));
}
