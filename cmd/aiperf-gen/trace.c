/* SPDX-License-Identifier: Apache-2.0 */
/* mooncake_trace datasets: validated lines, sessions, hash-id prompts and fixed-schedule times. */
#include <errno.h>
#include <limits.h>
#include <math.h>

#include "gen.h"
#include "hfpub.h"
#include "hmap.h"
#include "json/json.h"
#include "lines.h"
#include "rand/pystr.h"
#include "dataset/bailian.h"
#include "dataset/burst.h"
#include "dataset/csv.h"
#include "dataset/custom.h"
#include "dataset/speedbench.h"
#include "dataset/trace.h"
#include "util.h"

#define LINE_MAX_BYTES ((size_t)64 << 20)
#define SESSIONS_MAX ((size_t)1 << 28)

enum mode { M_LENGTH, M_TEXT, M_MESSAGES, M_PAYLOAD };

/* One kept trace line. */
struct tline {
	size_t lineno;
	char *session;		/* NULL: its own conversation */
	enum mode mode;
	long long isl, osl;	/* osl -1: none */
	int has_ts, has_delay;
	double ts, delay;
	int64_t *ids;
	size_t nids;
	char *text, *messages, *tools;
	char *payload, *extra;	/* a verbatim body; members merged into a built one */
	size_t conv;
	int64_t chat, parent, turn;	/* bailian_trace */
};

struct tload {
	const struct gen_opts *o;
	const char *name;
	struct trace_parser tp;
	struct tline *v;
	size_t n, cap;
	size_t lines;
	struct csv csv;		/* burst_gpt_trace: its records */
	struct burst burst;	/* its columns */
	size_t header;		/* its header read */
};

/* The dataset types by DS_* value. */
static const char *const type_names[] = {
	[DS_MOONCAKE] = "mooncake_trace", [DS_SINGLE_TURN] = "single_turn",
	[DS_MULTI_TURN] = "multi_turn", [DS_RANDOM_POOL] = "random_pool",
	[DS_BAILIAN] = "bailian_trace", [DS_BURST_GPT] = "burst_gpt_trace",
	[DS_SPEED_BENCH] = "speed_bench_qualitative",	/* or another of the 32 */
	[DS_RAW_PAYLOAD] = "raw_payload", [DS_INPUTS_JSON] = "inputs_json",
	[DS_SAGEMAKER] = "sagemaker_data_capture",
	[DS_DAG] = "dag_jsonl",
};
#define NTYPES ((int)(sizeof(type_names) / sizeof(*type_names)))

const char *const *
trace_type_list(void)
{
	static const char *names[NTYPES + 64];

	if (!names[0]) {
		size_t n = 0;

		for (int i = DS_MOONCAKE; i < NTYPES; i++)
			if (i != DS_SPEED_BENCH)
				names[n++] = type_names[i];
		for (const struct speedbench_type *sb = speedbench_types;
		     sb->name && n + 1 < sizeof(names) / sizeof(*names); sb++)
			names[n++] = sb->name;
		names[n] = NULL;
	}
	return names;
}

/* Whether type is one of replay.c's. */
static int
is_replay(int type)
{
	return type == DS_RAW_PAYLOAD || type == DS_INPUTS_JSON || type == DS_SAGEMAKER;
}

/* The DS_* type named t[0..n), or -1. */
static int
type_named(const char *t, size_t n)
{
	if (speedbench_lookup(t, n))
		return DS_SPEED_BENCH;
	for (int i = DS_MOONCAKE; t && i < NTYPES; i++)
		if (strlen(type_names[i]) == n && !memcmp(t, type_names[i], n))
			return i;
	return -1;
}

static int
nonnull(const struct json *o, const char *key)
{
	const struct json *v = json_get(o, key);

	return v && v->type != JSON_NULL;
}

/* is_speed_bench_row. */
static int
is_speedbench(const struct json *o)
{
	struct speedbench_row r;

	return speedbench_parse(o, &r, NULL, 0) == 0;
}

/* The SPEED-Bench types whose split file path names (SpeedBenchSplitLoader
 * .can_load: the name and a row), the first two in plugins.yaml order;
 * 0 when none. */
static int
speedbench_split_types(const char *path, const struct speedbench_type *two[2])
{
	const char *base = strrchr(path, '/');
	int n = 0;

	base = base ? base + 1 : path;
	for (const struct speedbench_type *t = speedbench_types; t->name && n < 2; t++)
		if (!strcmp(base, t->split))
			two[n++] = t;
	return n;
}

/* Whether the file's name is the split file of the type named t[0..n). */
static int
speedbench_named_file(const struct gen_opts *o, const char *t, size_t n)
{
	const struct speedbench_type *two[2], *named = speedbench_lookup(t, n);
	int k = speedbench_split_types(o->input_file, two);

	return k && named && !strcmp(named->split, two[0]->split);
}

/* MooncakeTrace.model_validate as a structural test (can_load). */
static int
looks_mooncake(const struct json *o)
{
	int n = nonnull(o, "input_length") + nonnull(o, "text_input") +
		nonnull(o, "messages") + nonnull(o, "payload");
	size_t tl;
	const char *t = json_str(json_get(o, "type"), &tl);

	if (json_get(o, "type") && type_named(t, t ? tl : 0) != DS_MOONCAKE)
		return 0;
	return n == 1 && !is_speedbench(o);
}

