/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf config init: the bundled templates listed, searched, printed or written with a model and URL. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <fcntl.h>

#include "buf.h"
#include "outfile.h"
#include "tok/toksrc.h"
#include "util.h"

#define MAX_TEMPLATE (256u << 10)

struct tmpl {
	char *name, *category, *description, *tags;
	char *text;
	size_t len;
};

/* "# KEY: value" among the template's first comment lines. */
static char *
meta(const char *text, const char *key)
{
	size_t klen = strlen(key);

	for (const char *l = text; l && *l == '#'; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *e = strchr(l, '\n');

		if (!strncmp(l + 1, " ", 1) && !strncmp(l + 2, key, klen) && l[2 + klen] == ':')
			return xstrndup(l + 3 + klen + (l[3 + klen] == ' '),
					(size_t)((e ? e : l + strlen(l)) - (l + 3 + klen + (l[3 + klen] == ' '))));
	}
	return xstrdup("");
}

static int
cmp_tmpl(const void *a, const void *b)
{
	const struct tmpl *x = a, *y = b;
	int c = strcmp(x->category, y->category);

	return c ? c : strcmp(x->name, y->name);
}

static size_t
load_all(struct tmpl **out)
{
	char *dir = xstrfmt("%s/config-templates", toksrc_datadir());
	DIR *d = opendir(dir);
	struct dirent *e;
	struct tmpl *v = NULL;
	size_t n = 0;

	if (!d)
		die("cannot read the templates in '%s':", dir);
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char *path;

		if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") || e->d_name[0] == '.')
			continue;
		path = xstrfmt("%s/%s", dir, e->d_name);
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n].text = util_readfile(path, MAX_TEMPLATE, &v[n].len);
		if (!v[n].text)
			die("cannot read '%s':", path);
		free(path);
		v[n].name = xstrndup(e->d_name, len - 5);
		/* the metadata follows the SPDX line */
		const char *body = strncmp(v[n].text, "# SPDX", 6) ? v[n].text : strchr(v[n].text, '\n') + 1;

		v[n].category = meta(body, "category");
		v[n].description = meta(body, "description");
		v[n].tags = meta(body, "tags");
		n++;
	}
	closedir(d);
	free(dir);
	qsort(v, n, sizeof(*v), cmp_tmpl);
	*out = v;
	return n;
}

static void
free_all(struct tmpl *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].category);
		free(v[i].description);
		free(v[i].tags);
		free(v[i].text);
	}
	free(v);
}

/* Whether word is in s, in any case. */
static int
has(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (; *s; s++)
		if (!strncasecmp(s, word, n))
			return 1;
	return !n;
}

static int
matches(const struct tmpl *t, const char *word)
{
	return has(t->name, word) || has(t->description, word) || has(t->tags, word) ||
	       has(t->category, word);
}

static void
list(const struct tmpl *v, size_t n, const char *category, const char *search, int verbose)
{
	const char *last = NULL;
	size_t shown = 0;

	for (size_t i = 0; i < n; i++) {
		if ((category && strcasecmp(category, v[i].category)) || (search && !matches(&v[i], search)))
			continue;
		if (!last || strcmp(last, v[i].category))
			printf("%s%s\n", last ? "\n" : "", v[i].category);
		last = v[i].category;
		printf("  %-24s %s\n", v[i].name, v[i].description);
		if (verbose && *v[i].tags)
			printf("  %-24s tags: %s\n", "", v[i].tags);
		shown++;
	}
	if (!shown)
		fprintf(stderr, "aiperf config: no template matches%s%s\n", search ? " " : "", search ? search : "");
	else
		printf("\nUse: aiperf config init --template NAME [--model M] [--url U] [--output FILE]\n");
}

