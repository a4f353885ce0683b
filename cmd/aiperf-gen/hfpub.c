/* SPDX-License-Identifier: Apache-2.0 */
/* The hub-backed public datasets: the registry, the rows fetched, a builder per loader kind, the turns finalized. */
#include "gen.h"
#include "hfpub.h"
#include "exgentic.h"
#include "hfmedia.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hub/rows.h"
#include "json/json.h"
#include "json/pyval.h"
#include "rand/pystr.h"
#include "util.h"

#define BLAZEDIT_TEMPLATE "Given a code file, please apply the change requests " \
	"and generate the new file.\n\nOriginal file:\n```python\n{code}\n```\n\n" \
	"Change request:\n{change_request}\n\nPlease generate the new code file " \
	"in the \"New file\" section below."

#define IR HFPUB_INSTRUCTION_RESPONSE
#define ASR(n, id, sub, what) { n, HFPUB_ASR, id, sub, "test", .streaming = 1, \
	.audio_column = "audio", .description = what }

/* plugins.yaml's public_dataset_loader entries (sharegpt is public.c's). */
const struct hfpub_ds hfpub_table[] = {
	{ "aimo", IR, "AI-MO/NuminaMath-TIR", NULL, "train", .prompt_column = "problem",
	  .description = "AIMO NuminaMath-TIR competition math problems (AI-MO)" },
	{ "aimo_aime", IR, "AI-MO/aimo-validation-aime", NULL, "train",
	  .prompt_column = "problem",
	  .description = "AIMO validation AIME competition problems (AI-MO)" },
	{ "aimo_numina_cot", IR, "AI-MO/NuminaMath-CoT", NULL, "train",
	  .prompt_column = "problem",
	  .description = "NuminaMath chain-of-thought math problems (AI-MO)" },
	{ "aimo_numina_1_5", IR, "AI-MO/NuminaMath-1.5", NULL, "train",
	  .prompt_column = "problem",
	  .description = "NuminaMath 1.5 math problems (AI-MO)" },
	{ "mmstar", IR, "Lin-Chen/MMStar", NULL, "val", .prompt_column = "question",
	  .image_column = "image",
	  .description = "MMStar visual questions with images (Lin-Chen)" },
	{ "mmvu", HFPUB_MMVU, "yale-nlp/MMVU", NULL, "validation",
	  .video_column = "video",
	  .description = "MMVU expert-level video questions (yale-nlp)" },
	{ "vision_arena", HFPUB_CONVERSATION, "lmarena-ai/VisionArena-Chat", NULL,
	  "train", .streaming = 1, .conversation_column = "conversation",
	  .message_content_key = "content", .image_column = "images",
	  .description = "VisionArena first user message and image (lmarena-ai, gated)" },
	{ "llava_onevision", HFPUB_CONVERSATION, "lmms-lab/LLaVA-OneVision-Data",
	  "sharegpt4o", "train", .streaming = 1,
	  .conversation_column = "conversations", .message_content_key = "value",
	  .image_column = "image",
	  .description = "LLaVA-OneVision first user message and image (lmms-lab)" },
	{ "spec_al_gsm8k", IR, "openai/gsm8k", "main", "test",
	  .prompt_column = "question",
	  .description = "GSM8K grade-school math, test split (openai)" },
	{ "spec_al_math500", IR, "HuggingFaceH4/MATH-500", NULL, "test",
	  .prompt_column = "problem",
	  .description = "MATH-500 competition math, test split (HuggingFaceH4)" },
	{ "spec_al_humaneval", IR, "openai/openai_humaneval", NULL, "test",
	  .prompt_column = "prompt",
	  .description = "HumanEval code-completion prompts, test split (openai)" },
	{ "spec_al_mbpp", IR, "google-research-datasets/mbpp", "full", "test",
	  .prompt_column = "text",
	  .description = "MBPP Python programming tasks, test split (google-research-datasets)" },
	{ "spec_al_mtbench", HFPUB_MT_BENCH, "HuggingFaceH4/mt_bench_prompts", NULL,
	  "train",
	  .description = "MT-Bench two-turn chat prompts (HuggingFaceH4)" },
	{ "instruct_coder", IR, "likaixin/InstructCoder", NULL, "train",
	  .prompt_column = "instruction",
	  .description = "InstructCoder code instructions (likaixin)" },
	{ "blazedit_5k", IR, "vdaita/edit_5k_char", NULL, "train",
	  .prompt_column = "change_request", .prompt_template = BLAZEDIT_TEMPLATE,
	  .description = "Blazedit code edits, ~5k character files (vdaita)" },
	{ "blazedit_10k", IR, "vdaita/edit_10k_char", NULL, "train",
	  .prompt_column = "change_request", .prompt_template = BLAZEDIT_TEMPLATE,
	  .description = "Blazedit code edits, ~10k character files (vdaita)" },
	ASR("librispeech", "openslr/librispeech_asr", "clean",
	    "LibriSpeech clean read speech (openslr)"),
	ASR("voxpopuli", "facebook/voxpopuli", "en",
	    "VoxPopuli English European Parliament speech (facebook)"),
	ASR("gigaspeech", "speechcolab/gigaspeech", "xs",
	    "GigaSpeech English multi-domain speech (speechcolab, gated)"),
	ASR("ami", "edinburghcstr/ami", "ihm",
	    "AMI meeting corpus, headset microphones (edinburghcstr)"),
	ASR("spgispeech", "kensho/spgispeech", "test",
	    "SPGISpeech earnings calls (kensho, gated)"),
	{ "exgentic", HFPUB_EXGENTIC, "Exgentic/agent-llm-traces", NULL, "train",
	  .streaming = 1, .has_timing_data = 1, .filters = 1, .version = 1,
	  .description = "Exgentic agent LLM traces (Exgentic)" },
	{ "exgentic_v2", HFPUB_EXGENTIC, "Exgentic/agent-llm-traces-v2", NULL, "train",
	  .streaming = 1, .has_timing_data = 1, .filters = 1, .version = 2,
	  .description = "Exgentic v2 agent LLM traces (Exgentic)" },
	{ "spec_bench", HFPUB_SPEC_BENCH,
	  .description = "SpecBench questions, first turns (hemingkx/Spec-Bench on GitHub)" },
	{ .name = NULL },
};

