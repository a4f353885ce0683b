/* SPDX-License-Identifier: Apache-2.0 */
/* Custom JSONL dataset records: single_turn, multi_turn and random_pool lines, validated as the original's models. */
#include "dataset/custom.h"

#include "dataset/field.h"
#include "rand/pystr.h"
#include "util.h"

#define CUSTOM_MAX_ITEMS ((size_t)1 << 24)

static const char *const kind_name[] = {
	[CUSTOM_SINGLE_TURN] = "single_turn",
	[CUSTOM_MULTI_TURN] = "multi_turn",
	[CUSTOM_RANDOM_POOL] = "random_pool",
};

void custom_parser_init(struct custom_parser *p)
{
	memset(p, 0, sizeof(*p));
	p->doc = json_doc_new();
}

void custom_parser_release(struct custom_parser *p)
{
	json_doc_free(p->doc);
	free(p->turns);
	free(p->texts.v);
	free(p->images.v);
	free(p->audios.v);
	free(p->videos.v);
	memset(p, 0, sizeof(*p));
}

/* err = "<where><field>: <why>" */
static int fail(char *err, size_t errlen, const char *where, const char *field,
		const char *why)
{
	snprintf(err, errlen, "%s%s%s%s", where, field ? field : "",
		 field ? ": " : "", why);
	return -1;
}

static int isnull(const struct json *v)
{
	return !v || v->type == JSON_NULL;
}

/* Python truthiness of a string or list field. */
static int truthy(const struct json *v)
{
	return v && (v->type == JSON_STRING || v->type == JSON_ARRAY) && v->len;
}

/* Content v, of the {name, contents} object named name (NULL: none), into
 * the list l. */
static int add_item(struct custom_items *l, const struct json *v,
		    const struct json *name)
{
	if (l->n >= CUSTOM_MAX_ITEMS)
		return -1;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->v = xreallocarray(l->v, l->cap, sizeof(*l->v));
	}
	l->v[l->n++] = (struct custom_text){
		v->str, v->len, name ? name->str : NULL, name ? name->len : 0,
	};
	return 0;
}

/* A {name, contents} media object: name a string, contents a list of strings. */
static int media_object(const struct json *o, struct custom_items *keep)
{
	const struct json *name = json_get(o, "name"), *c = json_get(o, "contents");

	if (name && name->type != JSON_STRING)
		return -1;
	if (!c)
		return 0;
	if (c->type != JSON_ARRAY)
		return -1;
	for (const struct json *e = c->child; e; e = e->next)
		if (e->type != JSON_STRING || (keep && add_item(keep, e, name) < 0))
			return -1;
	return 0;
}

/*
 * One modality: x a string or null, xs a list of strings or a list of
 * {name, contents} objects, or null. keep: the list that collects the
 * contents (NULL: none). Returns 0, or -1 with the reason in err.
 */
static int modality(const struct json *o, const char *x, const char *xs,
		    struct custom_items *keep, const char *where,
		    char *err, size_t errlen)
{
	const struct json *one = json_get(o, x), *many = json_get(o, xs);
	int strs = 0, objs = 0;

	if (!isnull(one) && one->type != JSON_STRING)
		return fail(err, errlen, where, x, "expected a string");
	if (!isnull(many) && many->type != JSON_ARRAY)
		return fail(err, errlen, where, xs, "expected a list");
	if (truthy(one) && truthy(many)) {
		char why[64];

		snprintf(why, sizeof(why), "%s and %s cannot be set together", x, xs);
		return fail(err, errlen, where, NULL, why);
	}
	/* the singular field, even empty, is the content (MediaConversionMixin) */
	if (!isnull(one)) {
		if (keep && add_item(keep, one, NULL) < 0)
			return fail(err, errlen, where, x, "too many items");
		keep = NULL;
	}
	for (const struct json *e = isnull(many) ? NULL : many->child; e; e = e->next) {
		strs += e->type == JSON_STRING;
		objs += e->type == JSON_OBJECT;
		if ((strs && objs) || (e->type != JSON_STRING && e->type != JSON_OBJECT))
			return fail(err, errlen, where, xs, "expected a list of strings "
				    "or a list of {name, contents} objects");
		if (e->type == JSON_OBJECT ? media_object(e, keep) < 0 :
					     keep && add_item(keep, e, NULL) < 0)
			return fail(err, errlen, where, xs, "expected a list of strings "
				    "or a list of {name, contents} objects");
	}
	return 0;
}

