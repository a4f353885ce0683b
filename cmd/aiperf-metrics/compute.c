/* SPDX-License-Identifier: Apache-2.0 */
/* Per-record metrics in the original's computation order, written as one profile_export.jsonl line. */
#include "metrics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/metricdef.h"
#include "stats/numfmt.h"
#include "status.h"

#define MAXM 128
#define NS_S (1.0 / 1e9)
#define NS_MS (1.0 / 1e6)

enum vkind { V_NONE, V_INT, V_DBL, V_LIST };

struct val {
	enum vkind k;
	int64_t i;
	double d;
};

struct mstate {
	struct val v[MAXM];
	int64_t *icl;
	size_t nicl, capicl;
	struct buf text;	/* the metrics object being written */
};

/* Each metric's member text around its value: "tag":{"value": and
 * ,"unit":"display"} (records are written compactly). */
static struct {
	char *pre, *post;
	size_t npre, npost;
} mtext[MAXM];

/* Applicability of a metric for a record (the original's flag filters). */
enum ctx_bits {
	C_STREAM = 1 << 0,
	C_TOKENS = 1 << 1,	/* endpoint produces tokens */
	C_INPUT = 1 << 2,	/* endpoint tokenizes input */
	C_SERVER = 1 << 3,	/* --use-server-token-count */
	C_ERROR = 1 << 4,	/* error record: ERROR_ONLY metrics */
	C_IMAGE = 1 << 5,	/* endpoint takes images (supports_images) */
	C_VIDEO = 1 << 6,	/* endpoint produces video */
	C_NKEYS = 1 << 7,
};

struct order {
	int done;
	size_t n;
	int tag[MAXM];
};

static struct order orders[C_NKEYS];
static _Thread_local struct mstate *st;

/* Catalogue index of tag, memoized by the tag's address: string literals only. */
static int
idx(const char *tag)
{
	static _Thread_local const char *key[256];
	static _Thread_local int val[256];
	size_t h = ((uintptr_t)tag >> 3) & 255;
	const struct metricdef *m;

	if (key[h] == tag)
		return val[h];
	m = metricdef_find(tag);
	key[h] = tag;
	val[h] = m ? (int)(m - metricdefs) : -1;
	return val[h];
}

static int
applicable(const struct metricdef *m, unsigned c)
{
	if (!!(m->flags & MF_ERROR_ONLY) != !!(c & C_ERROR))
		return 0;
	if (m->kind != METRIC_RECORD || (m->flags & MF_GOODPUT))
		return 0;
	if ((m->flags & MF_STREAMING_ONLY) && !(c & C_STREAM))
		return 0;
	if ((m->flags & MF_TOKENS_ONLY) && !(c & C_TOKENS))
		return 0;
	if ((m->flags & MF_INPUT_ONLY) && !(c & C_INPUT))
		return 0;
	if ((m->flags & MF_IMAGE) && !(c & C_IMAGE))
		return 0;
	if ((m->flags & MF_VIDEO) && !(c & C_VIDEO))
		return 0;
	return !((m->flags & MF_USAGE_DIFF) && (c & C_SERVER));
}

/* graphlib bookkeeping for one node. */
struct node {
	int npred;
	int nsucc;
	int succ[MAXM];
};

static int
node_of(int *map, int *nodes, int *nn, int tag)
{
	if (map[tag] < 0) {
		map[tag] = *nn;
		nodes[(*nn)++] = tag;
	}
	return map[tag];
}

/* Add tag's dependency edges: each dep node created in deps order. */
static void
add_node(struct node *g, int *map, int *nodes, int *nn, int tag)
{
	const char *d = metricdefs[tag].deps;
	int me = node_of(map, nodes, nn, tag);

	while (d && *d) {
		size_t len = strcspn(d, " ");
		char t[64];
		const struct metricdef *m;
		int dep, dn;

		snprintf(t, sizeof(t), "%.*s", (int)len, d);
		d += len + (d[len] == ' ');
		if (!(m = metricdef_find(t)))
			continue;
		dep = (int)(m - metricdefs);
		dn = node_of(map, nodes, nn, dep);
		g[dn].succ[g[dn].nsucc++] = me;
		g[me].npred++;
	}
}

