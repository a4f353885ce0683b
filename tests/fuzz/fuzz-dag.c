/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/dataset/dag: any file loads or fails with a message, and a loaded DAG's indices are in range. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dataset/dag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(const struct dag *d)
{
	size_t nwait = 0, joined = 0;

	for (size_t b = 0; b < d->nbranches; b++) {
		const struct dag_branch *br = &d->branches[b];

		if (br->parent >= d->n || br->turn >= d->convs[br->parent].nturns ||
		    br->child0 + br->nchildren > d->nchildren)
			abort();
		if (br->join_at != DAG_NONE && (br->mode != DAG_SPAWN ||
		    br->join_at <= br->turn || br->join_at >= d->convs[br->parent].nturns))
			abort();
		for (size_t i = 0; i < br->nchildren; i++)
			if (d->children[br->child0 + i] >= d->n)
				abort();
		if (br->join_at != DAG_NONE)
			joined += br->nchildren;
	}
	for (size_t i = 0; i < d->n; i++)
		for (size_t k = 0; k < d->convs[i].nturns; k++)
			nwait += d->convs[i].turns[k].nwait;
	if (nwait != joined || !d->nroots || d->nroots > d->n)
		abort();
}

/* The input is the file: its lines are the conversations. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size ? size : 1), err[512];
	struct dag d;
	size_t lineno = 0, at = 0;
	int rc = 0;

	if (!s)
		return 0;
	memcpy(s, data, size);
	dag_init(&d, "fuzz");
	while (at < size && rc >= 0) {
		char *e = memchr(s + at, '\n', size - at);
		size_t n = e ? (size_t)(e - (s + at)) : size - at;

		rc = dag_add_line(&d, s + at, n, ++lineno, err, sizeof(err));
		at += n + 1;
	}
	if (rc >= 0 && dag_finish(&d, err, sizeof(err)) == 0)
		check(&d);
	else if (!memchr(err, '\0', sizeof(err)) || !err[0])
		abort();
	dag_release(&d);
	free(s);
	return 0;
}
