#!/bin/sh
# Golden tests: every tests/golden/<tool>/<case>/ is run and its stdout,
# stderr and exit status compared with the expected ones. The layout is in
# tests/golden/lib.sh: args (shell words), in (stdin; in.ndjson or in.txt),
# out (expected stdout; out.ndjson or out.txt) and err (expected stderr) are
# both required, an empty file meaning "must be empty", and status (expected
# exit code, default 0). A case without an expected stdout or stderr fails.
# Where each expectation came from: tests/golden/<tool>/SOURCES; rewrite
# them only with tests/golden/<tool>/regen.sh. Prints TAP.
set -u
cd "$(dirname "$0")/.." || exit 2
export LC_ALL=C PATH="$PWD/bin:$PATH" TZ=UTC
# shellcheck source=tests/golden/lib.sh
. tests/golden/lib.sh
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
for dir in tests/golden/*/*/; do
	[ -d "$dir" ] || continue
	dir=${dir%/}
	# (Python's bytecode cache beside a check.py another test imported)
	[ "${dir##*/}" = __pycache__ ] && continue
	name=${dir#tests/golden/}
	n=$((n + 1))
	missing=
	want=$(golden_stdout_file "$dir") || missing=$want
	want_err=$(golden_stderr_file "$dir") || missing=${missing:-$want_err}
	if [ -n "$missing" ]; then
		failed=$((failed + 1))
		echo "not ok $n - $name: $missing"
		continue
	fi
	want_status=$(golden_want_status "$dir")
	golden_run "$dir" "$tmp/out" "$tmp/err"
	status=$?
	why=
	[ "$status" -eq "$want_status" ] || why="$why, status $status (want $want_status)"
	cmp -s "$want" "$tmp/out" || why="$why, stdout differs from ${want##*/}"
	cmp -s "$want_err" "$tmp/err" || why="$why, stderr differs from err"
	if [ -z "$why" ]; then
		echo "ok $n - $name"
	else
		failed=$((failed + 1))
		echo "not ok $n - $name (${why#, })"
		cmp -s "$want" "$tmp/out" ||
			diff -u "$want" "$tmp/out" | head -20 | sed 's/^/#   /'
		cmp -s "$want_err" "$tmp/err" ||
			diff -u "$want_err" "$tmp/err" | head -10 | sed 's/^/#   /'
	fi
done
echo "1..$n"
[ $failed -eq 0 ]
