/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: response bodies through aiperf-metrics' endpoint parsers (responses, embeddings, chat_embeddings, huggingface_generate, solido_rag, the rankings types, template with and without a response_field, image_generation, image_retrieval, video_generation job objects), streamed and not. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../cmd/aiperf-metrics/metrics.h"
#include "../../cmd/aiperf-metrics/accuracy.c"
#include "../../cmd/aiperf-metrics/compute.c"
#include "../../cmd/aiperf-metrics/fastresp.c"
#include "../../cmd/aiperf-metrics/fastpacket.c"
#include "../../cmd/aiperf-metrics/health.c"
#include "../../cmd/aiperf-metrics/parse.c"
#include "../../cmd/aiperf-metrics/parse_endpoints.c"
#include "../../cmd/aiperf-metrics/parse_images.c"
#include "../../cmd/aiperf-metrics/parse_template.c"
#include "../../cmd/aiperf-metrics/tokens.c"
#include "../../cmd/aiperf-metrics/usage.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char base[] =
	"{\"metadata\":{},\"start_perf_ns\":1,\"payload\":{\"model\":\"m\",\"inputs\":\"a b\","
	"\"query\":{\"text\":\"q\"},\"passages\":[{\"text\":\"p\"},7],\"documents\":[\"d\"],"
	"\"texts\":[\"t\",null]},"
	"\"aiperf\":{\"endpoint_type\":\"x\",\"end_perf_ns\":99},\"responses\":[]}";
/* template records: auto-detection, then a response_field */
static const char base_auto[] =
	"{\"metadata\":{},\"start_perf_ns\":1,\"payload\":{\"text\":[\"a b\"]},"
	"\"aiperf\":{\"endpoint_type\":\"template\",\"end_perf_ns\":99},\"responses\":[]}";
/* image records: a prompt, and image inputs (num_images and its rates) */
static const char base_img[] =
	"{\"metadata\":{},\"start_perf_ns\":1,\"payload\":{\"prompt\":\"a b\",\"input\":"
	"[{\"type\":\"image_url\",\"url\":\"u\"},{\"content\":[{\"type\":\"input_image\"}]},7]},"
	"\"aiperf\":{\"endpoint_type\":\"x\",\"end_perf_ns\":99},\"responses\":[]}";
static const char base_field[] =
	"{\"metadata\":{},\"start_perf_ns\":1,\"payload\":{\"text\":[\"a b\"]},"
	"\"aiperf\":{\"endpoint_type\":\"template\",\"end_perf_ns\":99,"
	"\"response_field\":\".data?[0]?.embedding? // .out // .[1]?\"},\"responses\":[]}";

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum etype ets[] = {
		ET_RESPONSES, ET_EMBEDDINGS, ET_CHAT_EMBEDDINGS, ET_HF_GENERATE, ET_SOLIDO_RAG,
		ET_NIM_RANKINGS, ET_COHERE_RANKINGS, ET_HF_TEI_RANKINGS, ET_TEMPLATE, ET_TEMPLATE,
		ET_IMAGE_GENERATION, ET_IMAGE_RETRIEVAL, ET_VIDEO,
	};
	static const char *const bases[] = {
		base, base, base, base, base, base, base, base, base_auto, base_field,
		base_img, base_img, base,
	};
	static struct rec r;
	static struct buf out;
	static struct opts o[2];
	static int init;
	char why[256];
	const char *s = (const char *)data;

	if (!init) {
		rec_init(&r);
		buf_init(&out, BUF_NOMAX);
		o[0].tok = tokenizer_open("test:words", NULL);
		o[1].server_tokens = 1;
		init = 1;
	}
	for (size_t e = 0; e < sizeof(ets) / sizeof(ets[0]); e++) {
		for (int stream = 0; stream < 2; stream++) {
			int64_t perf = 2;

			if (rec_parse(&r, &o[stream], bases[e], strlen(bases[e]), why, sizeof(why)) < 0)
				abort();
			r.et = ets[e];
			r.stream = stream;
			if (!stream) {
				/* the whole input as one body */
				r.nraw = 1;
				parse_one(&r, perf, s, size);
			} else {
				/* each line one event, as SSE data packets */
				for (size_t i = 0, j; i <= size; i = j + 1) {
					for (j = i; j < size && s[j] != '\n'; j++)
						;
					r.nraw++;
					if (!r.perr)
						parse_one(&r, perf++, s + i, j - i);
				}
			}
			if (r.et == ET_TEMPLATE)
				tfield_end(&r);
			buf_reset(&out);
			rec_emit(&r, &o[stream], &out);
		}
	}
	/* base_field is no path program: it runs in jqprog's helper, kept
	 * from input to input (a start costs an exec and a jq compile), and
	 * this process holds no libjq state, whose run stack LeakSanitizer
	 * would take for a leak at exit */
	return 0;
}
