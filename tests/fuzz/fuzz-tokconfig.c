/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for tokenizer_config.json (lib/tok/tok): bos/eos are known ids or -1. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "json/json.h"
#include "tok/tok.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A byte-level and a Metaspace tokenizer: config_token's two lookups. */
static struct tok *
load(const char *path)
{
	char err[512];
	struct tok *t = tok_open(path, err, sizeof(err));

	if (!t)
		abort();
	return t;
}

static void
check_id(const struct tok *t, int32_t id)
{
	if (id < -1 || (id >= 0 && (size_t)id >= tok_vocab_size(t)))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tok *tk[2];
	const char *s = (const char *)data;

	if (!tk[0]) {
		tk[0] = load("tests/tok/synth/flags.json.zst");
		tk[1] = load("tests/tok/synth/metaspace.json.zst");
	}
	struct tok *t = tk[size & 1];
	int32_t bos = tok_bos(t), eos = tok_eos(t);
	struct json_doc *d = json_doc_new();
	int valid = json_parse(d, s, size, NULL, 0) != NULL;
	int rc = tok_set_config(t, s, size);

	json_doc_free(d);
	/* -1 exactly for text that is not JSON, and then nothing changes */
	if ((rc == 0) != valid || (rc < 0 && (tok_bos(t) != bos || tok_eos(t) != eos)))
		abort();
	check_id(t, tok_bos(t));
	check_id(t, tok_eos(t));
	/* the same text gives the same ids */
	bos = tok_bos(t);
	eos = tok_eos(t);
	tok_set_config(t, s, size);
	if (tok_bos(t) != bos || tok_eos(t) != eos)
		abort();
	return 0;
}
