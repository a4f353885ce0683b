/* SPDX-License-Identifier: Apache-2.0 */
/* SPEED-Bench: the 32 custom dataset types and their JSONL rows. */
#include "dataset/speedbench.h"

#include "rand/pystr.h"
#include "util.h"

#define Q "qualitative.jsonl"
#define QUAL(c) { "speed_bench_" c, Q, c }
#define TPUT(k) { "speed_bench_throughput_" k, "throughput_" k ".jsonl", NULL }
#define TIER(k, t) { "speed_bench_throughput_" k "_" t, "throughput_" k ".jsonl", t }
#define TIERS(k) TIER(k, "low_entropy"), TIER(k, "mixed"), TIER(k, "high_entropy")

const struct speedbench_type speedbench_types[] = {
	{ "speed_bench_qualitative", Q, NULL },
	QUAL("coding"), QUAL("humanities"), QUAL("math"), QUAL("multilingual"),
	QUAL("qa"), QUAL("rag"), QUAL("reasoning"), QUAL("roleplay"),
	QUAL("stem"), QUAL("summarization"), QUAL("writing"),
	TPUT("1k"), TPUT("2k"), TPUT("8k"), TPUT("16k"), TPUT("32k"),
	TIERS("1k"), TIERS("2k"), TIERS("8k"), TIERS("16k"), TIERS("32k"),
	{ NULL, NULL, NULL },
};

const struct speedbench_type *
speedbench_lookup(const char *s, size_t n)
{
	for (const struct speedbench_type *t = speedbench_types; s && t->name; t++)
		if (strlen(t->name) == n && !memcmp(t->name, s, n))
			return t;
	return NULL;
}

/* A string member of at least min and at most max code points. */
static int
str_field(const struct json *o, const char *key, size_t min, size_t max,
	  const char **s, size_t *n, char *err, size_t errlen)
{
	const struct json *v = json_get(o, key);
	size_t len;

	if (!v)
		return util_seterr(err, errlen, "%s: Field required", key);
	if (v->type != JSON_STRING)
		return util_seterr(err, errlen, "%s: Input should be a valid string", key);
	len = pystr_len(v->str, v->len);
	if (len < min)
		return util_seterr(err, errlen, "%s: String should have at least %zu "
				   "character%s", key, min, min == 1 ? "" : "s");
	if (len > max)
		return util_seterr(err, errlen, "%s: String should have at most %zu "
				   "characters", key, max);
	*s = v->str;
	*n = v->len;
	return 0;
}

/* A non-blank string member. */
static int
filled(const struct json *m, const char *key)
{
	const struct json *v = json_get(m, key);

	return v && v->type == JSON_STRING && !pystr_isblank(v->str, v->len);
}

static int
is_placeholder(const struct json *v)
{
	size_t n = sizeof(SPEEDBENCH_PLACEHOLDER) - 1;

	return v->len == n && !memcmp(v->str, SPEEDBENCH_PLACEHOLDER, n);
}

/* The list's shape, then validate_messages_structure. */
static int
messages_field(const struct json *o, struct speedbench_row *r, char *err,
	       size_t errlen)
{
	const struct json *m = json_get(o, "messages");
	size_t i = 0;

	if (!m)
		return util_seterr(err, errlen, "messages: Field required");
	if (m->type != JSON_ARRAY)
		return util_seterr(err, errlen, "messages: Input should be a valid list");
	if (!m->len)
		return util_seterr(err, errlen, "messages: List should have at least "
				   "1 item after validation, not 0");
	if (m->len > SPEEDBENCH_MAX_MESSAGES)
		return util_seterr(err, errlen, "messages: more than %d messages",
				   SPEEDBENCH_MAX_MESSAGES);
	for (const struct json *e = m->child; e; e = e->next, i++)
		if (e->type != JSON_OBJECT)
			return util_seterr(err, errlen, "messages.%zu: Input should "
					   "be a valid dictionary", i);
	for (const struct json *e = m->child; e; e = e->next)
		if (!filled(e, "role") || !filled(e, "content") ||
		    is_placeholder(json_get(e, "content")))
			return util_seterr(err, errlen, "Value error, messages must be "
					   "a non-empty list of dictionaries with role "
					   "and content fields, and the content must not "
					   "be the placeholder string");
	r->messages = m;
	r->nmessages = m->len;
	return 0;
}

int
speedbench_parse(const struct json *v, struct speedbench_row *r, char *err,
		 size_t errlen)
{
	*r = (struct speedbench_row){ 0 };
	if (!v || v->type != JSON_OBJECT)
		return util_seterr(err, errlen, "Input should be a valid dictionary");
	if (str_field(v, "question_id", 32, 32, &r->id, &r->id_len, err, errlen) < 0 ||
	    str_field(v, "category", 1, (size_t)-1, &r->category, &r->category_len,
		      err, errlen) < 0)
		return -1;
	return messages_field(v, r, err, errlen);
}

void
speedbench_message(const struct json *m, const char **role, size_t *role_len,
		   const char **content, size_t *content_len)
{
	const struct json *r = json_get(m, "role"), *c = json_get(m, "content");

	*role = r->str;
	*role_len = r->len;
	*content = c->str;
	*content_len = c->len;
}

int
speedbench_wants(const struct speedbench_type *t, const struct speedbench_row *r)
{
	return !t->category || (strlen(t->category) == r->category_len &&
				!memcmp(t->category, r->category, r->category_len));
}
