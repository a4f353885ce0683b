/* SPDX-License-Identifier: Apache-2.0 */
/* The original's code_execution grader (LiveCodeBench): the reply's program run on the problem's tests, in the sandbox only. */
#include "accuracy/codeexec.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy/sandbox.h"
#include "buf.h"
#include "json/json.h"
#include "util.h"

/*
 * The test runner, lighteval's run_test() (lcb/codegen_metrics.py) as it
 * behaves: one process for all of a problem's tests, compiled once,
 * stopping at the first failure, each test under signal.alarm(6).
 * stdin/stdout programs lose a final `if __name__ == '__main__':`, are
 * wrapped into one function after lighteval's import block, and see
 * their input as sys.stdin = StringIO(input) and open() = mock_open;
 * output compares line by line after strip(), a line passing when equal
 * or when both are whitespace-separated Decimals that are equal.
 * Call-based programs get the import block prepended, Solution() when
 * "class Solution" is in the code, and fn_name(*args) with each input
 * line json.loads()'d; the result (a tuple as a list) must == the
 * json.loads()'d output. Its stdin is one JSON line (timeout, fn_name,
 * inputs, outputs), then the code's bytes; it writes one verdict line,
 * "aiperf-lcb pass|wrong|timeout|error INDEX [EXCEPTION]", on the stdout
 * it had at start (the program's own fd 1 goes to /dev/null). The
 * verdict comes from inside the sandboxed process, as lighteval's does:
 * the sandbox guards the machine, not the score from a program out to
 * fake it.
 */
