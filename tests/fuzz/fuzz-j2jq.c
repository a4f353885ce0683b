/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: Jinja2 templates and JMESPath response fields translated to jq (lib/json/j2jq), each translation compiled by libjq. */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json/j2jq.h"
#include "json/jqprog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Compile jq text (NUL-free): it must compile or say why, never crash. */
static void
compile(const struct buf *b)
{
	char err[512];
	struct jqprog *p;

	if (!b->len || memchr(b->s, '\0', b->len))
		return;
	err[0] = '\0';
	p = jqprog_new(b->s, err, sizeof(err));
	if (!p && !err[0])
		abort();
	jqprog_free(p);
}

/* Does j2jq_path() translate s[0..n) (rather than keep it as jq)? */
static int
translated(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	return n && (isalpha((unsigned char)*s) || *s == '_' || *s == '"') && !memchr(s, '\0', n);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct buf b = BUF_INIT(BUF_NOMAX);
	char err[1024];
	int jinja = j2jq_is_jinja(s, size);

	err[0] = '\0';
	if (j2jq_template(s, size, &b, err, sizeof(err)) < 0) {
		/* a refusal names itself */
		if (!err[0])
			abort();
	} else {
		/* text with no tag at all is kept as it is */
		if (!jinja && !memchr(s, '{', size) && (b.len != size || memcmp(b.s ? b.s : "", s, size)))
			abort();
		if (size < 4096)
			compile(&b);
	}
	buf_reset(&b);
	err[0] = '\0';
	if (j2jq_path(s, size, &b, err, sizeof(err)) < 0) {
		if (!err[0])
			abort();
	} else {
		/* a JMESPath translation is a path program: it runs in the
		 * tool, at no helper's cost */
		if (translated(s, size) && !jqprog_is_path(buf_str(&b)))
			abort();
		if (size < 4096)
			compile(&b);
	}
	buf_release(&b);
	return 0;
}