/* The first non-blank line of the file (malloc'd, its length in *n and
 * number in *lineno); exits as loading would on a file without one. */
static char *
first_line(const struct gen_opts *o, size_t *n, size_t *lineno)
{
	struct lines l;
	const char *s;
	char *line = NULL;
	int rc;

	if (lines_open(&l, o->input_file, LINE_MAX_BYTES) < 0)
		die("cannot open '%s':", o->input_file);
	while ((rc = lines_next(&l, &s, n)) == 1) {
		if (pystr_isblank(s, *n))
			continue;
		line = xstrndup(s, *n);
		break;
	}
	if (rc < 0 && errno == ENOBUFS)
		die("%s:%zu: line longer than %zu bytes", o->input_file, l.lineno,
		    LINE_MAX_BYTES);
	if (rc < 0)
		die("cannot read '%s':", o->input_file);
	if (!line)
		die("'%s' has no records", o->input_file);
	*lineno = l.lineno;
	lines_close(&l);
	return line;
}

/* BailianTrace.model_validate (lib/dataset/bailian), its bounds aside. */
static int
looks_bailian(const struct json *o)
{
	struct bailian_rec r;

	return bailian_parse(o, &r, NULL, 0) != -1;
}

/* DagJsonlLoader.can_load: a string session_id and a non-empty list of
 * turn objects, one with a messages list, forks or spawns. */
static int
looks_dag(const struct json *o)
{
	const struct json *t = json_get(o, "turns");

	if (!json_is_str(json_get(o, "session_id")) || !t ||
	    t->type != JSON_ARRAY || !t->len)
		return 0;
	for (const struct json *e = t->child; e; e = e->next) {
		const struct json *m = json_get(e, "messages");

		if (e->type != JSON_OBJECT)
			return 0;
		if ((m && m->type == JSON_ARRAY) || json_get(e, "forks") ||
		    json_get(e, "spawns"))
			return 1;
	}
	return 0;
}

/* A CSV header with BurstGPT's columns (csv.DictReader fieldnames). */
static int
looks_burst(const char *s, size_t n)
{
	struct csv c;
	struct burst b;
	int ok;

	csv_init(&c, CSV_RECORD_MAX, CSV_FIELDS_MAX);
	ok = csv_feed(&c, s, n, 1) == 1 && burst_header(&b, &c, NULL, 0) == 0;
	csv_release(&c);
	return ok;
}

/* Each loader's can_load on the first line (v: its JSON value or NULL). */
static int
can_load(int type, const struct json *v, const char *line, size_t n)
{
	struct custom_parser cp;
	char err[256];
	int ok = 0;

	if (type == DS_BURST_GPT)
		return !v && looks_burst(line, n);
	if (is_replay(type))	/* replays are named, never inferred */
		return 0;
	if (!v || v->type != JSON_OBJECT)
		return 0;
	if (type == DS_MOONCAKE)
		return looks_mooncake(v);
	if (type == DS_BAILIAN)
		return looks_bailian(v);
	if (type == DS_SPEED_BENCH)
		return is_speedbench(v);
	if (type == DS_DAG)
		return looks_dag(v);
	custom_parser_init(&cp);
	ok = custom_parse_value(&cp, type == DS_SINGLE_TURN ? CUSTOM_SINGLE_TURN :
			       type == DS_MULTI_TURN ? CUSTOM_MULTI_TURN :
			       CUSTOM_RANDOM_POOL, v, err, sizeof(err)) == 0;
	/* random_pool: only a "type" or a directory tells it from single_turn */
	if (type == DS_RANDOM_POOL && !json_get(v, "type"))
		ok = 0;
	custom_parser_release(&cp);
	return ok;
}

/* A first line no loader takes that has a turn's fields or "turns":
 * "file:line: why" single_turn (or multi_turn) rejects it, in err. */
static int
why_not_custom(const struct json *v, char *err, size_t errlen,
	       const char *name, size_t lineno)
{
	static const char *const turn[] = {
		"text", "texts", "image", "images", "audio", "audios", "video",
		"videos", NULL,
	};
	struct custom_parser cp;
	char why[256];
	int k = -1;

	if (!v || v->type != JSON_OBJECT)
		return 0;
	for (size_t i = 0; turn[i]; i++)
		if (json_get(v, turn[i]))
			k = CUSTOM_SINGLE_TURN;
	if (json_get(v, "turns"))
		k = CUSTOM_MULTI_TURN;
	if (k < 0)
		return 0;
	custom_parser_init(&cp);
	if (custom_parse_value(&cp, (enum custom_kind)k, v, why, sizeof(why)) < 0)
		util_seterr(err, errlen, "%s:%zu: %s", name, lineno, why);
	else
		k = -1;
	custom_parser_release(&cp);
	return k >= 0;
}

/* _infer_type: the first line's "type" when it names a dataset type,
 * else the one loader that can load it. */
