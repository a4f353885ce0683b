#!/bin/sh
# Runs every test (unit TAP binaries, golden cases, cli scripts, lint) and
# prints "N passed, N failed, N skipped".
# Usage: tests/run.sh [unit|golden|cli|lint|FILE]...  (FILE: a test script
# *.sh or a TAP program). Rules, each a failure naming the test:
#   - a "not ok" line, or a non-zero exit;
#   - no plan ("1..N"), or a count of results that differs from the plan;
#   - a unit test source in tests/unit whose binary is missing;
#   - running longer than AIPERF_TEST_TIMEOUT seconds (default 900);
#   - leaving a process behind (each test runs in its own session; what is
#     left there when it ends is listed, then killed).
# "ok N - ... # SKIP why" and "1..0 # SKIP why" count as skipped and are
# listed with their reasons at the end. The full output of every test goes
# to AIPERF_TEST_LOG (default build/tests/log).
set -u
cd "$(dirname "$0")/.." || exit 2
export LC_ALL=C PATH="$PWD/bin:$PATH"
parts=${*:-unit golden cli}
limit=${AIPERF_TEST_TIMEOUT:-900}
log=${AIPERF_TEST_LOG:-build/tests/log}
mkdir -p build/tests "$(dirname "$log")"
: >"$log"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skip=0
: >"$tmp/skips"

# run_test NAME COMMAND...: runs one test in its own session with a time
# limit and sets $out, $rc, $left (processes it left behind).
run_test() {
	rm -f "$tmp/sid"
	t0=$(date +%s)
	# shellcheck disable=SC2016 # $$ is the inner shell's pid
	timeout -k 10 "$limit" sh -c 'echo $$ >"$1"; shift; exec setsid "$@"' \
		run_test "$tmp/sid" "$@" >"$tmp/out" 2>&1 </dev/null
	rc=$?
	secs=$(($(date +%s) - t0))
	out=$(cat "$tmp/out")
	left=
	sid=$(cat "$tmp/sid" 2>/dev/null)
	[ -n "$sid" ] || return 0
	i=0
	# (a zombie is no process left running: an orphan whose reaper, PID 1
	# here, has not waited for it yet)
	while left=$(ps -o pid=,stat=,args= -s "$sid" 2>/dev/null |
		awk '$2 !~ /^Z/ { $2 = ""; sub(/  /, " "); print }') &&
		[ -n "$left" ] && [ $i -lt 30 ]; do
		sleep 0.1	# a process signalled at the test's exit may be ending
		i=$((i + 1))
	done
	[ -n "$left" ] || return 0
	pkill -KILL -s "$sid" 2>/dev/null
}

# judge NAME: counts the TAP in $out against its plan and the rules above.
judge() {
	name=$1
	p=$(printf '%s\n' "$out" | grep -c '^ok ')
	s=$(printf '%s\n' "$out" | grep -ci '^ok .*# *skip')
	f=$(printf '%s\n' "$out" | grep -c '^not ok ')
	plan=$(printf '%s\n' "$out" | sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' | tail -1)
	why=
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		why="timed out after $limit s (AIPERF_TEST_TIMEOUT)"
	elif [ -z "$plan" ]; then
		why="no plan (1..N): it ended before its last test (status $rc)"
	elif [ "$plan" -ne $((p + f)) ]; then
		why="planned $plan tests, ran $((p + f)) (status $rc)"
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		why="exited with status $rc"
	fi
	if [ -n "$left" ]; then
		why="${why:+$why; }left processes behind (killed):
$left"
	fi
	if [ "$plan" = 0 ] && [ -z "$why" ]; then
		s=1
		p=1
		printf '%s\n' "$out" | sed -n "s|^1\.\.0 *# *[sS][kK][iI][pP] *|$name: |p" >>"$tmp/skips"
	else
		printf '%s\n' "$out" | sed -n "s|^ok \([0-9]*\).*# *[sS][kK][iI][pP] *|$name #\1: |p" >>"$tmp/skips"
	fi
	[ -n "$why" ] && f=$((f + 1)) && out="$out
not ok - $name: $why"
	pass=$((pass + p - s))
	skip=$((skip + s))
	fail=$((fail + f))
	{ echo "### $name (${secs}s)"; printf '%s\n' "$out"; } >>"$log"
	if [ "$f" -ne 0 ]; then
		echo "FAIL $name"
		printf '%s\n' "$out" | grep -A3 '^not ok ' | sed 's/^/    /'
	else
		if [ "$s" -eq 0 ]; then
			echo "ok   $name ($p, ${secs}s)"
		else
			echo "ok   $name ($((p - s)), $s skipped, ${secs}s)"
		fi
	fi
}

run_units() {
	for src in tests/unit/test-*.c; do
		[ -f "$src" ] || continue
		t=build/tests/$(basename "$src" .c)
		if [ -x "$t" ]; then
			run_test "$t"
		else
			out="not ok 1 - $t is missing (make units)" rc=1 left='' secs=0
			out="$out
1..1"
		fi
		judge "unit/${t##*/}"
	done
}

for part in $parts; do
	case $part in
	unit)
		run_units ;;
	golden)
		run_test sh tests/golden.sh
		judge golden ;;
	lint)
		run_test sh -c 'if make -s lint >build/lint.log 2>&1; then
			echo "ok 1 - make lint"; else cat build/lint.log;
			echo "not ok 1 - make lint (build/lint.log)"; fi; echo 1..1'
		judge lint ;;
	cli)
		for t in tests/cli/t[0-9]*.sh; do
			[ -f "$t" ] || continue
			run_test sh "$t"
			judge "cli/${t##*/}"
		done ;;
	*.sh)
		run_test sh "$part"
		judge "$part" ;;
	*)
		run_test "$part"
		judge "$part" ;;
	esac
done
if [ -s "$tmp/skips" ]; then
	echo "skipped:"
	sed 's/^/    /' "$tmp/skips"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
