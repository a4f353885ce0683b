/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/endpoint.c: the endpoint types' names, paths and flags. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "endpoint.h"
#include "util.h"
#include "test.h"

/* s in upper case, '_' written '-' (what the original's enums take). */
static char *
shout(const char *s)
{
	char *u = xstrdup(s);

	for (char *p = u; *p; p++)
		*p = *p == '_' ? '-' : (char)toupper((unsigned char)*p);
	return u;
}

static void
test_names(void)
{
	const char *const *names = endpoint_names();
	int by_name = 1, shouted = 1, ids = 1, unique = 1;
	size_t n = 0;

	for (; names[n]; n++) {
		const struct endpoint_type *t = endpoint_find(names[n]);
		char *u = shout(names[n]);

		by_name &= t && t->id == (enum endpoint_id)n && !strcmp(t->name, names[n]);
		shouted &= endpoint_find(u) == t && endpoint_find_record(u) == t;
		ids &= endpoint_get((enum endpoint_id)n) == t;
		for (size_t j = 0; j < n; j++)
			unique &= !util_choice_eq(names[n], names[j]);
		free(u);
	}
	TEST("names: one for each id, in id order", n == ENDPOINT_N && ids);
	TEST("names: each finds its own type", by_name);
	TEST("names: upper case and dashes find the same type", shouted);
	TEST("names: no two alike", unique);
	TEST("names: mixed case and dashes", endpoint_find("NIM-Rankings")->id == ENDPOINT_NIM_RANKINGS &&
	     endpoint_find("huggingface-generate")->id == ENDPOINT_HF_GENERATE &&
	     endpoint_find("Cohere_Rankings")->id == ENDPOINT_COHERE_RANKINGS &&
	     endpoint_find("hf-tei-rankings")->id == ENDPOINT_HF_TEI_RANKINGS &&
	     endpoint_find("Responses")->id == ENDPOINT_RESPONSES &&
	     endpoint_find("image-generation")->id == ENDPOINT_IMAGE_GENERATION &&
	     endpoint_find("Image_Retrieval")->id == ENDPOINT_IMAGE_RETRIEVAL);
	TEST_STR("names: the default comes first", names[0], "chat");
}

static void
test_older(void)
{
	TEST("older names: a record's rankings is nim_rankings",
	     endpoint_find_record("rankings") == endpoint_get(ENDPOINT_NIM_RANKINGS) &&
	     endpoint_find_record("Rankings") == endpoint_get(ENDPOINT_NIM_RANKINGS));
	TEST("older names: no option takes them", !endpoint_find("rankings"));
	TEST("older names: record lookup takes canonical names",
	     endpoint_find_record("solido-rag") == endpoint_get(ENDPOINT_SOLIDO_RAG));
}

static void
test_hostile(void)
{
	static const char *const bad[] = {
		"", "-", "_", "chat-", "chat_", "chats", "cha", " chat", "chat ",
		"chat\n", "\tchat", "ch at", "chat/completions", "/v1/chat/completions",
		"c\xc3\xa4t", "chat\xff", "\xff", "\x80\x81", "\x01", "CHAT\x7f",
		"nim__rankings", "nim--rankings", "nim_rankings_", "rankings_",
		"ranking", "Embeddings ", "templatE\x01",
	};
	char *longname = malloc(100001);
	int none = 1;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		none &= !endpoint_find(bad[i]) && !endpoint_find_record(bad[i]);
	TEST("hostile: odd bytes, near misses, paths: nothing", none);
	TEST("hostile: NULL", !endpoint_find(NULL) && !endpoint_find_record(NULL));
	memset(longname, 'a', 100000);
	longname[100000] = '\0';
	TEST("hostile: 100000 bytes", !endpoint_find(longname) && !endpoint_find_record(longname));
	memcpy(longname, "chat", 4);
	TEST("hostile: a name then 99996 bytes", !endpoint_find(longname));
	free(longname);
}

static void
test_paths(void)
{
	int slash = 1, spath = 1;

	for (int i = 0; i < ENDPOINT_N; i++) {
		const struct endpoint_type *t = endpoint_get((enum endpoint_id)i);

		if (i != ENDPOINT_TEMPLATE)
			slash &= t->path[0] == '/';
		spath &= !t->stream_path || t->stream_path[0] == '/';
	}
	TEST("paths: every type's begins with '/'", slash);
	TEST("paths: every streaming path too", spath);
	TEST_STR("paths: template has none (the URL as given)", endpoint_get(ENDPOINT_TEMPLATE)->path, "");
	TEST_STR("paths: TGI streams to /generate_stream",
		 endpoint_path(endpoint_get(ENDPOINT_HF_GENERATE), 1), "/generate_stream");
	TEST_STR("paths: TGI", endpoint_path(endpoint_get(ENDPOINT_HF_GENERATE), 0), "/generate");
	TEST_STR("paths: responses streams to its path",
		 endpoint_path(endpoint_get(ENDPOINT_RESPONSES), 1), "/v1/responses");
	TEST_STR("paths: chat", endpoint_path(endpoint_get(ENDPOINT_CHAT), 0), "/v1/chat/completions");
	TEST_STR("paths: solido", endpoint_get(ENDPOINT_SOLIDO_RAG)->path, "/rag/api/prompt");
	TEST_STR("paths: chat_embeddings", endpoint_get(ENDPOINT_CHAT_EMBEDDINGS)->path, "/v1/embeddings");
	TEST_STR("paths: nim_rankings, streaming or not",
		 endpoint_path(endpoint_get(ENDPOINT_NIM_RANKINGS), 1), "/v1/ranking");
	TEST_STR("paths: cohere", endpoint_get(ENDPOINT_COHERE_RANKINGS)->path, "/v2/rerank");
	TEST_STR("paths: TEI", endpoint_get(ENDPOINT_HF_TEI_RANKINGS)->path, "/rerank");
	TEST_STR("paths: video", endpoint_get(ENDPOINT_VIDEO_GENERATION)->path, "/v1/videos");
	TEST_STR("paths: image generation, streaming or not",
		 endpoint_path(endpoint_get(ENDPOINT_IMAGE_GENERATION), 1), "/v1/images/generations");
	TEST_STR("paths: image retrieval", endpoint_get(ENDPOINT_IMAGE_RETRIEVAL)->path, "/v1/infer");
}