static int
infer_type(const struct gen_opts *o, const struct json *v, const char *line,
	   size_t n, size_t lineno, char *err, size_t errlen)
{
	size_t tl;
	const char *t = json_str(json_get(v, "type"), &tl);
	int type = v && v->type == JSON_OBJECT ? type_named(t, t ? tl : 0) : -1;
	const struct speedbench_type *two[2];
	int found = -1;

	if (type >= 0) {
		int ok = can_load(type, v, line, n) &&
			 (type != DS_SPEED_BENCH || speedbench_named_file(o, t, tl));

		if (!ok)
			return util_seterr(err, errlen, "%s: Explicit type field %.*s "
					   "specified, but its loader cannot handle the "
					   "data format. Please specify "
					   "--custom-dataset-type explicitly.",
					   o->input_file, (int)tl, t);
		return type;
	}
	for (int i = DS_SINGLE_TURN; i < NTYPES + 1; i++) {
		int k = i == NTYPES ? DS_MOONCAKE : i;

		if (k == DS_SPEED_BENCH || !can_load(k, v, line, n))
			continue;
		if (found >= 0)
			return util_seterr(err, errlen, "%s: Multiple loaders can "
					   "handle the data format: %s and %s. Please "
					   "specify --custom-dataset-type explicitly.",
					   o->input_file, type_names[found], type_names[k]);
		found = k;
	}
	if (v && is_speedbench(v) && speedbench_split_types(o->input_file, two))
		return util_seterr(err, errlen, "%s: Multiple loaders can handle the "
				   "data format: %s and %s. Please specify "
				   "--custom-dataset-type explicitly.", o->input_file,
				   found >= 0 ? type_names[found] : two[0]->name,
				   found >= 0 ? two[0]->name : two[1]->name);
	if (found < 0 && why_not_custom(v, err, errlen, o->input_file, lineno))
		return -1;
	if (found < 0)
		return util_seterr(err, errlen, "cannot infer the dataset type of "
				   "'%s' from its first line: No loader can handle "
				   "the data format. Please specify "
				   "--custom-dataset-type explicitly.", o->input_file);
	return found;
}

/* A directory is a random_pool when one of its files is one and none
 * holds another first record (RandomPoolDatasetLoader._validate_path). */
static int
dir_type(const struct gen_opts *o)
{
	char err[512];
	int n = custom_pool_dir(o->input_file, err, sizeof(err));

	if (n < 0)
		die("%s", err);
	if (!n)
		die("cannot infer the dataset type of '%s': No loader can handle "
		    "the data format. Please specify --custom-dataset-type "
		    "explicitly.", o->input_file);
	return DS_RANDOM_POOL;
}

/*
 * The dataset type: --custom-dataset-type, the first line's "type", or
 * inferred from its fields as the original does; a directory is a
 * random_pool. The first line is freed before any message, so that
 * nothing is left behind on the way out.
 */
int
trace_type(const struct gen_opts *o, int *has_timestamp)
{
	struct json_doc *doc;
	size_t n, lineno;
	char *line, err[768];
	const struct json *v;
	int type = -1;

	*has_timestamp = 0;
	/* one of trace_type_list(): the option table took no other */
	if (o->custom_type)
		type = type_named(o->custom_type, strlen(o->custom_type));
	if (is_replay(type)) {	/* replay.c reads them whole */
		*has_timestamp = type == DS_SAGEMAKER;
		return type;
	}
	if (type == DS_SPEED_BENCH)
		return type;	/* a file, or a directory of split files */
	if (type == DS_RANDOM_POOL || (type < 0 && gen_is_dir(o->input_file)))
		return type < 0 ? dir_type(o) : type;
	if (type == DS_DAG)
		return type;	/* its loader reads the file (blank, too) */
	doc = json_doc_new();
	line = first_line(o, &n, &lineno);
	v = json_parse(doc, line, n, NULL, 0);
	*has_timestamp = v && v->type == JSON_OBJECT ? nonnull(v, "timestamp") :
			 looks_burst(line, n);
	if (type < 0)
		type = infer_type(o, v, line, n, lineno, err, sizeof(err));
	json_doc_free(doc);
	free(line);
	if (type < 0)
		die("%s", err);
	return type;
}

/* A first turn without a timestamp in a fixed schedule: the loader's
 * message, naming the session as grouping would. */
static _Noreturn void
no_timestamp(const struct gen_opts *o, const struct trace_line *k,
	     size_t lineno, uint64_t root)
{
	size_t len;
	const char *sid = json_str(json_get(k->root, "session_id"), &len);
	char *gen = NULL;
	struct rng ids;

	if (!sid) {
		rng_derive(&ids, root, "aiperf.gen.session_id");
		sid = gen = gen_session_id(o, 0, &ids);
		len = strlen(gen);
	}
	die("%s:%zu: First turn of %.*s missing timestamp_ms", o->input_file,
	    lineno, (int)len, sid);
}

/* --fixed-schedule-* given without --fixed-schedule (validate_unused_options). */
static void
check_offsets_need_fixed(const struct gen_opts *o)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	if (o->fixed_schedule)
		return;
	if (o->auto_offset)
		buf_addstr(&b, "--fixed-schedule-auto-offset");
	if (o->start_offset >= 0)
		buf_addf(&b, "%s--fixed-schedule-start-offset", b.len ? ", " : "");
	if (o->end_offset >= 0)
		buf_addf(&b, "%s--fixed-schedule-end-offset", b.len ? ", " : "");
	if (b.len)
		die_usage("%s can only be used with --fixed-schedule. Either add "
			  "--fixed-schedule or remove these options.", buf_str(&b));
	buf_release(&b);
}

/* The SPEED-Bench type: --custom-dataset-type's, or the first line's
 * "type" (which trace_type() found to name one). */
