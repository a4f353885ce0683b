/* SPDX-License-Identifier: Apache-2.0 */
/* --stage-cpu: the other stages' CPU during the measured window, from the wrapper's samples. */
#include "summary/stagecpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

/* The next line of text[*pos..len) into line (NUL-terminated, cut to its
 * size); 0 at the end. */
static int
next_line(const char *text, size_t len, size_t *pos, char *line, size_t size)
{
	size_t i = *pos, n;

	if (i >= len)
		return 0;
	const char *nl = memchr(text + i, '\n', len - i);
	n = nl ? (size_t)(nl - (text + i)) : len - i;
	*pos = i + n + 1;
	if (n >= size)
		n = size - 1;
	memcpy(line, text + i, n);
	line[n] = '\0';
	return 1;
}

int
stagecpu_complete(const char *text, size_t len)
{
	char line[64];
	size_t pos = 0;

	while (next_line(text, len, &pos, line, sizeof(line)))
		if (!strcmp(line, "end"))
			return 1;
	return 0;
}

static int
parse_names(struct stagecpu *sc, char *line, char *why, size_t whylen)
{
	char *save = NULL, *w = strtok_r(line + 5, " ", &save);

	for (; w; w = strtok_r(NULL, " ", &save)) {
		if (sc->n == STAGECPU_MAX || strlen(w) >= sizeof(sc->names[0]))
			return util_seterr(why, whylen, "too many or too long stage names");
		snprintf(sc->names[sc->n++], sizeof(sc->names[0]), "%s", w);
	}
	return sc->n ? 0 : util_seterr(why, whylen, "no stage names");
}

/* One sample: the wall time and each stage's CPU, in ns. */
static int
parse_sample(const struct stagecpu *sc, char *line, int64_t *t, int64_t *cpu)
{
	long long v;
	const char *err;
	char *save = NULL, *w = strtok_r(line, " ", &save);

	for (size_t i = 0; i <= sc->n; i++) {
		if (!w || util_strtonum(w, 0, INT64_MAX, &v, &err) < 0)
			return -1;
		if (i == 0)
			*t = v;
		else
			cpu[i - 1] = v;
		w = strtok_r(NULL, " ", &save);
	}
	return w ? -1 : 0;
}

int
stagecpu_parse(struct stagecpu *sc, const char *text, size_t len,
	       int64_t start_ns, int64_t end_ns, char *why, size_t whylen)
{
	int64_t t, last = -1, cpu[STAGECPU_MAX], at_start[STAGECPU_MAX] = { 0 },
		at_end[STAGECPU_MAX] = { 0 };
	int samples = 0;
	char line[1024];
	size_t pos = 0, lineno = 0;

	memset(sc, 0, sizeof(*sc));
	if (end_ns < start_ns)
		return util_seterr(why, whylen, "an empty window");
	while (next_line(text, len, &pos, line, sizeof(line))) {
		lineno++;
		if (!line[0] || line[0] == '#' || !strcmp(line, "end"))
			continue;
		if (!strncmp(line, "names ", 6) && !sc->n) {
			if (parse_names(sc, line, why, whylen) < 0)
				return -1;
			continue;
		}
		if (!sc->n || parse_sample(sc, line, &t, cpu) < 0 || t < last)
			return util_seterr(why, whylen, "line %zu: not a sample", lineno);
		last = t;
		samples++;
		for (size_t i = 0; i < sc->n; i++) {
			if (t <= start_ns)
				at_start[i] = cpu[i];
			if (t <= end_ns)
				at_end[i] = cpu[i];
		}
	}
	if (!samples)
		return util_seterr(why, whylen, "no samples");
	for (size_t i = 0; i < sc->n; i++) {
		int64_t d = at_end[i] - at_start[i];
		sc->seconds[i] = d > 0 ? (double)d / 1e9 : 0;
		sc->total += sc->seconds[i];
	}
	sc->window = (double)(end_ns - start_ns) / 1e9;
	return 0;
}
