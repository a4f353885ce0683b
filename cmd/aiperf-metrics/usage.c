/* SPDX-License-Identifier: Apache-2.0 */
/* The server's usage block that metrics read, refused when no server could have sent it. */
#include "metrics.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* More tokens than this in one request is a lie: a hundred times the
 * longest context window any model has. */
#define USAGE_MAX 1000000000

const struct json *
rec_usage(const struct rec *r)
{
	for (size_t i = r->nr; i-- > 0;)
		if (r->r[i].usage)
			return r->r[i].usage;
	return NULL;
}

/* What a value is, for a message: its number text, else its kind. */
static void
shown(char *m, size_t ml, const struct json *x)
{
	static const char *const kinds[] = {
		[JSON_FALSE] = "false", [JSON_TRUE] = "true", [JSON_STRING] = "a string",
		[JSON_ARRAY] = "an array", [JSON_OBJECT] = "an object",
	};

	if (x->type == JSON_NUMBER)
		snprintf(m, ml, "%.*s", x->len > 40 ? 40 : (int)x->len, x->str);
	else
		snprintf(m, ml, "%s", kinds[x->type]);
}

struct count {
	const char *name;	/* the field read, or NULL: none */
	int64_t v;
};

/* Field a of u, else its alias b: c->name NULL when neither is there (or
 * null); -1 with the message in m when the one there is not a count. */
static int
count_of(const struct json *u, const char *a, const char *b, struct count *c,
	 char *m, size_t ml)
{
	const struct json *x = json_path(u, a);
	char what[48];

	c->name = a;
	if ((!x || x->type == JSON_NULL) && b) {
		x = json_path(u, b);
		c->name = b;
	}
	if (!x || x->type == JSON_NULL) {
		c->name = NULL;
		return 0;
	}
	if (json_int64(x, &c->v) == 0 && c->v >= 0 && c->v <= USAGE_MAX)
		return 0;
	shown(what, sizeof(what), x);
	snprintf(m, ml, "usage.%s is %s, not a token count (a whole number from 0 to %d)",
		 c->name, what, USAGE_MAX);
	return -1;
}

/* Counts that contradict each other or the response: with
 * --use-server-token-count they would be the record's token counts;
 * without, they are what the usage_*_diff_pct metrics measure. */
static int
contradiction(const struct rec *r, const struct count *in, const struct count *out,
	      const struct count *total, char *m, size_t ml)
{
	if (in->name && out->name && total->name && total->v < in->v + out->v) {
		snprintf(m, ml, "usage.%s is %" PRId64 ", less than %s + %s (%" PRId64
			 " + %" PRId64 ")", total->name, total->v, in->name, out->name,
			 in->v, out->v);
		return -1;
	}
	/* the text came from at least one token (an echoed prompt needs none) */
	if (out->name && !out->v && r->out_text.len && !json_truthy(json_get(r->payload, "echo"))) {
		snprintf(m, ml, "usage.%s is 0, but the response carried output text",
			 out->name);
		return -1;
	}
	return 0;
}

void
rec_check_usage(struct rec *r, const struct opts *o)
{
	const struct json *u = rec_usage(r);
	struct count in, out, total, reason;
	char m[256];

	if (!u || r->perr)
		return;
	if (count_of(u, "prompt_tokens", "input_tokens", &in, m, sizeof(m)) < 0 ||
	    count_of(u, "completion_tokens", "output_tokens", &out, m, sizeof(m)) < 0 ||
	    count_of(u, "total_tokens", NULL, &total, m, sizeof(m)) < 0 ||
	    count_of(u, "completion_tokens_details.reasoning_tokens",
		     "output_tokens_details.reasoning_tokens", &reason, m, sizeof(m)) < 0 ||
	    (o->server_tokens && contradiction(r, &in, &out, &total, m, sizeof(m)) < 0))
		rec_throw(r, "InvalidUsageError", m);
}
