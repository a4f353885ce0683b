/* SPDX-License-Identifier: Apache-2.0 */
/* Redaction: headers, URLs, command lines and configs with their credentials replaced. */
#include "http/redact.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>
#include "json/json.h"

#define MARKLEN (sizeof(REDACT_MARK) - 1)

enum kind { K_PLAIN, K_SECRET, K_HEADER, K_URL, K_EXTRA };

/* Appends that remember a failure, so the writers check once at the end. */
static void
add(struct buf *b, const void *p, size_t n, int *bad)
{
	if (buf_add(b, p, n) < 0)
		*bad = 1;
}

static void
add_mark(struct buf *b, int *bad, int *count)
{
	add(b, REDACT_MARK, MARKLEN, bad);
	(*count)++;
}

/* Whether needle (lower case) occurs in s[0..n), ignoring case. */
static int
has_ci(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	for (size_t i = 0; i + k <= n; i++)
		if (!strncasecmp(s + i, needle, k))
			return 1;
	return 0;
}

static int
is_ci(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && !strncasecmp(s, word, n);
}

/* Words that make any name holding them a secret's (X-Auth-User, Set-Cookie). */
static const char *const secret_words[] = {
	"auth", "authorization", "authentication", "passphrase", "passwords",
	"secret", "secrets", "cookie", "cookies", "credential", "credentials",
	"signature", NULL,
};
/* Endings of a word that is a secret's name run together (xapikey,
 * accesskeyid, userpassword); a word equal to one counts too. */
static const char *const secret_ends[] = {
	"apikey", "apitoken", "accesskey", "accesskeyid", "secretkey",
	"privatekey", "accesstoken", "authtoken", "bearertoken", "idtoken",
	"refreshtoken", "sessiontoken", "securitytoken", "clientsecret",
	"password", "passwd", NULL,
};
/* The last word of a secret's name (api_key, X-Amz-Security-Token, sig). */
static const char *const secret_last[] = { "key", "token", "sig", NULL };

static int
in_list(const char *w, size_t n, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (is_ci(w, n, list[i]))
			return 1;
	return 0;
}

static int
ends_list(const char *w, size_t n, const char *const *list)
{
	for (size_t i = 0; list[i]; i++) {
		size_t k = strlen(list[i]);
		if (k <= n && !strncasecmp(w + n - k, list[i], k))
			return 1;
	}
	return 0;
}

/* Where a word ends inside a run of letters and digits: apiKey, key2. */
static int
word_break(char a, char b)
{
	unsigned char x = (unsigned char)a, y = (unsigned char)b;

	return (islower(x) && isupper(y)) || (isalpha(x) && isdigit(y)) ||
	       (isdigit(x) && isalpha(y));
}

/* The next word of s[0..n) from *i into *w, *wn; 0 at the end. */
static int
next_word(const char *s, size_t n, size_t *i, const char **w, size_t *wn)
{
	size_t j = *i;

	while (j < n && !isalnum((unsigned char)s[j]))
		j++;
	if (j == n)
		return 0;
	*w = s + j;
	for (j++; j < n && isalnum((unsigned char)s[j]) && !word_break(s[j - 1], s[j]); j++)
		;
	*wn = (size_t)(s + j - *w);
	*i = j;
	return 1;
}

int
redact_name(const char *name, size_t n)
{
	const char *w, *last = NULL, *prev = NULL;
	size_t wn, lastn = 0, prevn = 0, i = 0;
	int hit = 0;

	while (next_word(name, n, &i, &w, &wn)) {
		if (in_list(w, wn, secret_words) || ends_list(w, wn, secret_ends))
			hit = 1;
		if (isdigit((unsigned char)*w))
			continue;	/* api_key_2: the last word is still key */
		prev = last, prevn = lastn;
		last = w, lastn = wn;
	}
	/* --api-key-file, password_file: a file's name, not what it holds */
	if (!last || is_ci(last, lastn, "file"))
		return 0;
	return hit || in_list(last, lastn, secret_last) ||
	       (prev && is_ci(prev, prevn, "key") && is_ci(last, lastn, "id"));
}

