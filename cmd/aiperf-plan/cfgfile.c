/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf profile --config FILE: the file's options before the command line's, its sweep's variations. */
#include "planner.h"
#include "sweepplan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg/load.h"

/* Whether the command line gives option name (canonical). */
static int
on_cli(const struct planner *p, int argc, char **argv, const char *name)
{
	for (int i = 0; i < argc; i++) {
		const char *v;
		const struct proftab_opt *o = argv[i][0] == '-' ? arg_option(p, argv[i], &v) : NULL;

		if (o && !strcmp(o->name, name))
			return 1;
	}
	return 0;
}

/* a's options into out, less those the command line gives (where: a
 * sweep's variation, whose options the command line may not give). */
static void
add_args(const struct planner *p, const struct cfgargs *a, int argc, char **argv,
	 struct plan_argv *out, const char *where)
{
	for (size_t i = 0; i < a->n; i++) {
		const struct cfgopt *o = &a->v[i];
		const struct proftab_opt *po = proftab_find(&p->tab, o->name);
		const char *name = po ? po->name : o->name;

		if (on_cli(p, argc, argv, name)) {
			if (where)
				usage_error("%s on the command line, and the config file's sweep varies it: one or the other",
					    name);
			continue;
		}
		if (!o->n)
			plan_argv_add(out, o->name);
		for (size_t k = 0; k < o->n; k++) {
			plan_argv_add(out, o->name);
			plan_argv_add(out, o->val[k]);
		}
	}
}

static struct plan_argv expanded;	/* what cfgfile_expand() returned */

char **
cfgfile_expand(struct planner *p, int *argc, char **argv)
{
	const char *file = NULL;
	int at = -1, take = 0;
	struct cfgplan cp;
	struct cfgargs common, *cells;
	struct plan_argv out = { 0 };
	char err[4096];
	int n = *argc;

	for (int i = 0; i < n; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--"))
			break;
		if (!strcmp(a, "--config") || !strcmp(a, "-f")) {
			if (i + 1 >= n)
				usage_error("option '%s' needs a value (a YAML config file)", a);
			if (file)
				usage_error("--config is given twice");
			file = argv[i + 1], at = i, take = 2;
			i++;
		} else if (!strncmp(a, "--config=", 9)) {
			if (file)
				usage_error("--config is given twice");
			file = a + 9, at = i, take = 1;
		}
	}
	if (!file)
		return argv;
	if (cfg_load(&cp, file, err, sizeof(err)) < 0) {
		fprintf(stderr, "aiperf profile: %s\n", err);
		exit(1);
	}
	for (size_t i = 0; i < cp.nwarn; i++)
		fprintf(stderr, "aiperf profile: warning: %s\n", cp.warn[i]);
	/* the command line less --config */
	char **cli = xcalloc((size_t)n + 1, sizeof(*cli));
	int ncli = 0;

	for (int i = 0; i < n; i++)
		if (i < at || i >= at + take)
			cli[ncli++] = argv[i];
	cells = xcalloc(cp.nv, sizeof(*cells));
	cfg_split(&cp, &common, cells);
	add_args(p, &cp.envelope, ncli, cli, &out, NULL);
	add_args(p, &common, ncli, cli, &out, NULL);
	if (cp.type) {
		struct swcfg *sw = xcalloc(1, sizeof(*sw));

		sw->type = xstrdup(cp.type);
		sw->nparams = cp.nparams;
		sw->params = xcalloc(cp.nparams + 1, sizeof(*sw->params));
		for (size_t i = 0; i < cp.nparams; i++)
			sw->params[i] = xstrdup(cp.params[i]);
		/* scenarios: the paths their values set, in order of appearance */
		for (size_t k = 0; !cp.nparams && k < cp.nv; k++) {
			struct cnode *flat = cfg_flat_values(cp.v[k].values);

			for (size_t i = 0; i < flat->n; i++) {
				size_t j = 0;

				while (j < sw->nparams && strcmp(sw->params[j], flat->kids[i]->key))
					j++;
				if (j < sw->nparams)
					continue;
				sw->params = xrealloc(sw->params, (sw->nparams + 2) * sizeof(*sw->params));
				sw->params[sw->nparams++] = xstrdup(flat->kids[i]->key);
			}
			cnode_free(flat);
		}
		sw->n = cp.nv;
		sw->label = xcalloc(cp.nv, sizeof(*sw->label));
		sw->dir = xcalloc(cp.nv, sizeof(*sw->dir));
		sw->values = xcalloc(cp.nv, sizeof(*sw->values));
		sw->args = xcalloc(cp.nv, sizeof(*sw->args));
		for (size_t k = 0; k < cp.nv; k++) {
			struct buf v = BUF_INIT(BUF_NOMAX);

			sw->label[k] = xstrdup(cp.v[k].label);
			sw->dir[k] = xstrdup(cp.v[k].dir);
			struct cnode *flat = cfg_flat_values(cp.v[k].values);

			cnode_json(flat, &v, 0);
			cnode_free(flat);
			sw->values[k] = buf_detach(&v, NULL);
			add_args(p, &cells[k], ncli, cli, &sw->args[k], "sweep");
		}
		p->cfgsw = sw;
	}
	for (size_t k = 0; k < cp.nv; k++)
		cfgargs_release(&cells[k]);
	free(cells);
	cfgargs_release(&common);
	cfg_release(&cp);
	for (int i = 0; i < ncli; i++)
		plan_argv_add(&out, cli[i]);
	free(cli);
	*argc = (int)out.n;
	expanded = out;
	return expanded.v;
}

void
cfgfile_release(struct planner *p)
{
	struct swcfg *sw = p->cfgsw;

	plan_argv_release(&expanded);
	if (!sw)
		return;
	for (size_t i = 0; i < sw->nparams; i++)
		free(sw->params[i]);
	for (size_t k = 0; k < sw->n; k++) {
		free(sw->label[k]);
		free(sw->dir[k]);
		free(sw->values[k]);
		plan_argv_release(&sw->args[k]);
	}
	free(sw->params);
	free(sw->label);
	free(sw->dir);
	free(sw->values);
	free(sw->args);
	free(sw->type);
	free(sw);
	p->cfgsw = NULL;
}
