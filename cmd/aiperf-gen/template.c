/* SPDX-License-Identifier: Apache-2.0 */
/* --endpoint-type template: a jq payload program (inline, a file, a named one, or translated Jinja2) and its response field. */
#include <sys/stat.h>

#include "gen.h"
#include "json/j2jq.h"
#include "json/jqprog.h"
#include "json/json.h"
#include "util.h"

#define TEMPLATE_FILE_MAX ((size_t)1 << 20)
#define PAYLOAD_MAX ((size_t)256 << 20)

struct template {
	struct jqprog *prog;
	char *response_field;	/* jq text, or NULL: auto-detect */
};

/* The original's named templates (its NAMED_TEMPLATES), in jq. */
static const char *const named[][2] = {
	{ "nv-embedqa", "{\"text\": .texts}" },
};

/* payload_template: and response_field: take the rest of their argument,
 * commas included (a template has commas the original would split on). */
int
template_extra(struct gen_opts *o, const char *arg)
{
	static const char *const keys[] = { "payload_template", "response_field" };

	while (*arg == ' ' || *arg == '\t')
		arg++;
	for (size_t i = 0; i < 2; i++) {
		size_t k = strlen(keys[i]);
		struct buf b = BUF_INIT(BUF_NOMAX);

		if (strncmp(arg, keys[i], k) || arg[k] != ':')
			continue;
		arg += k + 1;
		k = strlen(arg);
		while (k && strchr(" \t\n\r", arg[k - 1]))
			k--;
		while (k && strchr(" \t\n\r", *arg))
			arg++, k--;
		json_quote(&b, arg, k);
		extras_set(&o->extras, keys[i], strlen(keys[i]), buf_detach(&b, NULL));
		return 1;
	}
	return 0;
}

/* An extra's value as text (a JSON string decoded, else its JSON), taken
 * out of the extras that are merged into the payload. */
static char *
take_extra(struct gen_opts *o, const char *key)
{
	struct extras *l = &o->extras;
	char *s = NULL;

	for (size_t i = 0; i < l->n; i++) {
		struct json_doc *d;
		const struct json *v;

		if (strcmp(l->v[i].key, key))
			continue;
		d = json_doc_new();
		v = json_parse(d, l->v[i].val, strlen(l->v[i].val), NULL, 0);
		s = v && v->type == JSON_STRING ? xstrndup(v->str, v->len) : xstrdup(l->v[i].val);
		json_doc_free(d);
		free(l->v[i].key);
		free(l->v[i].val);
		memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof(*l->v));
		l->n--;
		break;
	}
	return s;
}

/* A name, then a regular file, then the text itself (the original's order). */
static char *
template_source(const char *src, const char **what)
{
	struct stat st;
	size_t n;
	char *s;

	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (!strcmp(src, named[i][0])) {
			*what = "named template";
			return xstrdup(named[i][1]);
		}
	if (!strchr(src, '\n') && strlen(src) < 4096 && !stat(src, &st) && S_ISREG(st.st_mode)) {
		*what = "template file";
		if (!(s = util_readfile(src, TEMPLATE_FILE_MAX, &n)))
			die("cannot read payload template '%s':", src);
		if (memchr(s, '\0', n))
			die("payload template '%s' holds a NUL byte", src);
		return s;
	}
	*what = "payload template";
	return xstrdup(src);
}

/* The program of source src, or NULL with the reason in err. */
static struct jqprog *
compile_payload(const char *src, char *err, size_t errlen)
{
	struct buf jq = BUF_INIT(BUF_NOMAX);
	const char *what;
	char *text = template_source(src, &what), e[1024];
	int jinja = j2jq_is_jinja(text, strlen(text));
	struct jqprog *p = NULL;

	if (jinja && j2jq_template(text, strlen(text), &jq, e, sizeof(e)) < 0)
		snprintf(err, errlen, "invalid %s: %s", what, e);
	else if (!(p = jqprog_new(jinja ? buf_str(&jq) : text, e, sizeof(e))))
		snprintf(err, errlen, "invalid %s: %s%s%.200s%s", what, e,
			 jinja ? " (in its jq translation: " : "",
			 jinja ? buf_str(&jq) : "", jinja ? ")" : "");
	buf_release(&jq);
	free(text);
	return p;
}

/* The jq text of response field f, or NULL with the reason in err. */
static char *
compile_field(const char *f, char *err, size_t errlen)
{
	struct buf jq = BUF_INIT(BUF_NOMAX);
	struct jqprog *p = NULL;
	char e[1024];

	if (j2jq_path(f, strlen(f), &jq, e, sizeof(e)) < 0)
		snprintf(err, errlen, "invalid response_field: %s", e);
	else if (!(p = jqprog_new(buf_str(&jq), e, sizeof(e))))
		snprintf(err, errlen, "invalid response_field '%.200s': %s", buf_str(&jq), e);
	if (!p) {
		buf_release(&jq);
		return NULL;
	}
	jqprog_free(p);
	return buf_detach(&jq, NULL);
}

