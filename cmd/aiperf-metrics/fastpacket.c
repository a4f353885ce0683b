/* SPDX-License-Identifier: Apache-2.0 */
/* Fast path, second half: one chat or completions packet read from its escaped text as fastresp_scan() kept it. */
#include "metrics.h"
#include "fastscan.h"

#include <string.h>

#include "util.h"

static int
nonempty(const struct ival *v)
{
	return v->type == '"' && v->e > v->s;
}

/* Plain (escape-free) string value equal to lit. */
static int
is_plain(const struct ival *v, const char *lit)
{
	size_t n = strlen(lit);

	return v->type == '"' && (size_t)(v->e - v->s) == n && !memcmp(v->s, lit, n);
}

static int
has_escape(const struct ival *v)
{
	return memchr(v->s, '\\', (size_t)(v->e - v->s)) != NULL;
}

static void
put_utf8(struct buf *b, unsigned cp)
{
	char o[4];
	size_t n;

	if (cp < 0x80) {
		o[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		o[0] = (char)(0xC0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3F));
		n = 2;
	} else if (cp < 0x10000) {
		o[0] = (char)(0xE0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		n = 3;
	} else {
		o[0] = (char)(0xF0 | (cp >> 18));
		o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[3] = (char)(0x80 | (cp & 0x3F));
		n = 4;
	}
	buf_add(b, o, n);
}

/* Decode a checked inner string (both escape levels) into b, as json.c
 * decodes (a lone surrogate is U+FFFD). */
static void
decode(struct buf *b, const struct ival *v)
{
	struct sc c = { v->s, v->e, 0, NULL, v->s, NULL };
	static const char esc1[] = "\"\"\\\\//b\bf\fn\nr\rt\t";

	buf_reset(b);
	while (c.p < c.end) {
		const char *run = c.p;
		int w = 1, ch;

		while (c.p < c.end && *c.p != '\\')
			c.p++;
		buf_add(b, run, (size_t)(c.p - run));
		if (c.p >= c.end)
			break;
		ch = peek(&c, &w);
		c.p += w;
		if (ch != '\\') {
			buf_addch(b, ch);
			continue;
		}
		ch = peek(&c, &w);
		c.p += w;
		if (ch == 'u') {
			unsigned cp = hexval(c.p), lo;

			c.p += 4;
			/* a low surrogate next: outer \\ then u and 4 hex */
			if (cp >= 0xD800 && cp < 0xDC00 && c.end - c.p >= 7 && c.p[0] == '\\'
			    && c.p[1] == '\\' && c.p[2] == 'u' && ishex(c.p[3]) && ishex(c.p[4])
			    && ishex(c.p[5]) && ishex(c.p[6])
			    && (lo = hexval(c.p + 3)) >= 0xDC00 && lo < 0xE000) {
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
				c.p += 7;
			} else if (cp >= 0xD800 && cp < 0xE000) {
				cp = 0xFFFD;
			}
			put_utf8(b, cp);
		} else {
			buf_addch(b, strchr(esc1, ch)[1]);
		}
	}
}

/* The outer text of v (escapes \" \\ \/ only) decoded: inner JSON text. */
static void
outer_text(struct buf *b, const char *s, const char *e)
{
	buf_reset(b);
	while (s < e) {
		const char *bs = memchr(s, '\\', (size_t)(e - s));
		size_t run = bs ? (size_t)(bs - s) : (size_t)(e - s);

		buf_add(b, s, run);
		s += run;
		if (s < e) {
			buf_addch(b, s[1]);
			s += 2;
		}
	}
}

static int
add_decoded(struct rec *r, struct buf *to, int *flag, const struct ival *v)
{
	decode(&r->fscratch, v);
	if (buf_add(to, r->fscratch.s, r->fscratch.len) == 0)
		*flag = 1;
	return 0;
}

int
fastresp_packet(struct rec *r, const struct fspan *sp, int *data, int *output,
		const struct json **usage)
{
	const struct fpick *pk;
	const struct ival *d = NULL, *content, *reason;
	int di = 0, chat = r->et == ET_CHAT;

	*data = *output = 0;
	*usage = NULL;
	if ((r->et != ET_CHAT && r->et != ET_COMPLETIONS) || !sp->pick)
		return 0;
	pk = &r->fp[sp->pick - 1];
	/* the object names the parser: anything unsupported is an error
	 * the general path words */
	if (pk->object.type == '"' && has_escape(&pk->object))
		return 0;
	if (chat) {
		if (is_plain(&pk->object, "chat.completion"))
			d = &pk->c0message, di = 1;
		else if (is_plain(&pk->object, "chat.completion.chunk"))
			d = &pk->c0delta, di = 0;
		else
			return 0;
		if (d->type == 'o' && d->members && pk->tools[di])
			return 0;
	} else if (!is_plain(&pk->object, "completion")
		   && !is_plain(&pk->object, "text_completion")) {
		return 0;
	}
	if (pk->usage.type == 'o' && pk->usage.members) {
		char err[8];

		outer_text(&r->fscratch, pk->usage.s, pk->usage.e);
		*usage = json_parse(r->doc, r->fscratch.s, r->fscratch.len, err, sizeof(err));
		if (!*usage)
			return 0;
	}
	if (!chat) {
		if (nonempty(&pk->c0text)) {
			add_decoded(r, &r->out_text, &r->has_out, &pk->c0text);
			*data = *output = 1;
		}
		return 1;
	}
	if (d->type != 'o' || !d->members)
		return 1;
	content = &pk->content[di];
	reason = nonempty(&pk->rcontent[di]) ? &pk->rcontent[di] : &pk->reasoning[di];
	if (nonempty(reason)) {
		add_decoded(r, &r->reason_text, &r->has_reason, reason);
		rec_reason_mark(r);
		if (nonempty(content))
			add_decoded(r, &r->out_text, &r->has_out, content);
		*output = nonempty(content);
		*data = 1;
	} else if (nonempty(content)) {
		add_decoded(r, &r->out_text, &r->has_out, content);
		*data = *output = 1;
	}
	return 1;
}
