/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: aiperf-plot's plot configuration YAML: hostile input never crashes or leaks, and what it accepts is safe to use (file-name plot names, no control characters, a message naming a line otherwise). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../cmd/aiperf-plot/cfg.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_str(const char *s)
{
	for (; s && *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			abort();
}

static void
check_preset(const struct preset *p)
{
	size_t n = strlen(p->name);

	if (!n || n > MAX_NAME || p->name[0] == '.' || strchr(p->name, '/') || !p->type ||
	    p->line < 1)
		abort();
	check_str(p->x);
	check_str(p->y);
	check_str(p->y2);
	check_str(p->title);
	check_str(p->stat);
	check_str(p->source);
	if (p->labels && !is_column(p->labels))
		abort();
	if (p->groups && !is_column(p->groups))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct plotcfg c;
	char err[512];
	size_t i, len;

	if (size > CFG_MAX_BYTES)
		return 0;
	err[0] = '\0';
	if (cfg_parse(&c, (const char *)data, size, "f.yaml", err, sizeof(err)) < 0) {
		/* refused: a message that names the file, and nothing kept */
		if (strncmp(err, "f.yaml:", 7) || c.single || c.multi || c.baselines)
			abort();
		return 0;
	}
	for (i = 0; i < c.nsingle; i++)
		check_preset(&c.single[i]);
	for (i = 0; i < c.nmulti; i++)
		check_preset(&c.multi[i]);
	(void)cfg_classify(&c, "run_agg_1", "a/b/run_agg_1");
	if (cfg_group(&c, "r", "x/baseline/r", &len) == NULL || len > strlen("x/baseline/r"))
		abort();
	cfg_release(&c);
	return 0;
}