static int build_instruction(struct dataset *d, const struct gen_opts *o,
			     const struct hfpub_ds *ds, struct rows *rows,
			     char *err, size_t errlen);
static int build_mt_bench(struct dataset *d, const struct gen_opts *o,
			  const struct hfpub_ds *ds, struct rows *rows,
			  char *err, size_t errlen);
static int build_spec_bench(struct dataset *d, const struct gen_opts *o,
			    const struct hfpub_ds *ds, struct rows *rows,
			    char *err, size_t errlen);

/* The builder of each loader kind. */
const hfpub_build_fn hfpub_builders[HFPUB_NKINDS] = {
	[HFPUB_INSTRUCTION_RESPONSE] = build_instruction,
	[HFPUB_CONVERSATION] = hfmedia_build_conversation,
	[HFPUB_MMVU] = hfmedia_build_mmvu,
	[HFPUB_MT_BENCH] = build_mt_bench,
	[HFPUB_ASR] = hfmedia_build_asr,
	[HFPUB_EXGENTIC] = exgentic_build,
	[HFPUB_SPEC_BENCH] = build_spec_bench,
};

const struct hfpub_ds *
hfpub_find(const char *name)
{
	for (const struct hfpub_ds *ds = hfpub_table; name && ds->name; ds++)
		if (!strcmp(ds->name, name))
			return ds;
	return NULL;
}

const char *const *
hfpub_names(void)
{
	static const char *names[sizeof(hfpub_table) / sizeof(hfpub_table[0]) + 1];

	if (!names[0]) {
		size_t n = 0;

		names[n++] = "sharegpt";
		for (const struct hfpub_ds *ds = hfpub_table; ds->name; ds++)
			names[n++] = ds->name;
		names[n] = NULL;
	}
	return names;
}

