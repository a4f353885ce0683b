/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/dataset/custom (single_turn, multi_turn and random_pool records). */
#include "test.h"
#include "dataset/custom.h"
#include "util.h"

static char err[256];

static int parse(struct custom_parser *p, enum custom_kind k, const char *s)
{
	err[0] = '\0';
	return custom_parse(p, k, s, strlen(s), err, sizeof(err));
}

/* The i-th text of the last record, as a C string. */
static const char *text(const struct custom_parser *p, size_t i)
{
	static char b[64];

	snprintf(b, sizeof(b), "%.*s", (int)p->texts.v[i].n, p->texts.v[i].s);
	return b;
}

static void test_single(void)
{
	struct custom_parser p;
	const struct custom_turn *t;

	custom_parser_init(&p);
	TEST("full single_turn line",
	     parse(&p, CUSTOM_SINGLE_TURN, "{\"type\":\"single_turn\",\"text\":\"hi\","
		   "\"role\":\"system\",\"session_id\":\"s\",\"delay\":12.5,"
		   "\"output_length\":7,\"unknown\":{}}") == 1);
	t = &p.turns[0];
	TEST("one turn, one text", p.nturns == 1 && t->ntexts == 1 && p.texts.n == 1);
	TEST_STR("text", text(&p, 0), "hi");
	TEST("role and session", t->role_len == 6 && !memcmp(t->role, "system", 6) &&
	     t->session_len == 1 && *t->session_id == 's');
	TEST("timing and length", t->has == (CUSTOM_DELAY | CUSTOM_OUTPUT_LENGTH) &&
	     t->delay == 12.5 && t->output_length == 7 && !t->media);
	TEST("texts: strings", parse(&p, CUSTOM_SINGLE_TURN, "{\"texts\":[\"a\",\"\",\"c\"]}") == 1 &&
	     p.texts.n == 3 && p.texts.v[1].n == 0);
	TEST("texts: {name, contents} objects flatten in order",
	     parse(&p, CUSTOM_SINGLE_TURN, "{\"texts\":[{\"name\":\"x\",\"contents\":[\"1\",\"2\"]},"
		   "{\"contents\":[\"3\"]},{\"name\":\"e\"}]}") == 1 && p.texts.n == 3);
	TEST_STR("third content", text(&p, 2), "3");
	TEST("nulls are absent",
	     parse(&p, CUSTOM_SINGLE_TURN, "{\"text\":\"a\",\"texts\":null,\"timestamp\":null,"
		   "\"role\":null,\"output_length\":null}") == 1 && p.turns[0].has == 0);
	TEST("falsy text with truthy texts is no clash; text is the content",
	     parse(&p, CUSTOM_SINGLE_TURN, "{\"text\":\"\",\"texts\":[\"b\"]}") == 1 &&
	     p.texts.n == 1 && p.texts.v[0].n == 0);
	TEST("texts still checked beside text",
	     parse(&p, CUSTOM_SINGLE_TURN, "{\"text\":\"\",\"texts\":[1]}") < 0);
	TEST("zero delay with a timestamp is no clash",
	     parse(&p, CUSTOM_SINGLE_TURN, "{\"text\":\"a\",\"timestamp\":3,\"delay\":0}") == 1 &&
	     p.turns[0].has == (CUSTOM_TIMESTAMP | CUSTOM_DELAY));
	TEST("media alone is a modality",
	     parse(&p, CUSTOM_SINGLE_TURN, "{\"images\":[\"a.png\"]}") == 1 &&
	     !strcmp(p.turns[0].media, "images") && p.texts.n == 0);
	TEST("integral float output_length",
	     parse(&p, CUSTOM_SINGLE_TURN, "{\"text\":\"a\",\"output_length\":4.0}") == 1 &&
	     p.turns[0].output_length == 4);
	TEST("blank line", parse(&p, CUSTOM_SINGLE_TURN, " \t\r") == 0 &&
	     parse(&p, CUSTOM_SINGLE_TURN, "") == 0);
	custom_parser_release(&p);
}

/* fails(k, line, message) */
static int fails(struct custom_parser *p, enum custom_kind k, const char *s,
		 const char *want)
{
	int ok = parse(p, k, s) < 0 && !strcmp(err, want);

	if (!ok)
		printf("#   %s: got '%s'\n", s, err);
	return ok;
}