/* Length of "scheme://" at the start of u, or 0. */
static size_t
scheme_len(const char *u, size_t n)
{
	size_t i = 0;

	if (!n || !isalpha((unsigned char)u[0]))
		return 0;
	while (i < n && (isalnum((unsigned char)u[i]) || u[i] == '+' ||
			 u[i] == '.' || u[i] == '-'))
		i++;
	return i + 3 <= n && !memcmp(u + i, "://", 3) ? i + 3 : 0;
}

/* Items name<eq>value of s[0..n) between seps (a query's a=1&b=2,
 * --extra-inputs' a:1,b:2), each secret name's value replaced. */
static void
pairs(struct buf *b, const char *s, size_t n, char sep, char eq, int *bad, int *count)
{
	size_t i = 0;

	while (i <= n) {
		const char *c = memchr(s + i, sep, n - i);
		size_t e = c ? (size_t)(c - s) : n;
		const char *v = memchr(s + i, eq, e - i);

		if (v && redact_name(s + i, (size_t)(v - s) - i)) {
			add(b, s + i, (size_t)(v - s) + 1 - i, bad);
			add_mark(b, bad, count);
		} else {
			add(b, s + i, e - i, bad);
		}
		if (e < n)
			add(b, &sep, 1, bad);
		i = e + 1;
	}
}

int
redact_url(struct buf *b, const char *u, size_t n)
{
	int bad = 0, count = 0;
	size_t a = scheme_len(u, n), e = a, at = 0, i = 0;

	while (e < n && u[e] != '/' && u[e] != '?' && u[e] != '#')
		e++;
	/* The last '@' of the authority: a password may hold a raw '@'. */
	for (size_t k = a; k < e; k++)
		if (u[k] == '@')
			at = k + 1;
	if (at) {
		add(b, u, a, &bad);
		add_mark(b, &bad, &count);
		i = at - 1;
	}
	size_t q = e;
	while (q < n && u[q] != '?' && u[q] != '#')
		q++;
	add(b, u + i, q - i, &bad);
	if (q < n && u[q] == '?') {
		size_t f = q + 1;
		while (f < n && u[f] != '#')
			f++;
		add(b, "?", 1, &bad);
		pairs(b, u + q + 1, f - q - 1, '&', '=', &bad, &count);
		q = f;
	}
	add(b, u + q, n - q, &bad);
	return bad ? -1 : count;
}

static int headers(struct jw *w, const struct json *v);
static int walk(struct jw *w, const struct json *v, const char *key, size_t klen, int hide);

/* One "Name: value" header. */
static int
header_one(struct buf *b, const char *line, size_t n)
{
	int bad = 0, count = 0;
	const char *c = memchr(line, ':', n);
	size_t name = c ? (size_t)(c - line) : n;

	if (!c) {
		/* "Authorization Bearer x": no colon, the name is the first word */
		const char *sp = memchr(line, ' ', n);
		name = sp ? (size_t)(sp - line) : n;
	}
	if (!redact_name(line, name)) {
		add(b, line, n, &bad);
		return bad ? -1 : 0;
	}
	add(b, line, name, &bad);
	add(b, ": ", 2, &bad);
	add_mark(b, &bad, &count);
	return bad ? -1 : count;
}

/*
 * A JSON object as text: the sender's header form, {"Name": "value"}
 * (hdr), or --extra-inputs' {"key": value}: each secret member redacted;
 * what does not parse as an object is redacted whole.
 */
static int
json_text(struct buf *b, const char *s, size_t n, int hdr)
{
	struct json_doc *doc = json_doc_new();
	const struct json *v = json_parse(doc, s, n, NULL, 0);
	struct buf t = BUF_INIT(BUF_NOMAX);
	struct jw w;
	int count = 1, bad = 0;

	if (v && v->type == JSON_OBJECT) {
		jw_init(&w, &t, 0);
		count = hdr ? headers(&w, v) : walk(&w, v, "", 0, 0);
	}
	if (!v || v->type != JSON_OBJECT)
		add(b, REDACT_MARK, MARKLEN, &bad);
	else if (count > 0)
		add(b, t.s, t.len, &bad);
	else
		add(b, s, n, &bad);
	buf_release(&t);
	json_doc_free(doc);
	return bad ? -1 : count;
}