size_t
hfpub_max_convs(const struct gen_opts *o, const struct hfpub_ds *ds)
{
	long long n;

	if (!ds->streaming)
		return 0;
	if (o->request_count > 0)
		n = o->request_count;
	else if (o->entries_set)
		n = o->num_entries;
	else if (o->num_sessions > 0)
		n = o->num_sessions;
	else if (o->uc_rate > 0)
		n = o->num_users > 10 ? o->num_users : 10;
	else if (o->sched.rate > 0)
		n = 10;
	else
		n = o->concurrency * 2 > 10 ? o->concurrency * 2 : 10;
	return (size_t)n;
}

const char *
hfpub_subset(const struct gen_opts *o, const struct hfpub_ds *ds)
{
	if (o->hf_subset)
		return o->hf_subset;
	return ds->hf_subset ? ds->hf_subset : "default";
}

struct conv *
hfpub_conv_add(struct dataset *d, size_t nturns)
{
	struct conv *c;

	d->convs = xreallocarray(d->convs, d->n + 1, sizeof(*d->convs));
	c = &d->convs[d->n++];
	*c = (struct conv){ .nturns = nturns };
	c->turns = xcalloc(nturns ? nturns : 1, sizeof(*c->turns));
	for (size_t k = 0; k < nturns; k++) {
		c->turns[k].max_tokens = -1;
		c->turns[k].delay_ms = -1;
		c->turns[k].at_ns = -1;
	}
	return c;
}

void
hfpub_turn_text(struct turn *t, const char *s, size_t n)
{
	t->texts = xreallocarray(t->texts, t->ntexts + 1, sizeof(*t->texts));
	t->texts[t->ntexts++] = xstrndup(s, n);
}

/* --- the rows' values as Python sees them ------------------------------- */

/* Python's truth of a row's value (`if not prompt`). */
static int
py_truthy(const struct json *v)
{
	if (!v)
		return 0;
	switch (v->type) {
	case JSON_NULL: case JSON_FALSE: return 0;
	case JSON_TRUE: return 1;
	case JSON_STRING: case JSON_ARRAY: case JSON_OBJECT: return v->len > 0;
	default: return json_truthy(v);
	}
}

/* "Column 'X' not found in dataset 'ID'. Available columns: [...]." */
static int
no_column(const struct hfpub_ds *ds, const struct json *row, const char *col,
	  const char *tail, char *err, size_t errlen)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	int first = 1;

	buf_addch(&b, '[');
	for (const struct json *m = row->child; m; m = m->next, first = 0) {
		if (!first)
			buf_addstr(&b, ", ");
		pyval_repr(&b, m->key, m->keylen);
	}
	buf_addch(&b, ']');
	util_seterr(err, errlen, "Column '%s' not found in dataset '%s'. "
		    "Available columns: %s.%s", col, ds->hf_dataset_name,
		    buf_str(&b), tail);
	buf_release(&b);
	return -1;
}

/*
 * str.format(**row) of the prompt template: {name} is str() of the
 * row's column, {{ and }} are braces; a missing column fails as the
 * original's KeyError does, a conversion or format spec is refused.
 */
static int
format_row(const char *tmpl, const struct json *row, struct buf *out,
	   char *err, size_t errlen)
{
	for (const char *p = tmpl; *p; p++) {
		const struct json *v;
		size_t n;

		if ((*p == '{' && p[1] == '{') || (*p == '}' && p[1] == '}')) {
			buf_addch(out, *p++);
			continue;
		}
		if (*p == '}')
			return util_seterr(err, errlen, "prompt_template: Single '}' "
					   "encountered in format string");
		if (*p != '{') {
			buf_addch(out, *p);
			continue;
		}
		n = strcspn(p + 1, "{}!:[.");
		if (p[1 + n] != '}')
			return util_seterr(err, errlen, "prompt_template: only "
					   "{column} fields are supported");
		v = json_getn(row, p + 1, n);
		if (!v)
			return util_seterr(err, errlen, "prompt_template: KeyError: "
					   "'%.*s' (no such column in the row)", (int)n, p + 1);
		if (pyval_str(v, out) < 0)
			return util_seterr(err, errlen, "prompt_template: column "
					   "'%.*s' is a list or a dict", (int)n, p + 1);
		p += n + 1;
	}
	return 0;
}

