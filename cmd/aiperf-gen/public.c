/* SPDX-License-Identifier: Apache-2.0 */
/* --public-dataset sharegpt: the file from a local path, the HuggingFace cache or the hub, filtered into conversations. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "dataset/sharegpt.h"
#include "gen.h"
#include "exgentic.h"
#include "hfpub.h"
#include "json/jarr.h"
#include "rand/pystr.h"
#include "tok/hfhub.h"
#include "json/pyval.h"
#include "util.h"

/* The original's loader (dataset/loader/sharegpt.py) reads this file of
 * this HuggingFace dataset repository, revision main. */
#define SHAREGPT_REPO "anon8231489123/ShareGPT_Vicuna_unfiltered"
#define SHAREGPT_FILE "ShareGPT_V3_unfiltered_cleaned_split.json"
/* where the original caches it, relative to the working directory */
#define ORIGINAL_CACHE ".cache/aiperf/datasets/" SHAREGPT_FILE
#define DATASET_MAX_BYTES ((size_t)8 << 30)

/* The original's custom types taken for public datasets: what to give. */
#define CUSTOM(what) "=" what " is a custom dataset type, not a public " \
	"dataset: prepare the SPEED-Bench files (aiperf-gen(1): SPEED-Bench datasets) " \
	"and give --input-file DIR --custom-dataset-type " what

/* The names the original's --public-dataset does not take but users try:
 * what to give instead. */
const char *const public_later[] = {
	"speed_bench_qualitative", CUSTOM("speed_bench_qualitative"),
	"speed_bench_coding", CUSTOM("speed_bench_coding"),
	"speed_bench_humanities", CUSTOM("speed_bench_humanities"),
	"speed_bench_math", CUSTOM("speed_bench_math"),
	"speed_bench_multilingual", CUSTOM("speed_bench_multilingual"),
	"speed_bench_qa", CUSTOM("speed_bench_qa"),
	"speed_bench_rag", CUSTOM("speed_bench_rag"),
	"speed_bench_reasoning", CUSTOM("speed_bench_reasoning"),
	"speed_bench_roleplay", CUSTOM("speed_bench_roleplay"),
	"speed_bench_stem", CUSTOM("speed_bench_stem"),
	"speed_bench_summarization", CUSTOM("speed_bench_summarization"),
	"speed_bench_writing", CUSTOM("speed_bench_writing"),
	"speed_bench_throughput_1k", CUSTOM("speed_bench_throughput_1k"),
	"speed_bench_throughput_2k", CUSTOM("speed_bench_throughput_2k"),
	"speed_bench_throughput_8k", CUSTOM("speed_bench_throughput_8k"),
	"speed_bench_throughput_16k", CUSTOM("speed_bench_throughput_16k"),
	"speed_bench_throughput_32k", CUSTOM("speed_bench_throughput_32k"),
	"speed_bench_throughput_1k_low_entropy", CUSTOM("speed_bench_throughput_1k_low_entropy"),
	"speed_bench_throughput_1k_mixed", CUSTOM("speed_bench_throughput_1k_mixed"),
	"speed_bench_throughput_1k_high_entropy", CUSTOM("speed_bench_throughput_1k_high_entropy"),
	"speed_bench_throughput_2k_low_entropy", CUSTOM("speed_bench_throughput_2k_low_entropy"),
	"speed_bench_throughput_2k_mixed", CUSTOM("speed_bench_throughput_2k_mixed"),
	"speed_bench_throughput_2k_high_entropy", CUSTOM("speed_bench_throughput_2k_high_entropy"),
	"speed_bench_throughput_8k_low_entropy", CUSTOM("speed_bench_throughput_8k_low_entropy"),
	"speed_bench_throughput_8k_mixed", CUSTOM("speed_bench_throughput_8k_mixed"),
	"speed_bench_throughput_8k_high_entropy", CUSTOM("speed_bench_throughput_8k_high_entropy"),
	"speed_bench_throughput_16k_low_entropy", CUSTOM("speed_bench_throughput_16k_low_entropy"),
	"speed_bench_throughput_16k_mixed", CUSTOM("speed_bench_throughput_16k_mixed"),
	"speed_bench_throughput_16k_high_entropy", CUSTOM("speed_bench_throughput_16k_high_entropy"),
	"speed_bench_throughput_32k_low_entropy", CUSTOM("speed_bench_throughput_32k_low_entropy"),
	"speed_bench_throughput_32k_mixed", CUSTOM("speed_bench_throughput_32k_mixed"),
	"speed_bench_throughput_32k_high_entropy", CUSTOM("speed_bench_throughput_32k_high_entropy"),
	NULL,
};

