/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for tiktoken rank files (lib/tiktoken): a loaded file encodes text to ids it knows. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tok/bpe.h"
#include "tok/tiktoken.h"
#include "tok/tokpipe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every id is a rank of the file or a special token of the encoding. */
static void
check_ids(const struct tokpipe *p, const int32_t *ids, size_t n)
{
	int32_t max = bpe_max_id(p->bpe);

	for (size_t i = 0; i < n; i++)
		if (ids[i] < 0 || (ids[i] > max && !tokpipe_token_by_id(p, ids[i])))
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char text[] = "Hello, world! 12345 <|endoftext|> \xc3\xa9";
	static char path[256];
	struct tokpipe p;
	char err[512];
	int32_t *ids = NULL;
	size_t nids = 0, cap = 0, n;
	FILE *f;

	if (!path[0]) {
		/* the base name picks the encoding */
		int n = snprintf(path, sizeof(path), "/tmp/aiperf-fuzz-%ld",
				 (long)getpid());

		if (mkdir(path, 0700) < 0 && errno != EEXIST)
			abort();
		snprintf(path + n, sizeof(path) - (size_t)n, "/cl100k_base.tiktoken");
	}
	if (!(f = fopen(path, "wb")) || fwrite(data, 1, size, f) != size ||
	    fclose(f))
		abort();
	tokpipe_init(&p);
	if (tiktoken_load(&p, path, err, sizeof(err)) == 0) {
		n = tokpipe_encode(&p, text, sizeof(text) - 1, &ids, &nids, &cap);
		n += tokpipe_encode(&p, (const char *)data, size > 256 ? 256 : size,
				    &ids, &nids, &cap);
		if (n != nids)
			abort();
		check_ids(&p, ids, nids);
	} else if (!err[0]) {
		abort();
	}
	free(ids);
	tokpipe_release(&p);
	return 0;
}
