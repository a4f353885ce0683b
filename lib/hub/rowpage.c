/* SPDX-License-Identifier: Apache-2.0 */
/* The dataset viewer's /rows page: checked with the JSON parser, each row's text taken as served. */
#include "hub/rowpage.h"

#include <string.h>

#include "json/json.h"
#include "util.h"

/*
 * The raw walk below runs only over text json_parse() accepted, so it can
 * be simple: a value ends where its brackets close outside strings. It
 * yields the byte extents the parse tree does not keep.
 */
static size_t
ws(const char *s, size_t n, size_t i)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	return i;
}

static size_t
string_end(const char *s, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
	}
	return n;
}

static size_t
value_end(const char *s, size_t n, size_t i)
{
	size_t depth = 0;

	if (i < n && s[i] == '"')
		return string_end(s, n, i);
	if (i < n && s[i] != '{' && s[i] != '[') {
		while (i < n && !strchr(",]} \t\r\n", s[i]))
			i++;
		return i;
	}
	while (i < n) {
		if (s[i] == '"') {
			i = string_end(s, n, i);
			continue;
		}
		if (s[i] == '{' || s[i] == '[')
			depth++;
		else if ((s[i] == '}' || s[i] == ']') && --depth == 0)
			return i + 1;
		i++;
	}
	return n;
}

/* Whether the key text s[ks..ke) (quotes included) names key. */
static int
key_is(struct json_doc *doc, const char *s, size_t ks, size_t ke,
       const char *key)
{
	size_t klen = strlen(key);
	const struct json *v;
	char e[64];

	if (!memchr(s + ks, '\\', ke - ks))
		return ke - ks == klen + 2 && !memcmp(s + ks + 1, key, klen);
	json_doc_reset(doc);
	v = json_parse(doc, s + ks, ke - ks, e, sizeof(e));
	return v && v->len == klen && !memcmp(v->str, key, klen);
}

/* The extent of the last member named key of the object at s[obj]
 * (json_get() also takes the last); 0 when there is none. */
static int
member(struct json_doc *doc, const char *s, size_t n, size_t obj,
       const char *key, size_t *vs, size_t *ve)
{
	size_t i = ws(s, n, obj + 1);
	int found = 0;

	while (i < n && s[i] == '"') {
		size_t ks = i, ke = string_end(s, n, i), b, e;

		b = ws(s, n, ws(s, n, ke) + 1);
		e = value_end(s, n, b);
		if (key_is(doc, s, ks, ke, key)) {
			*vs = b;
			*ve = e;
			found = 1;
		}
		i = ws(s, n, e);
		if (i >= n || s[i] != ',')
			break;
		i = ws(s, n, i + 1);
	}
	return found;
}

/* A column name fit for a message: printable ASCII, at most 64 bytes. */
static void
safe_name(char *out, size_t cap, const char *s, size_t len)
{
	size_t k = 0;

	for (size_t i = 0; i < len && k + 4 < cap && i < 64; i++)
		out[k++] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	if (len > 64 && k + 4 < cap) {
		memcpy(out + k, "...", 3);
		k += 3;
	}
	out[k] = '\0';
}

static int
check_truncated(const struct json *t, uint64_t idx, char *err, size_t errlen)
{
	char name[80];

	if (!t || t->type == JSON_NULL)
		return 0;
	if (t->type != JSON_ARRAY)
		return util_seterr(err, errlen, "row %llu: truncated_cells is not an array",
				   (unsigned long long)idx);
	if (!t->child)
		return 0;
	if (json_is_str(t->child))
		safe_name(name, sizeof(name), t->child->str, t->child->len);
	else
		snprintf(name, sizeof(name), "?");
	return util_seterr(err, errlen, "row %llu: the dataset viewer cut the cell "
			   "of column '%s' (truncated_cells); cut data is never "
			   "graded: read the dataset's own files instead",
			   (unsigned long long)idx, name);
}

