#!/bin/sh
# Golden tests: tests/golden/<tool>/<case>/ holds args (shell words), in
# (stdin; in.ndjson or in.txt), out (expected stdout; out.ndjson or out.txt),
# optionally err (expected stderr) and status (expected exit code, default 0).
# Prints TAP.
set -u
cd "$(dirname "$0")/.." || exit 2
export LC_ALL=C PATH="$PWD/bin:$PATH" TZ=UTC
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
for dir in tests/golden/*/*/; do
	[ -d "$dir" ] || continue
	dir=${dir%/}
	tool=$(basename "$(dirname "$dir")")
	name=${dir#tests/golden/}
	n=$((n + 1))
	in=/dev/null
	for f in "$dir"/in.ndjson "$dir"/in.txt "$dir"/in; do
		[ -f "$f" ] && in=$f
	done
	want=
	for f in "$dir"/out.ndjson "$dir"/out.txt "$dir"/out; do
		[ -f "$f" ] && want=$f
	done
	args=
	[ -f "$dir/args" ] && args=$(cat "$dir/args")
	want_status=0
	[ -f "$dir/status" ] && want_status=$(cat "$dir/status")
	(cd "$dir" && eval "$tool $args") <"$in" >"$tmp/out" 2>"$tmp/err"
	status=$?
	ok=1
	[ "$status" -eq "$want_status" ] || ok=0
	if [ -n "$want" ] && ! cmp -s "$want" "$tmp/out"; then ok=0; fi
	if [ -f "$dir/err" ] && ! cmp -s "$dir/err" "$tmp/err"; then ok=0; fi
	if [ $ok -eq 1 ]; then
		echo "ok $n - $name"
	else
		failed=$((failed + 1))
		echo "not ok $n - $name (status $status, want $want_status)"
		[ -n "$want" ] && diff -u "$want" "$tmp/out" | head -20 | sed 's/^/#   /'
		[ -f "$dir/err" ] && diff -u "$dir/err" "$tmp/err" | head -10 | sed 's/^/#   /'
	fi
done
echo "1..$n"
[ $failed -eq 0 ]
