/* SPDX-License-Identifier: Apache-2.0 */
/* lib/proftab: the options table read field by field; malformed lines refused with their number. */
#include "proftab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "util.h"

#define ROW(name, kind, support, form) name "\t-\t" kind "\tg\t-\t-\t-\t" support "\t-\tG\t" form "\n"

/* parse s: -1 and the bad line, or the options' count */
static long
parse(const char *s, size_t *bad)
{
	struct proftab t;
	long n;

	proftab_init(&t);
	if (proftab_parse(&t, s, strlen(s), bad) < 0)
		return -1;
	n = (long)t.n;
	proftab_release(&t);
	return n;
}

static void
test_fields(void)
{
	const char *s = "# comment\n\n"
			"--model\t-m --model-names\tlist\tg\tendpoint.model_names:L\t-\t-\tyes\t-\tEndpoint\tsplit\n"
			"--ui-type\t--ui\targ\ts\t-\tdashboard\tdashboard none simple\tyes\t-\tService\t-\n"
			"--x\t-\targ\t-\t-\t-\t-\tno\tnot yet (no issue)\t-\trun,warmup\r\n";
	struct proftab t;
	const struct proftab_opt *o;
	size_t bad;

	proftab_init(&t);
	TEST("proftab: three options, comments skipped", proftab_parse(&t, s, strlen(s), &bad) == 0 && t.n == 3);
	o = proftab_find(&t, "-m");
	TEST("proftab: an alias finds its option, every field read", o && !strcmp(o->name, "--model") && o->naliases == 2 && o->kind == PROFTAB_LIST &&
		      !strcmp(o->config, "endpoint.model_names") && o->config_type == 'L' &&
		      o->form == PROFTAB_SPLIT && !strcmp(o->group, "Endpoint") && o->line == 3);
	o = proftab_find(&t, "--ui");
	TEST("proftab: the choices, no config", o && o->nvalues == 3 && proftab_has_value(o, "none") && !proftab_has_value(o, "None") &&
		      !o->config && !strcmp(o->def, "dashboard"));
	o = proftab_find(&t, "--x");
	TEST("proftab: a refused option, its note, two forms, CRLF", o && o->support == PROFTAB_NO && !o->group && !strcmp(o->stages, "") &&
		      o->form == (PROFTAB_RUN | PROFTAB_WARMUP) && !strcmp(o->note, "not yet (no issue)"));
	TEST("proftab: an unknown name finds nothing", !proftab_find(&t, "--nosuch") && !proftab_find(&t, "") && !proftab_find(&t, "-"));
	proftab_release(&t);
}

static void
test_hostile(void)
{
	size_t bad;
	char *big;

	TEST("proftab: an empty table", parse("", &bad) == 0);
	TEST("proftab: too few fields, its line", parse("--zmq-host\targ\n", &bad) == -1 && bad == 1);
	TEST("proftab: empty fields refused", parse("#\n" ROW("--a", "flag", "yes", "-") ROW("--b", "flag", "yes", "-") "--c\t\t\t\n", &bad) == -1 &&
		      bad == 4);
	TEST("proftab: an unknown kind", parse(ROW("--a", "flags", "yes", "-"), &bad) == -1);
	TEST("proftab: an unknown support", parse(ROW("--a", "flag", "maybe", "-"), &bad) == -1);
	TEST("proftab: malformed forms", parse(ROW("--a", "flag", "yes", "split,"), &bad) == -1 &&
		      parse(ROW("--a", "flag", "yes", ",split"), &bad) == -1 &&
		      parse(ROW("--a", "flag", "yes", "splat"), &bad) == -1);
	TEST("proftab: names that are no option", parse(ROW("a", "flag", "yes", "-"), &bad) == -1 && parse(ROW("--", "flag", "yes", "-"), &bad) == -1 &&
		      parse(ROW("--a=b", "flag", "yes", "-"), &bad) == -1 &&
		      parse(ROW("--\xc3\xa9", "flag", "yes", "-"), &bad) == -1);
	TEST("proftab: an empty alias, an alias that is no option", parse("--a\t-a  -b\tflag\tg\t-\t-\t-\tyes\t-\tG\t-\n", &bad) == -1 &&
		      parse("--a\tb\tflag\tg\t-\t-\t-\tyes\t-\tG\t-\n", &bad) == -1);
	TEST("proftab: an unknown stage letter", parse("--a\t-\tflag\tgq\t-\t-\t-\tyes\t-\tG\t-\n", &bad) == -1);
	TEST("proftab: malformed config paths", parse("--a\t-\tflag\tg\tx.y:Q\t-\t-\tyes\t-\tG\t-\n", &bad) == -1 &&
		      parse("--a\t-\tflag\tg\tx.Y:s\t-\t-\tyes\t-\tG\t-\n", &bad) == -1 &&
		      parse("--a\t-\tflag\tg\t:s\t-\t-\tyes\t-\tG\t-\n", &bad) == -1 &&
		      parse("--a\t-\tflag\tg\tx.y:ss\t-\t-\tyes\t-\tG\t-\n", &bad) == -1);
	TEST("proftab: a line starting with a tab", parse(ROW("--a", "flag", "yes", "-") "\t" ROW("--b", "flag", "yes", "-"), &bad) == -1 && bad == 2);
	TEST("proftab: too many fields", parse("--a\t-\tflag\tg\t-\t-\t-\tyes\t-\tG\t-\textra\n", &bad) == -1);
	big = xmalloc(PROFTAB_MAX_FILE + 2);
	memset(big, '#', PROFTAB_MAX_FILE + 1);
	big[PROFTAB_MAX_FILE + 1] = '\0';
	TEST("proftab: a table over the cap", parse(big, &bad) == -1 && bad == 0);
	free(big);
}

int
main(void)
{
	test_fields();
	test_hostile();
	return TEST_DONE();
}