static void
test_flags(void)
{
	int titled = 1, out_in = 1, ranks = 0;

	for (int i = 0; i < ENDPOINT_N; i++) {
		const struct endpoint_type *t = endpoint_get((enum endpoint_id)i);

		titled &= t->metrics_title && strstr(t->metrics_title, " Metrics") != NULL;
		/* what produces text tokens also tokenizes its input */
		out_in &= !(t->flags & ENDPOINT_PRODUCES_TOKENS) || (t->flags & ENDPOINT_TOKENIZES_INPUT);
		ranks += !!(t->flags & ENDPOINT_RANKS);
	}
	TEST("flags: every type has a metrics title", titled);
	TEST("flags: token producers tokenize input", out_in);
	TEST("flags: three rankings types", ranks == 3 && endpoint_has(ENDPOINT_HF_TEI_RANKINGS, ENDPOINT_RANKS) &&
	     !endpoint_has(ENDPOINT_SOLIDO_RAG, ENDPOINT_RANKS));
	TEST("flags: rankings never stream nor send max_tokens",
	     !endpoint_has(ENDPOINT_NIM_RANKINGS, ENDPOINT_STREAMS) &&
	     !endpoint_has(ENDPOINT_COHERE_RANKINGS, ENDPOINT_SENDS_MAX_TOKENS));
	TEST("flags: streams: not the embeddings ones",
	     endpoint_has(ENDPOINT_RESPONSES, ENDPOINT_STREAMS) && endpoint_has(ENDPOINT_SOLIDO_RAG, ENDPOINT_STREAMS) &&
	     !endpoint_has(ENDPOINT_NIM_EMBEDDINGS, ENDPOINT_STREAMS) &&
	     !endpoint_has(ENDPOINT_CHAT_EMBEDDINGS, ENDPOINT_STREAMS));
	TEST("flags: image_retrieval neither tokenizes nor produces tokens, takes images",
	     endpoint_get(ENDPOINT_IMAGE_RETRIEVAL)->flags == ENDPOINT_TAKES_IMAGES);
	TEST("flags: plain embeddings take no images (plugins.yaml)",
	     !endpoint_has(ENDPOINT_EMBEDDINGS, ENDPOINT_TAKES_IMAGES) &&
	     endpoint_has(ENDPOINT_NIM_EMBEDDINGS, ENDPOINT_TAKES_IMAGES));
	TEST("flags: has() wants every flag asked",
	     endpoint_has(ENDPOINT_CHAT, ENDPOINT_STREAMS | ENDPOINT_TAKES_IMAGES) &&
	     !endpoint_has(ENDPOINT_COMPLETIONS, ENDPOINT_STREAMS | ENDPOINT_TAKES_IMAGES));
	TEST("flags: image_generation streams, neither image type sends max_tokens",
	     endpoint_has(ENDPOINT_IMAGE_GENERATION, ENDPOINT_STREAMS) &&
	     !endpoint_has(ENDPOINT_IMAGE_RETRIEVAL, ENDPOINT_STREAMS) &&
	     !endpoint_has(ENDPOINT_IMAGE_GENERATION, ENDPOINT_SENDS_MAX_TOKENS) &&
	     !endpoint_has(ENDPOINT_IMAGE_RETRIEVAL, ENDPOINT_SENDS_MAX_TOKENS));
	TEST_STR("flags: the console title", endpoint_get(ENDPOINT_NIM_EMBEDDINGS)->metrics_title,
		 "NIM Embeddings Metrics");
}

static void
test_list(void)
{
	struct buf b = BUF_INIT(BUF_NOMAX), want = BUF_INIT(BUF_NOMAX);
	struct buf small = BUF_INIT(16);
	const char *const *names = endpoint_names();

	for (size_t i = 0; names[i]; i++)
		buf_addf(&want, "%s%s", i ? ", " : "", names[i]);
	TEST("list: ok", endpoint_list(&b) == 0);
	TEST_STR("list: the names, comma separated", buf_str(&b), buf_str(&want));
	TEST("list: starts with the default", !strncmp(buf_str(&b), "chat, completions, ", 19));
	TEST("list: a capped buffer says so", endpoint_list(&small) == -1);
	buf_release(&b);
	buf_release(&want);
	buf_release(&small);
}

int
main(void)
{
	test_names();
	test_older();
	test_hostile();
	test_paths();
	test_flags();
	test_list();
	return TEST_DONE();
}
