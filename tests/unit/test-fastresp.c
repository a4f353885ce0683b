/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for aiperf-metrics' fastresp.c: the fast path takes the common packets and agrees with the general path on hostile ones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Private to the tool; tested from its sources (as tests/fuzz/fuzz-fastresp.c),
 * which are one tool's files, not one unit: a local may shadow another's static. */
#pragma GCC diagnostic ignored "-Wshadow"
#include "../../cmd/aiperf-metrics/metrics.h"
#include "../../cmd/aiperf-metrics/accuracy.c"
#include "../../cmd/aiperf-metrics/compute.c"
#include "../../cmd/aiperf-metrics/fastresp.c"
#include "../../cmd/aiperf-metrics/fastpacket.c"
#include "../../cmd/aiperf-metrics/health.c"
#include "../../cmd/aiperf-metrics/parse.c"
#include "../../cmd/aiperf-metrics/parse_endpoints.c"
#include "../../cmd/aiperf-metrics/parse_images.c"
#include "../../cmd/aiperf-metrics/parse_template.c"
#include "../../cmd/aiperf-metrics/tokens.c"
#include "../../cmd/aiperf-metrics/usage.c"
#include "test.h"

static struct rec fast, slow;
static struct opts o;
static struct buf line, a, b;

/* A chat (or completions) record whose second response is packet p,
 * JSON-escaped into the line. */
static void
make(const char *p, const char *et)
{
	buf_reset(&line);
	buf_addf(&line, "{\"metadata\":{\"x_request_id\":\"r\"},\"start_perf_ns\":1000,"
		 "\"responses\":[{\"perf_ns\":1500,\"packets\":[{\"name\":\"data\",\"value\":"
		 "\"%s\"}]},{\"perf_ns\":2000,\"packets\":[{\"name\":\"data\",\"value\":\"",
		 strcmp(et, "chat") ? "{\\\"object\\\":\\\"text_completion\\\",\\\"choices\\\":"
				      "[{\\\"text\\\":\\\"a\\\"}]}"
				    : "{\\\"object\\\":\\\"chat.completion.chunk\\\",\\\"choices\\\":"
				      "[{\\\"delta\\\":{\\\"content\\\":\\\"a\\\"}}]}");
	for (const char *s = p; *s; s++) {
		if (*s == '"' || *s == '\\')
			buf_addch(&line, '\\');
		buf_addch(&line, *s);
	}
	buf_addf(&line, "\"}]}],\"aiperf\":{\"endpoint_type\":\"%s\"}}", et);
}

/* What one path makes of the line: status, counts, texts, the error. */
static void
result(struct rec *r, struct buf *out)
{
	char why[256];

	buf_reset(out);
	r->fr_want = 1;
	if (rec_parse(r, &o, line.s, line.len, why, sizeof(why)) < 0) {
		buf_addf(out, "error: %s", why);
		return;
	}
	buf_addf(out, "%zu %zu %d|", r->nr, r->nraw, r->perr);
	buf_add(out, r->out_text.s, r->out_text.len);
	buf_addch(out, '|');
	buf_add(out, r->reason_text.s, r->reason_text.len);
	buf_addch(out, '|');
	buf_add(out, r->emsg.s, r->emsg.len);
	for (size_t i = 0; i < r->nr; i++) {
		buf_addf(out, "|%d%d%s", r->r[i].data, r->r[i].output, r->r[i].usage ? "u" : "");
		/* the usage's numbers: read from where the packet has them */
		for (const struct json *u = r->r[i].usage ? r->r[i].usage->child : NULL; u; u = u->next)
			if (u->type == JSON_NUMBER)
				buf_addf(out, " %.*s=%.*s", (int)u->keylen, u->key, (int)u->len, u->str);
	}
}

