/* SPDX-License-Identifier: Apache-2.0 */
/* Exgentic agent traces: one hub row a recorded session, its LLM calls as complete chat request snapshots. */
#include "dataset/exgentic.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json/json.h"
#include "json/pyval.h"
#include "util.h"

const char *const exg_harnesses[EXG_NHARNESS] = {
	"claude_code", "openai_solo", "smolagents_code", "tool_calling",
	"tool_calling_with_shortlisting",
};
const char *const exg_models[EXG_NMODEL] = {
	"DeepSeek-V3.2", "Kimi-K2.5", "claude-opus-4-5", "gemini-3-pro-preview",
	"gpt-4.1", "gpt-5.2-2025-12-11",
};
const char *const exg_benches[EXG_NBENCH] = {
	"appworld", "browsecompplus", "swebench", "tau2_airline", "tau2_retail",
	"tau2_telecom",
};

/* V1_ and V2_UNSUPPORTED_FILTER_PAIRS: bit m of [h] is the pair (h, m). */
static const unsigned char unsupported[2][EXG_NHARNESS] = {
	{ 0, 1 << 5, 1 << 2 | 1 << 3 | 1 << 5, 1 << 5, 1 << 2 | 1 << 4 | 1 << 5 },
	{ 1 << 4, 1 << 4, 1 << 4, 1 << 4, 1 << 2 | 1 << 4 | 1 << 5 },
};

static int
pair_bad(const struct exg_filters *f, int h, int m)
{
	return unsupported[f->v2 != 0][h] >> m & 1;
}

static int
model_usable(const struct exg_filters *f, int m)
{
	for (int h = 0; h < EXG_NHARNESS; h++)
		if (!pair_bad(f, h, m))
			return 1;
	return 0;
}

void
exg_filters_init(struct exg_filters *f, int v2)
{
	*f = (struct exg_filters){ v2 != 0, -1, -1, -1 };
}

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int
prefix_ci(const char *s, const char *p)
{
	for (; *p; s++, p++)
		if (lower((unsigned char)*s) != lower((unsigned char)*p))
			return 0;
	return 1;
}

static int
eq_ci(const char *a, const char *b)
{
	return strlen(a) == strlen(b) && prefix_ci(a, b);
}

const char *
exg_canonical_model(const char *s)
{
	static const char *const prefixes[] = { "openai/azure/", "azure/", "aws/", "gcp/" };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++)
		if (prefix_ci(s, prefixes[i]))
			return s + strlen(prefixes[i]);
	return s;
}

static void
join(struct buf *b, const char *const *v, size_t n, const char *sep,
     const struct exg_filters *f, int models)
{
	int any = 0;

	for (size_t i = 0; i < n; i++) {
		if (models && !model_usable(f, (int)i))
			continue;
		buf_addf(b, "%s%s", any ? sep : "", v[i]);
		any = 1;
	}
}

/* available_filter_values */
static void
available(struct buf *b, const struct exg_filters *f)
{
	buf_addstr(b, "harness=[");
	join(b, exg_harnesses, EXG_NHARNESS, ", ", f, 0);
	buf_addstr(b, "], source_model=[");
	join(b, exg_models, EXG_NMODEL, ", ", f, 1);
	buf_addstr(b, "]");
	if (f->v2) {
		buf_addstr(b, ", benchmark=[");
		join(b, exg_benches, EXG_NBENCH, ", ", f, 0);
		buf_addstr(b, "]");
	}
}

static int
invalid(const struct exg_filters *f, const char *key, const char *const *v,
	size_t n, char *err, size_t errlen)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	buf_addf(&b, "Invalid Exgentic dataset filters: %s: ", key);
	if (!v) {
		buf_addstr(&b, "extra inputs are not permitted");
	} else {
		buf_addstr(&b, "input should be ");
		for (size_t i = 0; i < n; i++)
			buf_addf(&b, "%s'%s'", i == 0 ? "" : i + 1 < n ? ", " : " or ",
				 v[i]);
	}
	buf_addstr(&b, "; available filters: ");
	available(&b, f);
	util_seterr(err, errlen, "%s", buf_str(&b));
	buf_release(&b);
	return -1;
}

static int
lookup(const char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (eq_ci(v[i], s))
			return (int)i;
	return -1;
}

