/* SPDX-License-Identifier: Apache-2.0 */
/* A sweep's cells from its parameters: grid or zip, labels and folder names as the original's. */
#include "sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "util.h"

const char *
sweep_leaf(const char *path)
{
	const char *dot = strrchr(path, '.');

	return dot ? dot + 1 : path;
}

const char *
sweep_display_name(const struct sweep_dim *d, size_t n, size_t i)
{
	for (size_t k = 0; k < n; k++)
		if (k != i && !strcmp(sweep_leaf(d[k].path), sweep_leaf(d[i].path)))
			return d[i].path;
	return sweep_leaf(d[i].path);
}

char *
sweep_dir_segment(const char *s, size_t index)
{
	struct buf out = BUF_INIT(BUF_NOMAX);

	for (const char *c = s; *c; c++) {
		if (c[0] == '.' && c[1] == '.') {
			c++;
			continue;
		}
		if (!strchr("/\\<>:\"|?*", *c))
			buf_addch(&out, *c);
	}
	if (!out.len || strspn(out.s, ".") == out.len) {
		buf_release(&out);
		return xstrfmt("variation_%zu", index);
	}
	return buf_detach(&out, NULL);
}

static char *
dir_name(const struct sweep_dim *d, size_t n, const size_t *pick, size_t index)
{
	struct buf b = BUF_INIT(BUF_NOMAX);
	char *r;

	for (size_t i = 0; i < n; i++)
		buf_addf(&b, "%s%s_%s", i ? "__" : "", sweep_leaf(d[i].path), d[i].val[pick[i]]);
	r = sweep_dir_segment(buf_str(&b), index);
	buf_release(&b);
	return r;
}

static char *
label(const struct sweep_dim *d, size_t n, const size_t *pick)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	for (size_t i = 0; i < n; i++)
		buf_addf(&b, "%s%s=%s", i ? ", " : "", d[i].path, d[i].val[pick[i]]);
	return buf_detach(&b, NULL);
}

/* How many cells, or 0 with the reason. */
static size_t
count(const struct sweep_dim *d, size_t n, enum sweep_type type, size_t max, char *err,
      size_t errlen)
{
	size_t cells = 1;

	if (!n)
		return snprintf(err, errlen, "no parameter to sweep"), 0;
	for (size_t i = 0; i < n; i++) {
		if (!d[i].nval)
			return snprintf(err, errlen, "%s: an empty list", d[i].path), 0;
		if (type == SWEEP_ZIP && d[i].nval != d[0].nval)
			return snprintf(err, errlen, "zip needs lists of one length: %s has %zu values, %s has %zu",
					d[0].path, d[0].nval, d[i].path, d[i].nval), 0;
		if (type == SWEEP_GRID && cells > max / d[i].nval)
			return snprintf(err, errlen, "the sweep has more than %zu cells", max), 0;
		cells = type == SWEEP_ZIP ? d[0].nval : cells * d[i].nval;
	}
	if (cells > max)
		return snprintf(err, errlen, "the sweep has more than %zu cells", max), 0;
	return cells;
}

size_t
sweep_cells(const struct sweep_dim *d, size_t n, enum sweep_type type, size_t max,
	    struct sweep_cell **out, char *err, size_t errlen)
{
	size_t cells = count(d, n, type, max, err, errlen);
	struct sweep_cell *c;

	*out = NULL;
	if (!cells)
		return 0;
	c = xcalloc(cells, sizeof(*c));
	for (size_t k = 0; k < cells; k++) {
		size_t rest = k;

		c[k].pick = xcalloc(n, sizeof(size_t));
		for (size_t i = n; i-- > 0;) {
			c[k].pick[i] = type == SWEEP_ZIP ? k : rest % d[i].nval;
			rest = type == SWEEP_ZIP ? rest : rest / d[i].nval;
		}
		c[k].dir = dir_name(d, n, c[k].pick, k);
		c[k].label = label(d, n, c[k].pick);
	}
	*out = c;
	return cells;
}

void
sweep_cells_free(struct sweep_cell *c, size_t n)
{
	for (size_t k = 0; c && k < n; k++) {
		free(c[k].pick);
		free(c[k].label);
		free(c[k].dir);
	}
	free(c);
}
