#!/bin/sh
# tests/run.sh itself: an early return, a plan not met, a missing unit binary,
# a hang, skips and a leftover process are each reported as they are.
# shellcheck disable=SC2016,SC2034 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

# The runner's settings of this run are not the scratch runs'.
unset AIPERF_TEST_JOBS AIPERF_TEST_SKIP AIPERF_TEST_SKIP_WHY AIPERF_TEST_TIMEOUT
# A scratch tree with the runner in it: tests/run.sh cds to its parent.
mkdir -p "$TMP/tree/tests/unit" "$TMP/tree/build/tests" "$TMP/tree/t"
cp "$TOP/tests/run.sh" "$TMP/tree/tests/"
R=$TMP/tree/tests/run.sh
T=$TMP/tree/t

# fixture NAME: an executable script in $T from stdin.
fixture() {
	{ echo '#!/bin/sh'; cat; } >"$T/$1" && chmod +x "$T/$1"
}
fixture pass <<'EOF'
echo "ok 1 - one"; echo "ok 2 - two"; echo "1..2"
EOF
fixture early <<'EOF'
echo "ok 1 - one"; echo "ok 2 - two"; exit 0; echo "ok 3"; echo "1..3"
EOF
fixture short <<'EOF'
echo "1..16"; echo "ok 1 - one"; echo "ok 2 - two"
EOF
fixture crash <<'EOF'
echo "ok 1 - one"; echo "1..1"; kill -SEGV $$
EOF
fixture skips <<'EOF'
echo "ok 1 - runs"; echo "ok 2 - needs a GPU # SKIP no GPU here"; echo "1..2"
EOF
fixture skipall <<'EOF'
echo "1..0 # SKIP no ../shared"
EOF
fixture hang <<'EOF'
echo "ok 1 - one"; sleep 3001; echo "1..1"
EOF
fixture leaves <<'EOF'
sleep 3001 &
echo "ok 1 - one"; echo "1..1"
EOF
# meet1 and meet2 pass only when they run at the same time; busy marks a
# test running, for alone, which asks to run by itself.
fixture meet1 <<EOF
touch "$T/met1"; i=0
while [ ! -f "$T/met2" ] && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done
touch "$T/busy.1"; sleep 1; rm -f "$T/busy.1"
[ -f "$T/met2" ] && echo "ok 1 - met" || echo "not ok 1 - alone"; echo 1..1
EOF
fixture meet2 <<EOF
touch "$T/met2"; i=0
while [ ! -f "$T/met1" ] && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done
touch "$T/busy.2"; sleep 1; rm -f "$T/busy.2"
[ -f "$T/met1" ] && echo "ok 1 - met" || echo "not ok 1 - alone"; echo 1..1
EOF
# (the markers are not at the start of a line here: this file would ask)
ALONE="# run.sh: alone" LONG="# run.sh: long"
fixture alone <<EOF
$ALONE
ls "$T"/busy.* 2>/dev/null && echo "not ok 1 - others ran" || echo "ok 1 - alone"
echo 1..1
EOF

test_expect_success 'a passing test counts its results' '
	sh "$R" "$T/pass" >out &&
	tail -1 out | grep -qx "2 passed, 0 failed, 0 skipped"
'

test_expect_success 'ending before the plan (early return, no plan) fails' '
	test_expect_code 1 sh "$R" "$T/early" >out &&
	grep -q "^FAIL .*/early" out && grep -q "no plan" out &&
	tail -1 out | grep -qx "2 passed, 1 failed, 0 skipped"
'

test_expect_success 'fewer results than the plan fails' '
	test_expect_code 1 sh "$R" "$T/short" >out &&
	grep -q "planned 16 tests, ran 2" out
'

test_expect_success 'a crash after all results fails' '
	test_expect_code 1 sh "$R" "$T/crash" >out &&
	grep -q "exited with status 139" out
'

