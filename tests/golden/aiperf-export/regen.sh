#!/bin/sh
# Regenerates the expected outputs of the aiperf-export golden cases from the
# current build: reruns every case (or the ones named) exactly as
# tests/golden.sh does, and for a case with want.json also rewrites
# want.json and want.csv from a run with --no-console --artifact-dir, as
# tests/cli/t0700-export-artifacts.sh checks them. Without --write it only
# shows what would change (exit 1 if anything would); with --write it
# rewrites the files and then runs the independent checker (check.py),
# which must still pass.
#
# Run it only deliberately, after a change in behaviour that was meant:
# a golden file is the record of a checked answer (see SOURCES here), and
# rewriting it from the tool under test proves nothing by itself. Review
# 'git diff' and update SOURCES before committing.
#
# usage: tests/golden/aiperf-export/regen.sh [--write] [case...]
set -u
cd "$(dirname "$0")/../../.." || exit 2
export LC_ALL=C PATH="$PWD/bin:$PATH" TZ=UTC
# shellcheck source=tests/golden/lib.sh
. tests/golden/lib.sh

# regen_extra DIR NEWDIR: the artifact files of cases that keep them.
regen_extra() {
	[ -f "$1/want.json" ] || return 0
	rm -rf "$2/.art"
	(cd "$1" && eval "aiperf-export $(cat args) --no-console \
		--artifact-dir \"\$2/.art\"" <in.ndjson >/dev/null 2>&1)
	cp "$2/.art/profile_export_aiperf.json" "$2/want.json"
	cp "$2/.art/profile_export_aiperf.csv" "$2/want.csv"
	rm -rf "$2/.art"
}

golden_regen aiperf-export "$@" || exit $?
[ "${1:-}" = --write ] || exit 0
/usr/bin/python3 tests/golden/aiperf-export/check.py
