/* SPDX-License-Identifier: Apache-2.0 */
/* raw_payload lines, inputs.json files and SageMaker Data Capture records. */
#include "dataset/replay.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "b64.h"
#include "dataset/field.h"
#include "util.h"

#define BODY_MAX ((size_t)64 << 20)

static int
blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr(" \t\r\n\f\v", s[i]) || !s[i])
			return 0;
	return 1;
}

/* Python's type() name of v, as the original's messages say it. */
static const char *
py_type(const struct json *v)
{
	if (!v || v->type == JSON_NULL)
		return "NoneType";
	switch (v->type) {
	case JSON_FALSE:
	case JSON_TRUE: return "bool";
	case JSON_NUMBER:
		for (size_t i = 0; i < v->len; i++)
			if (strchr(".eE", v->str[i]))
				return "float";
		return "int";
	case JSON_STRING: return "str";
	case JSON_ARRAY: return "list";
	default: return "dict";
	}
}

static char *
compact(const struct json *v, size_t *len)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;

	jw_init(&w, &b, 0);
	jw_value(&w, v);
	return buf_detach(&b, len);
}

int
replay_payload(struct json_doc *doc, const char *s, size_t n, struct buf *out,
	       char *err, size_t errlen)
{
	const struct json *v, *m;
	char why[160];
	struct jw w;

	if (blank(s, n))
		return 0;
	json_doc_reset(doc);
	if (!(v = json_parse(doc, s, n, why, sizeof(why))))
		return util_seterr(err, errlen, "invalid JSON: %s", why);
	if (v->type != JSON_OBJECT)
		return util_seterr(err, errlen, "raw_payload line must be a JSON "
				   "object, got %s", py_type(v));
	m = json_get(v, "messages");
	if (!m || m->type != JSON_ARRAY)
		return util_seterr(err, errlen, "raw_payload line missing required "
				   "'messages' array (got %s)", py_type(m));
	buf_reset(out);
	jw_init(&w, out, 0);
	jw_value(&w, v);
	return 1;
}

/* ---- inputs.json ---- */

struct sid {
	const char *s;
	size_t n, idx;
};

