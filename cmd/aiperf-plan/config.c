/* SPDX-License-Identifier: Apache-2.0 */
/* input_config: the options the user set, nested as the original's UserConfig. */
#include "planner.h"

#include <string.h>
#include <strings.h>

#include "json/jw.h"

/* One option of input_config: its path, type and value. */
struct entry {
	const char *key;
	char type;
	const char *value;
};

struct cfg {
	struct entry *e;
	size_t n;
};

static void
str(struct buf *b, const char *s)
{
	json_quote(b, s, strlen(s));
}

static void json_val(struct buf *b, char type, const char *v);

/* A JSON float as the wrapper wrote it: the number as given, ".0" added
 * to an integer, null for an infinity (orjson's). */
static void
json_float(struct buf *b, const char *v)
{
	if (!strcasecmp(v, "inf") || !strcasecmp(v, "infinity"))
		buf_addstr(b, "null");
	else if (strpbrk(v, ".e"))
		buf_addstr(b, v);
	else
		buf_addf(b, "%s.0", v);
}

/* Each non-empty line a string. */
static void
json_lines(struct buf *b, const char *v)
{
	int first = 1;

	buf_addch(b, '[');
	while (*v) {
		size_t n = strcspn(v, "\n");

		if (n) {
			buf_addstr(b, first ? "" : ", ");
			json_quote(b, v, n);
			first = 0;
		}
		v += n + (v[n] == '\n');
	}
	buf_addch(b, ']');
}

/* Numbers: "16 24", "16,24" or "[16, 24]" a value. */
static void
json_numbers(struct buf *b, char type, const char *v)
{
	const char *sep = " \t\n[],";
	int first = 1;
	char *item;

	buf_addch(b, '[');
	for (v += strspn(v, sep); *v; v += strspn(v, sep)) {
		size_t n = strcspn(v, sep);

		item = xstrndup(v, n);
		buf_addstr(b, first ? "" : ", ");
		json_val(b, type == 'I' ? 'i' : 'f', item);
		free(item);
		first = 0;
		v += n;
	}
	buf_addch(b, ']');
}

static void
json_val(struct buf *b, char type, const char *v)
{
	switch (type) {
	case 'b': buf_addstr(b, "true"); break;
	case 'B': buf_addstr(b, "false"); break;
	case 'i': buf_addstr(b, v); break;
	case 'f': json_float(b, v); break;
	case 'L': json_lines(b, v); break;
	case 'I':
	case 'F': json_numbers(b, type, v); break;
	default: str(b, v); break;
	}
}

static int
under(const char *key, const char *prefix, size_t plen)
{
	return !strncmp(key, prefix, plen);
}

/* The children of prefix, in the order first seen. */
static size_t
children(const struct cfg *c, const char *prefix, char ***kids)
{
	size_t plen = strlen(prefix), n = 0;

	*kids = xcalloc(c->n + 1, sizeof(**kids));
	for (size_t i = 0; i < c->n; i++) {
		const char *rest = c->e[i].key + plen;
		char *child;
		size_t k;

		if (!under(c->e[i].key, prefix, plen))
			continue;
		child = xstrndup(rest, strcspn(rest, "."));
		for (k = 0; k < n && strcmp((*kids)[k], child); k++)
			;
		if (k < n)
			free(child);
		else
			(*kids)[n++] = child;
	}
	return n;
}

/* The leaf at key (the last entry of it), trailing newlines dropped as $(...) drops them. */
static void
leaf_of(const struct cfg *c, const char *key, struct buf *leaf)
{
	for (size_t i = 0; i < c->n; i++) {
		if (strcmp(c->e[i].key, key))
			continue;
		buf_reset(leaf);
		json_val(leaf, c->e[i].type, c->e[i].value);
	}
	while (leaf->len && leaf->s[leaf->len - 1] == '\n')
		leaf->len--;
}

static void
config_obj(const struct cfg *c, const char *prefix, struct buf *out)
{
	char **kids, *path;
	size_t n = children(c, prefix, &kids);
	struct buf leaf;

	buf_addch(out, '{');
	for (size_t k = 0; k < n; k++) {
		buf_addstr(out, k ? ", " : "");
		buf_init(&leaf, BUF_NOMAX);
		path = xstrfmt("%s%s", prefix, kids[k]);
		leaf_of(c, path, &leaf);
		buf_addf(out, "\"%s\": ", kids[k]);
		if (leaf.len) {
			buf_add(out, leaf.s, leaf.len);
		} else {
			char *sub = xstrfmt("%s.", path);

			config_obj(c, sub, out);
			free(sub);
		}
		buf_release(&leaf);
		free(path);
		free(kids[k]);
	}
	free(kids);
	buf_addch(out, '}');
}

void
write_input_config(const struct planner *p, struct buf *out)
{
	struct cfg c = { xcalloc(p->tab.n + 1, sizeof(struct entry)), 0 };

	for (size_t i = 0; i < p->tab.n; i++) {
		const struct proftab_opt *o = &p->tab.opts[i];

		if (o->support == PROFTAB_NO || !o->config || !p->set[i])
			continue;
		c.e[c.n++] = (struct entry){ o->config, o->config_type, p->set[i] };
	}
	config_obj(&c, "", out);
	out->len--;
	buf_addstr(out, c.n ? ", \"cli_command\": " : "\"cli_command\": ");
	json_quote(out, p->cli.s, p->cli.len);
	buf_addstr(out, "}\n");
	free(c.e);
}
