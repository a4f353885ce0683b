/* SPDX-License-Identifier: Apache-2.0 */
/* aiperf-config: a benchmark's YAML config file scaffolded, checked and expanded into its variations. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg/load.h"
#include "util.h"

static const char synopsis[] =
	"usage: aiperf-config init [--list | --search word | --template name] [--category name]\n"
	"                          [--verbose] [--model name] [--url url] [--output file]\n"
	"       aiperf-config validate file\n"
	"       aiperf-config expand file [--full] [--index n] [--format text | yaml | json]\n";

static _Noreturn void
usage(FILE *f, int status)
{
	fputs(synopsis, f);
	exit(status);
}

/* "Error: ..." and exit 1, as the original's ConfigurationError. */
static _Noreturn void
config_error(const char *msg)
{
	fprintf(stderr, "Error: %s\n", msg);
	exit(1);
}

static void
load(struct cfgplan *p, const char *file)
{
	char err[4096];

	if (cfg_load(p, file, err, sizeof(err)) < 0)
		config_error(err);
}

static int
cmd_validate(int argc, char **argv)
{
	struct cfgplan p;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		usage(stdout, 0);
	if (argc != 2 || argv[1][0] == '-')
		usage(stderr, 2);
	load(&p, argv[1]);
	for (size_t i = 0; i < p.nwarn; i++)
		fprintf(stderr, "Warning: %s\n", p.warn[i]);
	if (p.nwarn)
		printf("Configuration valid with %zu warning%s: %s\n", p.nwarn, p.nwarn == 1 ? "" : "s",
		       argv[1]);
	else
		printf("Configuration valid: %s\n", argv[1]);
	cfg_release(&p);
	return util_fshut(stdout, "stdout") ? 1 : 0;
}

enum { O_FULL = 256, O_INDEX, O_FORMAT, O_HELP };

static int
cmd_expand(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "full", no_argument, NULL, 'F' },
		{ "index", required_argument, NULL, 'i' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, O_HELP },
		{ 0 },
	};
	struct expand_opts o = { .index = -1, .format = "text" };
	struct cfgplan p;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "Fi:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'F':
			o.full = 1;
			break;
		case 'i':
			o.index = opt_int("--index", optarg, -(1LL << 40), 1LL << 40);
			break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "yaml") && strcmp(optarg, "json"))
				die_usage("invalid value for --format: '%s' (text, yaml, json)", optarg);
			o.format = optarg;
			break;
		case 'h':
		case O_HELP:
			usage(stdout, 0);
		default:
			usage(stderr, 2);
		}
	}
	if (optind != argc - 1)
		usage(stderr, 2);
	load(&p, argv[optind]);
	if (o.index >= 0 || o.index < -1) {
		if (o.index < 0 || (size_t)o.index >= p.nv) {
			fprintf(stderr, "Error: --index %lld out of range; sweep has %zu variation(s).\n",
				o.index, p.nv);
			cfg_release(&p);
			return 1;
		}
		o.full = 1;
	}
	for (size_t i = 0; i < p.nwarn; i++)
		fprintf(stderr, "Warning: %s\n", p.warn[i]);
	expand_print(&p, &o, stdout);
	cfg_release(&p);
	return util_fshut(stdout, "stdout") ? 1 : 0;
}

int
main(int argc, char **argv)
{
	util_setprogname("aiperf config");
	if (argc < 2)
		usage(stderr, 2);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		usage(stdout, 0);
	if (!strcmp(argv[1], "init"))
		return cmd_init(argc - 1, argv + 1);
	if (!strcmp(argv[1], "validate"))
		return cmd_validate(argc - 1, argv + 1);
	if (!strcmp(argv[1], "expand"))
		return cmd_expand(argc - 1, argv + 1);
	die_usage("unknown command '%s' (init, validate, expand)", argv[1]);
}