static const struct speedbench_type *
speedbench_of(const struct gen_opts *o)
{
	const struct speedbench_type *t;
	struct json_doc *doc;
	size_t n, lineno, tl;
	char *line;
	const char *s;

	if (o->custom_type)
		return speedbench_lookup(o->custom_type, strlen(o->custom_type));
	doc = json_doc_new();
	line = first_line(o, &n, &lineno);
	s = json_str(json_get(json_parse(doc, line, n, NULL, 0), "type"), &tl);
	t = speedbench_lookup(s, s ? tl : 0);
	json_doc_free(doc);
	free(line);
	return t;
}

void
trace_check_opts(struct gen_opts *o)
{
	const struct hfpub_ds *pub = hfpub_find(o->public_dataset);
	int has_ts = 0;

	if (o->fixed_schedule && !o->input_file && !(pub && pub->has_timing_data))
		die_usage("Fixed schedule requires a file to be provided");
	if (o->fixed_schedule && o->no_fixed_schedule)
		die_usage("The --fixed-schedule and --no-fixed-schedule options "
			  "cannot be used together");
	if (o->start_offset >= 0 && o->auto_offset)
		die_usage("The --fixed-schedule-start-offset and "
			  "--fixed-schedule-auto-offset options cannot be used together");
	if (o->start_offset >= 0 && o->end_offset >= 0 &&
	    o->start_offset > o->end_offset)
		die_usage("The --fixed-schedule-start-offset must be less than or "
			  "equal to the --fixed-schedule-end-offset");
	if (o->custom_type && !o->input_file)
		die_usage("Custom dataset type requires --input-file to be provided");
	check_offsets_need_fixed(o);
	/* a public dataset of recorded times (plugins.yaml's has_timing_data) */
	if (!o->input_file) {
		o->fixed = o->fixed_schedule;
		return;
	}
	o->ds_type = trace_type(o, &has_ts);
	if (o->ds_type == DS_SPEED_BENCH)
		o->speedbench = speedbench_of(o);
	/* auto-enabled only for an explicitly named trace type */
	o->fixed = o->fixed_schedule || (o->custom_type && has_ts &&
					 !o->no_fixed_schedule &&
					 (o->ds_type == DS_MOONCAKE ||
					  o->ds_type == DS_BAILIAN ||
					  o->ds_type == DS_BURST_GPT ||
					  o->ds_type == DS_SAGEMAKER));
	if (o->block_size < 0)
		o->block_size = o->ds_type == DS_BAILIAN ? 16 : 512;
}

static char *
compact(const struct json *v)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct jw w;

	jw_init(&w, &b, 0);
	jw_value(&w, v);
	return buf_detach(&b, NULL);
}

/* MooncakeTrace's validators, with the original's messages. */
static const char *
check_line(const struct json *o, const struct trace_line *l)
{
	const struct json *m = json_get(o, "messages"), *t = json_get(o, "tools");
	const struct json *ty = json_get(o, "type");
	int modes = (l->has & TRACE_INPUT_LENGTH) != 0;
	size_t i = 0;

	const struct json *pl = json_get(o, "payload"), *ex = json_get(o, "extra");

	modes += nonnull(o, "text_input") + nonnull(o, "messages") +
		 nonnull(o, "payload");
	if (ty && (ty->type != JSON_STRING || ty->len != 14 ||
		   memcmp(ty->str, "mooncake_trace", 14)))
		return "type: expected 'mooncake_trace'";
	if (!modes)
		return "Exactly one of 'input_length', 'text_input', 'messages', "
		       "or 'payload' must be provided";
	if (modes > 1)
		return "'input_length', 'text_input', 'messages', and 'payload' "
		       "are mutually exclusive. Use only one of them.";
	if (nonnull(o, "hash_ids") && !(l->has & TRACE_INPUT_LENGTH))
		return "'hash_ids' is only allowed when 'input_length' is "
		       "provided, not when 'text_input', 'messages', or "
		       "'payload' are provided";
	if (pl && pl->type != JSON_NULL && pl->type != JSON_OBJECT)
		return "payload: expected an object";
	if (pl && pl->type == JSON_OBJECT && !pl->len)
		return "'payload' must be a non-empty dict";
	if (ex && ex->type != JSON_NULL && ex->type != JSON_OBJECT)
		return "extra: expected an object";
	if (nonnull(o, "text_input") && json_get(o, "text_input")->type != JSON_STRING)
		return "text_input: expected a string";
	if (nonnull(o, "session_id") && json_get(o, "session_id")->type != JSON_STRING)
		return "session_id: expected a string";
	if (t && t->type != JSON_NULL) {
		if (!nonnull(o, "messages"))
			return "'tools' is only allowed when 'messages' is provided";
		if (t->type != JSON_ARRAY || !t->len)
			return "'tools' must be a non-empty list";
	}
	if (!m || m->type == JSON_NULL)
		return NULL;
	if (m->type != JSON_ARRAY || !m->len)
		return "'messages' must be a non-empty list";
	for (const struct json *e = m->child; e; e = e->next, i++)
		if (e->type != JSON_OBJECT || !json_get(e, "role"))
			return "Each message must have a 'role' key";
	return NULL;
}

/* --fixed-schedule-start/end-offset: inclusive window, lines without a
 * timestamp always kept (_timestamp_within_offsets). */