/*
 * validate_dataset_type; then --input-file, which a public dataset would
 * otherwise ignore, is the dataset's local copy (ours), and the loader's
 * preferred sampler is sequential.
 */
void
public_check_opts(struct gen_opts *o)
{
	const struct hfpub_ds *ds;

	if (!o->public_dataset) {
		if (o->nfilters)
			die_usage("--dataset-filter requires --public-dataset");
		if (o->public_dir)
			die_usage("--public-dataset-dir requires --public-dataset");
		return;
	}
	if (o->custom_type)
		die_usage("The --public-dataset and --custom-dataset-type options "
			  "cannot be set together");
	ds = hfpub_find(o->public_dataset);
	if (o->nfilters && !(ds && ds->filters))
		die("Public dataset '%s' does not support --dataset-filter",
		    o->public_dataset);
	if (ds && ds->kind == HFPUB_EXGENTIC) {
		char err[2048];

		if (exgentic_check(o, ds->version == 2, err, sizeof(err)))
			die("--public-dataset %s: %s", ds->name, err);
	}
	if (ds && o->input_file)
		die_usage("--input-file cannot be used with --public-dataset %s "
			  "(a local copy of its rows: --public-dataset-dir DIR)", ds->name);
	if (!ds && o->public_dir)
		die_usage("--public-dataset-dir cannot be used with --public-dataset "
			  "sharegpt (its local copy: --input-file FILE)");
	o->public_file = o->input_file;
	o->input_file = NULL;
	if (o->sampling < 0 && !o->fixed_schedule)
		o->sampling = SAMPLE_SEQUENTIAL;
}

/* Download progress on stderr: one line redrawn at most 10 times a
 * second on a terminal, else a line every 10 seconds. */
struct progress {
	int tty, shown;
	int64_t t0, last;
	uint64_t got, total;
};

static void
show_progress(struct progress *p, const char *file, int final)
{
	double s = (double)(clock_mono_ns() - p->t0) / 1e9;
	double mb = (double)p->got / 1e6, rate = s > 0 ? mb / s : 0;

	if (p->total)
		fprintf(stderr, "%s%s: downloading %s: %.1f of %.1f MB (%d%%), "
			"%.1f MB/s%s", p->tty ? "\r" : "", argv0, file, mb,
			(double)p->total / 1e6,
			(int)(100.0 * (double)p->got / (double)p->total), rate,
			p->tty ? "\033[K" : "\n");
	else
		fprintf(stderr, "%s%s: downloading %s: %.1f MB, %.1f MB/s%s",
			p->tty ? "\r" : "", argv0, file, mb, rate,
			p->tty ? "\033[K" : "\n");
	if (final && p->tty)
		fputc('\n', stderr);
	fflush(stderr);
	p->shown = 1;
}

static void
on_progress(void *ud, const char *file, uint64_t got, uint64_t total)
{
	struct progress *p = ud;
	int64_t now = clock_mono_ns();
	int64_t every = p->tty ? 100000000 : 10000000000;

	p->got = got;
	p->total = total;
	if (now - p->last < every)
		return;
	p->last = now;
	show_progress(p, file, 0);
}

static int
is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * The ShareGPT file: --input-file; else the original's own cache under
 * the working directory; else the HuggingFace cache (HF_HUB_CACHE,
 * HF_HOME, ~/.cache/huggingface/hub), where it is downloaded from
 * HF_ENDPOINT unless HF_HUB_OFFLINE says not to. Returns a malloc'd path;
 * exits with a message naming where to put the file.
 */