/* graphlib.TopologicalSorter.static_order() over the applicable tags. */
static void
order_build(struct order *o, unsigned c)
{
	static struct node g[MAXM];
	int map[MAXM], nodes[MAXM], ready[MAXM], next[MAXM];
	int nn = 0, nr = 0;

	memset(g, 0, sizeof(g));
	memset(map, -1, sizeof(map));
	for (size_t t = 0; t < metricdefs_len && t < MAXM; t++)
		if (applicable(&metricdefs[t], c))
			add_node(g, map, nodes, &nn, (int)t);
	for (int i = 0; i < nn; i++)
		if (!g[i].npred)
			ready[nr++] = i;
	o->n = 0;
	while (nr) {
		int nx = 0;

		for (int i = 0; i < nr; i++) {
			struct node *x = &g[ready[i]];

			if (applicable(&metricdefs[nodes[ready[i]]], c))
				o->tag[o->n++] = nodes[ready[i]];
			for (int s = 0; s < x->nsucc; s++)
				if (--g[x->succ[s]].npred == 0)
					next[nx++] = x->succ[s];
		}
		memcpy(ready, next, (size_t)nx * sizeof(int));
		nr = nx;
	}
	o->done = 1;
}

static void
set_int(const char *tag, int64_t v)
{
	int i = idx(tag);

	if (i >= 0)
		st->v[i] = (struct val){ V_INT, v, 0 };
}

static void
set_dbl(const char *tag, double v)
{
	int i = idx(tag);

	if (i >= 0)
		st->v[i] = (struct val){ V_DBL, 0, v };
}

static const struct val *
get(const char *tag)
{
	int i = idx(tag);

	return i >= 0 && st->v[i].k != V_NONE ? &st->v[i] : NULL;
}

static double
num(const struct val *v)
{
	return v->k == V_INT ? (double)v->i : v->d;
}

/* Field a (else its alias b) of a usage object. */
static int
usage_field(const struct json *u, const char *a, const char *b, int64_t *v)
{
	return json_int64(json_path(u, a), v) == 0 || (b && json_int64(json_path(u, b), v) == 0);
}

struct counts {
	int64_t in, out, reason;	/* -1: none */
};

static void
server_counts(const struct rec *r, struct counts *c)
{
	const struct json *u = rec_usage(r);
	int64_t v, comp;

	c->in = c->out = c->reason = -1;
	if (!u)
		return;
	if (usage_field(u, "prompt_tokens", "input_tokens", &v))
		c->in = v;
	if (usage_field(u, "completion_tokens_details.reasoning_tokens",
			"output_tokens_details.reasoning_tokens", &v))
		c->reason = v;
	if (usage_field(u, "completion_tokens", "output_tokens", &comp)) {
		comp -= c->reason > 0 ? c->reason : 0;
		c->out = comp < 0 ? 0 : comp;
	}
}

static void
client_counts(struct rec *r, const struct opts *o, struct counts *c)
{
	c->in = tokens_input(o->tok, r);
	c->out = r->has_out ? tokenizer_count(o->tok, r, r->out_text.s, r->out_text.len) : -1;
	c->reason = r->has_reason
		? tokenizer_count(o->tok, r, r->reason_text.s, r->reason_text.len) : -1;
}

static int
tokenizing(const struct rec *r, const struct opts *o)
{
	return !o->server_tokens && (r->caps & ENDPOINT_TOKENIZES_INPUT);
}

static void
icl_push(int64_t v)
{
	if (st->nicl == st->capicl) {
		st->capicl = st->capicl ? st->capicl * 2 : 64;
		st->icl = xreallocarray(st->icl, st->capicl, sizeof(*st->icl));
	}
	st->icl[st->nicl++] = v;
}

