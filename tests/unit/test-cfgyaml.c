/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/cfg/yaml: YAML 1.1 typing as PyYAML's safe_load, ${VAR}, hostile files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg/yaml.h"
#include "cfg/tree.h"
#include "test.h"

static char err[512];

/* The file's tree as one line of JSON, or "ERR: message". */
static const char *
j(const char *yaml)
{
	static struct buf out;
	struct cfgyaml y;
	struct cnode *c;

	buf_release(&out);
	buf_init(&out, BUF_NOMAX);
	if (cfgyaml_parse(&y, yaml, strlen(yaml), err, sizeof(err)) < 0) {
		buf_addf(&out, "ERR: %s", err);
		return buf_str(&out);
	}
	c = cnode_from_json(y.root);
	cnode_json(c, &out, 0);
	cnode_free(c);
	cfgyaml_release(&y);
	return buf_str(&out);
}

static int
err_has(const char *yaml, const char *want)
{
	const char *got = j(yaml);

	if (strncmp(got, "ERR: ", 5) || !strstr(got, want)) {
		printf("# got: %s\n# want an error with: %s\n", got, want);
		return 0;
	}
	return 1;
}

static const char *
coerce(const char *s)
{
	static struct buf out;

	buf_release(&out);
	buf_init(&out, BUF_NOMAX);
	cfgyaml_coerce(s, strlen(s), &out);
	return buf_str(&out);
}