int
exg_filter_add(struct exg_filters *f, const char *key, const char *val,
	       char *err, size_t errlen)
{
	int *slot;
	const char *const *v;
	size_t n;

	if (!strcmp(key, "harness"))
		slot = &f->harness, v = exg_harnesses, n = EXG_NHARNESS;
	else if (!strcmp(key, "source_model"))
		slot = &f->model, v = exg_models, n = EXG_NMODEL, val = exg_canonical_model(val);
	else if (!strcmp(key, "benchmark"))
		slot = &f->bench, v = exg_benches, n = EXG_NBENCH;
	else
		return invalid(f, key, NULL, 0, err, errlen);
	*slot = lookup(v, n, val);
	if (*slot < 0)
		return invalid(f, key, v, n, err, errlen);
	return 0;
}

int
exg_filters_check(const struct exg_filters *f, char *err, size_t errlen)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	if (f->bench >= 0 && !f->v2)
		return util_seterr(err, errlen, "Exgentic benchmark filter is only "
				   "supported for Exgentic v2 traces");
	if (f->harness >= 0 && f->model >= 0 && pair_bad(f, f->harness, f->model)) {
		for (int m = 0; m < EXG_NMODEL; m++)
			if (!pair_bad(f, f->harness, m))
				buf_addf(&b, "%s%s", b.len ? ", " : "", exg_models[m]);
		util_seterr(err, errlen, "Unsupported Exgentic filter combination "
			    "harness='%s', source_model='%s'; available source models "
			    "for this harness: %s", exg_harnesses[f->harness],
			    exg_models[f->model], buf_str(&b));
		buf_release(&b);
		return -1;
	}
	if (f->model >= 0 && !model_usable(f, f->model))
		return util_seterr(err, errlen, "Unsupported Exgentic source_model='%s'; "
				   "no harness supports it", exg_models[f->model]);
	return 0;
}

/* ---- timestamps ---- */

static int
digits(const char *s, size_t n, size_t at, size_t k, int *v)
{
	*v = 0;
	if (at + k > n)
		return -1;
	for (size_t i = at; i < at + k; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*v = *v * 10 + (s[i] - '0');
	}
	return 0;
}

/* Howard Hinnant's days_from_civil. */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int
mdays(int y, int m)
{
	static const int dm[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 && leap ? 29 : dm[m - 1];
}

/* HH[:MM[:SS[.ffffff]]] from *at; seconds of day and microseconds. */
static int
clock_part(const char *s, size_t n, size_t *at, int64_t *secs, int64_t *us)
{
	int h, mi = 0, se = 0, f = 0, k = 0;
	size_t i = *at;

	if (digits(s, n, i, 2, &h) || h > 23)
		return -1;
	i += 2;
	if (i < n && s[i] == ':') {
		if (digits(s, n, i + 1, 2, &mi) || mi > 59)
			return -1;
		i += 3;
		if (i < n && s[i] == ':') {
			if (digits(s, n, i + 1, 2, &se) || se > 59)
				return -1;
			i += 3;
			if (i < n && (s[i] == '.' || s[i] == ',')) {
				i++;
				if (i >= n || s[i] < '0' || s[i] > '9')
					return -1;
				for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, k++)
					if (k < 6)
						f = f * 10 + (s[i] - '0');
				for (; k < 6; k++)
					f *= 10;
			}
		}
	}
	*at = i;
	*secs = (int64_t)h * 3600 + mi * 60 + se;
	*us = f;
	return 0;
}

/* Z, +HH, +HHMM or +HH:MM at *at to the end: the offset in seconds. */
static int
zone_part(const char *s, size_t n, size_t at, int64_t *off)
{
	int h, m = 0, sign;

	*off = 0;
	if (at == n)
		return 0;
	if (s[at] == 'Z' && at + 1 == n)
		return 0;
	if (s[at] != '+' && s[at] != '-')
		return -1;
	sign = s[at] == '-' ? -1 : 1;
	if (digits(s, n, at + 1, 2, &h) || h > 23)
		return -1;
	at += 3;
	if (at < n && s[at] == ':')
		at++;
	if (at < n && (digits(s, n, at, 2, &m) || m > 59 || (at += 2) != n))
		return -1;
	*off = sign * ((int64_t)h * 3600 + m * 60);
	return 0;
}