/* TTFT, TTST, TTFO, request latency and the inter-chunk gaps. */
static void
timing_metrics(const struct rec *r)
{
	int64_t first = -1, second = -1, last = -1, prev = -1, ttfo = -1;
	int neg = 0;

	st->nicl = 0;
	for (size_t i = 0; i < r->nr; i++) {
		if (!r->r[i].data)
			continue;
		if (first < 0)
			first = r->r[i].perf_ns;
		else if (second < 0)
			second = r->r[i].perf_ns;
		if (ttfo < 0 && r->r[i].output)
			ttfo = r->r[i].perf_ns;
		if (prev >= 0) {
			neg |= r->r[i].perf_ns < prev;
			icl_push(r->r[i].perf_ns - prev);
		}
		prev = last = r->r[i].perf_ns;
	}
	if (first - r->start_perf_ns >= 0)
		set_int("time_to_first_token", first - r->start_perf_ns);
	if (second >= 0)
		set_int("time_to_second_token", second - first);
	if (ttfo >= 0)
		set_int("time_to_first_output_token", ttfo - r->start_perf_ns);
	if (last - r->start_perf_ns >= 0)
		set_int("request_latency", last - r->start_perf_ns);
	if (st->nicl >= 1 && !neg)
		st->v[idx("inter_chunk_latency")].k = V_LIST;
}

static void
token_metrics(struct rec *r, const struct opts *o)
{
	struct counts c = { -1, -1, -1 };

	if (o->server_tokens)
		server_counts(r, &c);
	else if (tokenizing(r, o))
		client_counts(r, o, &c);
	if (c.in >= 0)
		set_int("input_sequence_length", c.in);
	if (c.out > 0)
		set_int("output_token_count", c.out);
	if (c.reason > 0)
		set_int("reasoning_token_count", c.reason);
	if (c.out >= 0 || c.reason >= 0)
		set_int("output_sequence_length", (c.out > 0 ? c.out : 0)
			+ (c.reason > 0 ? c.reason : 0));
}

/* usage_* metrics: fields of the last non-empty usage block (record.final_usage). */
static void
usage_metrics(const struct rec *r)
{
	const struct json *u = rec_usage(r);
	int64_t v;

	if (!u)
		return;
	if (usage_field(u, "prompt_tokens", "input_tokens", &v))
		set_int("usage_prompt_tokens", v);
	if (usage_field(u, "completion_tokens", "output_tokens", &v))
		set_int("usage_completion_tokens", v);
	if (usage_field(u, "total_tokens", NULL, &v))
		set_int("usage_total_tokens", v);
	if (usage_field(u, "completion_tokens_details.reasoning_tokens",
			"output_tokens_details.reasoning_tokens", &v))
		set_int("usage_reasoning_tokens", v);
}

static void
diff_pct(const char *tag, const char *usage, const char *client)
{
	const struct val *u = get(usage), *c = get(client);

	if (u && c && num(c) != 0)
		set_dbl(tag, (fabs(num(u) - num(c)) / num(c)) * 100.0);
}

static int
requested_osl(const struct rec *r, int64_t *v)
{
	return json_int64(json_get(r->aiperf, "max_tokens"), v) == 0
	       || json_int64(json_get(r->payload, "max_completion_tokens"), v) == 0
	       || json_int64(json_get(r->payload, "max_tokens"), v) == 0
	       || json_int64(json_get(r->payload, "max_output_tokens"), v) == 0;
}

/* num_images (image parts sent), image_throughput (images/sec) and
 * image_latency (ms/image), for the endpoints that take images. */
static void
image_metrics(const struct rec *r, const struct val *lat)
{
	int64_t n;

	if (!(r->caps & ENDPOINT_TAKES_IMAGES) || (n = rec_count_images(r)) <= 0)
		return;
	set_int("num_images", n);
	if (lat && lat->i != 0)
		set_dbl("image_throughput", (double)n / ((double)lat->i * NS_S));
	if (lat)
		set_dbl("image_latency", ((double)lat->i * NS_MS) / (double)n);
}

static void
derived_metrics(const struct rec *r)
{
	const struct val *ttft = get("time_to_first_token");
	const struct val *lat = get("request_latency");
	const struct val *osl = get("output_sequence_length");
	const struct val *isl = get("input_sequence_length");
	const struct val *itl, *setup;
	int64_t req;

	if (lat && ttft && osl && osl->i >= 2)
		set_dbl("inter_token_latency", (double)(lat->i - ttft->i) / (double)(osl->i - 1));
	if ((itl = get("inter_token_latency")) && itl->d * NS_S != 0)
		set_dbl("output_token_throughput_per_user", 1.0 / (itl->d * NS_S));
	if (osl && lat && lat->i != 0)
		set_dbl("e2e_output_token_throughput", (double)osl->i / ((double)lat->i * NS_S));
	if (isl && ttft && ttft->i != 0)
		set_dbl("prefill_throughput_per_user", (double)isl->i / ((double)ttft->i * NS_S));
	if ((setup = get("stream_setup_latency")) && ttft)
		set_int("stream_prefill_latency", ttft->i - setup->i);
	diff_pct("usage_prompt_tokens_diff_pct", "usage_prompt_tokens", "input_sequence_length");
	diff_pct("usage_completion_tokens_diff_pct", "usage_completion_tokens",
		 "output_sequence_length");
	diff_pct("usage_reasoning_tokens_diff_pct", "usage_reasoning_tokens",
		 "reasoning_token_count");
	image_metrics(r, lat);
	if (requested_osl(r, &req)) {
		set_int("requested_osl", req);
		if (osl && req != 0)
			set_dbl("osl_mismatch_diff_pct",
				((double)(osl->i - req) / (double)req) * 100.0);
	}
}