/* The value of the first "KEY: value" line (any indent) replaced. */
static void
override(struct buf *b, const char *key, const char *value)
{
	size_t klen = strlen(key);

	for (size_t off = 0; off < b->len;) {
		char *l = b->s + off, *nl = memchr(l, '\n', b->len - off);
		size_t len = nl ? (size_t)(nl - l) : b->len - off, ind = strspn(l, " -");

		if (ind < len && l[0] != '#' && !strncmp(l + ind, key, klen) && l[ind + klen] == ':' &&
		    (l[ind + klen + 1] == ' ' || l[ind + klen + 1] == '\n')) {
			struct buf out = BUF_INIT(BUF_NOMAX);
			char *hash = memchr(l + ind + klen, '#', len - ind - klen);
			size_t keep_end = hash ? (size_t)(hash - l) : len;

			buf_add(&out, b->s, off + ind + klen + 1);
			buf_addf(&out, " \"%s\"", value);
			if (hash)
				buf_addf(&out, "  %.*s", (int)(len - keep_end), hash);
			buf_add(&out, l + len, b->len - off - len);
			buf_release(b);
			*b = out;
			return;
		}
		off += len + 1;
	}
}


enum { O_LIST = 256, O_HELP };

int
cmd_init(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "template", required_argument, NULL, 't' },
		{ "list", no_argument, NULL, 'l' },
		{ "search", required_argument, NULL, 's' },
		{ "category", required_argument, NULL, 'c' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "model", required_argument, NULL, 'm' },
		{ "url", required_argument, NULL, 'u' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, O_HELP },
		{ 0 },
	};
	const char *template = NULL, *search = NULL, *category = NULL, *model = NULL, *url = NULL;
	const char *output = NULL;
	int c, do_list = 0, verbose = 0;
	struct tmpl *v;
	size_t n, i;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+t:ls:c:vm:u:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 't': template = optarg; break;
		case 'l': do_list = 1; break;
		case 's': search = optarg; break;
		case 'c': category = optarg; break;
		case 'v': verbose = 1; break;
		case 'm': model = optarg; break;
		case 'u': url = optarg; break;
		case 'o': output = optarg; break;
		case 'h':
		case O_HELP:
			printf("usage: aiperf config init [--list | --search word | --template name] [--category name]\n"
			       "                          [--verbose] [--model name] [--url url] [--output file]\n");
			return 0;
		default:
			return 2;
		}
	}
	if (optind != argc)
		die_usage("init: unexpected argument '%s'", argv[optind]);
	n = load_all(&v);
	if (do_list || search) {
		list(v, n, category, search, verbose);
		free_all(v, n);
		return util_fshut(stdout, "stdout") ? 1 : 0;
	}
	if (!template) {
		free_all(v, n);
		fprintf(stderr, "Specify a template with --template, or run 'aiperf config init --list' to see what is available.\n");
		return 2;
	}
	for (i = 0; i < n && strcmp(v[i].name, template); i++)
		;
	if (i == n) {
		struct buf names = BUF_INIT(BUF_NOMAX);

		for (size_t k = 0; k < n; k++)
			buf_addf(&names, "%s%s", k ? ", " : "", v[k].name);
		fprintf(stderr, "Error: 'Unknown template: %s. Available: %s'\n", template, buf_str(&names));
		buf_release(&names);
		free_all(v, n);
		return 1;
	}
	struct buf b = BUF_INIT(BUF_NOMAX);
	const char *text = v[i].text;

	if (!strncmp(text, "# SPDX", 6))	/* the original strips its SPDX header */
		text = strchr(text, '\n') ? strchr(text, '\n') + 1 : "";
	buf_addstr(&b, text);
	if (model)
		override(&b, "model", model);
	if (url)
		override(&b, "url", url);
	if (!output) {
		fwrite(b.s, 1, b.len, stdout);
	} else {
		char *slash = strrchr(output, '/');

		if (slash && slash != output) {
			char *d = xstrndup(output, (size_t)(slash - output));
			if (util_mkdirs(d) < 0)
				die("cannot create '%s':", d);
			free(d);
		}
		if (outfile_write(AT_FDCWD, output, b.s, b.len) < 0)
			die("cannot write '%s':", output);
		printf("Wrote %s template to %s\n", template, output);
	}
	buf_release(&b);
	free_all(v, n);
	return util_fshut(stdout, "stdout") ? 1 : 0;
}
