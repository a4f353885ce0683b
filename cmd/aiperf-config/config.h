/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-config's parts: init's templates, expand's printing. */
#ifndef AIPERF_CONFIG_H
#define AIPERF_CONFIG_H

#include <stdio.h>

#include "cfg/load.h"

struct expand_opts {
	int full;
	long long index;	/* -1: every variation */
	const char *format;	/* text, yaml, json */
};

/* expand.c: the variations as the original's `aiperf config expand` prints them. */
void expand_print(const struct cfgplan *p, const struct expand_opts *o, FILE *out);

/* init.c: `aiperf config init`. */
int cmd_init(int argc, char **argv);

#endif