static int64_t
http_ns(const struct json *h, const char *k)
{
	int64_t v;

	return json_int64(json_get(h, k), &v) == 0 && v > 0 ? v : 0;
}

/* k6-style HTTP metrics from libcurl's cumulative times in aiperf.http. */
static void
http_metrics(const struct rec *r)
{
	const struct json *h = json_get(r->aiperf, "http");
	int64_t dns, conn, ttfb, total, v;

	if (!h || h->type != JSON_OBJECT)
		return;
	dns = http_ns(h, "dns_ns");
	conn = http_ns(h, "tls_ns") > http_ns(h, "connect_ns") ? http_ns(h, "tls_ns")
							     : http_ns(h, "connect_ns");
	conn = conn > dns ? conn : dns;
	ttfb = http_ns(h, "ttfb_ns") > conn ? http_ns(h, "ttfb_ns") : conn;
	total = http_ns(h, "total_ns") > ttfb ? http_ns(h, "total_ns") : ttfb;
	set_int("http_req_blocked", 0);
	set_int("http_req_dns_lookup", dns);
	set_int("http_req_connecting", conn - dns);
	set_int("http_req_sending", 0);
	set_int("http_req_waiting", ttfb - conn);
	set_int("http_req_receiving", total - ttfb);
	set_int("http_req_duration", total - conn);
	set_int("http_req_connection_overhead", conn);
	set_int("http_req_total", total);
	if (json_int64(json_get(h, "bytes_sent"), &v) == 0)
		set_int("http_req_data_sent", v);
	if (json_int64(json_get(h, "bytes_received"), &v) == 0)
		set_int("http_req_data_received", v);
	v = json_truthy(json_get(h, "reused"));
	set_int("http_req_connection_reused", v);
}

static void
stream_setup(const struct rec *r)
{
	int64_t v;

	if (json_int64(json_get(r->aiperf, "recv_start_perf_ns"), &v) == 0)
		set_int("stream_setup_latency", v - r->start_perf_ns);
}

/* The original's RequestRecord/ParsedResponseRecord validity rules. */
static int
valid(const struct rec *r)
{
	int64_t end = 0;
	int has_data = 0;

	if (r->error || r->perr || !r->has_start || r->nraw == 0 || r->bad_perf)
		return 0;
	for (size_t i = 0; i < r->nr; i++) {
		has_data |= r->r[i].data;
		end = r->r[i].perf_ns;
	}
	if (json_int64(json_get(r->aiperf, "end_perf_ns"), &end) < 0 && !r->nr)
		return 0;
	return has_data && r->start_perf_ns >= 0 && r->start_perf_ns < end
	       && end < INT64_MAX;
}

static unsigned
ctx_of(const struct rec *r, const struct opts *o, int err)
{
	unsigned c = 0;

	c |= r->stream ? C_STREAM : 0;
	c |= r->caps & ENDPOINT_PRODUCES_TOKENS ? C_TOKENS : 0;
	c |= r->caps & ENDPOINT_TOKENIZES_INPUT ? C_INPUT : 0;
	c |= r->caps & ENDPOINT_TAKES_IMAGES ? C_IMAGE : 0;
	c |= o->server_tokens ? C_SERVER : 0;
	c |= err ? C_ERROR : 0;
	c |= r->caps & ENDPOINT_PRODUCES_VIDEO ? C_VIDEO : 0;
	return c;
}