static int
in_window(const struct gen_opts *o, const struct trace_line *l)
{
	if (!(l->has & TRACE_TIMESTAMP))
		return 1;
	if (o->start_offset >= 0 && l->timestamp < (double)o->start_offset)
		return 0;
	return o->end_offset < 0 || l->timestamp <= (double)o->end_offset;
}

static void
keep(struct tload *t, const struct trace_line *l, size_t lineno)
{
	const struct json *o = l->root;
	struct tline *k;
	size_t len;
	const char *s;

	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 1024;
		t->v = xreallocarray(t->v, t->cap, sizeof(*t->v));
	}
	k = &t->v[t->n++];
	*k = (struct tline){ .lineno = lineno, .isl = l->input_length, .osl = -1 };
	if (l->has & TRACE_OUTPUT_LENGTH)
		k->osl = l->output_length;
	k->has_ts = (l->has & TRACE_TIMESTAMP) != 0;
	k->ts = l->timestamp;
	k->has_delay = (l->has & TRACE_DELAY) != 0;
	if (k->has_delay)
		json_double(json_get(o, "delay"), &k->delay);
	if ((s = json_str(json_get(o, "session_id"), &len)))
		k->session = xstrndup(s, len);
	k->mode = nonnull(o, "payload") ? M_PAYLOAD :
		  nonnull(o, "messages") ? M_MESSAGES :
		  nonnull(o, "text_input") ? M_TEXT : M_LENGTH;
	if (k->mode == M_PAYLOAD)
		k->payload = compact(json_get(o, "payload"));
	else if (nonnull(o, "extra"))	/* a verbatim body takes none */
		k->extra = compact(json_get(o, "extra"));
	if (k->mode == M_TEXT) {
		s = json_str(json_get(o, "text_input"), &len);
		k->text = xstrndup(s, len);
	}
	if (k->mode == M_MESSAGES)
		k->messages = compact(json_get(o, "messages"));
	if (nonnull(o, "tools"))
		k->tools = compact(json_get(o, "tools"));
	if (l->n_hash) {
		k->nids = l->n_hash;
		k->ids = xreallocarray(NULL, l->n_hash, sizeof(*k->ids));
		memcpy(k->ids, l->hash_ids, l->n_hash * sizeof(*k->ids));
	}
}

/* Keep a line with a timestamp of ts_ms (bailian, BurstGPT: seconds *
 * 1000) if the offsets window takes it. */
static struct tline *
keep_at(struct tload *t, const struct trace_line *l, size_t lineno, double ts_ms)
{
	struct trace_line w = *l;

	w.timestamp = ts_ms;
	if (!in_window(t->o, &w))
		return NULL;
	keep(t, &w, lineno);
	return &t->v[t->n - 1];
}

/* BailianTraceDatasetLoader: a BailianTrace line, seconds to ms. */
static void
on_bailian(struct tload *t, size_t lineno)
{
	struct bailian_rec r;
	struct tline *k;
	char err[256];

	if (bailian_parse(t->tp.line.root, &r, err, sizeof(err)) < 0)
		die("%s:%zu: %s", t->name, lineno, err);
	if (!(k = keep_at(t, &t->tp.line, lineno, r.ts * 1000.0)))
		return;
	k->chat = r.chat;
	k->parent = r.parent;
	k->turn = r.turn;
	k->osl = r.out;
}

static void
on_line(struct tload *t, const char *s, size_t n, size_t lineno)
{
	char err[256];
	const char *why;
	int rc = trace_parse(&t->tp, s, n, err, sizeof(err));

	if (rc == 0)
		return;
	t->lines++;
	if (rc < 0)
		die("%s:%zu: %s", t->name, lineno, err);
	if (t->o->ds_type == DS_BAILIAN) {
		on_bailian(t, lineno);
		return;
	}
	if ((why = check_line(t->tp.line.root, &t->tp.line)))
		die("%s:%zu: %s", t->name, lineno, why);
	if (in_window(t->o, &t->tp.line))
		keep(t, &t->tp.line, lineno);
}

static void tload_free(struct tload *t);
static void on_csv(struct tload *t, const char *s, size_t n, size_t lineno);

/*
 * The errors loading would stop at on the first line, each with its
 * message: a line the parser or the MooncakeTrace validators reject; if
 * the offsets keep it, 'messages' off the chat endpoint and hash ids that
 * do not fit the block size; with a fixed schedule, a first turn without
 * a timestamp (such a line is always kept, and it starts its session).
 */