/* --- the builders ------------------------------------------------------- */

/* Row i parsed into doc, or NULL with a message. */
static const struct json *
row_at(struct json_doc *doc, const struct hfpub_ds *ds, const struct rows *rows,
       size_t i, char *err, size_t errlen)
{
	const struct json *v;
	char e[256];

	json_doc_reset(doc);
	v = json_parse(doc, rows->v[i], rows->len[i], e, sizeof(e));
	if (!v || v->type != JSON_OBJECT)
		util_seterr(err, errlen, "row %zu: %s", i, v ? "not a JSON object" : e);
	(void)ds;
	return v && v->type == JSON_OBJECT ? v : NULL;
}

static int
add_media(struct turn *u, const struct hfpub_ds *ds, const struct json *row,
	  char *err, size_t errlen)
{
	if (ds->image_column && hfmedia_image(u, row, ds->image_column, err, errlen))
		return -1;
	if (ds->video_column && hfmedia_video(u, row, ds->video_column, err, errlen))
		return -1;
	if (ds->audio_column && hfmedia_audio(u, row, ds->audio_column, err, errlen))
		return -1;
	return 0;
}

/*
 * hf_instruction_response.py: a row is a one-turn conversation whose text
 * is the prompt column (str() of it) or the template filled from the
 * row; a falsy or blank prompt skips the row. The first row must have the
 * column unless a template is given.
 */
static int
build_instruction(struct dataset *d, const struct gen_opts *o,
		  const struct hfpub_ds *ds, struct rows *rows, char *err,
		  size_t errlen)
{
	struct json_doc *doc = json_doc_new();
	struct buf p = BUF_INIT(BUF_NOMAX);
	size_t max = hfpub_max_convs(o, ds), skipped = 0;
	int rc = 0;

	for (size_t i = 0; i < rows->n && !rc; i++) {
		const struct json *row, *v;
		struct turn *u;

		if (max && d->n >= max)
			break;
		if (!(row = row_at(doc, ds, rows, i, err, errlen))) {
			rc = -1;
			break;
		}
		v = json_get(row, ds->prompt_column);
		if (i == 0 && !ds->prompt_template && !v) {
			rc = no_column(ds, row, ds->prompt_column, " Set 'prompt_column' to "
				       "an existing column or provide a 'prompt_template' "
				       "that references the available columns.", err, errlen);
			break;
		}
		buf_reset(&p);
		if (ds->prompt_template) {
			if ((rc = format_row(ds->prompt_template, row, &p, err, errlen)))
				break;
		} else if (!py_truthy(v) || pyval_str(v, &p) < 0) {
			/* falsy, or a list or dict (taken for no prompt) */
			skipped++;
			continue;
		}
		if (!p.len || pystr_isblank(p.s, p.len)) {
			skipped++;
			continue;
		}
		u = &hfpub_conv_add(d, 1)->turns[0];
		hfpub_turn_text(u, p.s, p.len);
		rc = add_media(u, ds, row, err, errlen);
	}
	if (!rc && skipped && !d->n)
		warn("All %zu rows were skipped \xe2\x80\x94 no conversations loaded. "
		     "Check that '%s' contains valid data.", skipped, ds->prompt_column);
	buf_release(&p);
	json_doc_free(doc);
	return rc;
}

/* The non-empty str(t).strip() of each truthy item of list v as turns
 * of a new conversation; 0 when none is. */
