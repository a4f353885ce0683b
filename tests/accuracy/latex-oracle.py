#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Check tests/data/accuracy/latex-pairs.tsv against sympy.

Each row is latex_a, latex_b, sympy_a, sympy_b, expected (1 or 0). The
sympy columns are the same answers in sympy syntax; this decides each pair
from them with sympy alone (sympify, no LaTeX parser, no antlr) and checks
the verdict is the expected column, which the C checker
(lib/accuracy/latexeq.c, tests/unit/test-latexeq.c) must also give.

The rules, the ones lib/accuracy/latexeq.h documents: numbers are equal
when simplify(a - b) == 0; finite sets by mutual inclusion, a number
being a set of one; tuples in order; a tuple against a set as sets;
intervals by openness and endpoints, unions part by part, an open
interval also against a pair; "sym = v" against a non-equation by v; two equations by
lhs - rhs, also flipped. Exit 1 listing the disagreements.
"""
import sys

import sympy
from sympy import Eq, FiniteSet, Interval, Symbol, Tuple, Union, simplify


def only_symbols(e):
    if isinstance(e, Symbol):
        return True
    return isinstance(e, sympy.Mul) and all(isinstance(f, Symbol) for f in e.args)


def num_eq(a, b):
    if a == b:
        return True
    try:
        return simplify(a - b) == 0
    except Exception:  # noqa: BLE001 - a failed simplify is "not equal"
        return False


def included(xs, ys):
    return all(any(equal(x, y) for y in ys) for x in xs)


def as_items(v):
    if isinstance(v, (FiniteSet, Tuple)):
        return list(v.args)
    return [v]


def equal(a, b):
    if isinstance(a, Eq) and isinstance(b, Eq):
        da, db = a.lhs - a.rhs, b.lhs - b.rhs
        return num_eq(da, db) or num_eq(da, -db)
    if isinstance(a, Eq):
        return only_symbols(a.lhs) and equal(a.rhs, b)
    if isinstance(b, Eq):
        return only_symbols(b.lhs) and equal(a, b.rhs)
    if isinstance(a, Interval) and isinstance(b, Tuple):
        a, b = b, a
    if isinstance(a, Tuple) and isinstance(b, Interval):
        return (len(a) == 2 and b.left_open and b.right_open
                and equal(a[0], b.start) and equal(a[1], b.end))
    if isinstance(a, Interval) and isinstance(b, Interval):
        return (a.left_open == b.left_open and a.right_open == b.right_open
                and equal(a.start, b.start) and equal(a.end, b.end))
    if isinstance(a, Union) and isinstance(b, Union):
        return included(a.args, b.args) and included(b.args, a.args)
    if isinstance(a, (Interval, Union)) or isinstance(b, (Interval, Union)):
        return a == b
    if isinstance(a, Tuple) and isinstance(b, Tuple):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    if isinstance(a, (FiniteSet, Tuple)) or isinstance(b, (FiniteSet, Tuple)):
        xs, ys = as_items(a), as_items(b)
        return included(xs, ys) and included(ys, xs)
    return num_eq(a, b)


def main(path):
    bad = []
    rows = 0
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#") or lineno == 1:
                continue
            cols = line.split("\t")
            if len(cols) != 5 or cols[4] not in ("0", "1"):
                bad.append(f"{path}:{lineno}: malformed row")
                continue
            rows += 1
            try:
                got = equal(sympy.sympify(cols[2]), sympy.sympify(cols[3]))
            except Exception as exc:  # noqa: BLE001
                bad.append(f"{path}:{lineno}: cannot sympify: {exc}")
                continue
            if int(got) != int(cols[4]):
                bad.append(f"{path}:{lineno}: sympy says {int(got)}, expected {cols[4]}:"
                           f" {cols[2]!r} vs {cols[3]!r}")
    for b in bad:
        print(b)
    print(f"{rows - len(bad)} of {rows} pairs agree with sympy {sympy.__version__}")
    return 1 if bad or rows == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/accuracy/latex-pairs.tsv"))
