#!/bin/sh
# Runs every test (unit TAP binaries, golden cases, cli scripts) and prints
# "N passed, N failed". Usage: tests/run.sh [unit|golden|cli|lint]...
set -u
cd "$(dirname "$0")/.." || exit 2
export LC_ALL=C PATH="$PWD/bin:$PATH"
parts=${*:-unit golden cli}
log=build/tests/log
mkdir -p build/tests
: >"$log"
pass=0 fail=0

# count TAP output of one test program: name, command...
run_tap() {
	name=$1
	shift
	out=$("$@" 2>&1)
	rc=$?
	p=$(printf '%s\n' "$out" | grep -c '^ok ')
	f=$(printf '%s\n' "$out" | grep -c '^not ok ')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		out="$out
not ok - $name exited with status $rc"
	fi
	pass=$((pass + p))
	fail=$((fail + f))
	printf '%s\n' "$out" >>"$log"
	if [ "$f" -ne 0 ]; then
		echo "FAIL $name"
		printf '%s\n' "$out" | grep -A3 '^not ok ' | sed 's/^/    /'
	else
		echo "ok   $name ($p)"
	fi
}

for part in $parts; do
	case $part in
	unit)
		for t in build/tests/test-*; do
			[ -x "$t" ] && run_tap "unit/${t##*/}" "$t"
		done ;;
	golden)
		run_tap golden sh tests/golden.sh ;;
	lint)
		run_tap lint sh -c 'if make -s lint >build/lint.log 2>&1; then
			echo "ok 1 - make lint"; else cat build/lint.log;
			echo "not ok 1 - make lint (build/lint.log)"; fi' ;;
	cli)
		for t in tests/cli/t[0-9]*.sh; do
			[ -f "$t" ] && run_tap "cli/${t##*/}" sh "$t"
		done ;;
	esac
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
