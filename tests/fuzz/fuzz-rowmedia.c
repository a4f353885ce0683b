/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for lib/hub/rowmedia: any row rewritten (a fake fetch), any cell's form and base64 decoded, within bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "hub/rowmedia.h"
#include "json/json.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
fake_fetch(void *ud, const char *url, unsigned char **out, size_t *n, char *err,
	   size_t errlen)
{
	(void)ud;
	if (strlen(url) % 3 == 0)
		return util_seterr(err, errlen, "HTTP 404");
	*out = (unsigned char *)xstrdup(url);
	*n = strlen(url);
	return 0;
}

/* Each member's value as a cell: its form, its bytes when inline. */
static void
cells(const struct json *row)
{
	for (const struct json *m = row ? row->child : NULL; m; m = m->next) {
		struct rowmedia_cell c;
		unsigned char *p;
		size_t n;
		char err[256];

		if (rowmedia_cell_of(m, &c) == ROWMEDIA_BYTES &&
		    rowmedia_bytes(&c, &p, &n, err, sizeof(err)) == 0) {
			if (n > c.b64len)
				abort();
			free(p);
		}
		if (c.kind == ROWMEDIA_SRC && !c.src)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const cols[] = { "image", "images", "audio", NULL };
	char *s = malloc(size ? size : 1), err[512];
	struct buf b = BUF_INIT(BUF_NOMAX);
	struct json_doc *doc;
	const struct json *v;
	int rc;

	if (!s)
		return 0;
	memcpy(s, data, size);
	rc = rowmedia_rewrite(s, size, cols, fake_fetch, NULL, &b, err, sizeof(err));
	if (rc == 1) {	/* the rewritten row is JSON, with no {"src"} left at the top */
		doc = json_doc_new();
		v = json_parse(doc, b.s, b.len, err, sizeof(err));
		if (!v || v->type != JSON_OBJECT)
			abort();
		cells(v);
		json_doc_free(doc);
	}
	if (rc < 0 && !memchr(err, '\0', sizeof(err)))
		abort();
	doc = json_doc_new();
	cells(json_parse(doc, s, size, err, sizeof(err)));
	json_doc_free(doc);
	buf_release(&b);
	free(s);
	return 0;
}