int
exg_parse_time(const char *s, size_t n, int64_t *us)
{
	int y, mo, d;
	int64_t secs = 0, frac = 0, off = 0;
	size_t at = 10;

	if (digits(s, n, 0, 4, &y) || n < 10 || s[4] != '-' || s[7] != '-' ||
	    digits(s, n, 5, 2, &mo) || digits(s, n, 8, 2, &d) || y < 1 ||
	    mo < 1 || mo > 12 || d < 1 || d > mdays(y, mo))
		return -1;
	if (n > 10) {
		at = 11;
		if (clock_part(s, n, &at, &secs, &frac) ||
		    zone_part(s, n, at, &off))
			return -1;
	}
	*us = ((days_from_civil(y, mo, d) * 86400 + secs - off) * 1000000) + frac;
	return 0;
}

/* ---- messages ---- */

/* Python's repr of a value in a message: 'text', None, True, 12. */
static void
pyrepr(struct buf *b, const struct json *v)
{
	if (!v || v->type == JSON_NULL) {
		buf_addstr(b, "None");
	} else if (v->type == JSON_TRUE || v->type == JSON_FALSE) {
		buf_addstr(b, v->type == JSON_TRUE ? "True" : "False");
	} else if (v->type == JSON_STRING) {
		pyval_repr(b, v->str, v->len);
	} else if (v->type == JSON_NUMBER) {
		pyval_str(v, b);
	} else {
		struct jw w;

		jw_init(&w, b, 0);
		jw_value(&w, v);
	}
}

static int
is_zero_num(const struct json *v)
{
	double d;

	return !json_double(v, &d) && d == 0;
}

/* str(x or "") into b */
static void
py_str(struct buf *b, const struct json *v)
{
	struct jw w;

	if (!v || v->type == JSON_NULL || v->type == JSON_FALSE)
		return;
	if (v->type == JSON_TRUE)
		buf_addstr(b, "True");
	else if (v->type == JSON_STRING)
		buf_add(b, v->str, v->len);
	else if (v->type == JSON_NUMBER && !is_zero_num(v))
		pyval_str(v, b);
	else if ((v->type == JSON_ARRAY || v->type == JSON_OBJECT) && v->child) {
		jw_init(&w, b, 0);
		jw_value(&w, v);
	}
}

/* _json_string: a string as it is, anything else as compact JSON. */
static void
json_string(struct jw *w, const struct json *v)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw in;

	if (v && v->type == JSON_STRING) {
		jw_strn(w, v->str, v->len);
		return;
	}
	jw_init(&in, &b, 0);
	if (v)
		jw_value(&in, v);
	else
		jw_null(&in);
	jw_strn(w, b.s, b.len);
	buf_release(&b);
}

static void
value_or_null(struct jw *w, const struct json *v)
{
	if (v)
		jw_value(w, v);
	else
		jw_null(w);
}

static int
str_is(const struct json *v, const char *s)
{
	return v && v->type == JSON_STRING && v->len == strlen(s) &&
	       !memcmp(v->str, s, v->len);
}

/* The parts of one output message, gathered until it is flushed. */
struct pending {
	const struct json *role;
	struct buf content, reasoning;
	int has_content, has_reasoning;
	const struct json **calls;
	size_t ncalls;
};

static void
flush(struct jw *w, struct pending *p, size_t *nout)
{
	jw_obj(w);
	jw_key(w, "role");
	if (str_is(p->role, "developer"))
		jw_str(w, "system");
	else
		jw_strn(w, p->role->str, p->role->len);
	jw_key(w, "content");
	jw_strn(w, buf_str(&p->content), p->content.len);
	if (p->has_reasoning) {
		jw_key(w, "reasoning_content");
		jw_strn(w, buf_str(&p->reasoning), p->reasoning.len);
	}
	if (p->ncalls) {
		jw_key(w, "tool_calls");
		jw_arr(w);
		for (size_t i = 0; i < p->ncalls; i++) {
			jw_obj(w);
			jw_key(w, "id");
			value_or_null(w, json_get(p->calls[i], "id"));
			jw_key(w, "type");
			jw_str(w, "function");
			jw_key(w, "function");
			jw_obj(w);
			jw_key(w, "name");
			value_or_null(w, json_get(p->calls[i], "name"));
			jw_key(w, "arguments");
			json_string(w, json_get(p->calls[i], "arguments"));
			jw_obj_end(w);
			jw_obj_end(w);
		}
		jw_arr_end(w);
	}
	jw_obj_end(w);
	buf_reset(&p->content);
	buf_reset(&p->reasoning);
	p->has_content = p->has_reasoning = 0;
	p->ncalls = 0;
	++*nout;
}

