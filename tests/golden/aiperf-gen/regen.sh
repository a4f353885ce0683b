#!/bin/sh
# Regenerates the expected outputs of the aiperf-gen golden cases from the
# current build: reruns every case (or the ones named) exactly as
# tests/golden.sh does. Without --write it only shows what would change
# (exit 1 if anything would); with --write it rewrites the files and then
# runs the independent checker, which must still pass.
#
# Run it only deliberately, after a change in behaviour that was meant:
# a golden file is the record of a checked answer (see SOURCES here), and
# rewriting it from the tool under test proves nothing by itself. Review
# 'git diff' and update SOURCES before committing.
#
# usage: tests/golden/aiperf-gen/regen.sh [--write] [case...]
set -u
cd "$(dirname "$0")/../../.." || exit 2
export LC_ALL=C PATH="$PWD/bin:$PATH" TZ=UTC
# shellcheck source=tests/golden/lib.sh
. tests/golden/lib.sh
golden_regen aiperf-gen "$@" || exit $?
[ "${1:-}" = --write ] || exit 0
/usr/bin/python3 tests/golden/aiperf-gen/check.py