/* An optional string field. */
static int opt_str(const struct json *o, const char *key, const char **s,
		   size_t *n, const char *where, char *err, size_t errlen)
{
	const struct json *v = json_get(o, key);

	*s = NULL;
	*n = 0;
	if (isnull(v))
		return 0;
	if (v->type != JSON_STRING)
		return fail(err, errlen, where, key, "expected a string");
	*s = v->str;
	*n = v->len;
	return 0;
}

/* An optional number (int | float) of milliseconds (FIELD_MS). */
static int opt_ms(const struct json *o, const char *key, double *out,
		  unsigned bit, unsigned *has, const char *where, char *err,
		  size_t errlen)
{
	const struct json *v = json_get(o, key);
	const char *why;

	*out = 0;
	if (isnull(v))
		return 0;
	if (json_double(v, out) < 0)
		return fail(err, errlen, where, key, "expected a number");
	if ((why = field_check(FIELD_MS, *out)))
		return fail(err, errlen, where, key, why);
	*has |= bit;
	return 0;
}

/* "type", when present, must name the model's own dataset type. */
static int check_type(const struct json *o, enum custom_kind k,
		      const char *where, char *err, size_t errlen)
{
	const struct json *t = json_get(o, "type");
	const char *want = kind_name[k];
	char why[64];

	if (!t || (t->type == JSON_STRING && t->len == strlen(want) &&
		   !memcmp(t->str, want, t->len)))
		return 0;
	snprintf(why, sizeof(why), "expected '%s'", want);
	return fail(err, errlen, where, "type", why);
}

static struct custom_turn *new_turn(struct custom_parser *p)
{
	if (p->nturns == p->cap_turns) {
		p->cap_turns = p->cap_turns ? p->cap_turns * 2 : 8;
		p->turns = xreallocarray(p->turns, p->cap_turns, sizeof(*p->turns));
	}
	p->turns[p->nturns] = (struct custom_turn){ .text0 = p->texts.n,
		.img0 = p->images.n, .audio0 = p->audios.n, .video0 = p->videos.n };
	return &p->turns[p->nturns++];
}

/* The first media field set. */
static const char *first_media(const struct json *o)
{
	static const char *const media[] = {
		"image", "images", "audio", "audios", "video", "videos", NULL,
	};

	for (size_t i = 0; media[i]; i++)
		if (truthy(json_get(o, media[i])))
			return media[i];
	return NULL;
}

static int timing(const struct json *o, struct custom_turn *t,
		  const char *where, char *err, size_t errlen)
{
	const struct json *ol = json_get(o, "output_length");
	const char *why;

	if (opt_ms(o, "timestamp", &t->timestamp, CUSTOM_TIMESTAMP, &t->has,
		   where, err, errlen) < 0 ||
	    opt_ms(o, "delay", &t->delay, CUSTOM_DELAY, &t->has, where, err,
		   errlen) < 0 ||
	    opt_str(o, "role", &t->role, &t->role_len, where, err, errlen) < 0 ||
	    opt_str(o, "session_id", &t->session_id, &t->session_len, where,
		    err, errlen) < 0)
		return -1;
	if (!isnull(ol)) {
		if (ol->type != JSON_NUMBER || json_int64(ol, &t->output_length) < 0)
			return fail(err, errlen, where, "output_length",
				    "expected an integer");
		if (t->output_length <= 0)
			return fail(err, errlen, where, "output_length",
				    "must be greater than 0");
		if ((why = field_check(FIELD_TOKENS, (double)t->output_length)))
			return fail(err, errlen, where, "output_length", why);
		t->has |= CUSTOM_OUTPUT_LENGTH;
	}
	if (t->timestamp != 0 && t->delay != 0)
		return fail(err, errlen, where, NULL,
			    "timestamp and delay cannot be set together");
	t->extra = json_get(o, "extra");
	if (isnull(t->extra))
		t->extra = NULL;
	else if (t->extra->type != JSON_OBJECT)
		return fail(err, errlen, where, "extra", "expected an object");
	return 0;
}