test_expect_success 'skips are counted and listed with their reasons' '
	sh "$R" "$T/skips" "$T/skipall" >out &&
	tail -1 out | grep -qx "1 passed, 0 failed, 2 skipped" &&
	grep -q "skips #2: no GPU here" out &&
	grep -q "skipall: no ../shared" out
'

test_expect_success 'a unit source without its binary fails' '
	echo "int main(void) { return 0; }" >"$TMP/tree/tests/unit/test-gone.c" &&
	test_expect_code 1 sh "$R" unit >out &&
	grep -q "^FAIL unit/test-gone" out && grep -q "test-gone is missing" out
'

test_expect_success 'a hung test is stopped at the time limit and named' '
	AIPERF_TEST_TIMEOUT=1 test_expect_code 1 sh "$R" "$T/hang" >out &&
	grep -q "^FAIL .*/hang" out && grep -q "timed out after 1 s" out &&
	! pgrep -f "^sleep 3001$" >/dev/null
'

test_expect_success 'a process left behind fails the test and is killed' '
	test_expect_code 1 sh "$R" "$T/leaves" >out &&
	grep -q "left processes behind" out && grep -q "sleep 3001" out &&
	! pgrep -f "^sleep 3001$" >/dev/null
'

test_expect_success 'AIPERF_TEST_JOBS=2 runs two at once, judged in order' '
	rm -f "$T"/met? &&
	AIPERF_TEST_JOBS=2 sh "$R" "$T/alone" "$T/meet1" "$T/pass" "$T/meet2" >out &&
	tail -1 out | grep -qx "5 passed, 0 failed, 0 skipped" &&
	grep "^ok " out | sed "s/ (.*//; s|.*/||" | tr "\n" " " >names &&
	test "$(cat names)" = "meet1 pass meet2 alone "
'

# s1, s2, s3: each logs its name when it starts; s3 asks to start first,
# so s2, not s3, waits for a free slot
for n in s1 s2 s3; do
	fixture "$n" <<EOF
echo $n >>"$T/starts"; sleep 0.3; echo "ok 1 - $n"; echo 1..1
EOF
done
sed -i "1a $LONG" "$T/s3"

test_expect_success 'a long test starts first, still judged in its place' '
	rm -f "$T/starts" &&
	AIPERF_TEST_JOBS=2 sh "$R" "$T/s1" "$T/s2" "$T/s3" >out &&
	tail -1 out | grep -qx "3 passed, 0 failed, 0 skipped" &&
	test "$(tail -1 "$T/starts")" = s2 &&
	grep "^ok " out | sed "s/ (.*//; s|.*/||" | tr "\n" " " >names &&
	test "$(cat names)" = "s1 s2 s3 "
'

test_expect_success 'one at a time, two tests that must meet fail' '
	rm -f "$T"/met? &&
	test_expect_code 1 sh "$R" "$T/meet1" "$T/meet2" >out &&
	grep -q "^FAIL .*/meet1" out
'

test_expect_success 'parallel failures and hangs are still reported' '
	AIPERF_TEST_JOBS=2 AIPERF_TEST_TIMEOUT=2 test_expect_code 1 \
		sh "$R" "$T/hang" "$T/early" "$T/pass" >out &&
	grep -q "timed out after 2 s" out && grep -q "no plan" out &&
	tail -1 out | grep -qx "5 passed, 2 failed, 0 skipped" &&
	! pgrep -f "^sleep 3001$" >/dev/null
'

test_expect_success 'AIPERF_TEST_SKIP reports the named tests skipped, with why' '
	AIPERF_TEST_SKIP="pass other" AIPERF_TEST_SKIP_WHY="runs elsewhere" \
		sh "$R" "$T/pass" "$T/skips" >out &&
	tail -1 out | grep -qx "1 passed, 0 failed, 2 skipped" &&
	grep -q "pass: runs elsewhere" out
'

test_done