void
template_init(struct gen_opts *o)
{
	char *src = take_extra(o, "payload_template");
	char *field = take_extra(o, "response_field");
	char err[2048] = "";
	struct template *t;

	if (!src)
		die_usage("--endpoint-type template needs --extra-inputs "
			  "payload_template:<name | file | jq program | Jinja2 template>");
	t = o->tmpl = xcalloc(1, sizeof(*o->tmpl));
	t->prog = compile_payload(src, err, sizeof(err));
	/* the original treats "text" as no field: auto-detection */
	if (t->prog && field && strcmp(field, "text"))
		t->response_field = compile_field(field, err, sizeof(err));
	free(src);
	free(field);
	if (err[0]) {
		template_free(t);
		o->tmpl = NULL;
		die_usage("%s", err);
	}
}

void
template_free(struct template *t)
{
	if (!t)
		return;
	jqprog_free(t->prog);
	free(t->response_field);
	free(t);
}

const char *
template_response_field(const struct template *t)
{
	return t ? t->response_field : NULL;
}

static void
str_or_null(struct jw *w, const char *s)
{
	if (s)
		jw_str(w, s);
	else
		jw_null(w);
}

static void
texts(struct jw *w, const struct turn *t)
{
	jw_arr(w);
	for (size_t i = 0; i < t->ntexts; i++)
		jw_str(w, t->texts[i]);
	jw_arr_end(w);
}

static void
max_tokens(struct jw *w, const struct turn *t)
{
	if (t->max_tokens >= 0)
		jw_int(w, t->max_tokens);
	else
		jw_null(w);
}

/* The original's Turn: its texts as one unnamed Text, no media. */
static void
turn_obj(struct jw *w, const struct gen_opts *o, const struct turn *t)
{
	jw_obj(w);
	jw_key(w, "role");
	str_or_null(w, t->role);
	jw_key(w, "texts");
	jw_arr(w);
	jw_obj(w);
	jw_key(w, "name");
	jw_null(w);
	jw_key(w, "contents");
	texts(w, t);
	jw_obj_end(w);
	jw_arr_end(w);
	for (size_t i = 0; i < 3; i++) {
		jw_key(w, (const char *[]){ "images", "audios", "videos" }[i]);
		jw_raw(w, "[]", 2);
	}
	jw_key(w, "model");
	jw_str(w, o->models[t->model]);
	jw_key(w, "max_tokens");
	max_tokens(w, t);
	jw_obj_end(w);
}

/* by_name_list: the turn's texts named name, in order (the original's
 * extract_named_contents: texts_by_name[name]), as a list. */
static void
by_name_list(struct jw *w, const struct turn *t, const char *name)
{
	jw_arr(w);
	for (size_t i = 0; t->names && i < t->ntexts; i++)
		if (t->names[i] && !strcmp(t->names[i], name))
			jw_str(w, t->texts[i]);
	jw_arr_end(w);
}

static int
has_name(const struct turn *t, const char *name)
{
	for (size_t i = 0; t->names && i < t->ntexts; i++)
		if (t->names[i] && !strcmp(t->names[i], name))
			return 1;
	return 0;
}

/* first_named: the first text named name, else null. */
static void
first_named(struct jw *w, const struct turn *t, const char *name)
{
	for (size_t i = 0; t->names && i < t->ntexts; i++)
		if (t->names[i] && !strcmp(t->names[i], name)) {
			jw_str(w, t->texts[i]);
			return;
		}
	jw_null(w);
}

/* Media: none until multimodal inputs come (issue #17). Named texts as
 * the original's template endpoint names them: queries are the texts named
 * "query" (not "queries"), passages those named "passages", else
 * "passage"; texts_by_name every name in order of first appearance. */
static void
named_vars(struct jw *w, const struct turn *t)
{
	static const char *const media[][2] = {
		{ "images", "[]" }, { "audios", "[]" }, { "videos", "[]" },
		{ "image", "null" }, { "audio", "null" }, { "video", "null" },
	};
	const char *pass = has_name(t, "passages") ? "passages" : "passage";

	for (size_t i = 0; i < sizeof(media) / sizeof(media[0]); i++) {
		jw_key(w, media[i][0]);
		jw_raw(w, media[i][1], strlen(media[i][1]));
	}
	jw_key(w, "queries");
	by_name_list(w, t, "query");
	jw_key(w, "passages");
	by_name_list(w, t, pass);
	jw_key(w, "query");
	first_named(w, t, "query");
	jw_key(w, "passage");
	first_named(w, t, pass);
	jw_key(w, "texts_by_name");
	jw_obj(w);
	for (size_t i = 0; t->names && i < t->ntexts; i++) {
		size_t j;

		if (!t->names[i])
			continue;
		for (j = 0; j < i; j++)
			if (t->names[j] && !strcmp(t->names[j], t->names[i]))
				break;
		if (j < i)
			continue;
		jw_key(w, t->names[i]);
		by_name_list(w, t, t->names[i]);
	}
	jw_obj_end(w);
	for (size_t i = 0; i < 3; i++) {
		jw_key(w, (const char *[]){ "images_by_name", "audios_by_name", "videos_by_name" }[i]);
		jw_raw(w, "{}", 2);
	}
}