/* Both paths agree; fast says whether the fast path read packet 2. */
static int
agree(const char *p, const char *et, int *took)
{
	make(p, et);
	result(&slow, &b);
	result(&fast, &a);
	*took = fast.nfast == 2;
	if (a.len != b.len || memcmp(a.s, b.s, a.len)) {
		printf("#   %s\n#   fast %.*s\n#   slow %.*s\n", p, (int)a.len, a.s, (int)b.len, b.s);
		return 0;
	}
	return 1;
}

static const struct {
	const char *p;
	int fast;	/* 1: the fast path reads it; 0: it declines; -1: either */
} cases[] = {
	{ "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"x\"}}]}", 1 },
	{ "{\"choices\":[{\"delta\":{\"content\":\"\\\"q\\\\ \\u00e9\\ud83d\\ude00\"}}],\"object\":\"chat.completion.chunk\"}", 1 },
	{ "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"\\ud800\\ud800\\udc00\\udfff\"}}]}", 1 },
	{ "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"\\u0000\\b\\f\\n\\r\\t\\/\"}}]}", 1 },
	{ "{ \"object\" : \"chat.completion.chunk\" , \"choices\" : [ ] , \"usage\" : { \"prompt_tokens\" : 1 } } ", 1 },
	{ "{\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"reasoning\":\"r\",\"content\":\"c\"}}]}", 1 },
	{ "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"x\"},\"delta\":{}}]}", 1 },
	{ "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"x\",\"content\":7}}]}", 1 },
	{ "{\"object\":\"chat.completion.chunk\",\"choices\":[1,{\"delta\":{\"content\":\"x\"}}]}", 1 },
	{ "{\"object\":\"x\",\"object\":\"chat.completion.chunk\",\"choices\":[]}", 1 },
	{ "{\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":{}}", 1 },
	{ "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"tool_calls\":[]}}]}", 0 },
	{ "{\"object\":\"nope\",\"choices\":[]}", 0 },
	{ "{\"object\":\"chat.completion\\u002echunk\",\"choices\":[]}", 0 },
	{ "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"cont\\u0065nt\":\"x\"}}]}", 0 },
	{ "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"\\x\"}}]}", 0 },
	{ "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"\\u12\"}}]}", 0 },
	{ "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"x\"}}]", 0 },
	{ "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"x\"}}]}}", 0 },
	{ "{\"object\":\"chat.completion.chunk\",\"n\":01,\"choices\":[]}", 0 },
	{ "{\"object\":\"chat.completion.chunk\",\"n\":-,\"choices\":[]}", 0 },
	{ "{\"object\":\"chat.completion.chunk\",\"n\":1.e5,\"choices\":[]}", 0 },
	{ "{\"object\":\"chat.completion.chunk\",\"n\":tru,\"choices\":[]}", 0 },
	{ "{\"object\":\"chat.completion.chunk\",\"n\":-0.5e-3,\"choices\":[],\"m\":[true,false,null]}", 1 },
	{ " {\"object\":\"chat.completion.chunk\",\"choices\":[]}", 0 },
	{ "[DONE]", 0 },
	{ "[1]", 0 },
	{ "\"s\"", 0 },
	{ "", 0 },
	{ "{", 0 },
	{ "{\"", 0 },
	{ "{\"a\"", 0 },
	{ "{\"a\":", 0 },
	{ "{\"a\":\"\\", 0 },
	{ "{}", 0 },
};

/* A record of three chat chunks, k = 0, 1, 2: texts "t" k * step and then
 * after[k] (the chunk's members after "choices", escaped as the line holds
 * them); aiperf: the record's "aiperf" members. */
static void
three_chunks(const char *const after[3], int step, const char *aiperf)
{
	buf_reset(&line);
	buf_addstr(&line, "{\"metadata\":{\"x_request_id\":\"r\"},"
		   "\"start_perf_ns\":1000,\"responses\":[");
	for (int k = 0; k < 3; k++)
		buf_addf(&line, "%s{\"perf_ns\":%d,\"packets\":[{\"name\":\"data\","
			 "\"value\":\"{\\\"object\\\":\\\"chat.completion.chunk\\\","
			 "\\\"choices\\\":[{\\\"delta\\\":{\\\"content\\\":\\\"t%d\\\"}}]%s}\"}]}",
			 k ? "," : "", 1500 + 10 * k, k * step, after[k]);
	buf_addf(&line, "],\"aiperf\":{%s}}", aiperf);
}

