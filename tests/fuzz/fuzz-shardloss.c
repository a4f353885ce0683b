/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for lib/shardloss, the reader of the shards' raw records
 * (outside input: files from other hosts) and of aiperf-gen's requests.
 * The first byte picks 1 to 4 shards, the second their slots and ramps;
 * the rest, up to a NUL byte, is request lines (line i to shard i mod N),
 * after it record lines. Each shard's counts must come out the same when
 * counted twice, ended + lost + never can be no more than its request
 * lines, and the records ended and stray no more than the record lines.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shardloss.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Feed each line of s[0..n) to shardloss_request (records: 0) or
 * shardloss_record (1); the lines per shard into lines[]. */
static uint64_t
feed(struct shardloss *sl, size_t nsh, const char *s, size_t n, int records,
     uint64_t *lines)
{
	char err[128];
	uint64_t i = 0;

	while (n) {
		const char *nl = memchr(s, '\n', n);
		size_t len = nl ? (size_t)(nl - s) : n;

		if (records)
			shardloss_record(sl, s, len, err, sizeof(err));
		else
			shardloss_request(sl, i % nsh, s, len, err, sizeof(err));
		if (!records)
			lines[i % nsh]++;
		i++;
		s += len + (nl != NULL);
		n -= len + (nl != NULL);
	}
	return i;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t lines[4] = { 0 }, recs, ended = 0, strays = 0, n;
	struct shardloss_count a, b;
	struct shardloss *sl;
	const char *s = (const char *)data + 2, *w, *nul;
	size_t nsh, len, m;

	if (size < 2)
		return 0;
	nsh = 1 + data[0] % 4;
	sl = shardloss_new(nsh);
	for (size_t k = 0; k < nsh; k++)
		shardloss_slots(sl, k, data[1] & 7, (data[1] >> 3) & 7);
	shardloss_ramps(sl, (data[1] >> 6 & 1) * 1000000, (data[1] >> 7) * 1000);
	m = size - 2;
	nul = memchr(s, '\0', m);
	len = nul ? (size_t)(nul - s) : m;
	feed(sl, nsh, s, len, 0, lines);
	recs = nul ? feed(sl, nsh, nul + 1, m - len - 1, 1, lines) : 0;
	for (size_t k = 0; k < nsh; k++) {
		shardloss_count(sl, k, &a);
		shardloss_count(sl, k, &b);
		if (memcmp(&a, &b, sizeof(a)) || a.ended + a.lost + a.never > lines[k])
			abort();
		ended += a.ended;
	}
	for (size_t i = 0; (w = shardloss_stray(sl, i, &len, &n)); i++)
		if (!n || (strays += n) > recs)
			abort();
	if (ended + strays > recs)
		abort();
	shardloss_free(sl);
	return 0;
}