static size_t
add_turns(struct dataset *d, const struct json *v, struct buf *b)
{
	struct conv *c = NULL;
	size_t n = 0;

	for (const struct json *t = v->child; t; t = t->next) {
		const char *s;
		size_t len;

		buf_reset(b);
		if (!py_truthy(t) || pyval_str(t, b) < 0)
			continue;
		len = b->len;
		s = pystr_strip(b->s, &len);
		if (!len)
			continue;
		if (!c) {
			c = hfpub_conv_add(d, 0);
			free(c->turns);
			c->turns = NULL;
		}
		c->turns = xreallocarray(c->turns, c->nturns + 1, sizeof(*c->turns));
		c->turns[c->nturns] = (struct turn){ .max_tokens = -1, .delay_ms = -1,
						     .at_ns = -1 };
		hfpub_turn_text(&c->turns[c->nturns++], s, len);
		n++;
	}
	return n;
}

/* mt_bench.py: a row's "prompt" list is a multi-turn conversation. */
static int
build_mt_bench(struct dataset *d, const struct gen_opts *o,
	       const struct hfpub_ds *ds, struct rows *rows, char *err,
	       size_t errlen)
{
	struct json_doc *doc = json_doc_new();
	struct buf b = BUF_INIT(BUF_NOMAX);
	size_t max = hfpub_max_convs(o, ds), skipped = 0;
	int rc = 0;

	for (size_t i = 0; i < rows->n; i++) {
		const struct json *row, *v;

		if (max && d->n >= max)
			break;
		if (!(row = row_at(doc, ds, rows, i, err, errlen))) {
			rc = -1;
			break;
		}
		v = json_get(row, "prompt");
		if (i == 0 && !v) {
			rc = no_column(ds, row, "prompt", "", err, errlen);
			break;
		}
		if (!v || v->type != JSON_ARRAY || !add_turns(d, v, &b))
			skipped++;
	}
	if (!rc && skipped && !d->n)
		warn("All %zu rows skipped - no conversations loaded. Check that "
		     "'prompt' holds non-empty prompt lists.", skipped);
	buf_release(&b);
	json_doc_free(doc);
	return rc;
}

/* spec_bench.py (multi_turn off): a row's first "turns" item, stripped. */
static int
build_spec_bench(struct dataset *d, const struct gen_opts *o,
		 const struct hfpub_ds *ds, struct rows *rows, char *err,
		 size_t errlen)
{
	struct json_doc *doc = json_doc_new();
	struct buf b = BUF_INIT(BUF_NOMAX);
	int rc = 0;

	(void)o;
	for (size_t i = 0; i < rows->n; i++) {
		const struct json *row, *v;
		const char *s;
		size_t len;

		if (!(row = row_at(doc, ds, rows, i, err, errlen))) {
			rc = -1;
			break;
		}
		v = json_get(row, "turns");
		if (!v || v->type != JSON_ARRAY || !v->child)
			continue;
		buf_reset(&b);
		if (!py_truthy(v->child) || pyval_str(v->child, &b) < 0)
			continue;
		len = b.len;
		s = pystr_strip(b.s, &len);
		if (len)
			hfpub_turn_text(&hfpub_conv_add(d, 1)->turns[0], s, len);
	}
	buf_release(&b);
	json_doc_free(doc);
	return rc;
}

/* --- the rows and the finalizing ---------------------------------------- */

#define SPEC_BENCH_REPO "hemingkx/Spec-Bench"
#define SPEC_BENCH_COMMIT "fd2c1cd7d2201ef71db4c5f4e455008f017967bf"
#define SPEC_BENCH_URL "https://raw.githubusercontent.com/" SPEC_BENCH_REPO "/" \
	SPEC_BENCH_COMMIT "/data/spec_bench/question.jsonl"
/* where the original caches it, relative to the working directory */
#define SPEC_BENCH_ORIGINAL ".cache/aiperf/datasets/spec_bench.jsonl"

static int
is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static void
on_progress(void *ud, const char *what, size_t got, size_t total)
{
	(void)ud;
	if (total)
		fprintf(stderr, "%s: %s: %zu of %zu rows\n", argv0, what, got, total);
	else
		fprintf(stderr, "%s: %s: %zu rows\n", argv0, what, got);
}