static const char *const harness[] = {
	"import ast, json, os, signal, sys\n",
	"from io import StringIO\n",
	"from types import ModuleType\n",
	"from unittest.mock import mock_open, patch\n",
	"from decimal import Decimal\n",
	"\n",
	"PRE = (\"from string import *\\nfrom re import *\\nfrom datetime import *\\n\"\n",
	"       \"from collections import *\\nfrom heapq import *\\nfrom bisect import *\\n\"\n",
	"       \"from copy import *\\nfrom math import *\\nfrom random import *\\n\"\n",
	"       \"from statistics import *\\nfrom itertools import *\\n\"\n",
	"       \"from functools import *\\nfrom operator import *\\nfrom io import *\\n\"\n",
	"       \"from sys import *\\nfrom json import *\\nfrom builtins import *\\n\"\n",
	"       \"from typing import *\\nimport string\\nimport re\\nimport datetime\\n\"\n",
	"       \"import collections\\nimport heapq\\nimport bisect\\nimport copy\\n\"\n",
	"       \"import math\\nimport random\\nimport statistics\\nimport itertools\\n\"\n",
	"       \"import functools\\nimport operator\\nimport io\\nimport sys\\nimport json\\n\"\n",
	"       \"sys.setrecursionlimit(50000)\\n\")\n",
	"\n",
	"data = sys.stdin.buffer.read()\n",
	"nl = data.index(b\"\\n\")\n",
	"job = json.loads(data[:nl])\n",
	"raw = data[nl + 1:]\n",
	"del data\n",
	"T = job[\"timeout\"]\n",
	"out = os.fdopen(os.dup(1), \"w\")\n",
	"nul = os.open(os.devnull, os.O_WRONLY)\n",
	"os.dup2(nul, 1)\n",
	"os.close(nul)\n",
	"\n",
	"\n",
	"def verdict(kind, i, why=\"\"):\n",
	"    out.write(\"aiperf-lcb %s %d %s\\n\" % (kind, i, why))\n",
	"    out.flush()\n",
	"    os._exit(0)\n",
	"\n",
	"\n",
	"class Timeout(Exception):\n",
	"    pass\n",
	"\n",
	"\n",
	"def alarm(s, f):\n",
	"    raise Timeout\n",
	"\n",
	"\n",
	"def fail(i, e):\n",
	"    verdict(\"timeout\" if isinstance(e, Timeout) else \"error\", i,\n",
	"            type(e).__name__)\n",
	"\n",
	"\n",
	"signal.signal(signal.SIGALRM, alarm)\n",
	"try:\n",
	"    sys.set_int_max_str_digits(50000)\n",
	"except AttributeError:\n",
	"    pass\n",
	"\n",
	"\n",
	"def load(code):\n",
	"    signal.alarm(T)\n",
	"    try:\n",
	"        mod = ModuleType(\"tmp_sol\", \"\")\n",
	"        exec(code, mod.__dict__)\n",
	"        return mod.Solution() if \"class Solution\" in code else mod\n",
	"    finally:\n",
	"        signal.alarm(0)\n",
	"\n",
	"\n",
	"def unmain(code):\n",
	"    try:\n",
	"        tree = ast.parse(code)\n",
	"        last = tree.body[-1]\n",
	"        if (isinstance(last, ast.If) and\n",
	"                ast.unparse(last.test).strip() == \"__name__ == '__main__'\"):\n",
	"            code = (ast.unparse(tree.body[:-1]) + \"\\n\" +\n",
	"                    ast.unparse(last.body))\n",
	"    except Exception:\n",
	"        pass\n",
	"    return code\n",
	"\n",
	"\n",
	"def wrap(code):\n",
	"    try:\n",
	"        tree = ast.parse(code)\n",
	"        imp = [s for s in tree.body if isinstance(s, (ast.Import, ast.ImportFrom))]\n",
	"        rest = [s for s in tree.body if not isinstance(s, (ast.Import, ast.ImportFrom))]\n",
	"        fn = ast.FunctionDef(name=\"wrapped_function\",\n",
	"                             args=ast.arguments(posonlyargs=[], args=[],\n",
	"                                                kwonlyargs=[], kw_defaults=[],\n",
	"                                                defaults=[]),\n",
	"                             body=rest, decorator_list=[], lineno=-1)\n",
	"        if \"type_params\" in ast.FunctionDef._fields:\n",
	"            fn.type_params = []\n",
	"        return PRE + \"\\n\" + ast.unparse(imp) + \"\\n\" + ast.unparse(fn)\n",
	"    except Exception:\n",
	"        return code\n",
	"\n",
	"\n",
	"def lines(s):\n",
	"    return [x.strip() for x in s.strip().split(\"\\n\")]\n",
	"\n",
	"\n",
	"def decimals(line):\n",
	"    try:\n",
	"        return [Decimal(x) for x in line.split()]\n",
	"    except Exception:\n",
	"        return None\n",
	"\n",
	"\n",
	"def same(got, want):\n",
	"    g, w = lines(got), lines(want)\n",
	"    if len(g) != len(w):\n",
	"        return False\n",
	"    for a, b in zip(g, w):\n",
	"        if a == b:\n",
	"            continue\n",
	"        da, db = decimals(a), decimals(b)\n",
	"        if da is None or db is None or da != db:\n",
	"            return False\n",
	"    return True\n",
	"\n",
	"\n",
	"def stdio(code, ins, outs):\n",
	"    code = wrap(unmain(code))\n",
	"    try:\n",
	"        sol = load(code)\n",
	"        fn = getattr(sol, \"wrapped_function\")\n",
	"    except BaseException as e:\n",
	"        fail(0, e)\n",
	"    for i, (inp, want) in enumerate(zip(ins, outs)):\n",
	"        cap = StringIO()\n",
	"        cap.close = lambda *a: 1\n",
	"        saved = sys.stdout\n",
	"        sys.stdout = cap\n",
	"        try:\n",
	"            with patch(\"builtins.open\", mock_open(read_data=inp)), \\\n",
	"                    patch(\"sys.stdin\", StringIO(inp)):\n",
	"                signal.alarm(T)\n",
	"                try:\n",
	"                    fn()\n",
	"                except SystemExit:\n",
	"                    pass\n",
	"                finally:\n",
	"                    signal.alarm(0)\n",
	"        except BaseException as e:\n",
	"            sys.stdout = saved\n",
	"            fail(i, e)\n",
	"        sys.stdout = saved\n",
	"        try:\n",
	"            ok = same(cap.getvalue(), want)\n",
	"        except BaseException as e:\n",
	"            fail(i, e)\n",
	"        if not ok:\n",
	"            verdict(\"wrong\", i)\n",
	"    verdict(\"pass\", len(ins))\n",
	"\n",
	"\n",
	"def call(code, name, ins, outs):\n",
	"    try:\n",
	"        sol = load(PRE + \"\\n\\n\" + code)\n",
	"        fn = getattr(sol, name)\n",
	"        args = [[json.loads(x) for x in s.split(\"\\n\")] for s in ins]\n",
	"        wants = [json.loads(o) for o in outs]\n",
	"    except BaseException as e:\n",
	"        fail(0, e)\n",
	"    for i, (a, want) in enumerate(zip(args, wants)):\n",
	"        try:\n",
	"            signal.alarm(T)\n",
	"            try:\n",
	"                got = fn(*a)\n",
	"            finally:\n",
	"                signal.alarm(0)\n",
	"            if isinstance(got, tuple):\n",
	"                got = list(got)\n",
	"            ok = bool(got == want)\n",
	"        except BaseException as e:\n",
	"            fail(i, e)\n",
	"        if not ok:\n",
	"            verdict(\"wrong\", i)\n",
	"    verdict(\"pass\", len(ins))\n",
	"\n",
	"\n",
	"try:\n",
	"    code = raw.decode()\n",
	"except UnicodeDecodeError as e:\n",
	"    fail(0, e)\n",
	"if job[\"fn_name\"] is None:\n",
	"    stdio(code, job[\"inputs\"], job[\"outputs\"])\n",
	"else:\n",
	"    call(code, job[\"fn_name\"], job[\"inputs\"], job[\"outputs\"])\n",
};

