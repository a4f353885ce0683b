/* SPDX-License-Identifier: Apache-2.0 */
/* --extra-inputs: the original's key:value coercion and JSON objects, as an ordered member map. */
#include "json/extras.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "http/redact.h"
#include "json/json.h"
#include "rand/pystr.h"
#include "util.h"

void
extras_set(struct extras *l, const char *key, size_t klen, char *val)
{
	for (size_t i = 0; i < l->n; i++) {
		if (strlen(l->v[i].key) == klen &&
		    !memcmp(l->v[i].key, key, klen)) {
			free(l->v[i].val);
			l->v[i].val = val;
			return;
		}
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->v = xreallocarray(l->v, l->cap, sizeof(*l->v));
	}
	l->v[l->n].key = xstrndup(key, klen);
	l->v[l->n++].val = val;
}

const char *
extras_get(const struct extras *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].key, key))
			return l->v[i].val;
	return NULL;
}

void
extras_release(struct extras *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].val);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static char *
detach(struct buf *b)
{
	return buf_detach(b, NULL);
}

/* A number as orjson writes it back: floats re-rendered, -0 as 0. */
static void
orjson_num(struct jw *w, const struct json *v)
{
	double d;

	if (v->len == 2 && !memcmp(v->str, "-0", 2))
		jw_int(w, 0);
	else if (strcspn(v->str, ".eE") < v->len && !json_double(v, &d))
		jw_double(w, d);
	else
		jw_raw(w, v->str, v->len);
}

static int
all_digits(const char *s, size_t n, int skip_dot)
{
	size_t d = 0;

	for (size_t i = 0; i < n; i++) {
		if (skip_dot && s[i] == '.')
			continue;
		if (!isdigit((unsigned char)s[i]))
			return 0;
		d++;
	}
	return d > 0;
}

static int
ieq(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && !strncasecmp(s, w, n);
}

/* config_validators.coerce_value: bool, null, int, float, else string. */
static char *
coerce(const char *s, size_t n)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;
	size_t dots = 0;

	jw_init(&w, &b, 0);
	for (size_t i = 0; i < n; i++)
		dots += s[i] == '.';
	if (ieq(s, n, "true") || ieq(s, n, "false"))
		jw_bool(&w, ieq(s, n, "true"));
	else if (ieq(s, n, "none") || ieq(s, n, "null"))
		jw_null(&w);
	else if (all_digits(s, n, 0) && (s[0] != '0' || n == 1))
		jw_raw(&w, s, n);
	else if (n > 1 && s[0] == '-' && all_digits(s + 1, n - 1, 0) &&
		 (s[1] != '0' || n == 2))
		jw_raw(&w, n == 2 && s[1] == '0' ? "0" : s, n == 2 && s[1] == '0' ? 1 : n);
	else if (dots == 1 && (all_digits(s, n, 1) ||
			       (s[0] == '-' && all_digits(s + 1, n - 1, 1)))) {
		char *t = xstrndup(s, n);

		jw_double(&w, strtod(t, NULL));
		free(t);
	} else {
		jw_strn(&w, s, n);
	}
	return detach(&b);
}

/* An argument as a message quotes it: whole up to SHOWN_CUT bytes, else
 * its start (whole UTF-8 characters) and its size, so that a 100 KB
 * argument neither floods the terminal nor pushes the reason out. The
 * message goes to the log too: what it quotes is redacted first (a
 * secret key's value; a JSON text that does not parse and names a
 * secret is not quoted at all). */
#define SHOWN_CUT 64
#define SHOWN_MAX (SHOWN_CUT + 48)

/* 1 when a word of s (a run of letters, digits, '_' and '-') names a secret. */
static int
names_secret(const char *s)
{
	for (size_t n; *s; s += n ? n : 1) {
		n = 0;
		while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '-')
			n++;
		if (n && redact_name(s, n))
			return 1;
	}
	return 0;
}

static const char *
show(const char *arg, char out[SHOWN_MAX])
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	size_t n = strlen(arg), k = SHOWN_CUT;
	const char *t = arg;

	if (arg[0] == '{' ? names_secret(arg) : redact_extra(&b, arg, n) > 0)
		t = arg[0] == '{' ? REDACT_MARK : b.s;
	if (strlen(t) <= SHOWN_CUT && t == arg) {
		snprintf(out, SHOWN_MAX, "'%s'", t);
	} else if (strlen(t) <= SHOWN_CUT) {
		snprintf(out, SHOWN_MAX, "'%s' (%zu bytes)", t, n);
	} else {
		while (k && ((unsigned char)t[k] & 0xc0) == 0x80)
			k--;
		snprintf(out, SHOWN_MAX, "'%.*s...' (%zu bytes)", (int)k, t, n);
	}
	buf_release(&b);
	return out;
}

static int
extras_json(struct extras *l, const char *arg, char *err, size_t errlen)
{
	struct json_doc *d = json_doc_new();
	char perr[128];
	struct json *v = json_parse(d, arg, strlen(arg), perr, sizeof(perr));
	int rc = 0;

	if (!v || v->type != JSON_OBJECT) {
		char shown[SHOWN_MAX];
		snprintf(err, errlen, "%s must be a valid JSON object%s%s",
			 show(arg, shown), v ? "" : ": ", v ? "" : perr);
		rc = -1;
		goto out;
	}
	for (const struct json *c = v->child; c; c = c->next) {
		struct buf b = BUF_INIT(BUF_NOMAX);
		struct jw w;

		jw_init(&w, &b, 0);
		jw_value_with(&w, c, orjson_num);
		extras_set(l, c->key, c->keylen, detach(&b));
	}
out:
	json_doc_free(d);
	return rc;
}

int
extras_parse(struct extras *l, const char *arg, char *err, size_t errlen)
{
	if (arg[0] == '{')
		return extras_json(l, arg, err, errlen);
	for (const char *p = arg;;) {
		size_t n = strcspn(p, ","), kn, vn;
		const char *colon = memchr(p, ':', n), *k, *v;

		if (!colon) {
			char shown[SHOWN_MAX];
			snprintf(err, errlen,
				 "%s: each item must be in 'key:value' format",
				 show(arg, shown));
			return -1;
		}
		kn = (size_t)(colon - p);
		vn = n - kn - 1;
		k = pystr_strip(p, &kn);
		v = pystr_strip(colon + 1, &vn);
		extras_set(l, k, kn, coerce(v, vn));
		if (!p[n])
			return 0;
		p += n + 1;
	}
}
