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
# AIPERF_TEST_JOBS=N (default 1) runs N tests at once; results are still
# judged and printed in order. A test whose file has a line "# run.sh: alone"
# (fixed ports, timing it checks) runs by itself after the others; one with
# "# run.sh: long" (a minute or so) starts before the others, so that no
# long test is left running alone at the end.
# AIPERF_TEST_SKIP="NAME..." reports those tests (t0851-plot-report.sh,
# test-json, golden, lint) as skipped, with AIPERF_TEST_SKIP_WHY as reason.
set -u
cd "$(dirname "$0")/.." || exit 2
export LC_ALL=C PATH="$PWD/bin:$PATH"
# Tests import each other's Python (gen-prompt-ref.py imports the golden
# check.py): no bytecode caches written into the tree while others list it.
export PYTHONDONTWRITEBYTECODE=1
limit=${AIPERF_TEST_TIMEOUT:-900}

# run.sh --one DIR I: a worker of the parallel mode: runs $DIR/cmd.I and
# leaves out.I, rc.I, left.I, secs.I, then done.I.
if [ "${1:-}" = --one ]; then
	tmp=$2 i=$3
fi

# run_test COMMAND...: runs one test in its own session with a time limit
# and sets $out, $rc, $left (processes it left behind), $secs. Its scratch
# files are $tmp/*.$i ($i: the test's index; one at a time per index).
run_test() {
	rm -f "$tmp/sid.$i"
	t0=$(date +%s)
	# shellcheck disable=SC2016 # $$ is the inner shell's pid
	timeout -k 10 "$limit" sh -c 'echo $$ >"$1"; shift; exec setsid "$@"' \
		run_test "$tmp/sid.$i" "$@" >"$tmp/out.$i" 2>&1 </dev/null
	rc=$?
	secs=$(($(date +%s) - t0))
	out=$(cat "$tmp/out.$i")
	left=
	sid=$(cat "$tmp/sid.$i" 2>/dev/null)
	[ -n "$sid" ] || return 0
	n=0
	# (a zombie is no process left running: an orphan whose reaper, PID 1
	# here, has not waited for it yet)
	while left=$(ps -o pid=,stat=,args= -s "$sid" 2>/dev/null |
		awk '$2 !~ /^Z/ { $2 = ""; sub(/  /, " "); print }') &&
		[ -n "$left" ] && [ $n -lt 30 ]; do
		sleep 0.1	# a process signalled at the test's exit may be ending
		n=$((n + 1))
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
	# a test run as root can replace the machine's /dev/null (a rename
	# over it): the test is failed, and /dev/null made again so that the
	# tests after it mean something
	if [ ! -c /dev/null ]; then
		why="${why:+$why; }replaced /dev/null (now: $(stat -c %F /dev/null 2>&1))"
		rm -f /dev/null && mknod -m 666 /dev/null c 1 3
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

if [ "${1:-}" = --one ]; then
	run_test sh "$tmp/cmd.$i"
	printf '%s\n' "$rc" >"$tmp/rc.$i"
	printf '%s\n' "$secs" >"$tmp/secs.$i"
	printf '%s' "$left" >"$tmp/left.$i"
	: >"$tmp/done.$i"
	exit 0
fi

parts=${*:-unit golden cli}
jobs=${AIPERF_TEST_JOBS:-1}
log=${AIPERF_TEST_LOG:-build/tests/log}
mkdir -p build/tests "$(dirname "$log")"
: >"$log"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skip=0
: >"$tmp/skips"
: >"$tmp/names"

# add NAME FILE COMMAND...: queues a test; FILE (or -) may ask to run alone.
# Test I's command goes to $tmp/cmd.I, its name to line I of $tmp/names.
count=0
add() {
	count=$((count + 1))
	printf '%s\n' "$1" >>"$tmp/names"
	f=$2
	shift 2
	{
		printf 'exec'
		for a in "$@"; do
			printf " '%s'" "$(printf '%s' "$a" | sed "s/'/'\\\\''/g")"
		done
		echo
	} >"$tmp/cmd.$count"
	if [ "$f" != - ] && grep -q '^# run.sh: alone' "$f"; then
		echo "$count" >>"$tmp/alone"
	else
		echo "$count" >>"$tmp/many"
		if [ "$f" != - ] && grep -q '^# run.sh: long' "$f"; then
			echo "$count" >>"$tmp/long"
		fi
	fi
}

for part in $parts; do
	case $part in
	unit)
		for src in tests/unit/test-*.c; do
			[ -f "$src" ] || continue
			t=build/tests/$(basename "$src" .c)
			if [ -x "$t" ]; then
				add "unit/${t##*/}" - "$t"
			else
				# shellcheck disable=SC2016 # $1 is the inner shell's
				add "unit/${t##*/}" - sh -c 'echo "not ok 1 - $1 is missing (make units)"; echo 1..1' sh "$t"
			fi
		done ;;
	golden)
		add golden tests/golden.sh sh tests/golden.sh ;;
	lint)
		add lint - sh -c 'if make -s lint >build/lint.log 2>&1; then
			echo "ok 1 - make lint"; else cat build/lint.log;
			echo "not ok 1 - make lint (build/lint.log)"; fi; echo 1..1' ;;
	cli)
		for t in tests/cli/t[0-9]*.sh; do
			[ -f "$t" ] || continue
			add "cli/${t##*/}" "$t" sh "$t"
		done ;;
	*.sh)
		add "$part" "$part" sh "$part" ;;
	*)
		add "$part" "$part" "$part" ;;
	esac
done

# skipped NAME: whether AIPERF_TEST_SKIP names the test (its file name).
skipped() {
	for s in ${AIPERF_TEST_SKIP:-}; do
		[ "${1##*/}" = "$s" ] && return 0
	done
	return 1
}

# result I NAME: judges test I, running it first unless a worker has.
result() {
	i=$1
	if skipped "$2"; then
		out="1..0 # SKIP ${AIPERF_TEST_SKIP_WHY:-AIPERF_TEST_SKIP}" rc=0 left='' secs=0
	elif [ "$jobs" -gt 1 ] && [ -f "$tmp/queued.$i" ]; then
		while [ ! -f "$tmp/done.$i" ]; do sleep 0.2; done
		out=$(cat "$tmp/out.$i") rc=$(cat "$tmp/rc.$i")
		secs=$(cat "$tmp/secs.$i") left=$(cat "$tmp/left.$i")
	else
		run_test sh "$tmp/cmd.$i"
	fi
	judge "$2"
}

order=$(seq "$count")
if [ "$jobs" -gt 1 ] && [ -s "$tmp/many" ]; then
	order=$(cat "$tmp/many" "$tmp/alone" 2>/dev/null)
	: >>"$tmp/long"
	grep -vxF -f "$tmp/long" "$tmp/many" | cat "$tmp/long" - |
	while read -r i; do
		skipped "$(sed -n "${i}p" "$tmp/names")" && continue
		: >"$tmp/queued.$i"
		echo "$i"
	done >"$tmp/queue"
	xargs -r -n 1 -P "$jobs" sh tests/run.sh --one "$tmp" <"$tmp/queue" &
	workers=$!
fi
for i in $order; do
	result "$i" "$(sed -n "${i}p" "$tmp/names")"
done
[ -z "${workers:-}" ] || wait "$workers"
if [ -s "$tmp/skips" ]; then
	echo "skipped:"
	sed 's/^/    /' "$tmp/skips"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