int
main(void)
{
	/* PyYAML safe_load's answers, by python3 -c 'import yaml; print(yaml.safe_load(...))' */
	TEST_STR("ints, floats, bools, nulls as YAML 1.1",
		 j("a: 8\nb: -3\nc: 0x1F\nd: 017\ne: 1_000\nf: 1.5\ng: 1.0e+3\nh: 2.\ni: yes\nk: Off\nl: ~\nm:\nn: NULL\n"),
		 "{\"a\":8,\"b\":-3,\"c\":31,\"d\":15,\"e\":1000,\"f\":1.5,\"g\":1000.0,\"h\":2.0,\"i\":true,\"k\":false,\"l\":null,\"m\":null,\"n\":null}");
	TEST_STR("PyYAML's strings: 1e3 without a dot, 1.0e3 without a sign, 0o17, y, -.5",
		 j("a: 1e3\nb: 1.0e3\nc: 0o17\nd: y\ne: -.5\nf: .5\n"),
		 "{\"a\":\"1e3\",\"b\":\"1.0e3\",\"c\":\"0o17\",\"d\":\"y\",\"e\":\"-.5\",\"f\":0.5}");
	TEST_STR("quoted and block scalars stay strings",
		 j("a: \"8\"\nb: 'true'\nd: |\n  two\n  lines\n"),
		 "{\"a\":\"8\",\"b\":\"true\",\"d\":\"two\\nlines\\n\"}");
	TEST_STR("flow and block collections, order kept",
		 j("z: [1, {b: 2}]\na:\n  - x\n  - y: [true]\n"),
		 "{\"z\":[1,{\"b\":2}],\"a\":[\"x\",{\"y\":[true]}]}");
	TEST_STR("anchors, aliases and merge keys (explicit keys win)",
		 j("base: &b {c: 8, r: 1}\nrun:\n  <<: *b\n  r: 5\n  x: *b\n"),
		 "{\"base\":{\"c\":8,\"r\":1},\"run\":{\"c\":8,\"r\":5,\"x\":{\"c\":8,\"r\":1}}}");
	TEST_STR("a merge of a list of mappings: the first one wins",
		 j("a: &a {k: 1}\nb: &b {k: 2, m: 3}\nc:\n  <<: [*a, *b]\n"),
		 "{\"a\":{\"k\":1},\"b\":{\"k\":2,\"m\":3},\"c\":{\"k\":1,\"m\":3}}");
	TEST("a duplicate key is an error with its line", err_has("a: 1\nb: 2\na: 3\n", "3:1: duplicate key 'a'"));
	TEST("a key that is not a string", err_has("1: a\n", "a key must be a string"));
	TEST("a yes key is a boolean key: refused", err_has("yes: 1\n", "a key must be a string"));
	TEST("an empty file", err_has("", "Configuration file is empty"));
	TEST("a comment-only file", err_has("# nothing\n", "Configuration file is empty"));
	TEST("a list is not a config", err_has("- a\n- b\n", "must be a YAML mapping"));
	TEST("a scalar is not a config", err_has("hello\n", "must be a YAML mapping"));
	TEST("bad syntax names its line", err_has("a: [1, 2\nb: 3\n", "Invalid YAML syntax"));
	TEST("a tab for indentation", err_has("a:\n\tb: 1\n", "Invalid YAML syntax"));
	TEST("two documents", err_has("a: 1\n---\nb: 2\n", "single document"));
	TEST("inf and nan are no values", err_has("a: .inf\n", "inf and nan"));
	TEST("an integer too large", err_has("a: 99999999999999999999\n", "out of range"));
	TEST("an alias to an undefined anchor", err_has("a: *nope\n", "Invalid YAML syntax"));
	TEST("an unknown tag", err_has("a: !!python/object foo\n", "unknown tag"));
	{
		/* the billion laughs: each level 10 times the last */
		struct buf b = BUF_INIT(BUF_NOMAX);

		buf_addstr(&b, "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
		for (int i = 1; i < 12; i++)
			buf_addf(&b, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i,
				 i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
		TEST("an alias bomb is bounded, not expanded", err_has(buf_str(&b), "MiB with its aliases"));
		buf_release(&b);
	}
	{
		struct buf b = BUF_INIT(BUF_NOMAX);

		for (int i = 0; i < 100; i++)
			buf_addstr(&b, "[");
		for (int i = 0; i < 100; i++)
			buf_addstr(&b, "]");
		char *doc = xstrfmt("a: %s\n", buf_str(&b));

		TEST("deep nesting is an error, not a crash", err_has(doc, "nested deeper than"));
		free(doc);
		buf_release(&b);
	}
	TEST("a cyclic alias is refused",
	     !strncmp(j("a: &x [1, *x]\n"), "ERR: ", 5));

	setenv("CFG_T_URL", "http://h:1", 1);
	setenv("CFG_T_N", "600.0", 1);
	setenv("CFG_T_B", "TRUE", 1);
	setenv("CFG_T_I", " 42 ", 1);
	unsetenv("CFG_T_UNSET");
	TEST_STR("${VAR} and ${VAR:default}, whole values typed as the original types them",
		 j("u: ${CFG_T_URL}\nt: ${CFG_T_N}\nb: ${CFG_T_B}\ni: ${CFG_T_I}\nd: ${CFG_T_UNSET:8}\n"
		   "s: \"${CFG_T_UNSET:x}-${CFG_T_N}\"\ne: ${CFG_T_UNSET:}\nq: '${CFG_T_I}'\n"),
		 "{\"u\":\"http://h:1\",\"t\":600.0,\"b\":true,\"i\":42,\"d\":8,\"s\":\"x-600.0\",\"e\":\"\",\"q\":42}");
	TEST("an unset ${VAR} without a default names it",
	     err_has("a: ${CFG_T_UNSET}\n", "Required environment variable 'CFG_T_UNSET' is not set"));
	TEST("an unterminated ${", err_has("a: \"${CFG_T_N\"\n", "unterminated '${'"));
	TEST_STR("$ alone and ${ not a name stay as they are", j("a: \"$5 ${1x} $\"\n"),
		 "{\"a\":\"$5 ${1x} $\"}");
	TEST_STR("keys are never substituted", j("${CFG_T_URL}: 1\n"), "{\"${CFG_T_URL}\":1}");

	TEST_STR("coerce: true in any case", coerce("True"), "true");
	TEST_STR("coerce: int() takes spaces and underscores", coerce(" 1_000 "), "1000");
	TEST_STR("coerce: float()", coerce("2.50"), "2.5");
	TEST_STR("coerce: 1e3 is float() 1000.0", coerce("1e3"), "1000.0");
	TEST_STR("coerce: inf stays a string", coerce("inf"), "\"inf\"");
	TEST_STR("coerce: hex stays a string", coerce("0x10"), "\"0x10\"");
	TEST_STR("coerce: int(\"007\") is 7", coerce("007"), "7");
	TEST_STR("coerce: text", coerce("a b"), "\"a b\"");

	{
		struct cfgyaml y;

		TEST("lines are kept by path",
		     cfgyaml_parse(&y, "a:\n  b:\n    - x\n    - c: 1\n", 27, err, sizeof(err)) == 0 &&
		     cfgyaml_line(&y, "a.b.1.c") == 4 && cfgyaml_line(&y, "a.b") == 3 &&
		     cfgyaml_line(&y, "nope") == 0);
		cfgyaml_release(&y);
	}
	TEST("a missing file", cfgyaml_load(&(struct cfgyaml){ 0 }, "/nonexistent.yaml", err, sizeof(err)) < 0 &&
	     strstr(err, "not found"));
	TEST("a directory is no config", cfgyaml_load(&(struct cfgyaml){ 0 }, "/", err, sizeof(err)) < 0 &&
	     strstr(err, "cannot read '/'"));
	TEST("a device is no config", cfgyaml_load(&(struct cfgyaml){ 0 }, "/dev/null", err, sizeof(err)) < 0 &&
	     strstr(err, "cannot read"));
	return TEST_DONE();
}