static int
pending_any(const struct pending *p)
{
	return p->has_content || p->has_reasoning || p->ncalls;
}

static int
part(struct jw *w, struct pending *p, const struct json *pt, size_t *nout,
     struct buf *why)
{
	const struct json *type = json_get(pt, "type");

	if (pt->type != JSON_OBJECT)
		return buf_addstr(why, "message parts must be objects"), -1;
	if (str_is(type, "tool_call_response")) {
		if (pending_any(p))
			flush(w, p, nout);
		jw_obj(w);
		jw_key(w, "role");
		jw_str(w, "tool");
		jw_key(w, "tool_call_id");
		value_or_null(w, json_get(pt, "id"));
		jw_key(w, "content");
		json_string(w, json_get(pt, "result"));
		jw_obj_end(w);
		++*nout;
	} else if (str_is(type, "text")) {
		py_str(&p->content, json_get(pt, "content"));
		p->has_content = 1;
	} else if (str_is(type, "thinking")) {
		py_str(&p->reasoning, json_get(pt, "thinking"));
		p->has_reasoning = 1;
	} else if (str_is(type, "tool_call")) {
		p->calls[p->ncalls++] = pt;
	} else {
		buf_addstr(why, "unsupported ");
		pyrepr(why, p->role);
		buf_addstr(why, " message part ");
		pyrepr(why, type);
		return -1;
	}
	return 0;
}

/* _normalize_message of {role, parts} into w's open array. */
static int
message(struct jw *w, const struct json *role, const struct json *parts,
	size_t *nout, struct buf *why)
{
	struct pending p = { role, BUF_INIT(BUF_NOMAX), BUF_INIT(BUF_NOMAX), 0, 0,
			     NULL, 0 };
	size_t before = *nout;
	int rc = 0;

	if (!role || role->type != JSON_STRING || !parts || parts->type != JSON_ARRAY)
		return buf_addstr(why, "each input message requires a string role "
				  "and parts array"), -1;
	p.calls = xcalloc(parts->len + 1, sizeof(*p.calls));
	for (const struct json *pt = parts->child; pt && !rc; pt = pt->next)
		rc = part(w, &p, pt, nout, why);
	if (!rc && (pending_any(&p) || *nout == before))
		flush(w, &p, nout);
	free(p.calls);
	buf_release(&p.content);
	buf_release(&p.reasoning);
	return rc;
}

/* _parse_json_list: v, or the JSON its string holds, a list of objects. */
static const struct json *
json_list(struct json_doc *d, const struct json *v, const char *field,
	  struct buf *why)
{
	char perr[128];

	if (v && v->type == JSON_STRING) {
		v = json_parse(d, v->str, v->len, perr, sizeof(perr));
		if (!v)
			return buf_addf(why, "%s is not valid JSON: %s", field, perr), NULL;
	}
	if (v && v->type == JSON_ARRAY) {
		const struct json *c = v->child;

		while (c && c->type == JSON_OBJECT)
			c = c->next;
		if (!c)
			return v;
	}
	buf_addf(why, "%s must be a JSON array of objects", field);
	return NULL;
}

/* gen_ai.system_instructions (a JSON list of parts, else plain text) into w. */
static int
system_messages(struct jw *w, struct json_doc *d, const struct json *si,
		size_t *nout, struct buf *why)
{
	static const struct json role = { .type = JSON_STRING, .len = 6, .str = "system" };
	struct buf ignore = BUF_INIT(BUF_NOMAX);
	const struct json *list;

	if (!si || si->type == JSON_NULL)
		return 0;
	if (si->type != JSON_STRING)
		return buf_addstr(why, "gen_ai.system_instructions must be a string"), -1;
	if (!si->len)
		return 0;
	list = json_list(d, si, "gen_ai.system_instructions", &ignore);
	buf_release(&ignore);
	if (list)
		return message(w, &role, list, nout, why);
	jw_obj(w);
	jw_key(w, "role");
	jw_str(w, "system");
	jw_key(w, "content");
	jw_strn(w, si->str, si->len);
	jw_obj_end(w);
	++*nout;
	return 0;
}

