#!/bin/sh
# Regenerates the expected outputs of the aiperf-config golden cases from the
# current build, as tests/golden.sh runs them. Without --write it only shows
# what would change (exit 1 if anything would); with --write it rewrites the
# files, then runs the independent checker (check.py), which must pass.
# A golden file is the record of a checked answer (SOURCES): review
# 'git diff' and update SOURCES before committing.
#
# usage: tests/golden/aiperf-config/regen.sh [--write] [case...]
set -u
cd "$(dirname "$0")/../../.." || exit 2
export LC_ALL=C PATH="$PWD/bin:$PATH" TZ=UTC
# shellcheck source=tests/golden/lib.sh
. tests/golden/lib.sh
golden_regen aiperf-config "$@" || exit $?
[ "${1:-}" = --write ] || exit 0
/usr/bin/python3 tests/golden/aiperf-config/check.py
