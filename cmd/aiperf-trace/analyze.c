/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-trace analyze: prefix statistics of a trace in memory bounded by its distinct prefixes. */
#include <sys/stat.h>
#include <math.h>

#include "hmap.h"
#include "dataset/trace.h"
#include "tt.h"
#include "util.h"

/*
 * The original keeps every line's hash_ids; we keep a prefix trie instead:
 * node = (parent node, hash id), so distinct prefixes cost one node each.
 * Value lists become histograms (value -> count), and the context length,
 * which needs the final (position, hash id) counts, is computed at the end
 * once per distinct (leaf node, input_length).
 */
/* A trie node: one distinct prefix. child caches the last child taken, so
 * a walk along a known path skips the map (one cache line a step). */
struct tnode {
	uint64_t count, parent, depth, child;
	int64_t hash, child_hash;
};

struct analysis {
	int64_t block;
	uint64_t total;
	struct hmap prefix;	/* (parent, hash) -> node id (1-based) */
	struct tnode *node;	/* [0] is the root */
	size_t nnodes, ncap;
	struct hmap pos;	/* (position, hash) -> count, made at the end */
	struct hmap seen;	/* (hash, 0) -> 1 */
	struct hmap leaf;	/* (leaf node, isl) -> count */
	struct hmap isl, osl, ctx, uniq;	/* (value, 0) -> count */
	struct hmap hit;	/* (first unseen index, len) -> count */
	struct trace_parser tp;
};

static uint64_t *put(struct hmap *m, uint64_t a, uint64_t b, int *created)
{
	uint64_t *v = hmap_put(m, a, b, created);

	if (!v)
		die("too many distinct values (more than %zu)", m->max);
	return v;
}

static void bump(struct hmap *m, uint64_t a, uint64_t b, uint64_t n)
{
	int created;

	*put(m, a, b, &created) += n;
}

static uint64_t new_node(struct analysis *an, uint64_t parent, int64_t h,
			 size_t depth)
{
	if (an->nnodes + 1 >= an->ncap) {
		an->ncap = an->ncap ? an->ncap * 2 : 1024;
		an->node = xreallocarray(an->node, an->ncap, sizeof(*an->node));
	}
	an->nnodes++;
	an->node[an->nnodes] = (struct tnode){ .parent = parent, .depth = depth,
					       .hash = h };
	return an->nnodes;
}

/*
 * Walk the trie along the line's ids. Only ids on nodes this line creates
 * can be new to the seen set: a node that exists was made by an earlier
 * line, which put all ids of its path in the set. So the set is touched
 * once per new node, and a repeated line costs one lookup per id.
 */
/* The child of node for id h, created when new (*fresh set). */
static uint64_t child(struct analysis *an, uint64_t node, int64_t h, size_t depth,
		      int *fresh)
{
	struct tnode *p = &an->node[node];
	uint64_t *slot, next;
	int created;

	if (p->child && p->child_hash == h)
		return p->child;
	slot = put(&an->prefix, node, (uint64_t)h, &created);
	if (created) {
		*slot = new_node(an, node, h, depth);
		*fresh = 1;
	}
	next = *slot;
	an->node[node].child = next;
	an->node[node].child_hash = h;
	return next;
}

static void add_hashes(struct analysis *an, const struct trace_line *l)
{
	uint64_t node = 0, first = l->n_hash;
	int created, fresh = 0;

	for (size_t i = 0; i < l->n_hash; i++) {
		node = child(an, node, l->hash_ids[i], i, &fresh);
		an->node[node].count++;
		if (fresh) {
			put(&an->seen, (uint64_t)l->hash_ids[i], 0, &created);
			if (created && first == l->n_hash)
				first = i;
		}
	}
	bump(&an->hit, first, l->n_hash, 1);
	bump(&an->leaf, node, (uint64_t)l->input_length, 1);
}

