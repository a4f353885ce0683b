/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf config expand: the variations as text, YAML or JSON, each body and options with --full. */
#include "config.h"

#include <string.h>

#include "buf.h"
#include "util.h"

/* The variation's options as one shell-quoted command line. */
static void
options_line(const struct cfgvar *v, struct buf *b)
{
	char **argv = NULL;
	size_t n = 0;

	cfgargs_argv(&v->args, &argv, &n);
	buf_addstr(b, "aiperf profile");
	for (size_t i = 0; i < n; i++) {
		const char *a = argv[i];

		if (*a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,@%+") ==
			      strlen(a)) {
			buf_addf(b, " %s", a);
		} else {
			buf_addstr(b, " '");
			for (const char *c = a; *c; c++)
				buf_addstr(b, *c == '\'' ? "'\\''" : (char[]){ *c, 0 });
			buf_addch(b, '\'');
		}
		free(argv[i]);
	}
	free(argv);
}

static struct cnode *
payload(const struct cfgplan *p, const struct expand_opts *o)
{
	struct cnode *root = cnode_new(CN_OBJ), *vars = cnode_new(CN_ARR);

	cnode_set(root, "sweep_type", cnode_str(p->sweep_class, strlen(p->sweep_class)));
	for (size_t i = 0; i < p->nv; i++) {
		const struct cfgvar *v = &p->v[i];
		struct cnode *e = cnode_new(CN_OBJ), *idx;
		char n[32];

		if (o->index >= 0 && (size_t)o->index != i)
			continue;
		snprintf(n, sizeof(n), "%zu", v->index);
		idx = cnode_new(CN_NUM);
		idx->s = xstrdup(n);
		idx->len = strlen(n);
		cnode_set(e, "index", idx);
		cnode_set(e, "dir_name", cnode_str(v->dir, strlen(v->dir)));
		cnode_set(e, "label", cnode_str(v->label, strlen(v->label)));
		cnode_set(e, "values", cnode_clone(v->values));
		if (o->full) {
			struct cnode *args = cnode_new(CN_ARR);
			char **argv = NULL;
			size_t na = 0;

			cnode_set(e, "benchmark", cnode_clone(v->body));
			cfgargs_argv(&v->args, &argv, &na);
			for (size_t k = 0; k < na; k++) {
				cnode_push(args, cnode_str(argv[k], strlen(argv[k])));
				free(argv[k]);
			}
			free(argv);
			cnode_set(e, "options", args);
		}
		cnode_push(vars, e);
	}
	cnode_set(root, "variations", vars);
	return root;
}

void
expand_print(const struct cfgplan *p, const struct expand_opts *o, FILE *out)
{
	struct buf b = BUF_INIT(BUF_NOMAX);

	if (strcmp(o->format, "text")) {
		struct cnode *root = payload(p, o);

		if (!strcmp(o->format, "json")) {
			cnode_json(root, &b, 2);
			buf_addch(&b, '\n');
		} else {
			cnode_yaml(root, &b, 0);
		}
		cnode_free(root);
		fwrite(b.s, 1, b.len, out);
		buf_release(&b);
		return;
	}
	if (o->index < 0)
		fprintf(out, "Sweep type: %s (%zu variation%s)\n", p->sweep_class, p->nv, p->nv == 1 ? "" : "s");
	else
		fprintf(out, "Sweep type: %s (showing 1 of %zu)\n", p->sweep_class, p->nv);
	fputc('\n', out);
	for (size_t i = 0; i < p->nv; i++) {
		const struct cfgvar *v = &p->v[i];

		if (o->index >= 0 && (size_t)o->index != i)
			continue;
		fprintf(out, "[%zu] dir=%s  label=%s\n", v->index, v->dir, v->label);
		if (!o->full)
			continue;
		buf_reset(&b);
		cnode_yaml(v->body, &b, 2);
		buf_addstr(&b, "    # ");
		options_line(v, &b);
		buf_addstr(&b, "\n\n");
		fwrite(b.s, 1, b.len, out);
	}
	buf_release(&b);
}
