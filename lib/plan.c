/* SPDX-License-Identifier: Apache-2.0 */
/* The plan of one run as JSON: one field table drives the writer and the parser. */
#include "plan.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "util.h"

#define PLAN_MAX_FILE (1 << 20)

enum ftype { F_STR, F_ARGV, F_LL, F_INT, F_SIZE, F_SENDERS, F_SCRAPERS };

struct field {
	const char *name;
	enum ftype type;
	size_t off;
};

#define FIELD(s, n, t) { #n, t, offsetof(struct s, n) }

static const struct field sender_fields[] = {
	FIELD(plan_sender, gen, F_ARGV),
	FIELD(plan_sender, send, F_ARGV),
	FIELD(plan_sender, gen_err, F_STR),
	FIELD(plan_sender, send_err, F_STR),
	FIELD(plan_sender, spool, F_STR),
	FIELD(plan_sender, spool_err, F_STR),
	FIELD(plan_sender, phase_ack, F_STR),
	FIELD(plan_sender, send_pid, F_STR),
	{ NULL, 0, 0 }
};

static const struct field scraper_fields[] = {
	FIELD(plan_scraper, name, F_STR),
	FIELD(plan_scraper, argv, F_ARGV),
	FIELD(plan_scraper, out, F_STR),
	FIELD(plan_scraper, err, F_STR),
	FIELD(plan_scraper, done, F_STR),
	FIELD(plan_scraper, cue, F_STR),
	FIELD(plan_scraper, baseline, F_INT),
	FIELD(plan_scraper, endpoints, F_SIZE),
	FIELD(plan_scraper, hold_export, F_INT),
	{ NULL, 0, 0 }
};

static const struct field plan_fields[] = {
	FIELD(plan, run_dir, F_STR),
	FIELD(plan, artifact_dir, F_STR),
	FIELD(plan, log_file, F_STR),
	FIELD(plan, log_level, F_STR),
	FIELD(plan, input, F_STR),
	FIELD(plan, log, F_ARGV),
	FIELD(plan, senders, F_SENDERS),
	FIELD(plan, metrics, F_ARGV),
	FIELD(plan, export, F_ARGV),
	FIELD(plan, metrics_err, F_STR),
	FIELD(plan, export_err, F_STR),
	FIELD(plan, metrics_gate, F_STR),
	FIELD(plan, ui, F_ARGV),
	FIELD(plan, notice, F_STR),
	FIELD(plan, scrapers, F_SCRAPERS),
	FIELD(plan, scrape_ctl, F_STR),
	FIELD(plan, scrape_ack, F_STR),
	FIELD(plan, scrape_timeout_s, F_LL),
	FIELD(plan, phase_cue, F_STR),
	FIELD(plan, margin_us, F_LL),
	FIELD(plan, start_ns, F_LL),
	FIELD(plan, cancelled, F_STR),
	FIELD(plan, stage_cpu, F_STR),
	FIELD(plan, raw, F_STR),
	FIELD(plan, solo_cpu, F_INT),
	FIELD(plan, rest_cpus, F_STR),
	FIELD(plan, idle, F_INT),
	FIELD(plan, live, F_INT),
	{ NULL, 0, 0 }
};

/* (through void *: the table's offsets are offsetof() of the same struct) */
#define AT(base, f, type) ((type *)(void *)((char *)(base) + (f)->off))

void
plan_init(struct plan *p)
{
	memset(p, 0, sizeof(*p));
	p->solo_cpu = -1;
}