/* LCB's translate_private_test_cases(): base64, zlib, pickle, JSON. The
 * pickle is only ever loaded in the sandbox. */
static const char decoder[] =
	"import base64, json, pickle, sys, zlib\n"
	"v = json.loads(pickle.loads(zlib.decompress(base64.b64decode(\n"
	"    sys.stdin.buffer.read()))))\n"
	"sys.stdout.write(json.dumps(v))\n";

#define VERDICT "aiperf-lcb "
#define ERRMAX 160

/* Python's `not v`: null, false, 0, "", [] and {}. */
static int
falsy(const struct json *v)
{
	double d;

	if (!v || v->type == JSON_NULL || v->type == JSON_FALSE)
		return 1;
	if (v->type == JSON_NUMBER)
		return json_double(v, &d) == 0 && d == 0;
	if (v->type == JSON_STRING || v->type == JSON_ARRAY || v->type == JSON_OBJECT)
		return v->len == 0;
	return 0;
}

static int
add_case(struct codeexec_tests *t, const struct json *c, size_t i, char *err,
	 size_t errlen)
{
	const struct json *in = json_get(c, "input"), *out = json_get(c, "output");

	if (!c || c->type != JSON_OBJECT)
		return util_seterr(err, errlen, "test case %zu is not an object", i);
	if (!in || !out)
		return util_seterr(err, errlen, "test case %zu has no '%s'", i,
				   in ? "output" : "input");
	if (in->type != JSON_STRING || out->type != JSON_STRING)
		return util_seterr(err, errlen, "test case %zu: '%s' is not a string",
				   i, in->type != JSON_STRING ? "input" : "output");
	if (t->n >= CODEEXEC_MAX_CASES)
		return util_seterr(err, errlen, "more than %d test cases",
				   CODEEXEC_MAX_CASES);
	if (t->n == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 16;
		t->cases = xreallocarray(t->cases, t->alloc, sizeof(*t->cases));
	}
	t->cases[t->n++] = (struct codeexec_case){ in->str, in->len, out->str,
						   out->len };
	return 0;
}

static int
add_array(struct codeexec_tests *t, const struct json *a, char *err, size_t errlen)
{
	size_t i = 0;

	if (!a || a->type != JSON_ARRAY)
		return util_seterr(err, errlen, "test cases are not a list");
	for (const struct json *c = a->child; c; c = c->next)
		if (add_case(t, c, i++, err, errlen) < 0)
			return -1;
	return 0;
}

/* Parse s[0..n) into t's document slot. */
static const struct json *
parse_into(struct codeexec_tests *t, int slot, const char *s, size_t n, char *err,
	   size_t errlen)
{
	if (!t->doc[slot])
		t->doc[slot] = json_doc_new();
	return json_parse(t->doc[slot], s, n, err, errlen);
}