static void
add_double(struct buf *b, double v)
{
	char tmp[40];

	buf_put(b, tmp, numfmt_repr(tmp, v, NUMFMT_ORJSON));
}

/* An integer (ns) times a unit's factor: numfmt_scaled() writes it as
 * add_double() would the product. */
static void
add_scaled(struct buf *b, int64_t i, double f)
{
	char tmp[40];

	buf_put(b, tmp, numfmt_scaled(tmp, (long long)i, f, NUMFMT_ORJSON));
}

/* As jw_double()/jw_int() would write it. */
static void
write_value(struct buf *b, const struct metricdef *m, const struct val *v)
{
	char tmp[24];

	if (v->k == V_LIST) {
		buf_put(b, "[", 1);
		for (size_t i = 0; i < st->nicl; i++) {
			if (i)
				buf_put(b, ",", 1);
			add_scaled(b, st->icl[i], m->factor);
		}
		buf_put(b, "]", 1);
	} else if (strcmp(m->unit, m->display)) {
		if (v->k == V_INT)
			add_scaled(b, v->i, m->factor);
		else
			add_double(b, v->d * m->factor);
	} else if (v->k == V_INT) {
		buf_put(b, tmp, numfmt_int(tmp, v->i));
	} else {
		add_double(b, v->d);
	}
}

/* Writes the metrics object; returns how many metrics it holds. */
static int
write_metrics(struct jw *w, unsigned c)
{
	struct order *ord = &orders[c];
	struct buf *b = &st->text;
	int n = 0;

	if (!ord->done)
		metrics_init();
	buf_reset(b);
	buf_put(b, "{", 1);
	for (size_t i = 0; i < ord->n; i++) {
		int t = ord->tag[i];
		const struct metricdef *m = &metricdefs[t];
		const struct val *v = &st->v[t];

		if (v->k == V_NONE || (m->flags & (MF_INTERNAL | MF_EXPERIMENTAL | MF_NO_INDIVIDUAL)))
			continue;
		if (n++)
			buf_put(b, ",", 1);
		buf_put(b, mtext[t].pre, mtext[t].npre);
		write_value(b, m, v);
		buf_put(b, mtext[t].post, mtext[t].npost);
	}
	buf_put(b, "}", 1);
	jw_key(w, "metrics");
	jw_raw(w, b->s, b->len);
	return n;
}

static void
write_error(struct jw *w, const struct rec *r)
{
	jw_key(w, "error");
	if (r->error) {
		jw_value(w, r->error);
		return;
	}
	/* ErrorDetails.from_exception: fields in dataclass order, None left out. */
	jw_obj(w);
	jw_key(w, "message");
	if (r->perr)
		jw_strn(w, r->emsg.s, r->emsg.len);
	else
		jw_str(w, "InvalidInferenceResultError('Invalid inference result')");
	jw_key(w, "type");
	if (r->perr)
		jw_strn(w, r->etype_s.s, r->etype_s.len);
	else
		jw_str(w, "InvalidInferenceResultError");
	jw_key(w, "cause_chain");
	jw_arr(w);
	if (r->perr)
		jw_strn(w, r->etype_s.s, r->etype_s.len);
	else
		jw_str(w, "InvalidInferenceResultError");
	jw_arr_end(w);
	jw_obj_end(w);
}

/* --export-http-trace: the raw record's trace_data, else aiperf.http as a curl trace. */
static void
write_trace(struct jw *w, const struct rec *r)
{
	const struct json *h = json_get(r->aiperf, "http");

	if (r->trace && r->trace->type == JSON_OBJECT) {
		jw_key(w, "trace_data");
		jw_value(w, r->trace);
		return;
	}
	if (!h || h->type != JSON_OBJECT)
		return;
	jw_key(w, "trace_data");
	jw_obj(w);
	jw_key(w, "trace_type");
	jw_str(w, "curl");
	for (const struct json *m = h->child; m; m = m->next) {
		if (m->keylen == 10 && !memcmp(m->key, "trace_type", 10))
			continue;
		jw_keyn(w, m->key, m->keylen);
		jw_value(w, m);
	}
	jw_obj_end(w);
}

