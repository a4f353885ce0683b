/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for aiperf-plot's dashboard requests: heads in pieces, the files they may name, the statuses of the rest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Private to the tool; tested from its source. */
#include "../../cmd/aiperf-plot/dashreq.c"
#include "test.h"

static struct dashreq d;

/* The status of the whole head s (0: incomplete). */
static int
status(const char *s)
{
	return dashreq_parse(&d, s, strlen(s)) ? d.status : 0;
}

/* The status of GET target. */
static int
get(const char *target)
{
	char *s = xstrfmt("GET %s HTTP/1.1\r\nHost: x\r\n\r\n", target);
	int st = status(s);

	free(s);
	return st;
}

static void
served(void)
{
	TEST("/ is the report", get("/") == 200 && !strcmp(d.path, "report.html") && !d.head);
	TEST("a plot", get("/ttft_histogram.png") == 200 && !strcmp(d.path, "ttft_histogram.png"));
	TEST("a data file", get("/data/pareto.dat") == 200 && !strcmp(d.path, "data/pareto.dat"));
	TEST("a run's plot", get("/runs/run_0001/a.svg") == 200 &&
	     !strcmp(d.path, "runs/run_0001/a.svg"));
	TEST("a run's data", get("/runs/r/data/a.gp") == 200);
	TEST("the query is dropped", get("/a.png?x=../../etc") == 200 && !strcmp(d.path, "a.png"));
	TEST("HEAD", status("HEAD /a.png HTTP/1.0\r\n\r\n") == 200 && d.head);
}

static void
not_found(void)
{
	static const char *const bad[] = {
		"/../x", "/data/../../x", "/.hidden", "/data/.x.dat.0123456789ab",
		"/.ttft_histogram.0123456789ab/ttft_histogram.png", "/runs/../report.html",
		"/runs/.x/a.png", "/runs//a.png", "/runs/a/b/c.png", "/runs/r", "/data/",
		"/a/b", "//etc/passwd", "/%2e%2e/x", "/a.png#frag", "http://h/a.png", "*",
		"/data/data/a.dat", "/runs/r/runs/s/a.png", NULL,
	};
	char big[1100];
	int i, ok = 1;

	for (i = 0; bad[i]; i++)
		if (get(bad[i]) != 404) {
			printf("#   %s: %d\n", bad[i], d.status);
			ok = 0;
		}
	TEST("paths outside what is served are 404", ok);
	memset(big, 'a', sizeof(big) - 1);
	big[0] = '/';
	big[sizeof(big) - 1] = '\0';
	TEST("a path longer than the buffer is 404", get(big) == 404);
}

static void
errors(void)
{
	char head[DASHREQ_MAX_HEAD + 64];

	TEST("POST is 405", status("POST / HTTP/1.1\r\n\r\n") == 405);
	TEST("a garbled line is 400", status("GET /\r\n\r\n") == 400);
	TEST("HTTP/2.0 is 505", status("GET / HTTP/2.0\r\n\r\n") == 505);
	TEST("a bad transfer coding is 501",
	     status("GET / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n") == 501);
	memset(head, 'a', sizeof(head) - 1);
	head[sizeof(head) - 1] = '\0';
	memcpy(head, "GET / HTTP/1.1\r\nX: ", 19);
	TEST("a head over 8 KiB is 431", status(head) == 431);
	TEST("a head cut short asks for more",
	     status("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n") == 0 && status("GE") == 0 &&
	     status("") == 0);
}

int
main(void)
{
	served();
	not_found();
	errors();
	return TEST_DONE();
}