/* Whether s[0..n) is a "Name:value" pair: a name without blanks first. */
static int
is_pair(const char *s, size_t n)
{
	const char *c = memchr(s, ':', n);
	size_t i = 0, end;

	if (!c)
		return 0;
	end = (size_t)(c - s);
	while (i < end && isspace((unsigned char)s[i]))
		i++;
	while (end > i && isspace((unsigned char)s[end - 1]))
		end--;
	if (i == end)
		return 0;
	for (; i < end; i++)
		if (isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

/* The sender's comma form, "A:1,B:2", when every piece is a pair. */
static int
header_pairs(struct buf *b, const char *s, size_t n)
{
	struct buf t = BUF_INIT(BUF_NOMAX);
	size_t i = 0;
	int count = 0, bad = 0, k;

	while (i <= n) {
		const char *c = memchr(s + i, ',', n - i);
		size_t end = c ? (size_t)(c - s) : n;

		if (i)
			add(&t, ",", 1, &bad);
		if ((k = header_one(&t, s + i, end - i)) < 0)
			bad = 1;
		else
			count += k;
		i = end + 1;
	}
	add(b, count > 0 ? t.s : s, count > 0 ? t.len : n, &bad);
	buf_release(&t);
	return bad ? -1 : count;
}

static int
all_pairs(const char *s, size_t n)
{
	size_t i = 0;

	while (i <= n) {
		const char *c = memchr(s + i, ',', n - i);
		size_t end = c ? (size_t)(c - s) : n;

		if (!is_pair(s + i, end - i))
			return 0;
		i = end + 1;
	}
	return 1;
}

int
redact_header(struct buf *b, const char *line, size_t n)
{
	size_t i = 0;

	while (i < n && isspace((unsigned char)line[i]))
		i++;
	if (i < n && line[i] == '{')
		return json_text(b, line, n, 1);
	if (memchr(line, ',', n) && all_pairs(line, n))
		return header_pairs(b, line, n);
	return header_one(b, line, n);
}

int
redact_extra(struct buf *b, const char *s, size_t n)
{
	int bad = 0, count = 0;

	if (n && s[0] == '{')
		return json_text(b, s, n, 0);
	pairs(b, s, n, ',', ':', &bad, &count);
	return bad ? -1 : count;
}

/* The wrapper's quoting: bare when safe, else '...' with ' as '\''. */
static void
quote(struct buf *b, const char *s, size_t n, int *bad)
{
	static const char safe[] = "_./:=,+-";
	size_t i = 0;

	while (i < n && (isalnum((unsigned char)s[i]) || (s[i] && strchr(safe, s[i]))))
		i++;
	if (n && i == n) {
		add(b, s, n, bad);
		return;
	}
	add(b, "'", 1, bad);
	for (i = 0; i < n; i++) {
		if (s[i] == '\'')
			add(b, "'\\''", 4, bad);
		else
			add(b, s + i, 1, bad);
	}
	add(b, "'", 1, bad);
}

/* One word of a command line from c[*i]: its unquoted text to val. */
static void
word(const char *c, size_t n, size_t *i, struct buf *val)
{
	size_t j = *i;

	while (j < n && !isspace((unsigned char)c[j])) {
		char q = c[j];
		if (q == '\'' || q == '"') {
			for (j++; j < n && c[j] != q; j++) {
				if (q == '"' && c[j] == '\\' && j + 1 < n &&
				    strchr("\"\\$`", c[j + 1]))
					j++;
				buf_addch(val, c[j]);
			}
			j += j < n;
		} else if (q == '\\' && j + 1 < n) {
			buf_addch(val, c[j + 1]);
			j += 2;
		} else {
			buf_addch(val, c[j++]);
		}
	}
	*i = j;
}

/*
 * Whether an option or a configuration key named name[0..n) takes URLs,
 * also written without a scheme (h:8000/?key=k): its last word is url,
 * urls, uri or uris (--url, --otel-url, endpoint.urls), or it is
 * --server-metrics or --gpu-telemetry, or their configuration keys.
 */
static int
url_name(const char *name, size_t n)
{
	static const char *const last[] = { "url", "urls", "uri", "uris", NULL };
	static const char *const lists[] = {
		"--server-metrics", "server_metrics", "--gpu-telemetry", "gpu_telemetry", NULL,
	};
	const char *w, *lw = NULL;
	size_t wn, lwn = 0, i = 0;

	if (in_list(name, n, lists))
		return 1;
	while (next_word(name, n, &i, &w, &wn))
		lw = w, lwn = wn;
	return lw && in_list(lw, lwn, last);
}

static enum kind
option_kind(const char *name, size_t n)
{
	if ((n == 2 && !memcmp(name, "-H", 2)) || is_ci(name, n, "--header"))
		return K_HEADER;
	if ((n == 2 && !memcmp(name, "-u", 2)) || url_name(name, n))
		return K_URL;
	if (is_ci(name, n, "--extra-inputs"))
		return K_EXTRA;
	return redact_name(name, n) ? K_SECRET : K_PLAIN;
}

/* v[0..n) redacted as a value of kind k to out; the number of secrets. */
static int
value(struct buf *out, enum kind k, const char *v, size_t n)
{
	switch (k) {
	case K_SECRET: return buf_addstr(out, REDACT_MARK) < 0 ? -1 : 1;
	case K_HEADER: return redact_header(out, v, n);
	case K_URL: return redact_url(out, v, n);
	case K_EXTRA: return redact_extra(out, v, n);
	default: return buf_add(out, v, n) < 0 ? -1 : 0;
	}
}

static int
has_scheme(const char *s, size_t n)
{
	return has_ci(s, n, "://");
}

/*
 * One word: raw is how it was written, val what it says. A word after a
 * secret option or -H is its value whatever it looks like; after --url
 * every word up to the next option is a URL (the original's --url takes
 * several).
 */
static int
cli_word(struct buf *b, enum kind *pending, const char *raw, size_t rawlen,
	 const struct buf *val, int *bad)
{
	struct buf t = BUF_INIT(BUF_NOMAX);
	const char *v = buf_str(val), *eq;
	enum kind k = *pending;
	size_t pre = 0;
	int n;

	if (k != K_SECRET && k != K_HEADER && k != K_EXTRA && v[0] == '-' && val->len > 1) {
		eq = memchr(v, '=', val->len);
		k = option_kind(v, eq ? (size_t)(eq - v) : val->len);
		*pending = eq ? K_PLAIN : k;
		pre = eq ? (size_t)(eq - v) + 1 : val->len;
	} else {
		if (k != K_URL)
			*pending = K_PLAIN;
		if (k == K_PLAIN && has_scheme(v, val->len))
			k = K_URL;
	}
	buf_add(&t, v, pre);
	n = pre == val->len && pre ? 0 : value(&t, k, v + pre, val->len - pre);
	if (n > 0)
		quote(b, buf_str(&t), t.len, bad);
	else
		add(b, raw, rawlen, bad);
	buf_release(&t);
	return n > 0 ? n : 0;
}

int
redact_cli(struct buf *b, const char *cmd, size_t n)
{
	struct buf val = BUF_INIT(BUF_NOMAX);
	enum kind pending = K_PLAIN;
	int bad = 0, count = 0;
	size_t i = 0;

	while (i < n) {
		size_t s = i;
		while (i < n && isspace((unsigned char)cmd[i]))
			i++;
		add(b, cmd + s, i - s, &bad);
		if (i == n)
			break;
		s = i;
		buf_reset(&val);
		word(cmd, n, &i, &val);
		count += cli_word(b, &pending, cmd + s, i - s, &val, &bad);
	}
	buf_release(&val);
	return bad ? -1 : count;
}

int
redact_argv(struct buf *b, int argc, const char *const *argv)
{
	struct buf cmd = BUF_INIT(BUF_NOMAX), word = BUF_INIT(BUF_NOMAX);
	int bad = 0, n;

	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];
		size_t len = strlen(w);

		/* a word that is a command line itself has its own secrets */
		if (memchr(w, ' ', len)) {
			buf_reset(&word);
			if (redact_cli(&word, w, len) > 0) {
				w = word.s;
				len = word.len;
			}
		}
		if (i)
			add(&cmd, " ", 1, &bad);
		quote(&cmd, w, len, &bad);
	}
	n = redact_cli(b, buf_str(&cmd), cmd.len);
	buf_release(&cmd);
	buf_release(&word);
	return bad ? -1 : n;
}