/* The template variables of turn k (the program's input). */
static void
vars(struct buf *b, const struct gen_opts *o, const struct turn *t, size_t k)
{
	struct jw w;

	jw_init(&w, b, 0);
	jw_obj(&w);
	jw_key(&w, "texts");
	texts(&w, t);
	jw_key(&w, "text");
	str_or_null(&w, t->ntexts ? t->texts[0] : NULL);
	named_vars(&w, t);
	jw_key(&w, "model");
	jw_str(&w, o->models[t->model]);
	jw_key(&w, "max_tokens");
	max_tokens(&w, t);
	jw_key(&w, "role");
	str_or_null(&w, t->role);
	jw_key(&w, "stream");
	jw_bool(&w, o->streaming);
	jw_key(&w, "turn");
	turn_obj(&w, o, t);
	jw_key(&w, "turns");
	jw_arr(&w);
	turn_obj(&w, o, t);
	jw_arr_end(&w);
	jw_key(&w, "request_info");
	jw_obj(&w);
	jw_key(&w, "turns");
	jw_arr(&w);
	turn_obj(&w, o, t);
	jw_arr_end(&w);
	jw_key(&w, "turn_index");
	jw_int(&w, (int64_t)k);
	jw_obj_end(&w);
	jw_obj_end(&w);
}

/*
 * Exit 1 with msg, the program freed first: libjq holds its run stack by
 * the stack's end pointer, which LeakSanitizer does not count as a
 * reference, so a live program would read as a leak at exit.
 */
static _Noreturn void
run_failed(const struct gen_opts *o, const char *msg)
{
	jqprog_free(o->tmpl->prog);
	o->tmpl->prog = NULL;
	die("%s", msg);
}

static void
members(struct extras *kv, const struct json *obj)
{
	for (const struct json *c = obj->child; c; c = c->next) {
		struct buf b = BUF_INIT(BUF_NOMAX);
		struct jw w;

		jw_init(&w, &b, 0);
		jw_value(&w, c);
		extras_set(kv, c->key, c->keylen, buf_detach(&b, NULL));
	}
}

/* The payload members of turn k into kv, then the other extras (they override). */
void
template_kv(const struct gen_opts *o, const struct turn *t, size_t k, struct extras *kv)
{
	struct buf in = BUF_INIT(BUF_NOMAX), out = BUF_INIT(PAYLOAD_MAX);
	struct json_doc *d = json_doc_new();
	const struct json *v;
	char err[1024], msg[1200];
	int n;

	vars(&in, o, t, k);
	n = jqprog_run(o->tmpl->prog, in.s, in.len, &out, err, sizeof(err));
	if (n < 0) {
		snprintf(msg, sizeof(msg), "payload template failed on turn %zu: %s", k, err);
		run_failed(o, msg);
	}
	v = n == 1 ? json_parse(d, out.s, out.len, err, sizeof(err)) : NULL;
	if (v && v->type == JSON_OBJECT) {
		members(kv, v);
	} else {
		snprintf(msg, sizeof(msg), "payload template gave %s on turn %zu "
			 "(want one JSON object)", n > 1 ? "more than one value" :
			 !n ? "no value" : !v ? "what is not JSON" :
			 v->type == JSON_ARRAY ? "an array" :
			 v->type == JSON_STRING ? "a string" : "a scalar", k);
		run_failed(o, msg);
	}
	for (size_t i = 0; i < o->extras.n; i++)
		extras_set(kv, o->extras.v[i].key, strlen(o->extras.v[i].key),
			   xstrdup(o->extras.v[i].val));
	json_doc_free(d);
	buf_release(&in);
	buf_release(&out);
}

void
template_input_text(struct buf *b, const struct turn *t)
{
	struct buf s = BUF_INIT(BUF_NOMAX);

	for (size_t i = 0; i < t->ntexts; i++) {
		if (!t->texts[i][0])
			continue;
		if (s.len)
			buf_addch(&s, ' ');
		buf_addstr(&s, t->texts[i]);
	}
	buf_addstr(b, ",\"input_text\":");
	json_quote(b, s.s ? s.s : "", s.len);
	buf_release(&s);
}