static void
compute_valid(struct rec *r, const struct opts *o)
{
	timing_metrics(r);
	stream_setup(r);
	token_metrics(r, o);
	usage_metrics(r);
	derived_metrics(r);
	http_metrics(r);
	if (r->has_vinf)
		set_dbl("video_inference_time", r->vinf_s);
	if (r->has_vmem)
		set_dbl("video_peak_memory", r->vmem_mb);
}

static void
compute_error(struct rec *r, const struct opts *o)
{
	int64_t isl = -1;

	if (tokenizing(r, o))
		isl = tokens_input(o->tok, r);
	if (isl >= 0)
		set_int("error_isl", isl);
}

struct mstate *
mstate_new(void)
{
	struct mstate *m = xcalloc(1, sizeof(struct mstate));

	buf_init(&m->text, BUF_NOMAX);
	return m;
}

void
mstate_free(struct mstate *m)
{
	if (m) {
		free(m->icl);
		buf_release(&m->text);
	}
	free(m);
}

static void
mtext_build(void)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	for (size_t t = 0; t < metricdefs_len && t < MAXM; t++) {
		if (mtext[t].pre)
			continue;
		json_quote(&b, metricdefs[t].tag, strlen(metricdefs[t].tag));
		buf_addstr(&b, ":{\"value\":");
		mtext[t].pre = buf_detach(&b, &mtext[t].npre);
		buf_addstr(&b, ",\"unit\":");
		json_quote(&b, metricdefs[t].display, strlen(metricdefs[t].display));
		buf_addch(&b, '}');
		mtext[t].post = buf_detach(&b, &mtext[t].npost);
	}
}

void
metrics_init(void)
{
	for (unsigned c = 0; c < C_NKEYS; c++)
		if (!orders[c].done)
			order_build(&orders[c], c);
	mtext_build();
}

int
rec_emit(struct rec *r, const struct opts *o, struct buf *out)
{
	int ok = valid(r), n;
	struct jw w;

	st = r->ms;

	for (size_t i = 0; i < metricdefs_len && i < MAXM; i++)
		st->v[i].k = V_NONE;
	if (ok)
		compute_valid(r, o);
	else
		compute_error(r, o);
	rec_grade(r, o, ok);
	buf_reset(out);
	jw_init(&w, out, 0);
	jw_obj(&w);
	jw_key(&w, "metadata");
	if (r->meta_raw)
		jw_raw(&w, r->meta_raw, r->meta_len);
	else
		jw_value(&w, r->metadata);
	n = write_metrics(&w, ctx_of(r, o, !ok));
	if (o->export_trace)
		write_trace(&w, r);
	if (!ok)
		write_error(&w, r);
	health_write(&w, r, ok);
	jw_obj_end(&w);
	buf_addch(out, '\n');
	return ok && n == 0;
}

/* The status stream's view of r (status.h), after rec_emit(r). */
void
rec_status_of(const struct rec *r, struct status_item *it)
{
	const struct val *v;
	int64_t intended;

	st = r->ms;
	it->warmup = r->warmup;
	it->error = !valid(r);
	it->start_ns = r->has_start ? r->start_perf_ns : -1;
	it->end_ns = r->nr ? r->r[r->nr - 1].perf_ns : -1;
	it->late_ns = INT64_MIN;
	if (r->has_start && json_int64(json_get(r->aiperf, "intended_perf_ns"), &intended) == 0)
		it->late_ns = r->start_perf_ns - intended;
	it->ttft_ns = it->lat_ns = it->osl = -1;
	it->itl_ns = -1;
	it->etype[0] = 0;
	if (it->error) {
		const char *t = r->perr ? NULL : json_str_or(json_get(r->error, "type"), NULL);
		int n;

		if (r->perr)
			n = snprintf(it->etype, sizeof(it->etype), "%.*s", (int)r->etype_s.len,
				     r->etype_s.s);
		else
			n = snprintf(it->etype, sizeof(it->etype), "%s",
				     t ? t : r->error ? "Error" : "InvalidInferenceResultError");
		(void)n;
	}
	if (it->error || r->warmup)
		return;
	if ((v = get("time_to_first_token")))
		it->ttft_ns = (int64_t)num(v);
	if ((v = get("request_latency")))
		it->lat_ns = (int64_t)num(v);
	if ((v = get("inter_token_latency")))
		it->itl_ns = num(v);
	if ((v = get("output_sequence_length")))
		it->osl = (int64_t)num(v);
}