/* v, whose name holds a secret: a string (not empty) or a number as
 * REDACT_MARK; true, false and null as they are. */
static int
json_secret(struct jw *w, const struct json *v)
{
	if ((v->type == JSON_STRING && v->len) || v->type == JSON_NUMBER) {
		jw_str(w, REDACT_MARK);
		return 1;
	}
	jw_value(w, v);
	return 0;
}

/* A string member named key whose name is no secret: what it holds is
 * redacted by its kind (a command line, a header, extra inputs, a URL). */
static int
json_string(struct jw *w, const struct json *v, const char *key, size_t klen)
{
	struct buf t = BUF_INIT(BUF_NOMAX);
	int n = 0;

	if (is_ci(key, klen, "cli_command"))
		n = redact_cli(&t, v->str, v->len);
	else if (is_ci(key, klen, "headers"))
		n = redact_header(&t, v->str, v->len);
	else if (is_ci(key, klen, "extra") || is_ci(key, klen, "extra_inputs"))
		n = redact_extra(&t, v->str, v->len);
	else if (has_scheme(v->str, v->len) || url_name(key, klen))
		n = redact_url(&t, v->str, v->len);
	if (n > 0)
		jw_strn(w, t.s, t.len);
	else
		jw_strn(w, v->str, v->len);
	buf_release(&t);
	return n > 0 ? n : 0;
}

