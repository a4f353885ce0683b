/* SPDX-License-Identifier: Apache-2.0 */
/* The original's hub-backed public datasets: their plugins.yaml metadata, one row a name, and a builder per loader kind. */
#ifndef AIPERF_GEN_HFPUB_H
#define AIPERF_GEN_HFPUB_H

#include <stddef.h>
#include <stdint.h>

struct dataset;
struct gen_opts;
struct rows;
struct turn;
struct json;

/* The loader a dataset uses (plugins.yaml's class). */
enum hfpub_kind {
	HFPUB_INSTRUCTION_RESPONSE,	/* hf_instruction_response.py */
	HFPUB_CONVERSATION,		/* hf_conversation.py */
	HFPUB_MMVU,			/* mmvu.py */
	HFPUB_MT_BENCH,			/* mt_bench.py */
	HFPUB_ASR,			/* hf_asr.py */
	HFPUB_EXGENTIC,			/* exgentic.py, exgentic_v2.py */
	HFPUB_SPEC_BENCH,		/* spec_bench.py: a GitHub file */
	HFPUB_NKINDS
};

/*
 * One public_dataset_loader entry of the original's plugins.yaml: its
 * metadata as written there (NULL: the key is absent). Static, never freed.
 */
struct hfpub_ds {
	const char *name;		/* --public-dataset NAME */
	enum hfpub_kind kind;
	const char *hf_dataset_name;	/* the hub id; NULL: not on the hub */
	const char *hf_subset;		/* the config; NULL: the hub's "default" */
	const char *hf_split;
	int streaming;			/* capped at hfpub_max_convs() */
	int has_timing_data;
	int filters;			/* the loader takes --dataset-filter */
	int version;			/* exgentic: 1 or 2; else 0 */
	const char *prompt_column;
	const char *image_column;
	const char *video_column;
	const char *audio_column;
	const char *conversation_column;
	const char *message_content_key;
	const char *prompt_template;	/* str.format() with the row's columns */
	const char *description;	/* one line: what it is, where from */
};

/* The table, ended by a row whose name is NULL. */
extern const struct hfpub_ds hfpub_table[];

/* The row of name, or NULL. */
const struct hfpub_ds *hfpub_find(const char *name);

/*
 * A loader kind's conversion (convert_to_conversations): rows (the split,
 * in the hub's order, each a JSON object's text) into d's conversations,
 * added with hfpub_conv_add() and filled with texts (and media, timing,
 * raw messages ... as the kind needs). It may take the rows' strings
 * (set rows->v[i] NULL). The framework then gives each conversation its
 * session id and finalizes each turn whose payload is not set yet
 * (_finalize_turn: model, max_tokens from --osl unless the turn has one,
 * payload_render(), then the texts and media freed). A streaming dataset
 * stops at hfpub_max_convs() conversations. Returns 0, or -1 with a
 * message in err (exit 1: "--public-dataset NAME: err").
 */
typedef int (*hfpub_build_fn)(struct dataset *d, const struct gen_opts *o,
			      const struct hfpub_ds *ds, struct rows *rows,
			      char *err, size_t errlen);

/*
 * The builders by kind; NULL: not in this build ("'NAME' is not available
 * in this build", exit 1). Each helper fills its own line in hfpub.c:
 *   HFPUB_INSTRUCTION_RESPONSE, HFPUB_MT_BENCH, HFPUB_SPEC_BENCH: hfpub.c
 *   HFPUB_CONVERSATION, HFPUB_MMVU, HFPUB_ASR: pubmedia
 *   HFPUB_EXGENTIC: exgentic
 */
extern const hfpub_build_fn hfpub_builders[HFPUB_NKINDS];



/*
 * _max_conversations(): for a streaming dataset, --request-count when
 * given, else --num-dataset-entries, else --num-sessions (the original's
 * dataset entries), else the requests the run sends by default (where the
 * original would read the whole stream); 0 (no cap) for the others.
 */
size_t hfpub_max_convs(const struct gen_opts *o, const struct hfpub_ds *ds);

/* The config asked of the hub: --hf-subset, else ds->hf_subset, else
 * "default". */
const char *hfpub_subset(const struct gen_opts *o, const struct hfpub_ds *ds);

/*
 * Append a conversation of nturns empty turns (max_tokens, delay_ms and
 * at_ns -1: none) to d and return it; valid until the next call.
 */
struct conv *hfpub_conv_add(struct dataset *d, size_t nturns);

/* Append text s[0..n) (copied) to t's texts. */
void hfpub_turn_text(struct turn *t, const char *s, size_t n);

/*
 * Build ds into d: its rows from --public-dataset-dir, the cache or the
 * hub (lib/hub/rows.h), then its kind's builder, then the finalizing.
 * Exits 1 with a message on failure.
 */
void hfpub_build(struct dataset *d, const struct gen_opts *o,
		 const struct hfpub_ds *ds, uint64_t root);

/* --print-timing-mode: the rows fetched (or found) and the first built. */
void hfpub_check_first(const struct gen_opts *o, const struct hfpub_ds *ds);


/* The --public-dataset choices: sharegpt, then the table's names;
 * NULL-terminated, static. */
const char *const *hfpub_names(void);

#endif