static void test_errors(void)
{
	struct custom_parser p;
	enum custom_kind S = CUSTOM_SINGLE_TURN, M = CUSTOM_MULTI_TURN, R = CUSTOM_RANDOM_POOL;

	custom_parser_init(&p);
	TEST("no modality", fails(&p, S, "{}", "At least one modality must be provided"));
	TEST("empty modality", fails(&p, S, "{\"text\":\"\",\"texts\":[]}",
				     "At least one modality must be provided"));
	TEST("text and texts", fails(&p, S, "{\"text\":\"a\",\"texts\":[\"b\"]}",
				     "text and texts cannot be set together"));
	TEST("video and videos", fails(&p, S, "{\"video\":\"a\",\"videos\":[\"b\"]}",
				       "video and videos cannot be set together"));
	TEST("timestamp and delay", fails(&p, S, "{\"text\":\"a\",\"timestamp\":1,\"delay\":1}",
					  "timestamp and delay cannot be set together"));
	TEST("text type", fails(&p, S, "{\"text\":1}", "text: expected a string"));
	TEST("texts type", fails(&p, S, "{\"texts\":{}}", "texts: expected a list"));
	TEST("mixed texts", fails(&p, S, "{\"texts\":[\"a\",{\"contents\":[]}]}",
				  "texts: expected a list of strings or a list of {name, contents} objects"));
	TEST("bad contents", fails(&p, S, "{\"texts\":[{\"contents\":\"a\"}]}",
				   "texts: expected a list of strings or a list of {name, contents} objects"));
	TEST("bad name", fails(&p, S, "{\"images\":[{\"name\":[],\"contents\":[]}]}",
			       "images: expected a list of strings or a list of {name, contents} objects"));
	TEST("nested list", fails(&p, S, "{\"texts\":[[\"a\"]]}",
				  "texts: expected a list of strings or a list of {name, contents} objects"));
	TEST("timestamp type", fails(&p, S, "{\"text\":\"a\",\"timestamp\":\"1\"}",
				     "timestamp: expected a number"));
	TEST("output_length 0", fails(&p, S, "{\"text\":\"a\",\"output_length\":0}",
				      "output_length: must be greater than 0"));
	TEST("output_length fraction", fails(&p, S, "{\"text\":\"a\",\"output_length\":0.5}",
					     "output_length: expected an integer"));
	TEST("output_length huge", fails(&p, S, "{\"text\":\"a\",\"output_length\":1e30}",
					 "output_length: expected an integer"));
	TEST("role type", fails(&p, S, "{\"text\":\"a\",\"role\":false}", "role: expected a string"));
	TEST("wrong type", fails(&p, S, "{\"text\":\"a\",\"type\":\"random_pool\"}",
				 "type: expected 'single_turn'"));
	TEST("type not a string", fails(&p, R, "{\"text\":\"a\",\"type\":1}",
					"type: expected 'random_pool'"));
	TEST("not an object", fails(&p, S, "[]", "expected a JSON object"));
	TEST("bad JSON", parse(&p, S, "{\"text\":") < 0 && !strncmp(err, "invalid JSON: ", 14));
	TEST("two values", parse(&p, S, "{} {}") < 0);
	TEST("turns required", fails(&p, M, "{\"session_id\":\"a\"}", "turns: field required"));
	TEST("turns a list", fails(&p, M, "{\"turns\":\"a\"}", "turns: expected a list"));
	TEST("turns non-empty", fails(&p, M, "{\"turns\":[]}", "At least one turn must be provided"));
	TEST("turn error names the turn", fails(&p, M, "{\"turns\":[{\"text\":\"a\"},{\"text\":2}]}",
						"turns[1]: text: expected a string"));
	TEST("turn not an object", fails(&p, M, "{\"turns\":[null]}", "turns[0]: expected a JSON object"));
	TEST("multi session type", fails(&p, M, "{\"session_id\":1,\"turns\":[{\"text\":\"a\"}]}",
					 "session_id: expected a string"));
	TEST("reuse after an error", parse(&p, S, "{\"text\":\"ok\"}") == 1 && p.texts.n == 1);
	custom_parser_release(&p);
}

static void test_multi_pool(void)
{
	struct custom_parser p;

	custom_parser_init(&p);
	TEST("multi_turn line", parse(&p, CUSTOM_MULTI_TURN,
				      "{\"session_id\":\"abc\",\"turns\":[{\"text\":\"a\",\"delay\":5},"
				      "{\"texts\":[\"b\",\"c\"],\"timestamp\":9,\"session_id\":\"x\"}]}") == 1);
	TEST("its session and turns", p.session_len == 3 && p.nturns == 2 &&
	     p.turns[0].ntexts == 1 && p.turns[1].text0 == 1 && p.turns[1].ntexts == 2);
	TEST("per-turn timing", p.turns[0].delay == 5 && p.turns[1].timestamp == 9);
	TEST("no session id", parse(&p, CUSTOM_MULTI_TURN, "{\"turns\":[{\"text\":\"a\"}]}") == 1 &&
	     p.session_id == NULL);
	TEST("random_pool ignores timing fields",
	     parse(&p, CUSTOM_RANDOM_POOL, "{\"text\":\"a\",\"delay\":\"x\",\"output_length\":-1}") == 1 &&
	     p.turns[0].has == 0);
	custom_parser_release(&p);
}

/* The i-th item of list l, as a C string. */
static const char *item(const struct custom_items *l, size_t i)
{
	static char b[64];

	snprintf(b, sizeof(b), "%.*s", (int)l->v[i].n, l->v[i].s);
	return b;
}