/* "headers": {"Name": "value"} or [["Name", "value"]] or ["Name: value"]. */
static int
headers(struct jw *w, const struct json *v)
{
	const struct json *c, *name;
	int n = 0;

	if (v->type == JSON_OBJECT) {
		jw_obj(w);
		for (c = v->child; c; c = c->next) {
			jw_keyn(w, c->key, c->keylen);
			n += walk(w, c, c->key, c->keylen, 0);
		}
		jw_obj_end(w);
		return n;
	}
	jw_arr(w);
	for (c = v->child; c; c = c->next) {
		name = c->type == JSON_ARRAY ? c->child : NULL;
		if (name && name->type == JSON_STRING && name->next &&
		    name->next->type == JSON_STRING && !name->next->next) {
			jw_arr(w);
			jw_strn(w, name->str, name->len);
			n += walk(w, name->next, name->str, name->len, 0);
			jw_arr_end(w);
		} else {
			n += walk(w, c, "headers", 7, 0);
		}
	}
	jw_arr_end(w);
	return n;
}

/* v, the member key of its object (or an item of key's array); hide: a
 * member of a secret's object, all of whose values are secret. */
static int
walk(struct jw *w, const struct json *v, const char *key, size_t klen, int hide)
{
	const struct json *c;
	int n = 0;

	hide = hide || redact_name(key, klen);
	if (!hide && (v->type == JSON_OBJECT || v->type == JSON_ARRAY) &&
	    is_ci(key, klen, "headers"))
		return headers(w, v);
	switch (v->type) {
	case JSON_ARRAY:
		jw_arr(w);
		for (c = v->child; c; c = c->next)
			n += walk(w, c, key, klen, hide);
		jw_arr_end(w);
		return n;
	case JSON_OBJECT:
		jw_obj(w);
		for (c = v->child; c; c = c->next) {
			jw_keyn(w, c->key, c->keylen);
			n += walk(w, c, c->key, c->keylen, hide);
		}
		jw_obj_end(w);
		return n;
	case JSON_STRING:
		return hide ? json_secret(w, v) : json_string(w, v, key, klen);
	default:
		if (hide)
			return json_secret(w, v);
		jw_value(w, v);
		return 0;
	}
}

int
redact_json(struct jw *w, const struct json *v)
{
	return walk(w, v, "", 0, 0);
}