int
codeexec_add_cases(struct codeexec_tests *t, const char *s, size_t n, char *err,
		   size_t errlen)
{
	char why[ERRMAX];
	const struct json *v = parse_into(t, 2, s, n, why, sizeof(why));

	if (!v)
		return util_seterr(err, errlen, "private test cases: %s", why);
	return add_array(t, v, err, errlen);
}

/* public_test_cases: a JSON text or a list (_parse_test_cases). */
static int
public_cases(struct codeexec_tests *t, const struct json *v, char *err, size_t errlen)
{
	char why[ERRMAX];

	if (falsy(v))
		return 0;
	if (v->type == JSON_ARRAY)
		return add_array(t, v, err, errlen);
	if (v->type != JSON_STRING)
		return util_seterr(err, errlen, "test cases must be a JSON string or list");
	v = parse_into(t, 1, v->str, v->len, why, sizeof(why));
	if (!v)
		return util_seterr(err, errlen, "public test cases: %s", why);
	return add_array(t, v, err, errlen);
}

/* private_test_cases: a list, a plain JSON text, or encoded (left for
 * the sandbox to decode: a string that is no JSON is taken for that). */
static int
private_cases(struct codeexec_tests *t, const struct json *v, char *err,
	      size_t errlen)
{
	char why[ERRMAX];
	const struct json *p;

	if (falsy(v))
		return 0;
	if (v->type == JSON_ARRAY)
		return add_array(t, v, err, errlen);
	if (v->type != JSON_STRING)
		return util_seterr(err, errlen, "test cases must be a JSON string or list");
	p = parse_into(t, 2, v->str, v->len, why, sizeof(why));
	if (p)
		return add_array(t, p, err, errlen);
	t->encoded = v->str;
	t->enclen = v->len;
	return 0;
}

/* metadata.func_name, the metadata a JSON text or an object. */
static int
metadata(struct codeexec_tests *t, const struct json *v, char *err, size_t errlen)
{
	char why[ERRMAX];
	const struct json *fn;

	if (falsy(v))
		return 0;
	if (v->type == JSON_STRING) {
		v = parse_into(t, 3, v->str, v->len, why, sizeof(why));
		if (!v)
			return util_seterr(err, errlen, "metadata: %s", why);
	}
	if (v->type != JSON_OBJECT)
		return 0;
	fn = json_get(v, "func_name");
	if (!fn || fn->type == JSON_NULL)
		return 0;
	if (fn->type == JSON_STRING)
		t->fn_name = fn->str;
	else
		t->fn_not_str = true;
	return 0;
}

int
codeexec_parse(const char *gold, size_t n, struct codeexec_tests *t, char *err,
	       size_t errlen)
{
	char why[ERRMAX];
	const struct json *v;

	memset(t, 0, sizeof(*t));
	v = parse_into(t, 0, gold, n, why, sizeof(why));
	if (!v)
		return util_seterr(err, errlen, "ground_truth not orjson");
	if (v->type != JSON_OBJECT)
		return util_seterr(err, errlen, "malformed test cases: expected "
				   "an object");
	if (public_cases(t, json_get(v, "public_test_cases"), why, sizeof(why)) < 0 ||
	    private_cases(t, json_get(v, "private_test_cases"), why, sizeof(why)) < 0 ||
	    metadata(t, json_get(v, "metadata"), why, sizeof(why)) < 0)
		return util_seterr(err, errlen, "malformed test cases: %s", why);
	if (t->n == 0 && !t->encoded)
		return util_seterr(err, errlen, "malformed test cases: no test cases");
	return 0;
}

void
codeexec_tests_release(struct codeexec_tests *t)
{
	free(t->cases);
	for (int i = 0; i < 4; i++)
		json_doc_free(t->doc[i]);
	memset(t, 0, sizeof(*t));
}

static int
has_fence(const char *s, size_t n)
{
	for (size_t i = 0; i + 3 <= n; i++)
		if (s[i] == '`' && s[i + 1] == '`' && s[i + 2] == '`')
			return 1;
	return 0;
}