/* The tree's view of row i: an object with row_idx offset + i, an object
 * "row" and no truncated cells. */
static int
check_row(const struct json *el, uint64_t idx, char *err, size_t errlen)
{
	int64_t ri;

	if (el->type != JSON_OBJECT)
		return util_seterr(err, errlen, "row %llu: not a JSON object",
				   (unsigned long long)idx);
	if (json_int64(json_get(el, "row_idx"), &ri) < 0 || ri < 0 ||
	    (uint64_t)ri != idx)
		return util_seterr(err, errlen, "row %llu: row_idx is not %llu "
				   "(rows out of order, or missing)",
				   (unsigned long long)idx, (unsigned long long)idx);
	if (!json_get(el, "row") || json_get(el, "row")->type != JSON_OBJECT)
		return util_seterr(err, errlen, "row %llu: \"row\" is not a JSON object",
				   (unsigned long long)idx);
	return check_truncated(json_get(el, "truncated_cells"), idx, err, errlen);
}

static int
check_page(const struct json *root, uint64_t offset, struct rowpage *p,
	   char *err, size_t errlen)
{
	const struct json *rows = json_get(root, "rows"), *el;
	size_t i = 0;

	if (root->type != JSON_OBJECT)
		return util_seterr(err, errlen, "the page is not a JSON object");
	if (json_int64(json_get(root, "num_rows_total"), &p->total) < 0 ||
	    p->total < 0)
		return util_seterr(err, errlen, "the page has no valid num_rows_total");
	if (!rows || rows->type != JSON_ARRAY)
		return util_seterr(err, errlen, "the page's \"rows\" is not an array");
	if (rows->len > ROWPAGE_MAX_ROWS)
		return util_seterr(err, errlen, "the page has %zu rows, more than %d",
				   rows->len, ROWPAGE_MAX_ROWS);
	for (el = rows->child; el; el = el->next, i++)
		if (check_row(el, offset + i, err, errlen) < 0)
			return -1;
	p->n = rows->len;
	return 0;
}

/* Each row's "row" text, in the order of the array. */
static int
take_text(struct json_doc *doc, const char *s, size_t n, struct rowpage *p,
	  char *err, size_t errlen)
{
	size_t rs, re, i, k = 0;

	if (!member(doc, s, n, ws(s, n, 0), "rows", &rs, &re))
		return util_seterr(err, errlen, "the page's \"rows\" is not found");
	i = ws(s, n, rs + 1);
	while (k < p->n && i < n && s[i] == '{') {
		size_t e = value_end(s, n, i), b, ve;

		if (!member(doc, s, n, i, "row", &b, &ve))
			break;
		p->row[k] = s + b;
		p->len[k++] = ve - b;
		i = ws(s, n, e);
		if (i < n && s[i] == ',')
			i = ws(s, n, i + 1);
	}
	if (k != p->n)
		return util_seterr(err, errlen, "the page's rows cannot be located");
	return 0;
}

int
rowpage_parse(const char *s, size_t n, uint64_t offset, struct rowpage *p,
	      char *err, size_t errlen)
{
	struct json_doc *doc = json_doc_new();
	const struct json *root;
	char perr[256];
	int rc = -1;

	*p = (struct rowpage){ 0 };
	root = json_parse(doc, s, n, perr, sizeof(perr));
	if (!root)
		util_seterr(err, errlen, "the page is not JSON: %s", perr);
	else if (check_page(root, offset, p, err, errlen) == 0) {
		p->row = xcalloc(p->n + 1, sizeof(*p->row));
		p->len = xcalloc(p->n + 1, sizeof(*p->len));
		rc = take_text(doc, s, n, p, err, errlen);
	}
	json_doc_free(doc);
	if (rc < 0)
		rowpage_release(p);
	return rc;
}

void
rowpage_release(struct rowpage *p)
{
	free(p->row);
	free(p->len);
	*p = (struct rowpage){ 0 };
}
