/* SPDX-License-Identifier: Apache-2.0 */
/* lib/plan: what plan_write() renders plan_parse() reads back, field for field; hostile plans refused. */
#include "plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "util.h"

static void
fill(struct plan *p)
{
	struct plan_sender *s;
	struct plan_scraper *c;

	plan_set(&p->run_dir, "/tmp/aiperf.X");
	plan_set(&p->artifact_dir, "/a/b c");
	plan_set(&p->log_level, "INFO");
	plan_set(&p->raw, "/a/b c/profile_export_raw.jsonl");
	plan_set(&p->input, "-");
	plan_set(&p->metrics_gate, "/tmp/aiperf.X/metrics.gate");
	for (int k = 1; k <= 2; k++) {
		s = plan_add_sender(p);
		plan_argv_add(&s->gen, "aiperf-gen");
		plan_argv_add(&s->gen, "--extra-inputs");
		plan_argv_add(&s->gen, "{\"a\": \"x\ny\\\"\"}");
		plan_argv_add(&s->send, "aiperf-send");
		plan_argv_add(&s->send, k == 1 ? "--concurrency" : "\xc3\xa9\t");
		plan_set(&s->spool, k == 1 ? "/r/spill.1" : "/r/spill.2");
		plan_set(&s->phase_ack, "/r/phase.ack");
		plan_set(&s->send_pid, k == 1 ? "/r/send.1.pid" : "/r/send.2.pid");
	}
	plan_argv_add(&p->log, "INFO 2 senders");
	plan_argv_add(&p->log, "DEBUG a note");
	plan_argv_add(&p->metrics, "aiperf-metrics");
	plan_argv_add(&p->export, "aiperf-export");
	plan_argv_add(&p->export, "");
	c = plan_add_scraper(p);
	plan_set(&c->name, "server-metrics");
	plan_argv_add(&c->argv, "aiperf-scrape");
	c->baseline = 1;
	c->endpoints = 3;
	c->hold_export = 1;
	p->margin_us = 5000;
	p->start_ns = 1764000000123456789LL;
	p->scrape_timeout_s = 5;
	p->solo_cpu = 3;
	p->idle = 1;
	p->live = 0;
}

static int
same_argv(const struct plan_argv *a, const struct plan_argv *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]))
			return 0;
	return b->n == 0 || b->v[b->n] == NULL;
}

static int
parses(const char *text, char *err, size_t errlen)
{
	struct plan p;
	int r;

	plan_init(&p);
	r = plan_parse(&p, text, strlen(text), err, errlen);
	plan_release(&p);
	return r;
}

static void
round_trip(void)
{
	struct plan p, q;
	struct buf b, b2;
	char err[256] = "";

	plan_init(&p);
	plan_init(&q);
	fill(&p);
	buf_init(&b, 1 << 20);
	buf_init(&b2, 1 << 20);
	plan_write(&p, &b);
	TEST("written as one line", b.len && b.s[b.len - 1] == '\n' &&
	     !memchr(b.s, '\n', b.len - 1));
	TEST("parsed back", plan_parse(&q, b.s, b.len, err, sizeof(err)) == 0);
	TEST_STR("a path with a space", q.artifact_dir, "/a/b c");
	TEST("unset strings stay NULL", !q.log_file && !q.notice && !q.rest_cpus);
	TEST("two senders", q.nsenders == 2);
	TEST("an argument with a newline and quotes",
	     q.nsenders == 2 && same_argv(&p.senders[0].gen, &q.senders[0].gen));
	TEST("UTF-8 and a tab", q.nsenders == 2 &&
	     same_argv(&p.senders[1].send, &q.senders[1].send));
	TEST("an empty argument", same_argv(&p.export, &q.export));
	TEST("no live view: ui empty", q.ui.n == 0);
	TEST("the scraper", q.nscrapers == 1 && q.scrapers[0].endpoints == 3 &&
	     q.scrapers[0].baseline == 1 && !q.scrapers[0].cue);
	TEST("the log's notes", same_argv(&p.log, &q.log) && q.log.n == 2);
	TEST("each sender's pid file", q.nsenders == 2 &&
	     !strcmp(q.senders[1].send_pid, "/r/send.2.pid"));
	TEST_STR("the gate aiperf-metrics waits on", q.metrics_gate, "/tmp/aiperf.X/metrics.gate");
	TEST("a scraper export waits for", q.nscrapers == 1 && q.scrapers[0].hold_export == 1);
	TEST("numbers exact", q.start_ns == 1764000000123456789LL &&
	     q.margin_us == 5000 && q.solo_cpu == 3 && q.idle == 1 && q.live == 0);
	plan_write(&q, &b2);
	TEST("written again, the same text", b.len == b2.len &&
	     !memcmp(b.s, b2.s, b.len));
	plan_release(&p);
	plan_release(&q);
	TEST("released: as new", q.nsenders == 0 && !q.senders && q.solo_cpu == -1);
	buf_release(&b);
	buf_release(&b2);
}