void
trace_check_first(const struct gen_opts *o, uint64_t root)
{
	struct trace_parser tp;
	const struct trace_line *k = &tp.line;
	size_t n, lineno;
	char *line, err[512];
	const char *why = NULL;
	int kept;

	if (o->ds_type == DS_BURST_GPT || o->ds_type == DS_BAILIAN) {
		struct tload t = { .o = o, .name = o->input_file };

		line = first_line(o, &n, &lineno);
		csv_init(&t.csv, CSV_RECORD_MAX, CSV_FIELDS_MAX);
		trace_parser_init(&t.tp, 0);
		t.tp.ts_kind = FIELD_SECONDS;	/* bailian_trace */
		if (o->ds_type == DS_BURST_GPT)
			on_csv(&t, line, n, lineno);
		else
			on_line(&t, line, n, lineno);
		trace_parser_release(&t.tp);
		csv_release(&t.csv);
		tload_free(&t);
		free(line);
		return;
	}
	if (o->ds_type == DS_SPEED_BENCH) {
		speedbench_check_first(o);
		return;
	}
	if (is_replay(o->ds_type)) {
		replay_check_first(o);
		return;
	}
	if (o->ds_type == DS_DAG) {
		dag_check_first(o);
		return;
	}
	if (o->ds_type != DS_MOONCAKE) {
		custom_check_first(o);
		return;
	}
	line = first_line(o, &n, &lineno);
	trace_parser_init(&tp, 0);
	if (trace_parse(&tp, line, n, err, sizeof(err)) < 0)
		why = err;
	if (!why)
		why = check_line(k->root, k);
	if (why)
		die("%s:%zu: %s", o->input_file, lineno, why);
	kept = in_window(o, k);
	if (kept && k->n_hash &&
	    prompt_blocks_fit(k->input_length, k->hash_ids, k->n_hash,
			      o->block_size, err, sizeof(err)))
		die("%s:%zu: %s", o->input_file, lineno, err);
	if (kept && (k->has & TRACE_MESSAGES) && o->ep != ENDPOINT_CHAT)
		die("%s:%zu: 'messages' lines need --endpoint-type chat",
		    o->input_file, lineno);
	if (o->fixed && !(k->has & TRACE_TIMESTAMP))
		no_timestamp(o, k, lineno, root);
	trace_parser_release(&tp);
	free(line);
}

/*
 * BurstGPTTraceDatasetLoader (lib/dataset/burst): the first record names
 * the columns; a row whose values do not parse is skipped, one with
 * impossible values stops the run. Seconds become ms; each row is a
 * session of its own.
 */
static void
on_csv(struct tload *t, const char *s, size_t n, size_t lineno)
{
	struct trace_line l = { .has = TRACE_INPUT_LENGTH | TRACE_OUTPUT_LENGTH |
				       TRACE_TIMESTAMP };
	struct burst_row r;
	char err[256];
	int rc = csv_feed(&t->csv, s, n, lineno);

	if (rc < 0)
		die("%s:%zu: %s", t->name, t->csv.lineno,
		    csv_why(&t->csv, errno, err, sizeof(err)));
	if (!rc)
		return;
	if (!t->header++) {
		if (burst_header(&t->burst, &t->csv, err, sizeof(err)) < 0)
			die("%s:%zu: %s", t->name, t->csv.lineno, err);
		return;
	}
	t->lines++;
	if ((rc = burst_row(&t->burst, &t->csv, &r, err, sizeof(err))) < 0)
		die("%s:%zu: %s", t->name, t->csv.lineno, err);
	if (!rc)
		return;
	l.input_length = r.in;
	l.output_length = r.out;
	keep_at(t, &l, t->csv.lineno, r.ts * 1000.0);
}

static void
load(struct tload *t)
{
	struct lines l;
	const char *s;
	char err[256];
	size_t n;
	int rc;

	if (lines_open(&l, t->o->input_file, LINE_MAX_BYTES) < 0)
		die("cannot open '%s':", t->o->input_file);
	trace_parser_init(&t->tp, 0);
	if (t->o->ds_type == DS_BAILIAN)
		t->tp.ts_kind = FIELD_SECONDS;
	while ((rc = lines_next(&l, &s, &n)) == 1)
		if (t->o->ds_type == DS_BURST_GPT)
			on_csv(t, s, n, l.lineno);
		else
			on_line(t, s, n, l.lineno);
	if (rc < 0 && errno == ENOBUFS)
		die("%s:%zu: line longer than %zu bytes", t->name, l.lineno,
		    LINE_MAX_BYTES);
	if (rc < 0)
		die("cannot read '%s':", t->o->input_file);
	if (csv_end(&t->csv) < 0)
		die("%s:%zu: %s", t->name, t->csv.lineno,
		    csv_why(&t->csv, errno, err, sizeof(err)));
	lines_close(&l);
	trace_parser_release(&t->tp);
}

void
gen_str_hash(const char *s, size_t n, uint64_t h[2])
{
	h[0] = 0xcbf29ce484222325u;
	h[1] = 0x84222325cbf29ce4u;
	for (size_t i = 0; i < n; i++) {
		h[0] = (h[0] ^ (unsigned char)s[i]) * 0x100000001b3u;
		h[1] = (h[1] ^ (unsigned char)s[i]) * 0xff51afd7ed558ccdu;
		h[1] ^= h[1] >> 31;
	}
}

static int
cmp_bailian(const void *x, const void *y)
{
	const struct tline *a = x, *b = y;

	if (a->conv != b->conv)
		return a->conv < b->conv ? -1 : 1;
	if (a->turn != b->turn)
		return a->turn < b->turn ? -1 : 1;
	return (a->lineno > b->lineno) - (a->lineno < b->lineno);
}

/* Sessions are the roots' chat ids (bailian_roots), in order of first
 * appearance, each sorted by turn (stable). */