int
main(void)
{
	int ok = 1, took, wrong = 0;
	char name[64];

	rec_init(&fast);
	rec_init(&slow);
	slow.slow = 1;
	o.server_tokens = 1;
	buf_init(&line, BUF_NOMAX);
	buf_init(&a, BUF_NOMAX);
	buf_init(&b, BUF_NOMAX);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ok = agree(cases[i].p, "chat", &took);
		snprintf(name, sizeof(name), "chat packet %zu: both paths agree", i);
		TEST(name, ok);
		if (cases[i].fast >= 0 && took != cases[i].fast) {
			printf("#   packet %zu: fast path %s\n", i, took ? "took it" : "declined");
			wrong++;
		}
		ok = agree(cases[i].p, "completions", &took);
		snprintf(name, sizeof(name), "completions packet %zu: both paths agree", i);
		TEST(name, ok);
	}
	TEST("the fast path takes and declines what it should", wrong == 0);
	TEST("completions text read in place",
	     agree("{\"object\":\"text_completion\",\"choices\":[{\"text\":\"a\\u00e9\"}]}",
		   "completions", &took) && took && fast.out_text.len == 4);
	/* Every cut of a packet: never past the line, the same both ways. */
	{
		const char *p = "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":"
				"{\"content\":\"\\\"\\ud83d\\ude00\"}}],\"usage\":{\"total_tokens\":3}}";
		char cut[256];
		int all = 1;

		for (size_t n = 0; n <= strlen(p); n++) {
			memcpy(cut, p, n);
			cut[n] = '\0';
			all &= agree(cut, "chat", &took);
		}
		TEST("every prefix of a packet: both paths agree", all);
	}
	/* A stream's chunks: each read from the last one's tail (the same
	 * bytes but its text) or goes on from its checkpoints. */
	{
		static const char *const chunk[] = {
			"{\\\"id\\\":\\\"c\\\",\\\"object\\\":\\\"chat.completion.chunk\\\","
			"\\\"choices\\\":[{\\\"index\\\":0,\\\"delta\\\":{\\\"content\\\":\\\"",
			/* the same up to "object"'s value */
			"{\\\"id\\\":\\\"c\\\",\\\"object\\\":\\\"chat.completion\\\","
			"\\\"choices\\\":[{\\\"index\\\":0,\\\"message\\\":{\\\"content\\\":\\\"",
		};
		/* kind 2: kind 0 with other bytes after the text */
		static const struct {
			int kind[3];
			size_t resumed, tailed;
			int depth;	/* the last resume's; -1: none */
		} seq[] = {
			{ { 0, 0, 0 }, 0, 2, -1 },	/* from the tail twice */
			{ { 0, 0, 2 }, 1, 1, 3 },	/* tail, then inside choices[0] */
			{ { 0, 1, 1 }, 2, 0, 3 },	/* from "id", then inside choices[0] */
			{ { 0, 1, 0 }, 2, 0, 1 },	/* from "id" twice */
		};

		for (size_t i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
			if (fast.fm)
				fast.fm->resumed = fast.fm->tailed = 0;
			buf_reset(&line);
			buf_addstr(&line, "{\"metadata\":{\"x_request_id\":\"r\"},"
				   "\"start_perf_ns\":1000,\"responses\":[");
			for (int k = 0; k < 3; k++) {
				buf_addf(&line, "%s{\"perf_ns\":%d,\"packets\":[{\"name\":\"data\","
					 "\"value\":\"", k ? "," : "", 1500 + k);
				buf_addstr(&line, chunk[seq[i].kind[k] % 2]);
				buf_addstr(&line, k == 1 ? "\\\\u00e9" : "x");
				buf_addstr(&line, seq[i].kind[k] == 2
					   ? "\\\"},\\\"finish_reason\\\":\\\"stop\\\"}]}\"}]}"
					   : "\\\"}}]}\"}]}");
			}
			buf_addstr(&line, "],\"aiperf\":{\"endpoint_type\":\"chat\"}}");
			result(&slow, &b);
			result(&fast, &a);
			snprintf(name, sizeof(name), "chunk sequence %zu: both paths agree", i);
			TEST(name, a.len == b.len && !memcmp(a.s, b.s, a.len));
			snprintf(name, sizeof(name), "chunk sequence %zu: read from the tail and checkpoints", i);
			TEST(name, fast.fm && fast.fm->resumed == seq[i].resumed
			     && fast.fm->tailed == seq[i].tailed
			     && (seq[i].depth < 0 || fast.fm->depth == seq[i].depth));
		}
	}
	/* A stream's texts read from the tail: empty ones (a string that starts
	 * and ends at one place) and escapes, before and after others. */
	{
		static const char *const text[] = { "", "zz", "", "", "w", "\\\\\\\"q", "" };
		size_t nt = sizeof(text) / sizeof(text[0]);

		if (fast.fm)
			fast.fm->tailed = 0;
		buf_reset(&line);
		buf_addstr(&line, "{\"metadata\":{\"x_request_id\":\"r\"},"
			   "\"start_perf_ns\":1000,\"responses\":[");
		for (size_t k = 0; k < nt; k++)
			buf_addf(&line, "%s{\"perf_ns\":%zu,\"packets\":[{\"name\":\"data\","
				 "\"value\":\"{\\\"object\\\":\\\"chat.completion.chunk\\\","
				 "\\\"choices\\\":[{\\\"delta\\\":{\\\"content\\\":"
				 "\\\"%s\\\"}}]}\"}]}", k ? "," : "", 1500 + k, text[k]);
		buf_addstr(&line, "],\"aiperf\":{\"endpoint_type\":\"chat\"}}");
		result(&slow, &b);
		result(&fast, &a);
		TEST("empty texts from the tail: both paths agree",
		     a.len == b.len && !memcmp(a.s, b.s, a.len));
		TEST("empty texts from the tail: read from it", fast.fm && fast.fm->tailed == nt - 1);
		if (a.len != b.len || memcmp(a.s, b.s, a.len))
			printf("#   fast %.*s\n#   slow %.*s\n", (int)a.len, a.s, (int)b.len, b.s);
	}
	/* Numbers after a chunk's text that differ from the last chunk's (a
	 * server's stamp, running usage counts): read from the tail, moved
	 * by each number's length, unless a number is no longer one or the
	 * digits are in a string. Each case's members after "choices" take
	 * the chunk's k (0, 1, 2) in its numbers. */
	{
		static const struct {
			const char *after[3];
			size_t tailed, fastpk;	/* read from the tail; read fast */
		} nc[] = {
			{ { ",\\\"aiperf_send_ns\\\":1400", ",\\\"aiperf_send_ns\\\":1410",
			    ",\\\"aiperf_send_ns\\\":14200" }, 2, 3 },
			{ { ",\\\"usage\\\":{\\\"completion_tokens\\\":1,\\\"total_tokens\\\":9}",
			    ",\\\"usage\\\":{\\\"completion_tokens\\\":2,\\\"total_tokens\\\":10}",
			    ",\\\"usage\\\":{\\\"completion_tokens\\\":3,\\\"total_tokens\\\":11}" }, 2, 3 },
			{ { ",\\\"n\\\":-0.5e-3", ",\\\"n\\\":7", ",\\\"n\\\":12.25E+2" }, 2, 3 },
			{ { ",\\\"a\\\":1,\\\"s\\\":\\\"\\\\\\\"q1\\\",\\\"b\\\":5",
			    ",\\\"a\\\":22,\\\"s\\\":\\\"\\\\\\\"q1\\\",\\\"b\\\":6",
			    ",\\\"a\\\":3,\\\"s\\\":\\\"\\\\\\\"q1\\\",\\\"b\\\":777" }, 2, 3 },
			/* digits in a string: not a number */
			{ { ",\\\"x\\\":\\\"n1\\\"", ",\\\"x\\\":\\\"n2\\\"",
			    ",\\\"x\\\":\\\"n3\\\"" }, 0, 3 },
			/* no longer a number, or not a JSON one */
			{ { ",\\\"n\\\":1", ",\\\"n\\\":2", ",\\\"n\\\":null" }, 1, 3 },
			{ { ",\\\"n\\\":1", ",\\\"n\\\":\\\"2\\\"", ",\\\"n\\\":3" }, 0, 3 },
			{ { ",\\\"n\\\":1", ",\\\"n\\\":01", ",\\\"n\\\":1." }, 0, 1 },
			{ { ",\\\"n\\\":1", ",\\\"n\\\":-", ",\\\"n\\\":1e" }, 0, 1 },
			/* the first six numbers only: a seventh must stay the same */
			{ { ",\\\"v\\\":[1,2,3,4,5,6,7]", ",\\\"v\\\":[11,2,3,4,5,6,7]",
			    ",\\\"v\\\":[1,2,3,4,5,66,7]" }, 2, 3 },
			{ { ",\\\"v\\\":[1,2,3,4,5,6,7]", ",\\\"v\\\":[1,2,3,4,5,6,8]",
			    ",\\\"v\\\":[1,2,3,4,5,6,9]" }, 0, 3 },
		};
		int all = 1, tails = 1;
		struct buf ea = BUF_INIT(BUF_NOMAX), eb = BUF_INIT(BUF_NOMAX);

		for (size_t i = 0; i < sizeof(nc) / sizeof(nc[0]); i++) {
			char why[256];
			int r1, r2;

			if (fast.fm)
				fast.fm->tailed = 0;
			three_chunks(nc[i].after, 11, "\"endpoint_type\":\"chat\"");
			result(&slow, &b);
			result(&fast, &a);
			if (a.len != b.len || memcmp(a.s, b.s, a.len)) {
				printf("#   numbers case %zu\n#   fast %.*s\n#   slow %.*s\n", i,
				       (int)a.len, a.s, (int)b.len, b.s);
				all = 0;
			}
			if (fast.nfast != nc[i].fastpk) {
				printf("#   numbers case %zu: %zu packets fast, not %zu\n", i, fast.nfast,
				       nc[i].fastpk);
				tails = 0;
			}
			if (!fast.fm || fast.fm->tailed != nc[i].tailed) {
				printf("#   numbers case %zu: %zu from the tail, not %zu\n", i,
				       fast.fm ? fast.fm->tailed : 0, nc[i].tailed);
				tails = 0;
			}
			/* the metric records too (the usage counts among them) */
			fast.fr_want = slow.fr_want = 1;
			r1 = rec_parse(&fast, &o, line.s, line.len, why, sizeof(why));
			r2 = rec_parse(&slow, &o, line.s, line.len, why, sizeof(why));
			if (r1 != r2 || (r1 == 0 && (rec_emit(&fast, &o, &ea), rec_emit(&slow, &o, &eb),
						     ea.len != eb.len || memcmp(ea.s, eb.s, ea.len)))) {
				printf("#   numbers case %zu: the records differ\n", i);
				all = 0;
			}
		}
		TEST("numbers after the text: both paths agree", all);
		TEST("numbers after the text: read fast, from the tail where they are numbers", tails);
		buf_release(&ea);
		buf_release(&eb);
	}
	/* Server stamps (aiperf-mock's aiperf_send_ns): the fast path pairs
	 * the stamped packets with them as the general path does. Each case
	 * is a chunk's JSON text after its content, as the line holds it. */
	{
		static const struct {
			const char *after;	/* the chunk's members after "choices" */
			int delays;		/* observation delays expected */
			int fastpk;		/* packets the fast path reads */
		} sc[] = {
			{ ",\\\"aiperf_send_ns\\\":1400", 3, 3 },
			{ ",\\\"aiperf_send_ns\\\" : 7", 3, 3 },
			{ ",\\\"aiperf_send_ns\\\":\\\"7\\\"", 0, 3 },
			{ ",\\\"x\\\":\\\"\\\\\\\"aiperf_send_ns\\\\\\\":1\\\"", 0, 3 },
			{ ",\\\"aiperf_send_ns\\\":null,\\\"aiperf_send_ns\\\":1", 0, 3 },
			/* an outer \u: the general path reads it, decoded */
			{ ",\\\"aiperf\\u005fsend_ns\\\":1", 3, 0 },
			{ ",\\\"aiperf_send_ns\\\"\\u003a1", 3, 0 },
			{ ",\\\"aiperf_send_n\\\":1", 0, 3 },
			{ "", 0, 3 },
		};
		int all = 1, fastall = 1, counted = 1;
		struct buf ea = BUF_INIT(BUF_NOMAX), eb = BUF_INIT(BUF_NOMAX);

		for (size_t i = 0; i < sizeof(sc) / sizeof(sc[0]); i++) {
			char why[256];
			const char *d;
			int n = 0;

			const char *after[3] = { sc[i].after, sc[i].after, sc[i].after };

			three_chunks(after, 1, "\"endpoint_type\":\"chat\","
				     "\"server_stamps\":[1400,1410,1420,1430]");
			fast.fr_want = slow.fr_want = 1;
			fast.nfast = 0;
			if (rec_parse(&fast, &o, line.s, line.len, why, sizeof(why)) < 0
			    || rec_parse(&slow, &o, line.s, line.len, why, sizeof(why)) < 0) {
				printf("#   stamps case %zu: %s\n", i, why);
				all = 0;
				continue;
			}
			rec_emit(&fast, &o, &ea);
			rec_emit(&slow, &o, &eb);
			if (ea.len != eb.len || memcmp(ea.s, eb.s, ea.len)) {
				printf("#   stamps case %zu\n#   fast %s#   slow %s", i, ea.s, eb.s);
				all = 0;
			}
			if (fast.nfast != (size_t)sc[i].fastpk) {
				printf("#   stamps case %zu: %zu packets fast\n", i, fast.nfast);
				fastall = 0;
			}
			if ((d = strstr(ea.s, "\"observation_delay_ns\":[")) != NULL)
				for (n = 1, d += 24; *d != ']'; d++)
					n += *d == ',';
			if (n != sc[i].delays) {
				printf("#   stamps case %zu: %d delays, not %d\n", i, n, sc[i].delays);
				counted = 0;
			}
		}
		TEST("server stamps: both paths write the same record", all);
		TEST("server stamps: the fast path read what it can", fastall);
		TEST("server stamps: the stamped packets paired", counted);
		buf_release(&ea);
		buf_release(&eb);
	}
	/* Outer text the fast path must not take: the line is malformed. */
	make("x", "chat");
	buf_reset(&a);
	buf_add(&a, line.s, line.len);
	{
		char *v = strstr(a.s + 200, "\"value\":\"") + 9;
		char why1[256], why2[256];
		int r1, r2;

		v[0] = '\\';
		v[1] = 'q';
		fast.fr_want = 1;
		r1 = rec_parse(&fast, &o, a.s, a.len, why1, sizeof(why1));
		r2 = rec_parse(&slow, &o, a.s, a.len, why2, sizeof(why2));
		TEST("bad outer escape: the same parse error", r1 < 0 && r2 < 0 && !strcmp(why1, why2));
		v[0] = '\t';
		r1 = rec_parse(&fast, &o, a.s, a.len, why1, sizeof(why1));
		r2 = rec_parse(&slow, &o, a.s, a.len, why2, sizeof(why2));
		TEST("control in outer string: the same parse error", r1 < 0 && r2 < 0 && !strcmp(why1, why2));
	}
	rec_release(&fast);
	rec_release(&slow);
	buf_release(&line);
	buf_release(&a);
	buf_release(&b);
	return TEST_DONE();
}
