"""The driver every tests/golden/<tool>/check.py shares.

run(here, check_case) checks each case directory under here (or the names
given on the command line) with check_case(name), which returns (bad, how):
bad a list of mismatch lines (empty when the case matches), or None when
the case cannot be checked here, how then saying why. It prints one
ok / SKIP / MISMATCH line a case and a count (tests/cli/t0009 reads its
"skipped"), and returns 1 if any case mismatched.
"""
import os
import sys


def run(here, check_case):
    names = sys.argv[1:] or sorted(
        n for n in os.listdir(here)
        if os.path.isdir(os.path.join(here, n)) and n != "__pycache__")
    failed = skipped = 0
    for n in names:
        bad, how = check_case(n)
        if bad is None:
            skipped += 1
            print("SKIP %s: %s" % (n, how))
        elif bad:
            failed += 1
            print("MISMATCH %s%s" % (n, ": " + how if how else ""))
            for b in bad:
                print("  " + b)
        else:
            print("ok %s: %s" % (n, how))
    print("%d of %d cases match the reference%s" % (
        len(names) - failed - skipped, len(names),
        ", %d skipped" % skipped if skipped else ""))
    return 1 if failed else 0