static void
bailian_sessions(struct tload *t)
{
	int64_t *chat = xcalloc(t->n + 1, sizeof(*chat));
	int64_t *parent = xcalloc(t->n + 1, sizeof(*parent));
	int64_t *root = xcalloc(t->n + 1, sizeof(*root));
	size_t *group = xcalloc(t->n + 1, sizeof(*group));
	int rc;

	for (size_t i = 0; i < t->n; i++) {
		chat[i] = t->v[i].chat;
		parent[i] = t->v[i].parent;
	}
	if ((rc = bailian_group(chat, parent, t->n, SESSIONS_MAX, root, group)) < 0)
		die("%s: too many %s", t->name, rc == -1 ? "chats" : "sessions");
	for (size_t i = 0; i < t->n; i++) {
		struct tline *k = &t->v[i];

		k->conv = group[i];
		free(k->session);
		k->session = xstrfmt("%lld", (long long)root[i]);
	}
	if (t->n)	/* none kept: no array for qsort() */
		qsort(t->v, t->n, sizeof(*t->v), cmp_bailian);
	free(chat);
	free(parent);
	free(root);
	free(group);
}

/* _group_traces: sessions in order of first appearance; a line without a
 * session_id gets the next generated id (its own conversation). */
static void
group(struct tload *t, struct dataset *d, uint64_t root)
{
	struct hmap ix;
	struct rng ids;
	size_t gen = 0;

	rng_derive(&ids, root, "aiperf.gen.session_id");
	hmap_init(&ix, SESSIONS_MAX);
	d->convs = xcalloc(t->n ? t->n : 1, sizeof(*d->convs));
	for (size_t i = 0; i < t->n; i++) {
		struct tline *k = &t->v[i];
		uint64_t h[2], *slot;
		int created;

		if (!k->session)
			k->session = gen_session_id(t->o, gen++, &ids);
		gen_str_hash(k->session, strlen(k->session), h);
		if (!(slot = hmap_put(&ix, h[0], h[1], &created)))
			die("too many sessions");
		if (created) {
			*slot = d->n;
			d->convs[d->n++].session_id = xstrdup(k->session);
		}
		k->conv = *slot;
		d->convs[k->conv].nturns++;
	}
	hmap_release(&ix);
	for (size_t c = 0; c < d->n; c++) {
		d->convs[c].turns = xcalloc(d->convs[c].nturns, sizeof(struct turn));
		d->convs[c].nturns = 0;
	}
}

/* The prompt of one line: text_input verbatim, hash-id blocks, or a fresh
 * slice of input_length tokens (generate(mean=input_length, stddev=0)). */
static void
make_text(struct tload *t, struct tline *k, struct turn *u, struct prompt *p)
{
	char err[512];

	u->extra = k->extra;
	k->extra = NULL;
	if (k->mode == M_PAYLOAD) {
		u->payload = k->payload;
		u->payload_len = strlen(u->payload);
		k->payload = NULL;
		return;
	}
	if (k->mode == M_MESSAGES) {
		if (t->o->ep != ENDPOINT_CHAT)
			die("%s:%zu: 'messages' lines need --endpoint-type chat",
			    t->name, k->lineno);
		u->raw_messages = k->messages;
		u->raw_tools = k->tools;
		k->messages = k->tools = NULL;
		return;
	}
	u->ntexts = 1;
	u->texts = xcalloc(1, sizeof(*u->texts));
	if (k->mode == M_TEXT) {
		u->texts[0] = k->text;
		k->text = NULL;
	} else if (k->nids) {
		u->texts[0] = prompt_blocks(p, k->isl, k->ids, k->nids,
					    t->o->block_size, err, sizeof(err));
		if (!u->texts[0])
			die("%s:%zu: %s", t->name, k->lineno, err);
	} else {
		u->texts[0] = prompt_generate(p, (double)k->isl, 0);
	}
}

/* A session mixing raw messages with synthesized prompts is an error;
 * all-messages sessions are replayed without history. */
static void
context_mode(struct tload *t, struct dataset *d)
{
	for (size_t c = 0; c < d->n; c++) {
		struct conv *cv = &d->convs[c];
		size_t raw = 0;

		for (size_t k = 0; k < cv->nturns; k++)
			raw += cv->turns[k].raw_messages || cv->turns[k].payload;
		if (raw && raw != cv->nturns)
			die("%s: session '%s': Mixed Mooncake sessions with both "
			    "raw `messages`/`payload` and synthesized prompts are "
			    "unsupported.", t->name, cv->session_id);
		/* bailian rows carry their whole context */
		for (size_t k = 0; k < cv->nturns; k++)
			cv->turns[k].no_history = raw || t->o->ds_type == DS_BAILIAN;
	}
}

static long long
at_ns(double ts, double zero)
{
	double v = (ts - zero) * 1e6;

	return v > 0 ? llround(v) : 0;
}

/* strategies/fixed_schedule.py: zero = first timestamp (auto offset), the
 * start offset, or 0; a later turn's timestamp is also absolute. */
static double
schedule_zero(struct tload *t, const struct dataset *d, struct tline **first)
{
	double zero = 0;

	if (!d->n)
		die("%s: No conversations with valid first-turn timestamps found",
		    t->name);
	for (size_t c = 0; c < d->n; c++)
		if (!first[c]->has_ts)
			die("%s:%zu: First turn of %s missing timestamp_ms", t->name,
			    first[c]->lineno, d->convs[c].session_id);
	if (t->o->auto_offset) {
		zero = first[0]->ts;
		for (size_t c = 1; c < d->n; c++)
			zero = first[c]->ts < zero ? first[c]->ts : zero;
	} else if (t->o->start_offset >= 0) {
		zero = (double)t->o->start_offset;
	}
	return zero;
}

