/* SPDX-License-Identifier: Apache-2.0 */
/* Benchmarks' task names: --accuracy-tasks over an enum of them, Python's repr of a list of them. */
#include "names.h"

#include <string.h>

#include "evalset.h"
#include "pytext.h"
#include "util.h"

/* repr(s): single quotes unless s holds ' and no ", the quote, '\\' and
 * control characters escaped (\t \n \r, else \xNN); the rest as it is. */
static void
pyrepr(struct buf *b, const char *s)
{
	char q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';

	buf_addch(b, q);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\' || c == (unsigned char)q)
			buf_addf(b, "\\%c", c);
		else if (c == '\t')
			buf_addstr(b, "\\t");
		else if (c == '\n')
			buf_addstr(b, "\\n");
		else if (c == '\r')
			buf_addstr(b, "\\r");
		else if (c < 0x20 || c == 0x7f)
			buf_addf(b, "\\x%02x", c);
		else
			buf_addch(b, c);
	}
	buf_addch(b, q);
}

void
names_pylist(struct buf *b, const char *const *v, size_t n)
{
	buf_addch(b, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			buf_addstr(b, ", ");
		pyrepr(b, v[i]);
	}
	buf_addch(b, ']');
}

int
names_ieq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		unsigned char x = (unsigned char)*a, y = (unsigned char)*b;

		if (x >= 'A' && x <= 'Z')
			x += 'a' - 'A';
		if (y >= 'A' && y <= 'Z')
			y += 'a' - 'A';
		if (x != y)
			return 0;
	}
	return *a == *b;
}

int
names_tasks(const struct bench_opts *o, size_t n, int (*find)(const char *),
	    int (*unknown)(const char *const *, size_t, char *, size_t),
	    const char *every_what, int **sel, size_t *nsel, char *err,
	    size_t errlen)
{
	const char **bad;
	size_t nbad = 0;
	int all = 0;

	for (size_t i = 0; i < o->ntasks; i++)
		all |= pytext_ieq(o->tasks[i], strlen(o->tasks[i]), "all", 3);
	if (all && o->ntasks > 1) {
		struct buf b = BUF_INIT(BUF_NOMAX);

		names_pylist(&b, (const char *const *)o->tasks, o->ntasks);
		util_seterr(err, errlen, "'all' cannot be mixed with other task names. "
			    "Pass 'all' by itself (or omit --accuracy-tasks) to select "
			    "%s. Got: %s", every_what, buf_str(&b));
		buf_release(&b);
		return -1;
	}
	if (!o->tasks || !o->ntasks || all) {
		*nsel = n;
		*sel = xreallocarray(NULL, n ? n : 1, sizeof(**sel));
		for (size_t i = 0; i < n; i++)
			(*sel)[i] = (int)i;
		return 0;
	}
	*sel = xreallocarray(NULL, o->ntasks, sizeof(**sel));
	bad = xreallocarray(NULL, o->ntasks, sizeof(*bad));
	*nsel = 0;
	for (size_t i = 0; i < o->ntasks; i++) {
		int t = find(o->tasks[i]);

		if (t < 0)
			bad[nbad++] = o->tasks[i];
		else
			(*sel)[(*nsel)++] = t;
	}
	if (nbad) {
		unknown(bad, nbad, err, errlen);
		free(*sel);
		*sel = NULL;
	}
	free(bad);
	return nbad ? -1 : 0;
}
