/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-trace convert helpers: exact number and time parsing, the bailian grouping. */
#include "ttconv.h"

#include <ctype.h>
#include <math.h>

#include "buf.h"
#include "dataset/bailian.h"
#include "dataset/field.h"
#include "dataset/trace.h"
#include "rand/pystr.h"
#include "tt.h"
#include "util.h"

char *tt_trim(char *s)
{
	size_t n;

	while (*s && isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

int tt_parse_int(char *s, int64_t *out)
{
	long long v;
	const char *why;

	s = tt_trim(s);
	if (*s == '+')
		s++;
	if (util_strtonum(s, INT64_MIN, INT64_MAX, &v, &why) < 0)
		return -1;
	*out = v;
	return 0;
}

/* [+-]digits[.digits] with at most 9 fraction digits, exactly; else strtod. */
int tt_parse_seconds_n(const char *s, size_t n, int64_t *ns)
{
	char tmp[64], *end;
	size_t i = 0, frac = 0;
	int neg = 0, digits = 0;
	int64_t v = 0;
	double d;

	if (n && (s[0] == '-' || s[0] == '+'))
		neg = s[i++] == '-';
	for (; i < n && isdigit((unsigned char)s[i]) && v < INT64_MAX / 100; i++, digits++)
		v = v * 10 + (s[i] - '0');
	if (i < n && s[i] == '.')
		for (i++; i < n && isdigit((unsigned char)s[i]) && frac < 9; i++, frac++, digits++)
			v = v * 10 + (s[i] - '0');
	if (i == n && digits && v <= INT64_MAX / 1000000000) {
		for (; frac < 9; frac++)
			v *= 10;
		*ns = neg ? -v : v;
		return 0;
	}
	if (n >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	d = strtod(tmp, &end);
	if (end == tmp || *end || !(fabs(d) < 9e9))
		return -1;
	*ns = llround(d * 1e9);
	return 0;
}

int tt_parse_seconds(char *s, int64_t *ns)
{
	s = tt_trim(s);
	return tt_parse_seconds_n(s, strlen(s), ns);
}

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant). */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int num(const char *s, int n, int *out)
{
	*out = 0;
	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		*out = *out * 10 + (s[i] - '0');
	}
	return 0;
}

int tt_parse_datetime(const char *s, int64_t *ns, const char **why)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, mo, d, h, mi, sec, k;
	int64_t frac = 0, secs;

	*why = NULL;
	if (strlen(s) < 19 || num(s, 4, &y) || s[4] != '-' || num(s + 5, 2, &mo) ||
	    s[7] != '-' || num(s + 8, 2, &d) || (s[10] != ' ' && s[10] != 'T') ||
	    num(s + 11, 2, &h) || s[13] != ':' || num(s + 14, 2, &mi) ||
	    s[16] != ':' || num(s + 17, 2, &sec))
		return -1;
	if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 || mi > 59 ||
	    sec > 59)
		return -1;
	s += 19;
	if (*s == '.') {
		for (k = 0, s++; isdigit((unsigned char)*s); s++, k++)
			if (k < 9)
				frac = frac * 10 + (*s - '0');
		if (k == 0)
			return -1;
		for (; k < 9; k++)
			frac *= 10;
	}
	if (*s)
		return -1;
	secs = ((days_from_civil(y, mo, d) * 24 + h) * 60 + mi) * 60 + sec;
	if ((*why = field_check(FIELD_SECONDS, (double)secs)))
		return -1;
	*ns = secs * 1000000000 + frac;
	return 0;
}

void tt_write_ms(struct jw *w, int64_t ns)
{
	if (ns % 1000000 == 0)
		jw_int(w, ns / 1000000);
	else
		jw_double(w, (double)ns / 1e6);
}

/* ---- bailian ---- */

struct brec {
	int64_t chat, parent, turn, t_ns, in, out;
	size_t hoff, nh;
	uint64_t group;
	size_t idx;
};

struct bailian {
	struct brec *r;
	size_t n, cap;
	int64_t *hash;
	size_t nhash, caphash;
	struct trace_parser tp;
	int rebase;
};

static void add_hash_ids(struct bailian *b, struct brec *r)
{
	const struct trace_line *l = &b->tp.line;

	r->hoff = b->nhash;
	r->nh = l->n_hash;
	while (b->nhash + l->n_hash > b->caphash) {
		b->caphash = b->caphash ? b->caphash * 2 : 4096;
		b->hash = xreallocarray(b->hash, b->caphash, sizeof(*b->hash));
	}
	if (l->n_hash)
		memcpy(b->hash + b->nhash, l->hash_ids, l->n_hash * sizeof(*b->hash));
	b->nhash += l->n_hash;
}

