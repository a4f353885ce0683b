/* SPDX-License-Identifier: Apache-2.0 */
/* TEMPORARY byte tokenizer standing in for lib/tok until the tok branch lands. */
#include <stdlib.h>

#include "tok.h"
#include "toksrc.h"
#include "util.h"

struct tok {
	int dummy;
};

struct tok *
tok_load(const char *spec, const char *revision, char *err, size_t errlen)
{
	(void)spec;
	(void)revision;
	(void)err;
	(void)errlen;
	return xcalloc(1, sizeof(struct tok));
}

void
tok_free(struct tok *t)
{
	free(t);
}

int
tok_encode(const struct tok *t, const char *s, size_t n, struct tok_ids *ids)
{
	(void)t;
	for (size_t i = 0; i < n; i++) {
		if (ids->n == ids->cap) {
			ids->cap = ids->cap ? 2 * ids->cap : 1024;
			ids->v = xreallocarray(ids->v, ids->cap, sizeof(*ids->v));
		}
		ids->v[ids->n++] = (unsigned char)s[i];
	}
	return 0;
}

int
tok_decode(const struct tok *t, const int32_t *ids, size_t n, int skip_special,
	   struct buf *out)
{
	(void)t;
	(void)skip_special;
	for (size_t i = 0; i < n; i++)
		if (buf_addch(out, ids[i]))
			return -1;
	return 0;
}

void
tok_ids_release(struct tok_ids *ids)
{
	free(ids->v);
	ids->v = NULL;
	ids->n = ids->cap = 0;
}

const char *
toksrc_datadir(void)
{
	const char *d = getenv("AIPERF_DATA_DIR");

	return d ? d : AIPERF_DATADIR;
}
