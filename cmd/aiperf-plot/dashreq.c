/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-plot --dashboard: what a request head asks for, a file of the report folder or an error status. */
#include "plot.h"

#include <string.h>

#include "http/httpreq.h"

/* One path component of safe characters, not starting with a dot: its
 * length, 0 when there is none. */
static size_t
component(const char *s)
{
	size_t n = 0;

	if (*s == '.')
		return 0;
	while (s[n] && (strchr("-_.", s[n]) || (s[n] >= 'a' && s[n] <= 'z') ||
			(s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= '0' && s[n] <= '9')))
		n++;
	return n;
}

/* Only NAME and data/NAME, and the same under runs/RUN/ (a run's own
 * plots): no "..", no hidden name (the work files are). */
static int
safe_path(const char *p)
{
	const char *s = p;
	size_t n;

	if (!strncmp(s, "runs/", 5)) {
		s += 5;
		if (!(n = component(s)) || s[n] != '/')
			return 0;
		s += n + 1;
	}
	if (!strncmp(s, "data/", 5))
		s += 5;
	return (n = component(s)) && !s[n];
}

static int
answer(struct dashreq *d, int status)
{
	d->status = status;
	return 1;
}

int
dashreq_parse(struct dashreq *d, const char *s, size_t n)
{
	struct httpreq r;
	int rc = httpreq_parse_head(&r, s, n, DASHREQ_MAX_HEAD);
	size_t len;

	memset(d, 0, sizeof(*d));
	if (rc == 0)
		return 0;
	if (rc < 0)
		return answer(d, r.status);
	d->head = httpreq_is(r.method, r.method_len, "HEAD");
	if (!d->head && !httpreq_is(r.method, r.method_len, "GET"))
		return answer(d, 405);
	if (!r.path_len || r.target[0] != '/' || r.path_len > sizeof(d->path))
		return answer(d, 404);
	len = r.path_len - 1;
	memcpy(d->path, r.target + 1, len);
	d->path[len] = '\0';
	if (!len)
		memcpy(d->path, "report.html", sizeof("report.html"));
	return answer(d, safe_path(d->path) ? 200 : 404);
}
