/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: a YAML config file (lib/cfg) loaded whole, sweep expanded: hostile input never crashes or leaks, and what it accepts has sane variations. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cfg/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cfgplan p;
	char err[1024];

	if (size > 1u << 16)
		return 0;
	setenv("AIPERF_DATA_DIR", "data", 0);
	if (cfg_load_text(&p, "fuzz.yaml", (const char *)data, size, err, sizeof(err)) < 0) {
		if (!err[0])
			abort();	/* a refusal always says why */
		return 0;
	}
	if (!p.nv || !p.sweep_class)
		abort();
	for (size_t i = 0; i < p.nv; i++) {
		const char *d = p.v[i].dir;

		/* a variation's folder is one safe path segment */
		if (!*d || strchr(d, '/') || !strcmp(d, "..") || !strcmp(d, ".") || !p.v[i].body)
			abort();
	}
	{
		struct cfgargs common, *cells = calloc(p.nv, sizeof(*cells));

		cfg_split(&p, &common, cells);
		for (size_t i = 0; i < p.nv; i++)
			cfgargs_release(&cells[i]);
		free(cells);
		cfgargs_release(&common);
	}
	cfg_release(&p);
	return 0;
}