size_t
codeexec_extract(const char *reply, size_t n, const char **code)
{
	size_t fences = 0, prev_end = 0, last_start = 0, last_end = 0, s = 0;

	*code = reply;
	for (;;) {
		const char *nl = memchr(reply + s, '\n', n - s);
		size_t e = nl ? (size_t)(nl - reply) : n;

		if (has_fence(reply + s, e - s)) {
			prev_end = last_end;
			last_start = s;
			last_end = e;
			fences++;
		}
		if (!nl)
			break;
		s = e + 1;
	}
	/* the lines strictly between the two fence lines */
	if (fences < 2 || last_start <= prev_end + 1)
		return 0;
	*code = reply + prev_end + 1;
	return last_start - 1 - (prev_end + 1);
}

/* The original's _grading_failure(): unparsed, the stripped reply's
 * first 200 bytes as the extracted answer. */
static int
malformed(struct grade_result *r, const char *reply, size_t n, const char *why)
{
	size_t a = 0, k;

	while (a < n && strchr(" \t\n\r\v\f", reply[a]) && reply[a])
		a++;
	while (n > a && strchr(" \t\n\r\v\f", reply[n - 1]) && reply[n - 1])
		n--;
	k = n - a < 200 ? n - a : 200;
	while (k > 0 && k < n - a && ((unsigned char)reply[a + k] & 0xC0) == 0x80)
		k--;
	r->correct = false;
	r->unparsed = true;
	grade_set_extracted(r, reply + a, k);
	snprintf(r->reason, sizeof(r->reason), "LCB grader failed: %.100s", why);
	return 0;
}

static int
no_sandbox(struct grade_result *r, const char *why)
{
	r->correct = false;
	r->unparsed = true;
	snprintf(r->reason, sizeof(r->reason), "code_execution needs bubblewrap: %.94s",
		 why);
	errno = ENOEXEC;
	return -1;
}

/* Decode t->encoded in the sandbox and add its cases: 0, -1 when the
 * sandbox failed (err), 1 when the cases are malformed (err). */
static int
decode_private(struct codeexec_tests *t, char *err, size_t errlen)
{
	struct sandbox_limits l;
	struct sandbox_result res;
	int rc;

	sandbox_limits_default(&l);
	l.wall_ms = 60000;
	l.cpu_s = 60;
	l.out_max = CODEEXEC_MAX_DECODED;
	if (sandbox_run(&l, decoder, sizeof(decoder) - 1, t->encoded, t->enclen,
			&res, err, errlen) < 0)
		return -1;
	if (res.timed_out || res.exit_code != 0 || res.out_truncated) {
		util_seterr(err, errlen, "private test cases: cannot decode%s",
			    res.out_truncated ? " (over 256 MiB)" : "");
		rc = 1;
	} else
		rc = codeexec_add_cases(t, res.out.s, res.out.len, err, errlen) < 0;
	sandbox_result_release(&res);
	return rc;
}

/* The harness's stdin: the job's JSON line, then the code. */
static void
build_job(struct buf *b, const struct codeexec_tests *t, const char *code,
	  size_t clen)
{
	struct jw w;

	jw_init(&w, b, 0);
	jw_obj(&w);
	jw_key(&w, "timeout");
	jw_int(&w, CODEEXEC_TIMEOUT_S);
	jw_key(&w, "fn_name");
	if (t->fn_name)
		jw_str(&w, t->fn_name);
	else
		jw_null(&w);
	jw_key(&w, "inputs");
	jw_arr(&w);
	for (size_t i = 0; i < t->n; i++)
		jw_strn(&w, t->cases[i].in, t->cases[i].inlen);
	jw_arr_end(&w);
	jw_key(&w, "outputs");
	jw_arr(&w);
	for (size_t i = 0; i < t->n; i++)
		jw_strn(&w, t->cases[i].out, t->cases[i].outlen);
	jw_arr_end(&w);
	jw_obj_end(&w);
	buf_addch(b, '\n');
	buf_add(b, code, clen);
}

