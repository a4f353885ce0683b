/* SPDX-License-Identifier: Apache-2.0 */
/* Custom JSONL dataset records: single_turn, multi_turn and random_pool lines, validated as the original's models. */
#ifndef AIPERF_CUSTOM_H
#define AIPERF_CUSTOM_H

#include <stddef.h>
#include <stdint.h>

#include "json/json.h"

/*
 * struct custom_parser owns a JSON arena and the turn and text arrays of
 * the last parsed line; custom_parse() reuses them, so every pointer in
 * p->turns and p->texts points into the line's JSON values and is valid
 * until the next custom_parse() call. custom_parser_release() frees
 * everything.
 *
 * The rules are those of the original's pydantic models
 * (src/aiperf/dataset/loader/models.py): unknown fields are ignored
 * (extra="allow"; so is "image_uuids", which no model has); a
 * "type" field must name the model's own type; text and texts (likewise
 * image(s), audio(s), video(s)) and timestamp and delay are mutually
 * exclusive when both are truthy; at least one modality must be truthy
 * (a non-empty string or list); output_length is an integer > 0; extra
 * (single_turn and multi_turn turns) is an object or null. The
 * values are within every dataset reader's bounds (field_check()):
 * timestamp and delay FIELD_MS, output_length FIELD_TOKENS.
 */
enum custom_kind {
	CUSTOM_SINGLE_TURN,
	CUSTOM_MULTI_TURN,
	CUSTOM_RANDOM_POOL,
};

enum custom_has {
	CUSTOM_TIMESTAMP = 1 << 0,
	CUSTOM_DELAY = 1 << 1,
	CUSTOM_OUTPUT_LENGTH = 1 << 2,
};

struct custom_text {
	const char *s;
	size_t n;
	const char *name;	/* its {name, contents} object's name, or NULL */
	size_t name_len;
};

struct custom_turn {
	size_t text0, ntexts;	/* the turn's texts: p->texts.v[text0..+ntexts) */
	const char *role;	/* NULL: none */
	size_t role_len;
	const char *session_id;	/* single_turn: NULL when none */
	size_t session_len;
	unsigned has;		/* enum custom_has */
	double timestamp, delay;	/* ms */
	int64_t output_length;
	const char *media;	/* the first image/audio/video field set, or NULL */
	const struct json *extra;	/* "extra": members merged into the body, or NULL */
	/* its contents per field kind, as texts: p->images.v[img0..+nimages), ... */
	size_t img0, nimages, audio0, naudios, video0, nvideos;
};

/* A list of contents (strings of the line, as texts are). */
struct custom_items {
	struct custom_text *v;
	size_t n, cap;
};

struct custom_parser {
	struct json_doc *doc;
	const struct json *root;
	const char *session_id;	/* multi_turn: NULL when none */
	size_t session_len;
	struct custom_turn *turns;
	size_t nturns, cap_turns;
	/* the contents, one list per field kind: text(s), image(s) (URLs
	 * or paths, as given), audio(s), video(s) */
	struct custom_items texts, images, audios, videos;
};

void custom_parser_init(struct custom_parser *p);
void custom_parser_release(struct custom_parser *p);

/*
 * Parse line s[0..n) as a record of kind k. Returns 1 with p->turns and
 * p->texts filled (one turn, or a multi_turn line's turns), 0 for a blank
 * line (the original skips those), or -1 with the reason, such as
 * "text and texts cannot be set together" or "turns[1]: role: expected a
 * string", in err.
 */
int custom_parse(struct custom_parser *p, enum custom_kind k, const char *s,
		 size_t n, char *err, size_t errlen);

/* The same checks on an already parsed value v (the loaders' can_load). */
int custom_parse_value(struct custom_parser *p, enum custom_kind k,
		       const struct json *v, char *err, size_t errlen);

#endif
