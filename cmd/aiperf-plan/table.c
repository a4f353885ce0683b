/* SPDX-License-Identifier: Apache-2.0 */
/* The options table found as aiperf-tokenizers(7) says, and the options as set. */
#include "planner.h"

#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef AIPERF_DATADIR
#define AIPERF_DATADIR "/usr/local/share/aiperf"
#endif
#define TABLE "profile-options.tsv"

static int
is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* $AIPERF_DATA_DIR, ../data and ../share/aiperf beside this binary (links
 * resolved), then DATADIR. */
static char *
options_file(void)
{
	char exe[PATH_MAX], *slash, *path;
	const char *env = getenv("AIPERF_DATA_DIR");
	ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *beside[] = { "/../data/", "/../share/aiperf/" };

	if (env && *env && is_file(path = xstrfmt("%s/" TABLE, env)))
		return path;
	if (k > 0 && (exe[k] = '\0', slash = strrchr(exe, '/'))) {
		*slash = '\0';
		for (size_t i = 0; i < 2; i++)
			if (is_file(path = xstrfmt("%s%s" TABLE, exe, beside[i])))
				return path;
	}
	if (is_file(path = xstrfmt("%s/" TABLE, AIPERF_DATADIR)))
		return path;
	die("cannot find " TABLE " (set AIPERF_DATA_DIR to the folder holding it)");
}

static char *
slurp(const char *path, size_t *n)
{
	struct buf b;
	char chunk[65536];
	ssize_t k;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die("cannot open '%s':", path);
	buf_init(&b, PROFTAB_MAX_FILE + 1);
	while ((k = read(fd, chunk, sizeof(chunk))) > 0)
		if (buf_tryadd(&b, chunk, (size_t)k) < 0)
			die("'%s': too large", path);
	if (k < 0)
		die("cannot read '%s':", path);
	close(fd);
	buf_addch(&b, '\0');
	return buf_detach(&b, n);
}

void
table_load(struct planner *p)
{
	size_t n, bad;
	char *s;

	p->table_path = options_file();
	s = slurp(p->table_path, &n);
	proftab_init(&p->tab);
	if (proftab_parse(&p->tab, s, n - 1, &bad) < 0) {
		if (bad)
			die("%s:%zu: malformed option line", p->table_path, bad);
		die("%s: too large", p->table_path);
	}
	free(s);
	p->set = xcalloc(p->tab.n ? p->tab.n : 1, sizeof(*p->set));
}

void
planner_release(struct planner *p)
{
	struct plan_argv *lists[] = { &p->gen, &p->send, &p->met, &p->exp, &p->syn,
		&p->acc, &p->srv_urls, &p->gpu_urls, &p->busy, &p->read, &p->log };

	for (size_t i = 0; p->set && i < p->tab.n; i++)
		free(p->set[i]);
	free(p->set);
	proftab_release(&p->tab);
	free((char *)p->table_path);
	for (size_t i = 0; i < sizeof(lists) / sizeof(*lists); i++)
		plan_argv_release(lists[i]);
	buf_release(&p->cli);
	free(p->mode);
	free(p->gpu_csv);
	free(p->dir);
	free(p->raw);
	memset(p, 0, sizeof(*p));
}

const struct proftab_opt *
opt_get(const struct planner *p, const char *canon)
{
	for (size_t i = 0; i < p->tab.n; i++)
		if (!strcmp(p->tab.opts[i].name, canon))
			return &p->tab.opts[i];
	return NULL;
}

char **
slot(struct planner *p, const char *canon)
{
	const struct proftab_opt *o = opt_get(p, canon);
	static char *none;

	if (!o) {
		none = NULL;
		return &none;
	}
	return &p->set[o - p->tab.opts];
}

const char *
get(const struct planner *p, const char *canon)
{
	const struct proftab_opt *o = opt_get(p, canon);

	return o ? p->set[o - p->tab.opts] : NULL;
}

int
is_set(const struct planner *p, const char *canon)
{
	return get(p, canon) != NULL;
}

const char *
val(const struct planner *p, const char *canon, const char *def)
{
	const char *v = get(p, canon);

	return v && *v ? v : def;
}

/* s lower-cased, '-' as '_', into a new string. */
static char *
normal(const char *s)
{
	char *n = xstrdup(s);

	for (char *c = n; *c; c++)
		*c = *c == '-' ? '_' : (char)tolower((unsigned char)*c);
	return n;
}

const char *
choice(const struct proftab_opt *o, const char *value)
{
	char *want = normal(value), *c;
	const char *found = value;

	for (size_t i = 0; i < o->nvalues && found == value; i++) {
		c = normal(o->values[i]);
		if (!strcmp(c, want))
			found = o->values[i];
		free(c);
	}
	free(want);
	return found;
}

char *
first_line(const char *s)
{
	const char *nl = strchr(s, '\n');

	return nl ? xstrndup(s, (size_t)(nl - s)) : xstrdup(s);
}

const struct proftab_opt *
arg_option(const struct planner *p, const char *arg, const char **value)
{
	const char *eq = arg[0] == '-' && arg[1] == '-' ? strchr(arg, '=') : NULL;
	char *name = eq ? xstrndup(arg, (size_t)(eq - arg)) : xstrdup(arg);
	const struct proftab_opt *o = proftab_find(&p->tab, name);

	free(name);
	*value = eq ? eq + 1 : NULL;
	return o && o->support != PROFTAB_NO ? o : NULL;
}
