/* SPDX-License-Identifier: Apache-2.0 */
/* The fast path's reading of escaped packet text: what fastresp.c finds and fastpacket.c reads. */
#ifndef AIPERF_METRICS_FASTSCAN_H
#define AIPERF_METRICS_FASTSCAN_H

#include <stddef.h>

/*
 * Private to aiperf-metrics' fast path (fastresp.c scans a record's
 * responses, fastpacket.c reads one packet's text from what the scan
 * kept): the read position, the places of inner values and what a packet
 * keeps. Nothing here allocates; every pointer is into the record's line.
 */

static inline int
ishex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static inline unsigned
hexval(const char *p)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		int c = (unsigned char)p[i];

		v = v << 4 | (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	return v;
}

/*
 * The packet's JSON read from the escaped text: the outer escapes \" \\ \/
 * are read as the characters they stand for; any other outer escape (a
 * newline, \u) declines. struct sc is the read position.
 */
struct fmemo;
struct ival;

struct sc {
	const char *p, *end;
	int depth;
	struct fmemo *m;	/* pick_value(): checkpoints noted here */
	const char *base;	/* the packet's first byte (its '{') */
	const struct ival *top;	/* the packet's top-level object */
};

/* The next inner character (its outer bytes in *w), or -1. */
static inline int
peek(const struct sc *c, int *w)
{
	unsigned char ch;

	if (c->p >= c->end)
		return -1;
	ch = (unsigned char)*c->p;
	if (ch != '\\') {
		*w = 1;
		/* the outer string's end, or not a string json_parse() takes */
		return ch < 0x20 || ch == '"' ? -1 : ch;
	}
	if (c->end - c->p < 2)
		return -1;
	ch = (unsigned char)c->p[1];
	if (ch == '"' || ch == '\\' || ch == '/') {
		*w = 2;
		return ch;
	}
	return -1;
}

/* An inner string value's place: s at its first byte after the opening
 * quote, e at its closing quote (outer text). */
struct ival {
	int type;	/* 0: absent, '"' string, 'o' object, 'a' array, 'x' other */
	const char *s, *e;
	size_t members;	/* object: members, repeated keys counted */
};

/* What the top level, the first choice and its delta/message keep. */
struct fpick {
	struct ival object, choices, usage;	/* top level */
	struct ival c0text, c0delta, c0message;	/* choices[0] */
	struct ival content[2], rcontent[2], reasoning[2];	/* delta, message */
	int tools[2];
};

#endif