static char *
sharegpt_path(const struct gen_opts *o)
{
	const char *files[] = { SHAREGPT_FILE };
	struct progress p = { .tty = isatty(2) };
	struct hfhub h;
	char err[2048], *url, *hint, *snap, *path;
	int offline;

	if (o->public_file)
		return xstrdup(o->public_file);
	if (is_file(ORIGINAL_CACHE))
		return xstrdup(ORIGINAL_CACHE);
	hfhub_init(&h);
	url = xstrfmt("%s/datasets/%s/resolve/main/%s", h.endpoint, SHAREGPT_REPO,
		      SHAREGPT_FILE);
	hint = xstrfmt("download %s yourself and give it with --input-file FILE, "
		       "or put it at ./" ORIGINAL_CACHE, url);
	h.dataset = 1;
	h.hint = hint;
	h.max_bytes = DATASET_MAX_BYTES;
	h.progress = on_progress;
	h.progress_ud = &p;
	/* the cache first, to say when the network is used */
	offline = h.offline;
	h.offline = 1;
	snap = hfhub_resolve(&h, SHAREGPT_REPO, "main", files, 1, err, sizeof(err));
	if (!snap && !offline) {
		h.offline = 0;
		fprintf(stderr, "%s: downloading %s into %s\n", argv0, url, h.cache);
		p.t0 = p.last = clock_mono_ns();
		snap = hfhub_resolve(&h, SHAREGPT_REPO, "main", files, 1, err,
				     sizeof(err));
		if (snap)
			show_progress(&p, SHAREGPT_FILE, 1);
		else if (p.shown && p.tty)
			fputc('\n', stderr);
	}
	free(url);
	free(hint);
	if (!snap)
		die("--public-dataset sharegpt: %s", err);
	path = xstrfmt("%s/%s", snap, SHAREGPT_FILE);
	free(snap);
	return path;
}

/* A regular file of at most DATASET_MAX_BYTES (a FIFO would block). */
static int
open_file(const char *path)
{
	int fd = util_openfile(path, DATASET_MAX_BYTES);

	if (fd < 0)
		die("cannot open '%s':", path);
	return fd;
}

/* Building the dataset: each kept entry a one-turn conversation. */
struct build {
	const struct gen_opts *o;
	struct dataset *d;
	size_t cap, rr;
	struct rng ids, model;
};

static int
on_keep(void *ud, const struct sharegpt_item *it)
{
	struct build *b = ud;
	const struct gen_opts *o = b->o;
	struct dataset *d = b->d;
	struct conv *c;
	struct turn *u;

	if (d->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 1024;
		d->convs = xreallocarray(d->convs, b->cap, sizeof(*d->convs));
	}
	c = &d->convs[d->n];
	*c = (struct conv){ .session_id = gen_session_id(o, d->n, &b->ids),
			    .nturns = 1 };
	d->n++;
	c->turns = u = xcalloc(1, sizeof(*u));
	u->ntexts = 1;
	u->texts = xcalloc(1, sizeof(*u->texts));
	u->texts[0] = xstrndup(it->prompt, it->prompt_len);
	/* the original's max_tokens: the completion's length, --osl or not */
	u->max_tokens = (long long)it->completion_tokens;
	u->delay_ms = -1;
	u->at_ns = -1;
	u->model = o->model_random ? gen_model_draw(o, &b->model)
				   : b->rr++ % o->nmodels;
	payload_render(o, u, 0);
	free(u->texts[0]);
	free(u->texts);
	u->texts = NULL;
	u->ntexts = 0;
	return 0;
}

static size_t
count_tokens(void *ctx, const char *s, size_t n)
{
	return tok_count(ctx, s, n);
}

