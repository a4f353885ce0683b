#!/bin/sh
# aiperf-metrics --follow FILE: a file read as it grows, until stdin ends.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
G=$TOP/tests/golden/aiperf-metrics
cat "$G"/*/in.ndjson | grep '^{"metadata":{"session' >"$TMP/recs"
M="aiperf-metrics --tokenizer test:words"

# slow_write SRC DST N: appends SRC to DST N bytes at a time, a pause
# between writes, so that lines are cut across writes.
slow_write() {
	_sw_size=$(wc -c <"$1") _sw_off=0
	while [ "$_sw_off" -lt "$_sw_size" ]; do
		tail -c +$((_sw_off + 1)) "$1" | head -c "$3" >>"$2"
		_sw_off=$((_sw_off + $3))
		sleep 0.02
	done
}

# wait_lines FILE N: waits (10 s at most) for FILE to hold N lines.
wait_lines() {
	_wl_i=0
	while [ "$(wc -l <"$1" 2>/dev/null || echo 0)" -lt "$2" ]; do
		_wl_i=$((_wl_i + 1))
		[ $_wl_i -lt 1000 ] || return 1
		sleep 0.01
	done
}

test_expect_success 'a file written slowly, lines cut across writes: the output of the whole file' '
	$M <recs >expect &&
	: >f &&
	slow_write recs f 1499 | $M --follow f --tee copy >out &&
	test_cmp expect out && cmp recs copy
'

test_expect_success 'the same without splice (AIPERF_NO_FASTPATH=1: read and write)' '
	: >f2 &&
	slow_write recs f2 1499 | AIPERF_NO_FASTPATH=1 $M --follow f2 --tee copy2 >out2 &&
	test_cmp expect out2 && cmp recs copy2
'

# A writer's stdout ends when the file is whole: its last command must not
# be one the shell may exec with stdout sent elsewhere (hence "; true").
test_expect_success 'records come out while the file grows (--unbuffered)' '
	$M <recs >expect &&
	head -n 5 recs >part && tail -n +6 recs >rest &&
	{ cat part >live && wait_lines live.out 5 && echo yes >state; cat rest >>live; true; } |
		$M --unbuffered --follow live >live.out &&
	test_cmp expect live.out && test "$(cat state)" = yes
'

# Records are written in 64 KiB blocks, and whenever the reader has caught
# up with the file: one record (less than even stdio's 4 KiB) comes out
# before the writer goes on.
test_expect_success 'records come out when the file stops growing (no --unbuffered)' '
	$M <recs >expect &&
	head -n 1 recs >part && tail -n +2 recs >rest &&
	test "$(head -n 1 expect | wc -c)" -lt 4096 &&
	{ cat part >idle && wait_lines idle.out 1 && echo yes >state2; cat rest >>idle; true; } |
		$M --follow idle >idle.out &&
	test_cmp expect idle.out && test "$(cat state2)" = yes
'

test_expect_success '--threads: the same bytes' '
	$M <recs >expect &&
	: >threads &&
	slow_write recs threads 2999 | $M --threads 3 --follow threads >out &&
	test_cmp expect out
'

test_expect_success 'a file that appears late is waited for' '
	$M <recs >expect &&
	{ sleep 0.3; slow_write recs late 7001; } | $M --follow late >out &&
	test_cmp expect out
'

test_expect_success 'stdin at its end at once: the file as it is' '
	$M <recs >expect &&
	$M --follow recs </dev/null >out &&
	test_cmp expect out
'

test_expect_success 'a writer that dies: a last line without newline is a line' '
	head -c -1 recs >nonl && $M <nonl >expect &&
	: >dies && slow_write nonl dies 3001 | $M --follow dies >out &&
	test_cmp expect out && $M recs | test_cmp - out
'

test_expect_success 'a cut last line is malformed, as for the ordinary reader' '
	head -c -100 recs >cut &&
	test_expect_code 1 $M cut >expect 2>experr &&
	cp cut cut.src &&
	: >cut && slow_write cut.src cut 5003 | test_expect_code 1 $M --follow cut >out 2>err &&
	test_cmp expect out && test_cmp experr err &&
	grep -q "^aiperf-metrics: cut:$(wc -l <recs): " err
'

test_expect_success 'a malformed line names the file and its line' '
	{ head -n 3 recs; echo "[1]"; tail -n +4 recs; } >bad.src &&
	test_expect_code 1 $M bad.src 2>experr &&
	: >bad && slow_write bad.src bad 4001 | test_expect_code 1 $M --follow bad >out 2>err &&
	test $(wc -l <out) -eq 3 && grep -q "^aiperf-metrics: bad:4: not a JSON object" err &&
	sed s/bad.src/bad/ experr | test_cmp - err
'

test_expect_success '--keep-going: the same output and count as the ordinary reader' '
	$M --keep-going bad.src >expect 2>experr &&
	: >bad && slow_write bad.src bad 4001 | $M --keep-going --follow bad >out 2>err &&
	test_cmp expect out && sed s/bad.src/bad/ experr | test_cmp - err
'

test_expect_success 'a file that shrinks is an error' '
	head -n 5 recs >part &&
	{ cat part >shrinks && wait_lines shrinks.out 5 && head -c 10 part >shrinks && sleep 0.3; } |
		test_expect_code 1 $M --unbuffered --follow shrinks >shrinks.out 2>err &&
	grep -q "^aiperf-metrics: .shrinks. was truncated while following" err &&
	$M part >expect && test_cmp expect shrinks.out
'

test_expect_success 'a file that never appears: an error once stdin ends' '
	test_expect_code 1 $M --follow nope </dev/null >out 2>err &&
	grep -q "^aiperf-metrics: cannot open .nope.: No such file or directory" err &&
	{ sleep 0.2; } | test_expect_code 1 $M --follow nope 2>err &&
	grep -q "cannot open .nope." err && ! test -s out
'

test_expect_success 'an unreadable file or one that is not regular is an error' '
	mkdir d &&
	test_expect_code 1 $M --follow d </dev/null 2>err &&
	grep -q "^aiperf-metrics: cannot follow .d.: not a regular file" err &&
	mkfifo fifo &&
	test_expect_code 1 $M --follow fifo </dev/null 2>err &&
	grep -q "^aiperf-metrics: cannot follow .fifo.: not a regular file" err &&
	if [ "$(id -u)" -ne 0 ]; then
		cp recs locked && chmod 000 locked &&
		test_expect_code 1 $M --follow locked </dev/null 2>err &&
		grep -q "cannot open .locked.: Permission denied" err
	fi
'

test_expect_success 'a file replaced under its name is an error' '
	cp recs replaced &&
	{ wait_lines replaced.out 1 && rm replaced && cp recs replaced; } |
		test_expect_code 1 $M --unbuffered --follow replaced >replaced.out 2>err &&
	grep -q "^aiperf-metrics: .replaced. was replaced while following" err
'

test_expect_success 'records on stdin are an error; blank lines are not' '
	test_expect_code 1 $M --follow recs <recs >out 2>err &&
	grep -q "^aiperf-metrics: standard input carries data, but with --follow the records come from .recs." err &&
	printf "\n  \n" | $M --follow recs >out &&
	$M recs | test_cmp - out
'

test_expect_success 'zstd is read as it grows' '
	zstd -q -c recs >z.src && $M <recs >expect &&
	: >z && slow_write z.src z 2000 | $M --follow z >out &&
	test_cmp expect out
'

test_expect_success '--follow with file operands or stdin: usage, exit 2' '
	test_expect_code 2 $M --follow recs recs </dev/null 2>err &&
	grep -q "^aiperf-metrics: --follow reads its file alone" err &&
	test_expect_code 2 $M --follow - </dev/null 2>err &&
	test_expect_code 2 $M --follow "" </dev/null 2>err &&
	$M --help | grep -q -- "--follow file"
'

test_expect_success '--tee onto the followed file: usage, exit 2, the file intact' '
	cp recs same &&
	test_expect_code 2 $M --tee same --follow same </dev/null 2>err &&
	grep -q "^aiperf-metrics: --tee and --follow name the same file" err &&
	cmp recs same &&
	test_expect_code 2 $M --tee ./new --follow new </dev/null 2>err &&
	test_expect_code 2 $M --tee ./same --follow same </dev/null 2>err &&
	cmp recs same
'

# Several writers (aiperf profile --workers-max): whole lines of each, in
# the order they come; a line cut across writes is never cut by another's.
test_expect_success '--follow repeated: the lines of every file, none cut' '
	awk "NR % 2" recs >odd && awk "!(NR % 2)" recs >even &&
	$M <recs | sort >expect &&
	: >f1 && : >f2 &&
	{ slow_write odd f1 997 & slow_write even f2 1409; wait; } |
		$M --follow f1 --follow f2 --tee both >out &&
	sort out | test_cmp expect - &&
	sort both >both.s && sort recs | cmp - both.s
'

test_expect_success '--follow repeated: a last line without newline, files that appear late' '
	head -n 3 recs >a && tail -n +4 recs | head -n 4 | head -c -1 >b &&
	cat a b >ab && echo >>ab &&
	$M <ab | sort >expect &&
	{ sleep 0.2; cp a la; sleep 0.2; cp b lb; } |
		$M --follow la --follow lb >out &&
	sort out | test_cmp expect -
'

test_expect_success '--follow repeated: a file truncated is an error' '
	cp recs t1 && : >t2 &&
	{ sleep 0.3; : >t1; sleep 0.3; } | test_expect_code 1 $M --follow t2 --follow t1 >out 2>err &&
	grep "t1.*truncated" err
'

# Not a timing assertion: a busy loop would use the whole 2 s.
test_expect_success 'waiting at the end of the file costs (almost) no CPU' '
	test -r /proc/self/stat || skip_because "no /proc"
	{ sleep 3; } | $M --follow recs >out &
	pid=$! && sleep 2 &&
	ticks=$(sed "s/.*) //" /proc/$pid/stat | awk "{ print \$12 + \$13 }") &&
	hz=$(getconf CLK_TCK) &&
	wait &&
	$M recs | test_cmp - out &&
	echo "$ticks ticks at $hz Hz" &&
	test $((ticks * 10)) -lt $((hz * 2))
'

echo "1..$test_count"
test "$test_failed" -eq 0