static int
sid_cmp(const void *a, const void *b)
{
	const struct sid *x = a, *y = b;
	size_t n = x->n < y->n ? x->n : y->n;
	int c = memcmp(x->s, y->s, n);

	if (c || x->n != y->n)
		return c ? c : x->n < y->n ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The first entry whose session_id an earlier entry has, or SIZE_MAX. */
static size_t
first_duplicate(struct sid *v, size_t n)
{
	size_t dup = SIZE_MAX;

	qsort(v, n, sizeof(*v), sid_cmp);
	for (size_t i = 1; i < n; i++)
		if (v[i].n == v[i - 1].n && !memcmp(v[i].s, v[i - 1].s, v[i].n) &&
		    v[i].idx < dup && (i < 2 || v[i - 2].n != v[i].n ||
				       memcmp(v[i - 2].s, v[i].s, v[i].n)))
			dup = v[i].idx;
	return dup;
}

/* Entry e (data[idx]) as session r. */
static int
take_session(const struct json *e, size_t idx, struct replay_session *r,
	     char *err, size_t errlen)
{
	const struct json *id = json_get(e, "session_id");
	const struct json *ps = json_get(e, "payloads"), *p;
	size_t k = 0;

	if (e->type != JSON_OBJECT)
		return util_seterr(err, errlen, "data[%zu]: expected an object, got %s",
				   idx, py_type(e));
	if (!id || id->type != JSON_STRING)
		return util_seterr(err, errlen, "data[%zu]: session_id: expected a "
				   "string, got %s", idx, py_type(id));
	if (!ps || ps->type != JSON_ARRAY)
		return util_seterr(err, errlen, "data[%zu]: payloads: expected a "
				   "list, got %s", idx, py_type(ps));
	for (p = ps->child; p; p = p->next, k++)
		if (p->type != JSON_OBJECT)
			return util_seterr(err, errlen, "data[%zu]: payloads[%zu]: "
					   "expected an object, got %s", idx, k,
					   py_type(p));
	r->id = xstrndup(id->str, id->len);
	r->n = ps->len;
	r->payloads = xcalloc(r->n ? r->n : 1, sizeof(*r->payloads));
	r->lens = xcalloc(r->n ? r->n : 1, sizeof(*r->lens));
	k = 0;
	for (p = ps->child; p; p = p->next, k++)
		r->payloads[k] = compact(p, &r->lens[k]);
	return 0;
}

static int
check_ids(const struct json *data, char *err, size_t errlen)
{
	struct sid *v = xcalloc(data->len ? data->len : 1, sizeof(*v));
	size_t i = 0, dup;

	for (const struct json *e = data->child; e; e = e->next, i++) {
		const struct json *id = json_get(e, "session_id");

		v[i] = (struct sid){ id->str, id->len, i };
	}
	dup = first_duplicate(v, data->len);
	free(v);
	if (dup == SIZE_MAX)
		return 0;
	const struct json *e = json_at(data, dup);
	const struct json *id = json_get(e, "session_id");

	return util_seterr(err, errlen, "data[%zu] duplicate session_id '%.*s' "
			   "(already declared earlier in the file); each "
			   "session_id must be unique", dup,
			   (int)(id->len > 200 ? 200 : id->len), id->str);
}

int
replay_inputs_parse(const char *s, size_t n, struct replay_inputs *ri,
		    char *err, size_t errlen)
{
	struct json_doc *doc = json_doc_new();
	const struct json *v, *data;
	char why[160];
	size_t i = 0;
	int rc = -1;

	memset(ri, 0, sizeof(*ri));
	if (!(v = json_parse(doc, s, n, why, sizeof(why)))) {
		util_seterr(err, errlen, "invalid JSON: %s", why);
		goto out;
	}
	data = v->type == JSON_OBJECT ? json_get(v, "data") : NULL;
	if (!data || data->type != JSON_ARRAY) {
		util_seterr(err, errlen, "expected an object with a 'data' list "
			    "(AIPerf's inputs.json), got %s",
			    v->type == JSON_OBJECT ? py_type(data) : py_type(v));
		goto out;
	}
	ri->v = xcalloc(data->len ? data->len : 1, sizeof(*ri->v));
	for (const struct json *e = data->child; e; e = e->next, i++, ri->n++)
		if (take_session(e, i, &ri->v[i], err, errlen) < 0)
			goto out;
	rc = check_ids(data, err, errlen);
out:
	if (rc < 0)
		replay_inputs_release(ri);
	json_doc_free(doc);
	return rc;
}

void
replay_inputs_release(struct replay_inputs *ri)
{
	for (size_t i = 0; i < ri->n; i++) {
		for (size_t k = 0; k < ri->v[i].n; k++)
			free(ri->v[i].payloads[k]);
		free(ri->v[i].payloads);
		free(ri->v[i].lens);
		free(ri->v[i].id);
	}
	free(ri->v);
	memset(ri, 0, sizeof(*ri));
}

/* ---- SageMaker Data Capture ---- */

struct cap {
	struct json_doc *doc;
	const char *id;		/* the event id, for messages */
	int idlen;
	char *err;
	size_t errlen;
};

/* _decode_payload: entry's data as a JSON value, *v NULL for none (no
 * data, or an encoding other than JSON and BASE64); -1 on bad data. */
static int
decode(struct cap *c, const struct json *entry, const char *what,
       const struct json **v)
{
	const struct json *d = json_get(entry, "data");
	const struct json *enc = json_get(entry, "encoding");
	struct buf b = BUF_INIT(BODY_MAX);
	const char *e = enc && enc->type == JSON_STRING ? enc->str : "BASE64";
	char why[160];

	*v = NULL;
	if (!d || d->type == JSON_NULL || (strcmp(e, "JSON") && strcmp(e, "BASE64")))
		return 0;
	if (d->type != JSON_STRING)
		return util_seterr(c->err, c->errlen, "Capture record %.*s malformed: "
				   "%s data: expected a string", c->idlen, c->id, what);
	if (!strcmp(e, "BASE64") &&
	    (buf_grow(&b, B64_ROOM(d->len)) < 0 ||
	     b64_decode(d->str, d->len, B64_SPACE, (unsigned char *)b.s, &b.len,
			why, sizeof(why)) < 0)) {
		buf_release(&b);
		return util_seterr(c->err, c->errlen, "Capture record %.*s malformed: "
				   "%s data: invalid base64", c->idlen, c->id, what);
	}
	if (!strcmp(e, "BASE64"))
		*v = json_parse(c->doc, b.s ? b.s : "", b.len, why, sizeof(why));
	else
		*v = json_parse(c->doc, d->str, d->len, why, sizeof(why));
	buf_release(&b);
	if (!*v)
		return util_seterr(c->err, c->errlen, "Capture record %.*s: %s data: "
				   "invalid JSON: %s", c->idlen, c->id, what, why);
	return 0;
}

/* An optional token count member of o (NULL: none) into *out. */
static int
tokens(struct cap *c, const struct json *o, const char *key, long long *out)
{
	const struct json *v = json_get(o, key);
	int64_t x;

	if (!v || v->type == JSON_NULL)
		return 0;
	if (json_int64(v, &x) < 0 || field_check(FIELD_TOKENS, (double)x))
		return util_seterr(c->err, c->errlen, "Capture record %.*s malformed: "
				   "%s: expected a token count", c->idlen, c->id, key);
	*out = x;
	return 0;
}

/* The request's fields into r. */
static int
take_input(struct cap *c, const struct json *in, struct replay_capture *r)
{
	const struct json *m = json_get(in, "messages"), *t;

	if (!in || in->type != JSON_OBJECT || !m)
		return util_seterr(c->err, c->errlen, "Capture record %.*s has no "
				   "'messages' key in payload. Only OpenAI-compatible "
				   "chat endpoints are supported.", c->idlen, c->id);
	if (!json_is_obj_array(m))
		return util_seterr(c->err, c->errlen, "Capture record %.*s malformed: "
				   "messages: expected a list of objects", c->idlen, c->id);
	t = json_get(in, "tools");
	if (t && t->type != JSON_NULL && !json_is_obj_array(t))
		return util_seterr(c->err, c->errlen, "Capture record %.*s malformed: "
				   "tools: expected a list of objects", c->idlen, c->id);
	if (tokens(c, in, "max_tokens", &r->max_tokens) < 0)
		return -1;
	if (r->max_tokens < 0 && tokens(c, in, "max_completion_tokens", &r->max_tokens) < 0)
		return -1;
	r->messages = compact(m, NULL);
	if (t && t->type != JSON_NULL)
		r->tools = compact(t, NULL);
	return 0;
}

static int
capture(struct cap *c, const struct json *v, struct replay_capture *r)
{
	const struct json *meta = json_get(v, "eventMetadata");
	const struct json *cd = json_get(v, "captureData");
	const struct json *it = json_get(meta, "inferenceTime");
	const struct json *ein = json_get(cd, "endpointInput"), *in, *out;
	const char *miss = !meta ? "eventMetadata" : !it ? "inferenceTime" : NULL;

	if (miss)
		return util_seterr(c->err, c->errlen, "Capture record %.*s missing "
				   "required field: '%s'", c->idlen, c->id, miss);
	if (it->type != JSON_STRING || replay_iso_ms(it->str, it->len, &r->ts_ms) < 0)
		return util_seterr(c->err, c->errlen, "Capture record %.*s malformed: "
				   "inferenceTime: expected an ISO 8601 time",
				   c->idlen, c->id);
	if (!cd || !ein)
		return util_seterr(c->err, c->errlen, "Capture record %.*s missing "
				   "captureData.endpointInput: '%s'", c->idlen, c->id,
				   cd ? "endpointInput" : "captureData");
	if (decode(c, ein, "endpointInput", &in) < 0 || take_input(c, in, r) < 0)
		return -1;
	if (decode(c, json_get(cd, "endpointOutput"), "endpointOutput", &out) < 0)
		return -1;
	return tokens(c, json_get(out, "usage"), "prompt_tokens", &r->input_length);
}

int
replay_capture_parse(struct json_doc *doc, const char *s, size_t n,
		     struct replay_capture *r, char *err, size_t errlen)
{
	struct cap c = { doc, "<unknown>", 9, err, errlen };
	const struct json *v, *id;
	char why[160];

	replay_capture_release(r);
	if (blank(s, n))
		return 0;
	json_doc_reset(doc);
	if (!(v = json_parse(doc, s, n, why, sizeof(why))))
		return util_seterr(err, errlen, "Invalid JSON in capture record: %s", why);
	if (v->type != JSON_OBJECT)
		return util_seterr(err, errlen, "capture record must be a JSON "
				   "object, got %s", py_type(v));
	id = json_get(json_get(v, "eventMetadata"), "eventId");
	if (id && id->type == JSON_STRING) {
		c.id = id->str;
		c.idlen = (int)(id->len > 200 ? 200 : id->len);
		r->event_id = xstrndup(id->str, id->len);
	}
	if (capture(&c, v, r) < 0) {
		replay_capture_release(r);
		return -1;
	}
	return 1;
}

void
replay_capture_release(struct replay_capture *c)
{
	free(c->messages);
	free(c->tools);
	free(c->event_id);
	*c = (struct replay_capture){ .max_tokens = -1, .input_length = -1 };
}

/* ---- ISO 8601 ---- */

/* n digits at *p as *v. */
static int
digits(const char **p, const char *end, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++, (*p)++) {
		if (*p >= end || **p < '0' || **p > '9')
			return -1;
		*v = *v * 10 + (**p - '0');
	}
	return 0;
}