/* The dataset's rows: --public-dataset-dir, else the cache, else the
 * hub (or, for spec_bench, its GitHub URL); exits on failure. */
static void
get_rows(const struct gen_opts *o, const struct hfpub_ds *ds, size_t max_rows,
	 struct rows *out)
{
	struct rows_src src;
	struct rows_env env;
	char err[2048];
	int rc;

	rows_src_env(&src, &env);
	src.dir = o->public_dir;
	src.max_rows = max_rows;
	src.media = hfmedia_columns(ds);
	if (isatty(2))
		src.progress = on_progress;
	if (ds->kind == HFPUB_SPEC_BENCH) {
		const char *url = util_env("AIPERF_SPEC_BENCH_URL");

		if (!o->public_dir && is_file(SPEC_BENCH_ORIGINAL))
			rc = rows_read_file(SPEC_BENCH_ORIGINAL, out, 0, err, sizeof(err));
		else
			rc = rows_get_url(&src, url ? url : SPEC_BENCH_URL, SPEC_BENCH_REPO,
					  SPEC_BENCH_COMMIT, "question", out, err,
					  sizeof(err));
	} else {
		rc = rows_get(&src, ds->hf_dataset_name, hfpub_subset(o, ds),
			      ds->hf_split, out, err, sizeof(err));
	}
	if (rc < 0)
		die("--public-dataset %s: %s", ds->name, err);
}

/* The rows built into d; for a streaming dataset, more rows fetched while
 * the prefix read built too few conversations and the split has more. */
static void
build_rows(struct dataset *d, const struct gen_opts *o, const struct hfpub_ds *ds)
{
	size_t max = hfpub_max_convs(o, ds), want = max;
	char err[2048];

	for (;;) {
		struct rows rows;
		int rc;

		get_rows(o, ds, want, &rows);
		rc = hfpub_builders[ds->kind](d, o, ds, &rows, err, sizeof(err));
		if (rc < 0)
			die("--public-dataset %s: %s", ds->name, err);
		if (!max || d->n >= max || !rows.prefix || want > SIZE_MAX / 4) {
			rows_free(&rows);
			return;
		}
		rows_free(&rows);
		dataset_free(d);
		*d = (struct dataset){ 0 };
		want *= 4;
	}
}

/* _finalize_turn for every turn the builder left unrendered. */
static void
finalize(struct dataset *d, const struct gen_opts *o, uint64_t root)
{
	struct rng ids, model, max_tokens;
	size_t rr = 0;

	rng_derive(&ids, root, "aiperf.gen.session_id");
	rng_derive(&model, root, "composer.turn.model_selection");
	rng_derive(&max_tokens, root, "composer.turn.max_tokens");
	for (size_t c = 0; c < d->n; c++) {
		struct conv *cv = &d->convs[c];

		if (!cv->session_id)
			cv->session_id = gen_session_id(o, c, &ids);
		for (size_t k = 0; k < cv->nturns; k++) {
			struct turn *u = &cv->turns[k];

			if (u->payload)
				continue;
			u->model = o->model_random ?
				(size_t)rng_below(&model, o->nmodels) : rr++ % o->nmodels;
			if (u->max_tokens < 0 && o->osl >= 0)
				u->max_tokens = gen_pni(&max_tokens, (double)o->osl,
							o->osl_stddev);
			payload_render(o, u, k);
			turn_free_texts(u);
			gen_images_free(u);
		}
	}
	d->lines = d->n;
}

void
hfpub_build(struct dataset *d, const struct gen_opts *o,
	    const struct hfpub_ds *ds, uint64_t root)
{
	build_rows(d, o, ds);
	if (!d->n)
		die("--public-dataset %s: no conversations (no row has a prompt)",
		    ds->name);
	finalize(d, o, root);
}

void
hfpub_check_first(const struct gen_opts *o, const struct hfpub_ds *ds)
{
	struct dataset d = { 0 };

	build_rows(&d, o, ds);
	if (!d.n)
		die("--public-dataset %s: no conversations (no row has a prompt)",
		    ds->name);
	dataset_free(&d);
}