static void on_line(void *ctx, const char *name, size_t lineno, const char *s,
		    size_t len)
{
	struct analysis *an = ctx;
	const struct trace_line *l = &an->tp.line;
	char err[256];
	int rc = trace_parse(&an->tp, s, len, err, sizeof(err));

	if (rc < 0)
		die("%s:%zu: %s", name, lineno, err);
	if (rc == 0)
		return;
	an->total++;
	bump(&an->isl, (uint64_t)l->input_length, 0, 1);
	bump(&an->osl, (uint64_t)l->output_length, 0, 1);
	if (l->has & TRACE_HASH_IDS) {
		add_hashes(an, l);
	} else {
		bump(&an->ctx, 0, 0, 1);
		bump(&an->uniq, (uint64_t)l->input_length, 0, 1);
	}
}

/* Context length of the path ending at node for input length isl. */
static int64_t context_len(const struct analysis *an, uint64_t node, int64_t isl)
{
	int64_t repeated = 0;
	int all = 1;

	for (uint64_t n = node; n; n = an->node[n].parent) {
		const uint64_t *c = hmap_find(&an->pos, an->node[n].depth,
					      (uint64_t)an->node[n].hash);

		if (c && *c > 1)
			repeated++;
		else
			all = 0;
	}
	return all ? isl : repeated * an->block;
}

static void finish_context(struct analysis *an)
{
	size_t it = 0;
	uint64_t node, isl, n;

	/* Each occurrence of id h at position i is one pass through a node of
	 * depth i and hash h, so the pair counts are sums of node counts. */
	for (size_t k = 1; k <= an->nnodes; k++)
		bump(&an->pos, an->node[k].depth, (uint64_t)an->node[k].hash,
		     an->node[k].count);

	while (hmap_next(&an->leaf, &it, &node, &isl, &n)) {
		int64_t c = context_len(an, node, (int64_t)isl);

		bump(&an->ctx, (uint64_t)c, 0, n);
		bump(&an->uniq, (uint64_t)((int64_t)isl - c), 0, n);
	}
}

/* A histogram as sorted (value, count) pairs. */
struct bin {
	double v;
	int64_t iv;
	uint64_t n;
};

static int cmp_bin(const void *a, const void *b)
{
	double x = ((const struct bin *)a)->v, y = ((const struct bin *)b)->v;

	return (x > y) - (x < y);
}

static struct bin *sorted_bins(const struct hmap *m, int ratio, uint64_t *total)
{
	struct bin *b = xcalloc(m->len + 1, sizeof(*b));
	size_t it = 0, k = 0;
	uint64_t x, y, n;

	*total = 0;
	while (hmap_next(m, &it, &x, &y, &n)) {
		b[k].iv = (int64_t)x;
		b[k].v = ratio ? (double)x / (double)y : (double)(int64_t)x;
		b[k].n = n;
		*total += n;
		k++;
	}
	qsort(b, k, sizeof(*b), cmp_bin);
	return b;
}

/* The k-th smallest value (0-based). */
static double order_stat(const struct bin *b, uint64_t k)
{
	uint64_t c = 0;

	for (size_t i = 0;; i++) {
		c += b[i].n;
		if (k < c)
			return b[i].v;
	}
}

static double lerp(double a, double b, double t)
{
	double d = b - a;

	return t >= 0.5 ? b - d * (1 - t) : a + d * t;
}

static double percentile(const struct bin *b, uint64_t n, double q)
{
	double idx = (double)(n - 1) * q, lo = floor(idx);
	uint64_t i = (uint64_t)lo, j = i + 1 < n ? i + 1 : n - 1;

	return lerp(order_stat(b, i), order_stat(b, j), idx - lo);
}

static double median(const struct bin *b, uint64_t n)
{
	if (n % 2)
		return order_stat(b, n / 2);
	return (order_stat(b, n / 2 - 1) + order_stat(b, n / 2)) / 2;
}