/*
 * Times of turn u (line k). Fixed schedule: every timestamped turn gets
 * at_ns; a later one also gets delay_ns = its gap to the session's
 * previous timestamp, so a sender that times later turns by delay alone
 * never sends one early. Other modes: later turns keep their trace delay.
 */
static void
set_times(const struct gen_opts *o, const struct tline *k, struct turn *u,
	  int later, double zero, double *last)
{
	u->at_ns = -1;
	u->delay_ms = -1;
	u->max_tokens = k->osl;
	if (o->fixed && k->has_ts) {
		u->at_ns = at_ns(k->ts, zero);
		if (later)
			u->delay_ms = k->ts > *last ? k->ts - *last : 0;
		*last = k->ts;
	} else if (later && k->has_delay) {
		u->delay_ms = k->delay > 0 ? k->delay : 0;
	}
}

/* Line indices grouped by conversation, file order within each. */
static size_t *
grouped_order(const struct tload *t, const struct dataset *d)
{
	size_t *start = xcalloc(d->n + 1, sizeof(*start));
	size_t *order = xcalloc(t->n ? t->n : 1, sizeof(*order));

	for (size_t i = 0; i < t->n; i++)
		start[t->v[i].conv + 1]++;
	for (size_t c = 0; c < d->n; c++)
		start[c + 1] += start[c];
	for (size_t i = 0; i < t->n; i++)
		order[start[t->v[i].conv]++] = i;
	free(start);
	return order;
}

/* Rendered into the payload: the text is not needed again. */
static void
drop_texts(struct turn *u)
{
	for (size_t j = 0; j < u->ntexts; j++)
		free(u->texts[j]);
	free(u->texts);
	u->texts = NULL;
	u->ntexts = 0;
	free(u->raw_messages);
	free(u->raw_tools);
	free(u->extra);
	u->raw_messages = u->raw_tools = u->extra = NULL;
}

static void
tload_free(struct tload *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct tline *k = &t->v[i];

		free(k->session);
		free(k->ids);
		free(k->text);
		free(k->messages);
		free(k->tools);
		free(k->payload);
		free(k->extra);
	}
	free(t->v);
}

void
trace_dataset_build(struct dataset *d, const struct gen_opts *o,
		    struct prompt *p, uint64_t root)
{
	struct tload t = { .o = o, .name = o->input_file };
	struct tline **first;
	size_t *order;
	double zero = 0, *last;
	struct rng model, dist;
	size_t rr = 0;

	if (o->ds_type == DS_DAG) {
		dag_dataset_build(d, o);
		return;
	}
	if (o->ds_type == DS_SINGLE_TURN || o->ds_type == DS_MULTI_TURN ||
	    o->ds_type == DS_RANDOM_POOL) {
		custom_dataset_build(d, o, p, root);
		return;
	}
	if (o->ds_type == DS_SPEED_BENCH) {
		speedbench_dataset_build(d, o, p, root);
		return;
	}
	if (is_replay(o->ds_type)) {
		replay_dataset_build(d, o, root);
		return;
	}
	csv_init(&t.csv, CSV_RECORD_MAX, CSV_FIELDS_MAX);
	load(&t);
	csv_release(&t.csv);
	if (!t.lines)
		die("'%s' has no records", t.name);
	d->lines = t.lines;
	if (o->ds_type == DS_BAILIAN)
		bailian_sessions(&t);
	group(&t, d, root);
	first = xcalloc(d->n ? d->n : 1, sizeof(*first));
	last = xcalloc(d->n ? d->n : 1, sizeof(*last));
	for (size_t i = t.n; i-- > 0;)
		first[t.v[i].conv] = &t.v[i];
	if (o->fixed)
		zero = schedule_zero(&t, d, first);
	/* prompts in session order, as the loader's phase 1 draws them */
	order = grouped_order(&t, d);
	for (size_t j = 0; j < t.n; j++) {
		struct tline *k = &t.v[order[j]];
		struct conv *cv = &d->convs[k->conv];
		struct turn *u = &cv->turns[cv->nturns++];

		make_text(&t, k, u, p);
		set_times(o, k, u, k != first[k->conv], zero, &last[k->conv]);
	}
	context_mode(&t, d);
	rng_derive(&model, root, "composer.turn.model_selection");
	rng_derive(&dist, root, "models.sequence.distribution");
	for (size_t c = 0; c < d->n; c++)
		for (size_t i = 0; i < d->convs[c].nturns; i++) {
			struct turn *u = &d->convs[c].turns[i];
			long long isl;

			u->model = o->model_random ?
				gen_model_draw(o, &model) : rr++ % o->nmodels;
			if (o->dist)	/* _set_max_tokens: the pair's osl */
				seqdist_sample(o->dist, &dist, &isl, &u->max_tokens);
		}
	prompt_inject(p, d, o);
	for (size_t c = 0; c < d->n; c++)
		for (size_t i = 0; i < d->convs[c].nturns; i++) {
			struct turn *u = &d->convs[c].turns[i];

			if (u->payload)	/* a line's payload, sent as it is */
				replay_record(o, u);
			else
				payload_render(o, u, i);
			drop_texts(u);
		}
	free(order);
	free(first);
	free(last);
	tload_free(&t);
}