/* A record read as aiperf-gen's bailian_trace reads it (trace_parse() in
 * seconds, then bailian_parse()); its timestamp's text read exactly. */
static void on_bailian(void *ctx, const char *name, size_t lineno, const char *s,
		       size_t len)
{
	struct bailian *b = ctx;
	const struct json *t;
	struct bailian_rec br;
	struct brec r = { 0 };
	char err[256];
	int rc = trace_parse(&b->tp, s, len, err, sizeof(err));

	if (rc == 0)
		return;
	if (rc < 0 || bailian_parse(b->tp.line.root, &br, err, sizeof(err)) < 0)
		die("%s:%zu: %s", name, lineno, err);
	t = json_get(b->tp.line.root, "timestamp");
	if (tt_parse_seconds_n(t->str, t->len, &r.t_ns) < 0)
		die("%s:%zu: timestamp: cannot read '%.*s' exactly", name, lineno,
		    (int)t->len, t->str);
	if (b->rebase && b->n && r.t_ns < b->r[0].t_ns)
		die("%s:%zu: timestamp: earlier than the first record's: rebased, "
		    "it would be negative (--no-rebase keeps the source's times)",
		    name, lineno);
	r.chat = br.chat;
	r.parent = br.parent;
	r.turn = br.turn;
	r.in = br.in;
	r.out = br.out;
	add_hash_ids(b, &r);
	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 4096;
		b->r = xreallocarray(b->r, b->cap, sizeof(*b->r));
	}
	r.idx = b->n;
	b->r[b->n++] = r;
}

static int cmp_rec(const void *x, const void *y)
{
	const struct brec *a = x, *b = y;

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if (a->turn != b->turn)
		return a->turn < b->turn ? -1 : 1;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

/* Sessions: the roots of the parent chains (bailian_roots), numbered in
 * order of first appearance; each record's parent becomes its session id. */
static void group(struct bailian *b)
{
	int64_t *chat = xcalloc(b->n + 1, sizeof(*chat));
	int64_t *parent = xcalloc(b->n + 1, sizeof(*parent));
	int64_t *root = xcalloc(b->n + 1, sizeof(*root));
	size_t *group = xcalloc(b->n + 1, sizeof(*group));
	int rc;

	for (size_t i = 0; i < b->n; i++) {
		chat[i] = b->r[i].chat;
		parent[i] = b->r[i].parent;
	}
	if ((rc = bailian_group(chat, parent, b->n, TT_MAP_MAX, root, group)) < 0)
		die("too many %s", rc == -1 ? "chats" : "sessions");
	for (size_t i = 0; i < b->n; i++) {
		b->r[i].group = group[i];
		b->r[i].parent = root[i];	/* from here on: the session id */
	}
	free(chat);
	free(parent);
	free(root);
	free(group);
}

static void emit(const struct bailian *b, const struct brec *r, int64_t t0,
		 struct buf *out)
{
	struct jw w;
	char sid[32];

	buf_reset(out);
	jw_init(&w, out, 0);
	jw_obj(&w);
	snprintf(sid, sizeof(sid), "%lld", (long long)r->parent);
	jw_key(&w, "session_id");
	jw_str(&w, sid);
	jw_key(&w, "timestamp");
	tt_write_ms(&w, r->t_ns - t0);
	jw_key(&w, "input_length");
	jw_int(&w, r->in);
	jw_key(&w, "output_length");
	jw_int(&w, r->out);
	if (r->nh) {
		jw_key(&w, "hash_ids");
		jw_arr(&w);
		for (size_t i = 0; i < r->nh; i++)
			jw_int(&w, b->hash[r->hoff + i]);
		jw_arr_end(&w);
	}
	jw_obj_end(&w);
	buf_addch(out, '\n');
	if (fwrite(out->s, 1, out->len, stdout) != out->len)
		die_write();
}

void tt_bailian(char **files, int n, int rebase)
{
	struct bailian b = { 0 };
	struct buf out = BUF_INIT(BUF_NOMAX);
	int64_t t0;

	trace_parser_init(&b.tp, 0);
	b.tp.ts_kind = FIELD_SECONDS;
	b.rebase = rebase;
	tt_each_line(files, n, on_bailian, &b);
	t0 = rebase && b.n ? b.r[0].t_ns : 0;
	group(&b);
	if (b.n)	/* qsort() takes no NULL array, even of none */
		qsort(b.r, b.n, sizeof(*b.r), cmp_rec);
	for (size_t i = 0; i < b.n; i++)
		emit(&b, &b.r[i], t0, &out);
	buf_release(&out);
	trace_parser_release(&b.tp);
	free(b.r);
	free(b.hash);
}