/* Exact sum of the doubles, scaled by 2^80 (hit rates lie in [0, 1]). */
static tt_u128 scaled_sum(const struct bin *b, size_t k)
{
	tt_u128 s = 0;

	for (size_t i = 0; i < k; i++) {
		int e;
		double f = frexp(b[i].v, &e);
		int64_t m = (int64_t)ldexp(f, 53);
		int shift = e - 53 + 80;
		tt_u128 x = shift >= 0 ? (tt_u128)m << shift : (tt_u128)(m >> -shift);

		s += x * b[i].n;
	}
	return s;
}

static double exact_mean(const struct bin *b, size_t k, uint64_t n, int ratio)
{
	tt_i128 s = 0;
	int neg;
	tt_u128 mag;

	if (ratio)
		return ldexp(tt_div_round(scaled_sum(b, k), n), -80);
	for (size_t i = 0; i < k; i++)
		s += (tt_i128)b[i].iv * (tt_i128)b[i].n;
	neg = s < 0;
	mag = neg ? (tt_u128)-s : (tt_u128)s;
	return (neg ? -1 : 1) * tt_div_round(mag, n);
}

static void summarize(const struct hmap *m, int ratio, struct tt_stats *st)
{
	uint64_t n;
	struct bin *b = sorted_bins(m, ratio, &n);
	size_t k = m->len;
	long double ss = 0;

	st->ok = n > 0;
	if (n) {
		st->mean = exact_mean(b, k, n, ratio);
		for (size_t i = 0; i < k; i++) {
			double d = b[i].v - st->mean;

			ss += (long double)(d * d) * (long double)b[i].n;
		}
		st->std = sqrt((double)ss / (double)n);
		st->min = b[0].v;
		st->max = b[k - 1].v;
		st->p25 = percentile(b, n, 0.25);
		st->median = median(b, n);
		st->p75 = percentile(b, n, 0.75);
	}
	free(b);
}

static void finish_prefixes(const struct analysis *an, struct tt_report *r)
{
	uint64_t reused = 0, all = 0;

	r->unique_prefixes = an->nnodes;
	for (size_t i = 1; i <= an->nnodes; i++) {
		uint64_t c = an->node[i].count;

		all += c;
		reused += c > 1 ? c : 0;
		if (an->node[i].parent == 0 && c > 1)
			r->num_prefix_groups++;
	}
	r->prefix_reuse_ratio = all ? tt_div_round(reused, all) : 0.0;
}

static void finish(struct analysis *an, struct tt_report *r)
{
	memset(r, 0, sizeof(*r));
	r->total_requests = an->total;
	finish_context(an);
	finish_prefixes(an, r);
	summarize(&an->isl, 0, &r->isl);
	summarize(&an->osl, 0, &r->osl);
	summarize(&an->ctx, 0, &r->ctx);
	summarize(&an->uniq, 0, &r->uniq);
	summarize(&an->hit, 1, &r->hit);
	r->cache_hit_rate = r->hit.ok ? r->hit.mean : 0.0;
	if (r->isl.ok) {
		r->min_isl = (int64_t)r->isl.min;
		r->max_isl = (int64_t)r->isl.max;
		r->avg_isl = r->isl.mean;
		r->min_osl = (int64_t)r->osl.min;
		r->max_osl = (int64_t)r->osl.max;
		r->avg_osl = r->osl.mean;
	}
}

static void analysis_init(struct analysis *an, int64_t block)
{
	memset(an, 0, sizeof(*an));
	an->block = block;
	hmap_init(&an->prefix, TT_MAP_MAX);
	hmap_init(&an->pos, TT_MAP_MAX);
	hmap_init(&an->seen, TT_MAP_MAX);
	hmap_init(&an->leaf, TT_MAP_MAX);
	hmap_init(&an->isl, TT_MAP_MAX);
	hmap_init(&an->osl, TT_MAP_MAX);
	hmap_init(&an->ctx, TT_MAP_MAX);
	hmap_init(&an->uniq, TT_MAP_MAX);
	hmap_init(&an->hit, TT_MAP_MAX);
	trace_parser_init(&an->tp, 0);
	an->ncap = 1024;
	an->node = xcalloc(an->ncap, sizeof(*an->node));
}