/* gen_ai.system_instructions, then gen_ai.input.messages, into w. */
static int
messages(struct jw *w, const struct json *attrs, struct buf *why)
{
	struct json_doc *d = json_doc_new();
	const struct json *list;
	size_t nout = 0, before;
	int rc = -1;

	jw_arr(w);
	if (system_messages(w, d, json_get(attrs, "gen_ai.system_instructions"),
			    &nout, why))
		goto out;
	before = nout;
	list = json_list(d, json_get(attrs, "gen_ai.input.messages"),
			 "gen_ai.input.messages", why);
	if (!list)
		goto out;
	for (const struct json *m = list->child; m; m = m->next)
		if (message(w, json_get(m, "role"), json_get(m, "parts"), &nout, why))
			goto out;
	if (nout == before) {
		buf_addstr(why, "gen_ai.input.messages must contain at least one message");
		goto out;
	}
	jw_arr_end(w);
	rc = 0;
out:
	json_doc_free(d);
	return rc;
}

/* _normalize_tools: NULL in *out for none. */
static int
tools(const struct json *attrs, char **out, struct buf *why)
{
	const struct json *v = json_get(attrs, "gen_ai.tool.definitions");
	struct json_doc *d;
	const struct json *list;
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;
	int rc = -1;

	*out = NULL;
	if (!v || v->type == JSON_NULL)
		return 0;
	d = json_doc_new();
	if (!(list = json_list(d, v, "gen_ai.tool.definitions", why)))
		goto out;
	jw_init(&w, &b, 0);
	jw_arr(&w);
	for (const struct json *t = list->child; t; t = t->next) {
		if (!str_is(json_get(t, "type"), "function")) {
			buf_addstr(why, "unsupported tool type ");
			pyrepr(why, json_get(t, "type"));
			goto out;
		}
		jw_obj(&w);
		jw_key(&w, "type");
		jw_str(&w, "function");
		jw_key(&w, "function");
		jw_obj(&w);
		jw_key(&w, "name");
		value_or_null(&w, json_get(t, "name"));
		jw_key(&w, "description");
		value_or_null(&w, json_get(t, "description"));
		jw_key(&w, "parameters");
		value_or_null(&w, json_get(t, "parameters"));
		jw_obj_end(&w);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	if (list->child)
		*out = buf_detach(&b, NULL);
	rc = 0;
out:
	buf_release(&b);
	json_doc_free(d);
	return rc;
}

/* _request_extra_body: NULL in *out for none. */
static int
extra_body(const struct json *attrs, char **out, struct buf *why)
{
	const struct json *t = json_get(attrs, "gen_ai.request.temperature");
	const struct json *st = json_get(attrs, "gen_ai.request.stop_sequences");
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;
	double x;

	*out = NULL;
	jw_init(&w, &b, 0);
	jw_obj(&w);
	if (t && t->type != JSON_NULL) {
		if (t->type != JSON_NUMBER || json_double(t, &x) || !isfinite(x))
			goto bad_t;
		jw_key(&w, "temperature");
		jw_value(&w, t);
	}
	if (st && st->type != JSON_NULL) {
		if (st->type != JSON_ARRAY)
			goto bad_st;
		for (const struct json *c = st->child; c; c = c->next)
			if (c->type != JSON_STRING)
				goto bad_st;
		if (st->child) {
			jw_key(&w, "stop");
			jw_value(&w, st);
		}
	}
	jw_obj_end(&w);
	if (b.len > 2)
		*out = buf_detach(&b, NULL);
	buf_release(&b);
	return 0;
bad_t:
	buf_release(&b);
	return buf_addstr(why, "gen_ai.request.temperature must be finite"), -1;
bad_st:
	buf_release(&b);
	return buf_addstr(why, "gen_ai.request.stop_sequences must be a list of "
			  "strings"), -1;
}

/* ---- spans ---- */

/* isinstance(v, int): an integer number (or a bool); its sign. */
static int
py_int_sign(const struct json *v, int *sign)
{
	size_t i = 0;

	if (v && (v->type == JSON_TRUE || v->type == JSON_FALSE)) {
		*sign = v->type == JSON_TRUE;
		return 0;
	}
	if (!v || v->type != JSON_NUMBER || !v->len)
		return -1;
	*sign = 1;
	if (v->str[0] == '-')
		*sign = -1, i = 1;
	for (size_t k = i; k < v->len; k++)
		if (v->str[k] < '0' || v->str[k] > '9')
			return -1;
	if (strspn(v->str + i, "0") == v->len - i)
		*sign = 0;
	return 0;
}

static int
span_time(const struct json *span, const char *key, int64_t *us,
	  struct buf *why)
{
	const struct json *v = json_get(span, key);

	if (!v)
		return buf_addf(why, "'%s'", key), -1;
	if (v->type != JSON_STRING)
		return buf_addstr(why, "fromisoformat: argument must be str"), -1;
	if (exg_parse_time(v->str, v->len, us)) {
		struct buf q = BUF_INIT(BUF_NOMAX);

		pyrepr(&q, v);
		buf_addf(why, "Invalid isoformat string: %s", buf_str(&q));
		buf_release(&q);
		return -1;
	}
	return 0;
}

/* The part of _parse_span inside its try: *c filled, or -1 with why. */
static int
span_call(const struct json *span, const struct json *attrs, int64_t out,
	  struct exg_call *c, struct buf *why)
{
	const struct json *mt = json_get(attrs, "gen_ai.request.max_tokens");
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;
	int sign;

	if (span_time(span, "start_time", &c->start_us, why) ||
	    span_time(span, "end_time", &c->end_us, why))
		return -1;
	if (c->end_us < c->start_us)
		return buf_addstr(why, "span ends before it starts"), -1;
	c->max_tokens = out;
	if (mt && mt->type != JSON_NULL) {
		if (mt->type != JSON_NUMBER || py_int_sign(mt, &sign) || sign < 1 ||
		    json_int64(mt, &c->max_tokens))
			return buf_addstr(why, "gen_ai.request.max_tokens must be a "
					  "positive integer"), -1;
	}
	jw_init(&w, &b, 0);
	if (messages(&w, attrs, why)) {
		buf_release(&b);
		return -1;
	}
	c->messages = buf_detach(&b, NULL);
	if (tools(attrs, &c->tools, why) || extra_body(attrs, &c->extra, why))
		return -1;
	return 0;
}

static void
call_free(struct exg_call *c)
{
	free(c->messages);
	free(c->tools);
	free(c->extra);
}

/* A token count as _parse_span reads it: its value in *v (bools 0, 1; a
 * huge one INT64_MAX), its sign returned in *sign; -1 when not an int. */
static int
tokens(const struct json *v, int64_t *n, int *sign)
{
	if (py_int_sign(v, sign))
		return -1;
	if (v->type != JSON_NUMBER)
		*n = *sign;
	else if (json_int64(v, n))
		*n = *sign > 0 ? INT64_MAX : 0;
	return 0;
}

/* 1 with *c filled, 0 when skipped (counted in st), -1 with err. */
static int
span_parse(const struct exg_row *r, size_t i, const struct json *span,
	   struct exg_call *c, struct exg_stats *st, char *err, size_t errlen)
{
	const struct json *attrs = json_get(span, "attributes");
	const struct json *type = json_get(span, "type"), *status;
	struct json empty = { .type = JSON_OBJECT };
	struct buf why = BUF_INIT(BUF_NOMAX);
	int64_t in, out;
	int si, so;
	double code;

	if (!attrs || !json_truthy(attrs))
		attrs = &empty;
	if (attrs->type != JSON_OBJECT)
		return util_seterr(err, errlen, "Exgentic session '%s' span %zu: "
				   "attributes must be an object", r->session_id, i);
	if (!str_is(type, "llm_call") &&
	    !((!type || type->type == JSON_NULL) &&
	      str_is(json_get(attrs, "gen_ai.operation.name"), "chat")))
		return st->non_llm++, 0;
	status = json_get(span, "status");
	if (status && json_truthy(status) && status->type != JSON_OBJECT)
		return util_seterr(err, errlen, "Exgentic session '%s' span %zu: "
				   "status must be an object", r->session_id, i);
	status = json_get(status, "code");
	if (status && status->type == JSON_NUMBER && !json_double(status, &code) &&
	    code == 2)
		return st->failed++, 0;
	if (tokens(json_get(attrs, "gen_ai.usage.input_tokens"), &in, &si) ||
	    tokens(json_get(attrs, "gen_ai.usage.output_tokens"), &out, &so))
		return util_seterr(err, errlen, "Exgentic session '%s' span %zu has "
				   "non-integer token counts", r->session_id, i);
	if (si <= 0 || so <= 0)
		return st->zero_token++, 0;
	c->index = i;
	if (span_call(span, attrs, out, c, &why)) {
		util_seterr(err, errlen, "Exgentic session '%s' span %zu: %s",
			    r->session_id, i, buf_str(&why));
		buf_release(&why);
		call_free(c);
		return -1;
	}
	buf_release(&why);
	return 1;
}

static int
cmp_call(const void *a, const void *b)
{
	const struct exg_call *x = a, *y = b;

	if (x->start_us != y->start_us)
		return x->start_us < y->start_us ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

/* ---- rows ---- */

static char *
nonempty_str(const struct json *v)
{
	return v && v->type == JSON_STRING && v->len && !memchr(v->str, 0, v->len) ?
	       xstrndup(v->str, v->len) : NULL;
}

static int
row_models(struct exg_row *r, const struct json *models)
{
	if (!models || models->type != JSON_ARRAY)
		return -1;
	r->models = xcalloc(models->len + 1, sizeof(*r->models));
	for (const struct json *m = models->child; m; m = m->next) {
		const char *c;
		size_t k;

		if (m->type != JSON_STRING || !m->len || memchr(m->str, 0, m->len))
			return -1;
		c = exg_canonical_model(m->str);
		for (k = 0; k < r->nmodels && strcmp(r->models[k], c); k++)
			;
		if (k == r->nmodels)
			r->models[r->nmodels++] = xstrdup(c);
	}
	return 0;
}

/* _matches_filters */
static int
row_matches(const struct exg_row *r, const struct exg_filters *f,
	    const struct json *bench)
{
	int any = 0;

	if (f->harness >= 0 && strcmp(r->harness, exg_harnesses[f->harness]))
		return 0;
	for (size_t i = 0; f->model >= 0 && i < r->nmodels && !any; i++)
		any = eq_ci(r->models[i], exg_models[f->model]);
	if (f->model >= 0 && !any)
		return 0;
	return f->bench < 0 || str_is(bench, exg_benches[f->bench]);
}

static int
row_calls(struct exg_row *r, const struct json *spans, struct exg_stats *st,
	  char *err, size_t errlen)
{
	size_t i = 0;

	r->calls = xcalloc(spans->len + 1, sizeof(*r->calls));
	for (const struct json *s = spans->child; s; s = s->next, i++) {
		int rc = span_parse(r, i, s, &r->calls[r->ncalls], st, err, errlen);

		if (rc < 0)
			return -1;
		r->ncalls += (size_t)rc;
	}
	qsort(r->calls, r->ncalls, sizeof(*r->calls), cmp_call);
	return 0;
}

int
exg_row_parse(const char *s, size_t n, size_t row_index,
	      const struct exg_filters *f, struct exg_row *r,
	      struct exg_stats *st, char *err, size_t errlen)
{
	struct json_doc *d = json_doc_new();
	const struct json *row;
	char perr[128];
	int rc = -1;

	memset(r, 0, sizeof(*r));
	row = json_parse(d, s, n, perr, sizeof(perr));
	if (!row || row->type != JSON_OBJECT) {
		util_seterr(err, errlen, "Exgentic row %zu is not a JSON object%s%s",
			    row_index, row ? "" : ": ", row ? "" : perr);
		goto out;
	}
	if (!(r->harness = nonempty_str(json_get(row, "harness")))) {
		util_seterr(err, errlen, "Exgentic row %zu has no harness", row_index);
		goto out;
	}
	if (!(r->session_id = nonempty_str(json_get(row, "session_id")))) {
		util_seterr(err, errlen, "Exgentic row %zu has no session_id", row_index);
		goto out;
	}
	if (row_models(r, json_get(row, "models"))) {
		util_seterr(err, errlen, "Exgentic row %zu models must be a list of "
			    "non-empty strings", row_index);
		goto out;
	}
	if (!json_is_obj_array(json_get(row, "spans"))) {
		util_seterr(err, errlen, "Exgentic row %zu spans must be a list of "
			    "objects", row_index);
		goto out;
	}
	r->match = row_matches(r, f, json_get(row, "benchmark"));
	rc = r->match ? row_calls(r, json_get(row, "spans"), st, err, errlen) : 0;
out:
	json_doc_free(d);
	return rc;
}

void
exg_row_release(struct exg_row *r)
{
	free(r->session_id);
	free(r->harness);
	for (size_t i = 0; i < r->nmodels; i++)
		free(r->models[i]);
	free(r->models);
	for (size_t i = 0; i < r->ncalls; i++)
		call_free(&r->calls[i]);
	free(r->calls);
	memset(r, 0, sizeof(*r));
}
