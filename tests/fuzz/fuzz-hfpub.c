/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for aiperf-gen's public dataset builders (hfpub.c): any rows give conversations of non-blank turns, or a message. */
#include <stddef.h>
#include <stdint.h>

#include "gen.h"
#include "hfpub.h"
#include "hub/rows.h"
#include "json/json.h"
#include "rand/pystr.h"
#include "fuzztool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the datasets of each kind and shape this build converts */
static const char *const names[] = { "aimo", "blazedit_5k", "spec_al_mtbench", "spec_bench" };

static void
check(const struct dataset *d)
{
	for (size_t c = 0; c < d->n; c++) {
		const struct conv *cv = &d->convs[c];

		if (!cv->nturns)
			abort();
		for (size_t k = 0; k < cv->nturns; k++) {
			const struct turn *t = &cv->turns[k];

			if (t->ntexts != 1 || pystr_isblank(t->texts[0], strlen(t->texts[0])))
				abort();
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct hfpub_ds *ds;
	struct gen_opts o = { .request_count = -1, .num_entries = 100, .concurrency = 1 };
	struct dataset d = { 0 };
	struct rows r;
	char err[512];

	if (!size)
		return 0;
	ds = hfpub_find(names[data[0] % 4]);
	if (!ds || rows_parse((const char *)data + 1, size - 1, "f", &r, 1 << 16,
			      err, sizeof(err)) < 0)
		return 0;
	/* a builder never dies (fuzz_armed off: a die() aborts) */
	if (hfpub_builders[ds->kind](&d, &o, ds, &r, err, sizeof(err)) == 0)
		check(&d);
	else if (!memchr(err, '\0', sizeof(err)) || !err[0])
		abort();
	dataset_free(&d);
	rows_free(&r);
	return 0;
}