void
plan_argv_add(struct plan_argv *a, const char *s)
{
	if (a->n + 2 > a->alloc) {
		a->alloc = a->alloc ? 2 * a->alloc : 8;
		a->v = xreallocarray(a->v, a->alloc, sizeof(*a->v));
	}
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

void
plan_set(char **field, const char *s)
{
	free(*field);
	*field = s ? xstrdup(s) : NULL;
}

static void *
add_item(void **list, size_t *n, size_t size)
{
	char *items = xreallocarray(*list, *n + 1, size);

	memset(items + *n * size, 0, size);
	*list = items;
	return items + (*n)++ * size;
}

struct plan_sender *
plan_add_sender(struct plan *p)
{
	return add_item((void **)&p->senders, &p->nsenders, sizeof(*p->senders));
}

struct plan_scraper *
plan_add_scraper(struct plan *p)
{
	return add_item((void **)&p->scrapers, &p->nscrapers, sizeof(*p->scrapers));
}

static void release_fields(void *base, const struct field *fs);

void
plan_argv_release(struct plan_argv *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

/* The list field f of base: its items, their count, their size, fields. */
static void
list_of(void *base, const struct field *f, char **items, size_t **n,
	size_t *size, const struct field **fs)
{
	if (f->type == F_SENDERS) {
		struct plan *p = base;

		*items = (char *)p->senders, *n = &p->nsenders;
		*size = sizeof(*p->senders), *fs = sender_fields;
	} else {
		struct plan *p = base;

		*items = (char *)p->scrapers, *n = &p->nscrapers;
		*size = sizeof(*p->scrapers), *fs = scraper_fields;
	}
}

static void
release_fields(void *base, const struct field *fs)
{
	for (const struct field *f = fs; f->name; f++) {
		char *items;
		size_t *n, size;
		const struct field *sub;

		switch (f->type) {
		case F_STR:
			free(*AT(base, f, char *));
			break;
		case F_ARGV:
			plan_argv_release(AT(base, f, struct plan_argv));
			break;
		case F_SENDERS:
		case F_SCRAPERS:
			list_of(base, f, &items, &n, &size, &sub);
			for (size_t i = 0; i < *n; i++)
				release_fields(items + i * size, sub);
			free(items);
			break;
		default:
			break;
		}
	}
}

void
plan_release(struct plan *p)
{
	release_fields(p, plan_fields);
	plan_init(p);
}

static void write_fields(struct jw *w, const void *base, const struct field *fs);

static void
write_field(struct jw *w, const void *base, const struct field *f)
{
	char *items;
	size_t *n, size;
	const struct field *sub;

	jw_key(w, f->name);
	switch (f->type) {
	case F_STR:
		if (*AT(base, f, char *))
			jw_str(w, *AT(base, f, char *));
		else
			jw_null(w);
		break;
	case F_ARGV:
		jw_arr(w);
		for (size_t i = 0; i < AT(base, f, struct plan_argv)->n; i++)
			jw_str(w, AT(base, f, struct plan_argv)->v[i]);
		jw_arr_end(w);
		break;
	case F_LL:
		jw_int(w, *AT(base, f, long long));
		break;
	case F_INT:
		jw_int(w, *AT(base, f, int));
		break;
	case F_SIZE:
		jw_int(w, (int64_t)*AT(base, f, size_t));
		break;
	case F_SENDERS:
	case F_SCRAPERS:
		list_of((void *)base, f, &items, &n, &size, &sub);
		jw_arr(w);
		for (size_t i = 0; i < *n; i++)
			write_fields(w, items + i * size, sub);
		jw_arr_end(w);
		break;
	}
}

static void
write_fields(struct jw *w, const void *base, const struct field *fs)
{
	jw_obj(w);
	for (const struct field *f = fs; f->name; f++)
		write_field(w, base, f);
	jw_obj_end(w);
}

void
plan_write(const struct plan *p, struct buf *b)
{
	struct jw w;

	jw_init(&w, b, 0);
	jw_obj(&w);
	jw_key(&w, "aiperf_plan");
	jw_int(&w, 1);
	jw_key(&w, "plan");
	write_fields(&w, p, plan_fields);
	jw_obj_end(&w);
	buf_addch(b, '\n');
}

/* The parser's state: where the error message goes. */
struct pctx {
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3))) static int
fail(struct pctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int parse_fields(struct pctx *c, void *base, const struct field *fs,
			const struct json *obj, const char *where);

static int
parse_str(struct pctx *c, char **to, const struct json *v, const char *name)
{
	size_t len;
	const char *s = json_str(v, &len);

	if (v->type == JSON_NULL) {
		free(*to);
		*to = NULL;
		return 0;
	}
	if (!s || strlen(s) != len)
		return fail(c, "'%s': not a string without NUL", name);
	free(*to);
	*to = xstrdup(s);
	return 0;
}

static int
parse_argv(struct pctx *c, struct plan_argv *a, const struct json *v, const char *name)
{
	if (v->type != JSON_ARRAY)
		return fail(c, "'%s': not an array", name);
	plan_argv_release(a);
	for (const struct json *e = v->child; e; e = e->next) {
		size_t len;
		const char *s = json_str(e, &len);

		if (!s || strlen(s) != len)
			return fail(c, "'%s': an argument that is not a string without NUL", name);
		plan_argv_add(a, s);
	}
	return 0;
}

static int
parse_int(struct pctx *c, const struct field *f, void *base, const struct json *v)
{
	int64_t x;

	if (json_int64(v, &x) < 0)
		return fail(c, "'%s': not an integer", f->name);
	if (f->type == F_INT && (x < INT32_MIN || x > INT32_MAX))
		return fail(c, "'%s': out of range", f->name);
	if (f->type == F_SIZE && x < 0)
		return fail(c, "'%s': negative", f->name);
	if (f->type == F_INT)
		*AT(base, f, int) = (int)x;
	else if (f->type == F_SIZE)
		*AT(base, f, size_t) = (size_t)x;
	else
		*AT(base, f, long long) = x;
	return 0;
}

static int
parse_list(struct pctx *c, void *base, const struct field *f, const struct json *v)
{
	struct plan *p = base;

	if (v->type != JSON_ARRAY)
		return fail(c, "'%s': not an array", f->name);
	if (f->type == F_SENDERS ? p->nsenders : p->nscrapers)
		return fail(c, "'%s': given twice", f->name);
	for (const struct json *e = v->child; e; e = e->next) {
		void *item = f->type == F_SENDERS ? (void *)plan_add_sender(p)
						  : (void *)plan_add_scraper(p);

		if (parse_fields(c, item, f->type == F_SENDERS ? sender_fields
				 : scraper_fields, e, f->name) < 0)
			return -1;
	}
	return 0;
}

static int
parse_field(struct pctx *c, void *base, const struct field *f, const struct json *v)
{
	switch (f->type) {
	case F_STR:
		return parse_str(c, AT(base, f, char *), v, f->name);
	case F_ARGV:
		return parse_argv(c, AT(base, f, struct plan_argv), v, f->name);
	case F_SENDERS:
	case F_SCRAPERS:
		return parse_list(c, base, f, v);
	default:
		return parse_int(c, f, base, v);
	}
}

static int
parse_fields(struct pctx *c, void *base, const struct field *fs,
	     const struct json *obj, const char *where)
{
	if (!obj || obj->type != JSON_OBJECT)
		return fail(c, "'%s': not an object", where);
	for (const struct json *m = obj->child; m; m = m->next) {
		const struct field *f = fs;

		while (f->name && (strlen(f->name) != m->keylen ||
				   memcmp(f->name, m->key, m->keylen)))
			f++;
		if (!f->name)
			return fail(c, "'%s': unknown field '%.64s'", where, m->key);
		if (parse_field(c, base, f, m) < 0)
			return -1;
	}
	return 0;
}

int
plan_parse(struct plan *p, const char *s, size_t n, char *err, size_t errlen)
{
	struct pctx c = { err, errlen };
	struct json_doc *d = json_doc_new();
	char jerr[128];
	struct json *root = json_parse(d, s, n, jerr, sizeof(jerr));
	int64_t version;
	int r = -1;

	if (!root)
		fail(&c, "not JSON: %s", jerr);
	else if (json_int64(json_get(root, "aiperf_plan"), &version) < 0 || version != 1)
		fail(&c, "not a plan of version 1");
	else
		r = parse_fields(&c, p, plan_fields, json_get(root, "plan"), "plan");
	json_doc_free(d);
	if (r < 0)
		plan_release(p);
	return r;
}

int
plan_load(struct plan *p, const char *path, char *err, size_t errlen)
{
	size_t n;
	char *s = util_readfile(path, PLAN_MAX_FILE, &n);
	int r;

	if (!s) {
		snprintf(err, errlen, "cannot read '%s': %s", path, util_strerror(errno));
		return -1;
	}
	r = plan_parse(p, s, n, err, errlen);
	free(s);
	return r;
}