void
public_dataset_build(struct dataset *d, const struct gen_opts *o,
		     const struct tok *t, uint64_t root)
{
	struct build b = { .o = o, .d = d };
	struct sharegpt_opts so = {
		.count = count_tokens, .count_ctx = (void *)t,
		.keep = on_keep, .keep_ud = &b,
		.skip_min_output = o->osl >= 0,
	};
	struct sharegpt_stats st;
	const struct hfpub_ds *ds = hfpub_find(o->public_dataset);
	char *path, err[512];
	int fd;

	if (ds) {
		hfpub_build(d, o, ds, root);
		return;
	}
	path = sharegpt_path(o);
	fd = open_file(path);

	rng_derive(&b.ids, root, "aiperf.gen.session_id");
	rng_derive(&b.model, root, "dataset.loader.sharegpt");
	if (sharegpt_load_fd(fd, &so, &st, err, sizeof(err)))
		die("%s: %s", path, err);
	close(fd);
	if (!st.entries)
		die("%s: no conversations (the array is empty)", path);
	if (!st.kept)
		die("%s: none of its %zu conversations passes the length filter "
		    "(prompt %d to %d tokens, completion at least %d%s, both at "
		    "most %d)", path, st.entries, SHAREGPT_MIN_LEN,
		    SHAREGPT_MAX_PROMPT, SHAREGPT_MIN_LEN,
		    so.skip_min_output ? " unless --osl is given" : "",
		    SHAREGPT_MAX_TOTAL);
	free(path);
}

static int
first_only(void *ud, const char *s, size_t n, size_t index, uint64_t off)
{
	struct json_doc *doc = json_doc_new();
	const struct json *v;
	struct sharegpt_pair p;
	char e[256], *err = ud;

	v = json_parse(doc, s, n, e, sizeof(e));
	if (!v)
		snprintf(err, 512, "at byte %llu: [%zu]: %s",
			 (unsigned long long)off, index, e);
	else if (sharegpt_entry(v, index, &p, e, sizeof(e)) < 0)
		snprintf(err, 512, "at byte %llu: %s", (unsigned long long)off, e);
	json_doc_free(doc);
	return err[0] ? -2 : 1;
}

/* --print-timing-mode: the file found (or downloaded), its first entry
 * read; the run reads the rest. */
void
public_check_first(const struct gen_opts *o)
{
	const struct hfpub_ds *ds = hfpub_find(o->public_dataset);
	char *path, buf[65536], err[512] = "";
	int fd, rc = 0;
	struct jarr a;
	ssize_t got;

	if (ds) {
		hfpub_check_first(o, ds);
		return;
	}
	path = sharegpt_path(o);
	fd = open_file(path);

	jarr_init(&a, SHAREGPT_MAX_ENTRY);
	while (rc == 0 && (got = read(fd, buf, sizeof(buf))) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			die("cannot read '%s':", path);
		rc = jarr_feed(&a, buf, (size_t)got, first_only, err, err,
			       sizeof(err));
	}
	if (rc == 0 && jarr_finish(&a, err, sizeof(err)) == 0)
		snprintf(err, sizeof(err), "no conversations (the array is empty)");
	if (rc != 1)
		die("%s: %s", path, err);
	jarr_release(&a);
	close(fd);
	free(path);
}

/* _parse_dataset_filters: KEY=VALUE, both stripped and non-empty, each
 * key once. */
void
public_add_filter(struct gen_opts *o, const char *arg)
{
	size_t kn = strcspn(arg, "="), vn;
	const char *k = pystr_strip(arg, &kn), *v;
	struct buf b = BUF_INIT(BUF_NOMAX);

	vn = arg[strcspn(arg, "=")] ? strlen(arg + strcspn(arg, "=") + 1) : 0;
	v = pystr_strip(arg + strcspn(arg, "=") + (arg[strcspn(arg, "=")] != 0), &vn);
	if (!arg[strcspn(arg, "=")] || !kn || !vn) {
		pyval_repr(&b, arg, strlen(arg));
		die_usage("Invalid --dataset-filter %s; expected non-empty key=value",
			  buf_str(&b));
	}
	for (size_t i = 0; i < o->nfilters; i++)
		if (strlen(o->filters[i].key) == kn && !memcmp(o->filters[i].key, k, kn)) {
			pyval_repr(&b, k, kn);
			die_usage("Duplicate --dataset-filter key %s", buf_str(&b));
		}
	o->filters = xreallocarray(o->filters, o->nfilters + 1, sizeof(*o->filters));
	o->filters[o->nfilters].key = xstrndup(k, kn);
	o->filters[o->nfilters++].value = xstrndup(v, vn);
}
