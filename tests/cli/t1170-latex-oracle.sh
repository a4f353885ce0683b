#!/bin/sh
# The LaTeX answer pairs of tests/data/accuracy/latex-pairs.tsv against
# sympy: tests/accuracy/latex-oracle.py decides each from its sympy columns
# (Debian's python3-sympy, no LaTeX parser) and must agree with the
# expected column, which tests/unit/test-latexeq.c holds lib/accuracy to.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
"$PY" -c "import sympy" 2>/dev/null || test_skip_all "no python3-sympy"

test_expect_success 'every pair agrees with sympy' '
	"$PY" "$TOP/tests/accuracy/latex-oracle.py" "$TOP/tests/data/accuracy/latex-pairs.tsv" >out 2>&1 ||
		{ cat out; false; }
	tail -1 out | grep -q "^\([0-9]*\) of \1 pairs agree"
'
test_expect_success 'a wrong expectation is caught' '
	head -1 "$TOP/tests/data/accuracy/latex-pairs.tsv" >bad.tsv &&
	printf "%s\t%s\t%s\t%s\t%s\n" "\\sqrt{8}" "2\\sqrt{2}" "sqrt(8)" "2*sqrt(2)" 0 >>bad.tsv &&
	test_expect_code 1 "$PY" "$TOP/tests/accuracy/latex-oracle.py" bad.tsv >out &&
	grep -q "sympy says 1, expected 0" out
'
test_done