/* random_pool media fields (issue #17) and hostile forms of them. */
static void test_pool_media(void)
{
	struct custom_parser p;
	enum custom_kind R = CUSTOM_RANDOM_POOL;
	const char *list = "expected a list of strings or a list of {name, contents} objects";
	char want[128];

	custom_parser_init(&p);
	TEST("pool record with every media field",
	     parse(&p, R, "{\"type\":\"random_pool\",\"image\":\"a.png\","
		   "\"audios\":[{\"name\":\"n\",\"contents\":[\"x.wav\",\"y.mp3\"]}],"
		   "\"videos\":[\"https://h/v.mp4\"]}") == 1);
	TEST("its items by kind", p.turns[0].nimages == 1 && p.turns[0].naudios == 2 &&
	     p.turns[0].nvideos == 1 && p.turns[0].ntexts == 0);
	TEST_STR("image content", item(&p.images, 0), "a.png");
	TEST_STR("second audio", item(&p.audios, 1), "y.mp3");
	TEST("audio name kept", p.audios.v[0].name_len == 1 && *p.audios.v[0].name == 'n');
	TEST("media alone is a modality", !strcmp(p.turns[0].media, "image"));
	TEST("image_uuids is no modality", fails(&p, R, "{\"image_uuids\":[\"u\"]}",
						 "At least one modality must be provided"));
	TEST("image_uuids beside text is ignored",
	     parse(&p, R, "{\"text\":\"a\",\"image_uuids\":[1,{}]}") == 1 && !p.turns[0].media);
	for (int i = 0; i < 3; i++) {
		static const char *const x[] = { "image", "audio", "video" };
		char line[128];

		snprintf(line, sizeof(line), "{\"%s\":\"a\",\"%ss\":[\"b\"]}", x[i], x[i]);
		snprintf(want, sizeof(want), "%s and %ss cannot be set together", x[i], x[i]);
		TEST("singular and plural clash", fails(&p, R, line, want));
		snprintf(line, sizeof(line), "{\"%s\":7}", x[i]);
		snprintf(want, sizeof(want), "%s: expected a string", x[i]);
		TEST("singular not a string", fails(&p, R, line, want));
		snprintf(line, sizeof(line), "{\"%ss\":[{\"contents\":[null]}]}", x[i]);
		snprintf(want, sizeof(want), "%ss: %s", x[i], list);
		TEST("null content", fails(&p, R, line, want));
		snprintf(line, sizeof(line), "{\"%ss\":[\"a\",{\"contents\":[]}]}", x[i]);
		TEST("mixed strings and objects", fails(&p, R, line, want));
		snprintf(line, sizeof(line), "{\"%ss\":\"a\"}", x[i]);
		snprintf(want, sizeof(want), "%ss: expected a list", x[i]);
		TEST("plural not a list", fails(&p, R, line, want));
	}
	TEST("empty media lists are no modality", fails(&p, R, "{\"images\":[],\"audio\":\"\"}",
							"At least one modality must be provided"));
	TEST("empty singular is still its content",
	     parse(&p, R, "{\"text\":\"t\",\"image\":\"\"}") == 1 && p.images.n == 1 &&
	     p.images.v[0].n == 0);
	TEST("NUL inside a content is kept for the loader to refuse",
	     parse(&p, R, "{\"image\":\"a\\u0000b\"}") == 1 && p.images.v[0].n == 3);
	TEST("items reset between records",
	     parse(&p, R, "{\"text\":\"t\"}") == 1 && p.images.n == 0 && p.audios.n == 0);
	custom_parser_release(&p);
}

static void test_extra(void)
{
	struct custom_parser p;

	custom_parser_init(&p);
	TEST("extra: an object", parse(&p, CUSTOM_SINGLE_TURN, "{\"text\":\"a\","
		   "\"extra\":{\"temperature\":0.5}}") == 1 && p.turns[0].extra &&
	     p.turns[0].extra->type == JSON_OBJECT && p.turns[0].extra->len == 1);
	TEST("extra: null is none", parse(&p, CUSTOM_SINGLE_TURN, "{\"text\":\"a\","
		   "\"extra\":null}") == 1 && !p.turns[0].extra);
	TEST("extra: absent", parse(&p, CUSTOM_SINGLE_TURN, "{\"text\":\"a\"}") == 1 &&
	     !p.turns[0].extra);
	TEST("extra: a list", parse(&p, CUSTOM_SINGLE_TURN, "{\"text\":\"a\",\"extra\":[]}") < 0);
	TEST_STR("its message", err, "extra: expected an object");
	TEST("extra of a multi_turn turn", parse(&p, CUSTOM_MULTI_TURN, "{\"turns\":[{\"text\":"
		   "\"a\"},{\"text\":\"b\",\"extra\":1}]}") < 0 && strstr(err, "turns[1]") &&
	     strstr(err, "extra: expected an object"));
	TEST("random_pool: extra is no field (ignored)", parse(&p, CUSTOM_RANDOM_POOL,
		   "{\"text\":\"a\",\"extra\":[]}") == 1);
	custom_parser_release(&p);
}

int main(void)
{
	test_extra();
	test_single();
	test_errors();
	test_multi_pool();
	test_pool_media();
	return TEST_DONE();
}