/* Each field kind, x and xs; its contents go to the list of the same index
 * in one_turn's list[]. */
static const char *const field[][2] = {
	{ "text", "texts" }, { "image", "images" },
	{ "audio", "audios" }, { "video", "videos" },
};

/* SingleTurn (timed) or RandomPool (untimed) as one turn. */
static int one_turn(struct custom_parser *p, const struct json *o,
		    enum custom_kind k, const char *where, char *err, size_t errlen)
{
	struct custom_items *list[] = {
		&p->texts, &p->images, &p->audios, &p->videos,
	};
	struct custom_turn *t;

	if (!o || o->type != JSON_OBJECT)
		return fail(err, errlen, where, NULL, "expected a JSON object");
	if (check_type(o, k, where, err, errlen) < 0)
		return -1;
	t = new_turn(p);
	for (size_t i = 0; i < sizeof(field) / sizeof(*field); i++)
		if (modality(o, field[i][0], field[i][1], list[i], where, err,
			     errlen) < 0)
			return -1;
	t->ntexts = p->texts.n - t->text0;
	t->nimages = p->images.n - t->img0;
	t->naudios = p->audios.n - t->audio0;
	t->nvideos = p->videos.n - t->video0;
	if (k != CUSTOM_RANDOM_POOL && timing(o, t, where, err, errlen) < 0)
		return -1;
	t->media = first_media(o);
	if (!truthy(json_get(o, "text")) && !truthy(json_get(o, "texts")) &&
	    !t->media)
		return fail(err, errlen, where, NULL,
			    "At least one modality must be provided");
	return 0;
}

static int multi_turn(struct custom_parser *p, const struct json *o,
		      char *err, size_t errlen)
{
	const struct json *turns;
	char where[40];
	size_t i = 0;

	if (!o || o->type != JSON_OBJECT)
		return fail(err, errlen, "", NULL, "expected a JSON object");
	if (check_type(o, CUSTOM_MULTI_TURN, "", err, errlen) < 0 ||
	    opt_str(o, "session_id", &p->session_id, &p->session_len, "", err,
		    errlen) < 0)
		return -1;
	turns = json_get(o, "turns");
	if (!turns)
		return fail(err, errlen, "", "turns", "field required");
	if (turns->type != JSON_ARRAY)
		return fail(err, errlen, "", "turns", "expected a list");
	if (!turns->len)
		return fail(err, errlen, "", NULL, "At least one turn must be provided");
	for (const struct json *e = turns->child; e; e = e->next, i++) {
		snprintf(where, sizeof(where), "turns[%zu]: ", i);
		if (one_turn(p, e, CUSTOM_SINGLE_TURN, where, err, errlen) < 0)
			return -1;
	}
	return 0;
}

int custom_parse_value(struct custom_parser *p, enum custom_kind k,
		       const struct json *v, char *err, size_t errlen)
{
	p->root = v;
	p->session_id = NULL;
	p->session_len = 0;
	p->nturns = p->texts.n = p->images.n = p->audios.n = p->videos.n = 0;
	if (k == CUSTOM_MULTI_TURN)
		return multi_turn(p, v, err, errlen);
	return one_turn(p, v, k, "", err, errlen);
}

int custom_parse(struct custom_parser *p, enum custom_kind k, const char *s,
		 size_t n, char *err, size_t errlen)
{
	char why[128];
	const struct json *v;

	if (pystr_isblank(s, n))
		return 0;
	json_doc_reset(p->doc);
	if (!(v = json_parse(p->doc, s, n, why, sizeof(why))))
		return fail(err, errlen, "invalid JSON: ", NULL, why);
	return custom_parse_value(p, k, v, err, errlen) < 0 ? -1 : 1;
}
