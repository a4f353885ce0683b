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
		}
		(void)sink;
	}
	return 0;
}