static void analysis_release(struct analysis *an)
{
	hmap_release(&an->prefix);
	hmap_release(&an->pos);
	hmap_release(&an->seen);
	hmap_release(&an->leaf);
	hmap_release(&an->isl);
	hmap_release(&an->osl);
	hmap_release(&an->ctx);
	hmap_release(&an->uniq);
	hmap_release(&an->hit);
	trace_parser_release(&an->tp);
	free(an->node);
}

struct analyze_opts {
	int64_t block;
	const char *output_file;
	int json;
	char **files;	/* --input-file values, then the operands */
	int nfiles;
};

enum { K_INPUT = 256 };

static const struct opt analyze_opts[] = {
	{ "input-file", K_INPUT, OPT_STR, "F", .to = NULL },
	{ "block-size", 'b', OPT_INT, "N", .min = 1, .max = INT32_MAX },
	{ "isl-block-size", 'b', .flags = OPT_ALIAS },
	{ "output-file", 'o', OPT_STR, "F", .to = NULL },
	{ "json", 'j', OPT_FLAG, .arg = NULL },
	{ "help", 'h', OPT_HELP, .arg = NULL },
	{ 0 },
};

const struct opt_cmd tt_analyze_cmd = {
	"aiperf-trace", analyze_opts, "[FILE ...]", 0, tt_usage_text,
	"invalid option for analyze",
};

static void add_file(struct analyze_opts *o, char *path)
{
	o->files = xreallocarray(o->files, (size_t)o->nfiles + 1, sizeof(*o->files));
	o->files[o->nfiles++] = path;
}

/* The files to read: each --input-file (the original's form), then the operands. */
static void parse_analyze(int argc, char **argv, struct analyze_opts *o)
{
	struct opt_iter it;
	int c;

	o->block = 512;
	opt_init(&it, &tt_analyze_cmd, argc, argv);
	while ((c = opt_next(&it)) != -1) {
		switch (c) {
		case K_INPUT: add_file(o, (char *)it.arg); break;
		case 'b': o->block = it.i; break;
		case 'o': o->output_file = it.arg; break;
		case 'j': o->json = 1; break;
		default: break;
		}
	}
	for (int i = it.ind; i < argc; i++)
		add_file(o, argv[i]);
}

/* mkdir -p of the directories above path, as the original does. */
static void make_parents(const char *path)
{
	char *dir = xstrdup(path);

	for (char *p = strchr(dir + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(dir, 0777) < 0 && errno != EEXIST)
			die("cannot create directory '%s':", dir);
		*p = '/';
	}
	free(dir);
}

static void write_file(const char *path, const char *text)
{
	FILE *f;

	make_parents(path);
	f = fopen(path, "w");

	if (!f || fputs(text, f) == EOF || fclose(f) != 0)
		die("cannot write '%s':", path);
}

int cmd_analyze(int argc, char **argv)
{
	struct analyze_opts o = { 0 };
	struct analysis an;
	struct tt_report r;
	char *json;

	parse_analyze(argc, argv, &o);
	analysis_init(&an, o.block);
	tt_each_line(o.files, o.nfiles, on_line, &an);
	free(o.files);
	finish(&an, &r);
	analysis_release(&an);
	json = tt_report_json(&r);
	if (o.json)
		printf("%s\n", json);
	else
		tt_report_console(stdout, &r);
	if (o.output_file) {
		write_file(o.output_file, json);
		fprintf(stderr, "Analysis report saved to %s\n", o.output_file);
	}
	free(json);
	return util_fshut(stdout, "stdout") < 0;
}
