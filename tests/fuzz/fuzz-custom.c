/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for the custom dataset record parser (lib/dataset/custom). */
#include <stddef.h>
#include <stdint.h>

#include "dataset/custom.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The first byte picks single_turn, multi_turn or random_pool; the rest is the line. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct custom_parser p;
	static int ready;
	char err[256];
	enum custom_kind k;

	if (!ready) {
		custom_parser_init(&p);
		ready = 1;
	}
	if (!size)
		return 0;
	k = (enum custom_kind)(data[0] % 3);
	if (custom_parse(&p, k, (const char *)data + 1, size - 1, err, sizeof(err)) == 1) {
		volatile size_t sink = 0;

		for (size_t i = 0; i < p.nturns; i++) {
			const struct custom_turn *t = &p.turns[i];

			for (size_t j = 0; j < t->ntexts; j++)
				sink += p.texts.v[t->text0 + j].n + (unsigned char)p.texts.v[t->text0 + j].s[0];
			sink += t->role_len + t->session_len + (size_t)t->output_length;
			/* media contents (issue #17): every item in bounds */
			for (size_t j = 0; j < t->nimages; j++)
				sink += p.images.v[t->img0 + j].n + p.images.v[t->img0 + j].name_len;
			for (size_t j = 0; j < t->naudios; j++)
				sink += p.audios.v[t->audio0 + j].n;
			for (size_t j = 0; j < t->nvideos; j++)
				sink += p.videos.v[t->video0 + j].n;
			if (t->nimages)
				sink += (unsigned char)p.images.v[t->img0 + t->nimages - 1].s[0];
		}
		(void)sink;
	}
	return 0;
}
