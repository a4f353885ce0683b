/* SPDX-License-Identifier: Apache-2.0 */
/* Verbatim replay inputs: raw_payload lines, inputs.json files and SageMaker Data Capture records, validated as the original's loaders. */
#ifndef AIPERF_REPLAY_H
#define AIPERF_REPLAY_H

#include <stddef.h>

#include "buf.h"
#include "json/json.h"

/*
 * Every request body these functions give is the input's JSON value
 * written again compactly by lib/json/jw.h: members in their order
 * (duplicates kept), numbers as written, strings re-escaped as jw
 * escapes them, white space dropped. A body jw wrote (aiperf-gen's
 * payloads, so an inputs.json of ours) comes back byte for byte. The
 * caller owns every struct and frees it with its _release(); the
 * strings in them are malloc'd and owned by the struct.
 */

/*
 * raw_payload: line s[0..n) as one request body into out (reset
 * first). Returns 1 with the body, 0 for a blank line (skipped, as the
 * original does), or -1 with the original's reason in err: "invalid
 * JSON: ...", "raw_payload line must be a JSON object, got list",
 * "raw_payload line missing required 'messages' array (got NoneType)".
 * doc is reset and reused.
 */
int replay_payload(struct json_doc *doc, const char *s, size_t n,
		   struct buf *out, char *err, size_t errlen);

/* One session of an inputs.json file. */
struct replay_session {
	char *id;
	char **payloads;	/* compact bodies, NUL-terminated */
	size_t *lens;
	size_t n;
};

struct replay_inputs {
	struct replay_session *v;
	size_t n;
};

/*
 * inputs.json text s[0..n): {"data": [{"session_id": "...", "payloads":
 * [{...}, ...]}, ...]} (other members ignored, as the original's models
 * ignore them). Returns 0 with ri filled in file order, or -1 with the
 * reason in err ("data[2]: payloads[0]: expected an object", "data[3]
 * duplicate session_id 'a' (already declared earlier in the file); each
 * session_id must be unique"); ri is then empty.
 */
int replay_inputs_parse(const char *s, size_t n, struct replay_inputs *ri,
			char *err, size_t errlen);
void replay_inputs_release(struct replay_inputs *ri);

/* One SageMaker Data Capture record. */
struct replay_capture {
	double ts_ms;		/* eventMetadata.inferenceTime, ms since the epoch */
	char *messages;		/* the captured request's messages, compact JSON */
	char *tools;		/* its tools, or NULL */
	long long max_tokens;	/* max_tokens, else max_completion_tokens; -1: none */
	long long input_length;	/* endpointOutput usage.prompt_tokens; -1: none */
	char *event_id;		/* NULL: none */
};

/*
 * A capture line s[0..n) into c (released first). Returns 1, 0 for a
 * blank line, or -1 with the original's reason in err ("Capture record
 * ID missing required field: 'inferenceTime'", "Capture record ID has
 * no 'messages' key in payload. Only OpenAI-compatible chat endpoints
 * are supported."). The input's "data" is JSON text (encoding "JSON")
 * or its base64 (encoding "BASE64", the default); inferenceTime is ISO
 * 8601 (a time without an offset is taken as UTC).
 */
int replay_capture_parse(struct json_doc *doc, const char *s, size_t n,
			 struct replay_capture *c, char *err, size_t errlen);
void replay_capture_release(struct replay_capture *c);

/* ISO 8601 date-time s[0..n) (datetime.fromisoformat's forms) as ms
 * since the epoch into *ms: 0, or -1 when it is not one. */
int replay_iso_ms(const char *s, size_t n, double *ms);

#endif