static void
hostile(void)
{
	char err[256];
	char deep[2200];
	size_t i;
	struct plan p;

	TEST("not JSON", parses("{", err, sizeof(err)) < 0 && strstr(err, "not JSON"));
	TEST("no version", parses("{\"plan\": {}}", err, sizeof(err)) < 0);
	TEST("version 2", parses("{\"aiperf_plan\": 2, \"plan\": {}}", err, sizeof(err)) < 0);
	TEST("an empty plan", parses("{\"aiperf_plan\": 1, \"plan\": {}}", err, sizeof(err)) == 0);
	TEST("plan not an object",
	     parses("{\"aiperf_plan\": 1, \"plan\": []}", err, sizeof(err)) < 0);
	TEST("an unknown field named",
	     parses("{\"aiperf_plan\": 1, \"plan\": {\"wrokers\": 1}}", err, sizeof(err)) < 0 &&
	     strstr(err, "wrokers"));
	TEST("a string of the wrong type",
	     parses("{\"aiperf_plan\": 1, \"plan\": {\"input\": 1}}", err, sizeof(err)) < 0 &&
	     strstr(err, "input"));
	TEST("a string with a NUL", parses("{\"aiperf_plan\": 1, \"plan\": "
					   "{\"input\": \"a\\u0000b\"}}", err, sizeof(err)) < 0);
	TEST("an argument that is a number", parses("{\"aiperf_plan\": 1, \"plan\": "
						    "{\"metrics\": [\"a\", 1]}}", err, sizeof(err)) < 0);
	TEST("an int out of range", parses("{\"aiperf_plan\": 1, \"plan\": "
					   "{\"solo_cpu\": 4294967296}}", err, sizeof(err)) < 0);
	TEST("a fraction", parses("{\"aiperf_plan\": 1, \"plan\": "
				  "{\"margin_us\": 1.5}}", err, sizeof(err)) < 0);
	TEST("a negative count", parses("{\"aiperf_plan\": 1, \"plan\": {\"scrapers\": "
					"[{\"endpoints\": -1}]}}", err, sizeof(err)) < 0);
	TEST("log notes that are not strings", parses("{\"aiperf_plan\": 1, \"plan\": "
						      "{\"log\": [\"INFO a\", {}]}}", err, sizeof(err)) < 0);
	TEST("hold_export of the wrong type", parses("{\"aiperf_plan\": 1, \"plan\": {\"scrapers\": "
						     "[{\"hold_export\": \"1\"}]}}", err, sizeof(err)) < 0);
	TEST("a sender that is no object", parses("{\"aiperf_plan\": 1, \"plan\": "
						  "{\"senders\": [1]}}", err, sizeof(err)) < 0);
	TEST("senders twice", parses("{\"aiperf_plan\": 1, \"plan\": {\"senders\": [{}], "
				     "\"senders\": [{}]}}", err, sizeof(err)) < 0);
	TEST("a field twice: the last", parses("{\"aiperf_plan\": 1, \"plan\": {\"input\": "
					       "\"a\", \"input\": \"b\", \"metrics\": [\"x\"], "
					       "\"metrics\": [\"y\"]}}", err, sizeof(err)) == 0);
	TEST("an unknown field of a sender", parses("{\"aiperf_plan\": 1, \"plan\": "
						    "{\"senders\": [{\"x\": 1}]}}", err, sizeof(err)) < 0);
	i = (size_t)snprintf(deep, sizeof(deep), "{\"aiperf_plan\": 1, \"plan\": {\"ui\": ");
	while (i < sizeof(deep) - 2)
		deep[i++] = '[';
	deep[i] = 0;
	TEST("nested too deep", parses(deep, err, sizeof(err)) < 0);
	plan_init(&p);
	TEST("a load of no file", plan_load(&p, "/nonexistent/plan.json", err,
					    sizeof(err)) < 0 && strstr(err, "/nonexistent/plan.json"));
	TEST("a load of a directory", plan_load(&p, "/", err, sizeof(err)) < 0);
	TEST("a load of a FIFO-like device", plan_load(&p, "/dev/null", err, sizeof(err)) < 0);
}

int
main(void)
{
	round_trip();
	hostile();
	return TEST_DONE();
}