static int
lit(const char **p, const char *end, char c)
{
	if (*p >= end || **p != c)
		return 0;
	(*p)++;
	return 1;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
static long long
days_from_civil(long long y, int m, int d)
{
	long long era, yoe, doy, doe;

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
	int leap = (y % 4 == 0 && y % 100) || y % 400 == 0;

	return m == 2 ? 28 + leap : dm[m - 1];
}

/* [.fff...] after the seconds, as ms. */
static double
fraction(const char **p, const char *end)
{
	double f = 0, scale = 100;

	if (!lit(p, end, '.') && !lit(p, end, ','))
		return 0;
	while (*p < end && **p >= '0' && **p <= '9') {
		f += (**p - '0') * scale;
		scale /= 10;
		(*p)++;
	}
	return f;
}

/* Z, ±HH[:MM], or nothing, as minutes east of UTC; -10000 when bad. */
static int
offset(const char **p, const char *end)
{
	int sign, h, m = 0;

	if (*p == end)
		return 0;
	if (lit(p, end, 'Z') || lit(p, end, 'z'))
		return *p == end ? 0 : -10000;
	sign = lit(p, end, '+') ? 1 : lit(p, end, '-') ? -1 : 0;
	if (!sign || digits(p, end, 2, &h) < 0)
		return -10000;
	if (*p < end && (lit(p, end, ':'), digits(p, end, 2, &m) < 0))
		return -10000;
	if (*p != end || h > 23 || m > 59)
		return -10000;
	return sign * (h * 60 + m);
}

int
replay_iso_ms(const char *s, size_t n, double *ms)
{
	const char *p = s, *end = s + n;
	int y, mo, d, h = 0, mi = 0, sec = 0, off;
	double frac = 0;

	if (digits(&p, end, 4, &y) < 0 || !lit(&p, end, '-') ||
	    digits(&p, end, 2, &mo) < 0 || !lit(&p, end, '-') ||
	    digits(&p, end, 2, &d) < 0)
		return -1;
	if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > mdays(y, mo))
		return -1;
	if (p < end && (lit(&p, end, 'T') || lit(&p, end, 't') || lit(&p, end, ' '))) {
		if (digits(&p, end, 2, &h) < 0)
			return -1;
		if (lit(&p, end, ':') && digits(&p, end, 2, &mi) < 0)
			return -1;
		if (lit(&p, end, ':') && digits(&p, end, 2, &sec) < 0)
			return -1;
		frac = fraction(&p, end);
		if (h > 23 || mi > 59 || sec > 59)
			return -1;
	}
	if ((off = offset(&p, end)) == -10000)
		return -1;
	*ms = ((double)days_from_civil(y, mo, d) * 86400.0 + h * 3600.0 +
	       mi * 60.0 + sec - off * 60.0) * 1000.0 + frac;
	return 0;
}