/* The last verdict line of out, parsed into r. */
static void
verdict(const struct sandbox_result *res, size_t ntests, struct grade_result *r)
{
	const char *s = buf_str(&res->out), *v = NULL;
	char kind[16] = "", why[64] = "";
	unsigned long i = 0;

	for (const char *p = s; p; p = strchr(p, '\n'))
		if (*p == '\n' ? !strncmp(++p, VERDICT, strlen(VERDICT))
			       : !strncmp(p, VERDICT, strlen(VERDICT)))
			v = p;
	if (res->timed_out) {
		snprintf(r->reason, sizeof(r->reason), "killed after %.0f s: "
			 "over the %zu tests' time", (double)res->wall_ns / 1e9, ntests);
		return;
	}
	if (!v || sscanf(v + strlen(VERDICT), "%15s %lu %63[^\n]", kind, &i, why) < 2) {
		snprintf(r->reason, sizeof(r->reason), "the test run died (exit %d)",
			 res->exit_code);
		return;
	}
	if (!strcmp(kind, "pass") && i == ntests) {
		r->correct = true;
		snprintf(r->reason, sizeof(r->reason), "pass@1=1.000 (%zu tests)", ntests);
	} else if (!strcmp(kind, "wrong")) {
		snprintf(r->reason, sizeof(r->reason), "test %lu of %zu: wrong answer",
			 i + 1, ntests);
	} else if (!strcmp(kind, "timeout")) {
		snprintf(r->reason, sizeof(r->reason), "test %lu of %zu: over %d s",
			 i + 1, ntests, CODEEXEC_TIMEOUT_S);
	} else {
		snprintf(r->reason, sizeof(r->reason), "test %lu of %zu: %s (%s)",
			 i + 1, ntests, kind, why);
	}
}

/* Run the code on every test in one sandbox: 0, or -1 (sandbox, err). */
static int
run_tests(const struct codeexec_tests *t, const char *code, size_t clen,
	  struct grade_result *r, char *err, size_t errlen)
{
	struct sandbox_limits l;
	struct sandbox_result res;
	struct buf job, prog;
	int rc;

	sandbox_limits_default(&l);
	/* lighteval's check_correctness(): (timeout + 1) * tests + 5 */
	l.wall_ms = ((int64_t)(CODEEXEC_TIMEOUT_S + 1) * (int64_t)t->n + 5) * 1000;
	l.cpu_s = (unsigned)(l.wall_ms / 1000);
	l.out_max = 4096;
	buf_init(&prog, BUF_NOMAX);
	for (size_t i = 0; i < sizeof(harness) / sizeof(harness[0]); i++)
		buf_addstr(&prog, harness[i]);
	buf_init(&job, BUF_NOMAX);
	build_job(&job, t, code, clen);
	rc = sandbox_run(&l, prog.s, prog.len, job.s, job.len, &res, err, errlen);
	buf_release(&job);
	buf_release(&prog);
	if (rc < 0)
		return -1;
	verdict(&res, t->n, r);
	sandbox_result_release(&res);
	return 0;
}

int
codeexec_grade(const char *reply, size_t n, const char *gold,
	       struct grade_result *r)
{
	struct codeexec_tests t;
	char err[GRADE_REASON_MAX];
	const char *code;
	size_t clen;
	int rc = 0;

	if (grade_check_limits(n, gold, CODEEXEC_MAX_GOLD, r) < 0)
		return -1;
	if (codeexec_parse(gold, strlen(gold), &t, err, sizeof(err)) < 0) {
		codeexec_tests_release(&t);
		return malformed(r, reply, n, err);
	}
	clen = codeexec_extract(reply, n, &code);
	grade_set_extracted(r, code, clen);
	r->unparsed = clen == 0;
	if (clen == 0) {
		/* lighteval runs the empty program too: it cannot pass */
		snprintf(r->reason, sizeof(r->reason), "no code block extracted");
	} else if (t.encoded && (rc = decode_private(&t, err, sizeof(err))) != 0) {
		if (rc < 0)
			rc = no_sandbox(r, err);
		else
			rc = malformed(r, reply, n, err);
	} else if (t.n == 0) {
		rc = malformed(r, reply, n, "malformed test cases: no test cases");
	} else if (t.fn_not_str) {
		snprintf(r->reason, sizeof(r->reason), "func_name is not a string");
	} else if (run_tests(&t, code, clen, r, err, sizeof(err)) < 0) {
		rc = no_sandbox(r, err);
	}
	codeexec_tests_release(&t);
	return rc;
}
